// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Task and cgroup counts of the host; see census.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "census.h"
#include "file.h"

/* nr_descendants + nr_dying_descendants + 1 (the root itself) of the v2
 * root's cgroup.stat at @path, or 0. */
static unsigned v2_cgroups(const char *path)
{
	char buf[512];
	const char *p;
	unsigned long n = 0;

	if (nl_file_read(path, buf, sizeof(buf)) <= 0)
		return 0;
	p = strstr(buf, "nr_descendants ");
	if (!p)
		return 0;
	n = strtoul(p + strlen("nr_descendants "), NULL, 10) + 1;
	p = strstr(buf, "nr_dying_descendants ");
	if (p)
		n += strtoul(p + strlen("nr_dying_descendants "), NULL, 10);
	return n > 0xffffffu ? 0xffffffu : (unsigned)n;
}

/* The largest num_cgroups column of /proc/cgroups (v1 hierarchies and the
 * controllers on v2), or 0. */
static unsigned v1_cgroups(const char *path)
{
	char buf[4096], *line, *save = NULL;
	unsigned best = 0;

	if (nl_file_read(path, buf, sizeof(buf)) <= 0)
		return 0;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[64];
		unsigned hier, num;

		if (line[0] != '#' && sscanf(line, "%63s %u %u", name, &hier, &num) == 3 && num > best)
			best = num;
	}
	return best;
}

int nl_census_read(const char *proc_root, const char *sys_root, struct nl_census *c)
{
	char path[4096], buf[256];
	unsigned running, threads, n;
	ssize_t len;

	c->tasks = c->cgroups = 0;
	snprintf(path, sizeof(path), "%s/loadavg", proc_root);
	len = nl_file_read(path, buf, sizeof(buf));
	if (len < 0)
		return (int)len;
	/* "0.10 0.20 0.30 RUNNING/THREADS LASTPID" */
	if (sscanf(buf, "%*s %*s %*s %u/%u", &running, &threads) != 2)
		return -EINVAL;
	c->tasks = threads;
	snprintf(path, sizeof(path), "%s/cgroups", proc_root);
	c->cgroups = v1_cgroups(path);
	snprintf(path, sizeof(path), "%s/fs/cgroup/cgroup.stat", sys_root);
	n = v2_cgroups(path);
	if (n > c->cgroups)
		c->cgroups = n;
	snprintf(path, sizeof(path), "%s/fs/cgroup/unified/cgroup.stat", sys_root);
	n = v2_cgroups(path);
	if (n > c->cgroups)
		c->cgroups = n;
	/* no file gave a count (a restricted /proc, no cgroup mount): the
	 * host's size is unknown, not small */
	return c->cgroups ? 0 : -ENOENT;
}
