// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Records of the kdamonds numalens agents created (damon_state.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "agent_files.h"
#include "damon_state.h"
#include "procfs.h"

static void path_of(const char *dir, int idx, char *p, size_t len)
{
	snprintf(p, len, "%s/damon-%d.state", dir ? dir : NL_DAMON_STATE_DIR, idx);
}

/* Start time of @pid in clock ticks after boot (field 22 of its stat);
 * 0 when it does not run. */
static uint64_t start_of(int pid)
{
	uint64_t v;

	return nl_proc_start_ticks("/proc", pid, &v) ? 0 : v;
}

int nl_damon_state_record(const char *dir, int idx)
{
	const char *d = dir ? dir : NL_DAMON_STATE_DIR;
	char p[512], tmp[528], boot[64];
	FILE *f;
	int e;

	/* its parents too: /run itself is missing in a minimal initramfs */
	e = nl_agent_files_mkdir(d);
	if (e)
		return e;
	path_of(dir, idx, p, sizeof(p));
	snprintf(tmp, sizeof(tmp), "%s.tmp", p);
	nl_proc_boot_id("/proc", boot, sizeof(boot));
	f = fopen(tmp, "we");
	if (!f)
		return -errno;
	fprintf(f, "kdamond=%d pid=%d start=%" PRIu64 " boot=%s\n", idx, (int)getpid(),
		start_of((int)getpid()), boot);
	if (fclose(f) || rename(tmp, p)) {
		e = -errno;
		unlink(tmp);
		return e;
	}
	return 0;
}

void nl_damon_state_forget(const char *dir, int idx)
{
	char p[512];

	path_of(dir, idx, p, sizeof(p));
	unlink(p);
}

bool nl_damon_state_orphan(const char *dir, int idx, char *who, size_t len)
{
	char p[512], boot[64], rboot[64] = "";
	uint64_t start;
	int k, pid;
	FILE *f;

	path_of(dir, idx, p, sizeof(p));
	f = fopen(p, "re");
	if (!f)
		return false;
	k = fscanf(f, "kdamond=%*d pid=%d start=%" SCNu64 " boot=%63s", &pid, &start, rboot);
	fclose(f);
	if (k < 2)
		return false;	/* not a record we can read: leave it alone */
	snprintf(who, len, "pid %d", pid);
	nl_proc_boot_id("/proc", boot, sizeof(boot));
	if (k == 3 && strcmp(boot, rboot))
		return false;	/* a record from before a reboot: today's kdamond is not it */
	return pid != (int)getpid() && start_of(pid) != start;
}
