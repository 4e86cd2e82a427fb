// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * DAMOS through /sys/kernel/mm/damon/admin (Documentation/admin-guide/mm/
 * damon/usage.rst): a paddr context whose one region is a node's physical
 * range, a memcg filter (only the cgroup's pages pass) and a pageout scheme
 * that matches cold regions only (no access for at least 1 s) under a size
 * quota. The node's range comes from its memory blocks.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "damon_state.h"
#include "reclaim_damos.h"

#define ADMIN "kernel/mm/damon/admin/kdamonds"

static bool ours;	/* this process created kdamond 0 */
static bool damos_bounded;	/* the quota bounds a step (fail_charge_*) */
static char ours_sysfs[256] = "/sys";
static char adopted[160];	/* what the probe cleaned up, for the log */

static int wr(const char *sysfs, const char *rel, const char *val)
{
	char p[1024];
	int fd, e = 0;
	size_t n = strlen(val);

	snprintf(p, sizeof(p), "%s/%s/%s", sysfs, ADMIN, rel);
	fd = open(p, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, val, n) != (ssize_t)n)
		e = -errno;
	close(fd);
	return e;
}

static int rd(const char *sysfs, const char *rel, char *buf, size_t len)
{
	char p[1024];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s/%s", sysfs, ADMIN, rel);
	f = fopen(p, "re");
	if (!f)
		return -errno;
	/* whole file, lines joined by spaces (avail_operations has one a line) */
	{
		size_t n = fread(buf, 1, len - 1, f);

		buf[n] = 0;
		while (n && buf[n - 1] == '\n')
			buf[--n] = 0;
		for (char *c = buf; *c; c++)
			if (*c == '\n')
				*c = ' ';
	}
	fclose(f);
	return 0;
}

static bool exists(const char *sysfs, const char *rel)
{
	char p[1024];

	snprintf(p, sizeof(p), "%s/%s/%s", sysfs, ADMIN, rel);
	return access(p, F_OK) == 0;
}

const char *nl_damos_cleaned(void)
{
	return adopted[0] ? adopted : NULL;
}

/* kdamond 0 is the only one and a killed numalens agent made it: stop and
 * remove it. True when it was removed. */
static bool clean_orphan(const char *sysfs)
{
	char buf[32], who[64];

	if (rd(sysfs, "nr_kdamonds", buf, sizeof(buf)) || atoi(buf) != 1 ||
	    !nl_damon_state_orphan(NULL, 0, who, sizeof(who)))
		return false;
	wr(sysfs, "0/state", "off");
	if (wr(sysfs, "nr_kdamonds", "0"))
		return false;
	nl_damon_state_forget(NULL, 0);
	snprintf(adopted, sizeof(adopted), "removed DAMON kdamond 0 left by a numalens agent that is "
		 "gone (%s)", who);
	return true;
}

/* [start, end) physical bytes of node @nid's memory blocks. */
static int node_range(const char *sysfs, int nid, uint64_t *start, uint64_t *end)
{
	char p[256], buf[64];
	uint64_t bs = 0, lo = UINT64_MAX, hi = 0;
	struct dirent *d;
	FILE *f;
	DIR *dir;

	snprintf(p, sizeof(p), "%s/devices/system/memory/block_size_bytes", sysfs);
	f = fopen(p, "re");
	if (!f)
		return -errno;
	if (fgets(buf, sizeof(buf), f))
		bs = strtoull(buf, NULL, 16);
	fclose(f);
	snprintf(p, sizeof(p), "%s/devices/system/node/node%d", sysfs, nid);
	dir = opendir(p);
	if (!dir)
		return -errno;
	while ((d = readdir(dir))) {
		unsigned long long b;
		char c;

		if (sscanf(d->d_name, "memory%llu%c", &b, &c) != 1)
			continue;
		if (b * bs < lo)
			lo = b * bs;
		if ((b + 1) * bs > hi)
			hi = (b + 1) * bs;
	}
	closedir(dir);
	if (!bs || lo >= hi)
		return -ENOENT;
	*start = lo;
	*end = hi;
	return 0;
}

int nl_damos_probe(const char *sysfs, char *why, size_t len)
{
	char buf[256];

	if (!exists(sysfs, "nr_kdamonds")) {
		snprintf(why, len, "no DAMON sysfs (CONFIG_DAMON_SYSFS)");
		return -EOPNOTSUPP;
	}
	if (!ours && rd(sysfs, "nr_kdamonds", buf, sizeof(buf)) == 0 && atoi(buf) != 0)
		clean_orphan(sysfs);
	if (rd(sysfs, "nr_kdamonds", buf, sizeof(buf)) || (atoi(buf) != 0 && !ours)) {
		snprintf(why, len, "DAMON is in use by someone else (nr_kdamonds=%s): not taking it over", buf);
		return -EBUSY;
	}
	{
		/* DAMON_STAT (on by default in some distro kernels) runs its
		 * context exclusively: every other start gets -EBUSY. */
		char p[256];
		FILE *f;

		snprintf(p, sizeof(p), "%s/module/damon_stat/parameters/enabled", sysfs);
		f = fopen(p, "re");
		if (f) {
			int c = fgetc(f);

			fclose(f);
			if (c == 'Y') {
				snprintf(why, len, "DAMON_STAT holds DAMON exclusively: write N to %s to use damos", p);
				return -EBUSY;
			}
		}
	}
	if (!ours) {
		if (wr(sysfs, "nr_kdamonds", "1")) {
			snprintf(why, len, "cannot create a kdamond: %s", strerror(errno));
			return -EOPNOTSUPP;
		}
		ours = true;
		snprintf(ours_sysfs, sizeof(ours_sysfs), "%s", sysfs);
		/* recorded before it can run: a kill from here on leaves a
		 * kdamond the next agent recognises */
		nl_damon_state_record(NULL, 0);
		if (wr(sysfs, "0/contexts/nr_contexts", "1")) {
			snprintf(why, len, "cannot create a DAMON context: %s", strerror(errno));
			nl_damos_cleanup();
			return -EOPNOTSUPP;
		}
	}
	if (rd(sysfs, "0/contexts/0/avail_operations", buf, sizeof(buf)) == 0 &&
	    !strstr(buf, "paddr")) {
		snprintf(why, len, "no paddr operations set (CONFIG_DAMON_PADDR)");
		nl_damos_cleanup();
		return -EOPNOTSUPP;
	}
	if (wr(sysfs, "0/contexts/0/operations", "paddr") ||
	    wr(sysfs, "0/contexts/0/schemes/nr_schemes", "1")) {
		snprintf(why, len, "paddr context refused");
		nl_damos_cleanup();
		return -EOPNOTSUPP;
	}
	if (!exists(sysfs, "0/contexts/0/schemes/0/filters") &&
	    !exists(sysfs, "0/contexts/0/schemes/0/ops_filters")) {
		snprintf(why, len, "no DAMOS filters (memcg filter needs 6.3+)");
		nl_damos_cleanup();
		return -EOPNOTSUPP;
	}
	return 0;
}

/* The scheme's directory under the kdamond, and one attribute written in
 * it (@sub relative to it) unless an earlier write failed (*@e). */
#define SCHEME "0/contexts/0/schemes/0"
static void set(const char *sysfs, int *e, const char *sub, const char *val)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", SCHEME, sub);
	if (!*e)
		*e = wr(sysfs, p, val);
}

/* The one target region: the node's physical range [@start, @end).
 * Returns 0 or the first write's -errno. */
static int set_region(const char *sysfs, uint64_t start, uint64_t end)
{
	char v[64];
	int e;

	wr(sysfs, "0/contexts/0/targets/nr_targets", "1");
	wr(sysfs, "0/contexts/0/targets/0/regions/nr_regions", "1");
	/* end first if the new range lies above the old one */
	snprintf(v, sizeof(v), "%" PRIu64, end);
	wr(sysfs, "0/contexts/0/targets/0/regions/0/end", v);
	snprintf(v, sizeof(v), "%" PRIu64, start);
	e = wr(sysfs, "0/contexts/0/targets/0/regions/0/start", v);
	snprintf(v, sizeof(v), "%" PRIu64, end);
	return e ? e : wr(sysfs, "0/contexts/0/targets/0/regions/0/end", v);
}

/* The scheme: pageout of cold regions, and its quota for a step of
 * @bytes over a node of @span bytes. */
static void set_scheme(const char *sysfs, int *e, uint64_t bytes, uint64_t span)
{
	char v[64];

	set(sysfs, e, "action", "pageout");
	set(sysfs, e, "access_pattern/sz/min", "0");
	set(sysfs, e, "access_pattern/sz/max", "18446744073709551615");
	/* cold regions only, as DAMON_RECLAIM does: no access seen in any
	 * sample of an aggregation interval, for at least 5 intervals (1 s
	 * at the 200 ms below; the context starts afresh every step, so a
	 * step pages out nothing in its first second) */
	set(sysfs, e, "access_pattern/nr_accesses/min", "0");
	set(sysfs, e, "access_pattern/nr_accesses/max", "0");
	set(sysfs, e, "access_pattern/age/min", "5");
	set(sysfs, e, "access_pattern/age/max", "4294967295");
	/* The size quota is charged with the bytes DAMOS *tries*, before the
	 * memcg filter: a step-sized quota would be spent on other cgroups'
	 * pages at the start of the node. Kernels with quotas/fail_charge_num
	 * and _denom (7.x: the charge ratio of memory the action failed on,
	 * which includes what the memcg ops filter rejected) charge 0/1 of
	 * that, so the quota counts only pages actually paged out and bounds
	 * the step to --step pages. Without them the quota spans the node and
	 * the step is bounded only by stopping once sz_applied reaches it
	 * (polled): one aggregation interval can page out much more. */
	damos_bounded = exists(sysfs, SCHEME "/quotas/fail_charge_num") &&
			exists(sysfs, SCHEME "/quotas/fail_charge_denom");
	if (damos_bounded) {
		set(sysfs, e, "quotas/fail_charge_denom", "1");
		set(sysfs, e, "quotas/fail_charge_num", "0");
	}
	snprintf(v, sizeof(v), "%" PRIu64, damos_bounded ? bytes : span);
	set(sysfs, e, "quotas/bytes", v);
	set(sysfs, e, "../../monitoring_attrs/intervals/sample_us", "20000");
	set(sysfs, e, "../../monitoring_attrs/intervals/aggr_us", "200000");
	set(sysfs, e, "quotas/ms", "0");
	/* bounded: one charge window longer than a step (<= 3 s), else a
	 * window reset mid-step under a slow guest grants a second quota
	 * (seen: 6 MiB for a 4 MiB step) */
	set(sysfs, e, "quotas/reset_interval_ms", damos_bounded ? "60000" : "1000");
}

/* The memcg filter on @rel, in the filter directory @fdir ("filters" or
 * "ops_filters"). */
static void set_filter(const char *sysfs, int *e, const char *fdir, const char *rel)
{
	char q[160];
	bool has_allow;

	snprintf(q, sizeof(q), "%s/nr_filters", fdir);
	set(sysfs, e, q, "1");
	snprintf(q, sizeof(q), "%s/%s/0/allow", SCHEME, fdir);
	has_allow = exists(sysfs, q);
	snprintf(q, sizeof(q), "%s/0/type", fdir);
	set(sysfs, e, q, "memcg");
	snprintf(q, sizeof(q), "%s/0/memcg_path", fdir);
	set(sysfs, e, q, rel);
	/* allow-filters (6.14+): matching pages allowed, others not;
	 * before, a filter only excluded: exclude the non-matching. */
	snprintf(q, sizeof(q), "%s/0/matching", fdir);
	set(sysfs, e, q, has_allow ? "Y" : "N");
	if (has_allow) {
		snprintf(q, sizeof(q), "%s/0/allow", fdir);
		set(sysfs, e, q, "Y");
	}
}

/* Run the configured scheme until it paged out @bytes or for 3 s, polling
 * its sz_applied every 20 ms into *@applied. 0, or -EAGAIN when nothing
 * was paged out. */
static int run_scheme(const char *sysfs, uint64_t bytes, uint64_t *applied)
{
	struct timespec t0, now;
	char buf[64];

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		usleep(20 * 1000);
		wr(sysfs, "0/state", "update_schemes_stats");
		if (!rd(sysfs, SCHEME "/stats/sz_applied", buf, sizeof(buf)))
			*applied = strtoull(buf, NULL, 10);
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (*applied >= bytes || now.tv_sec - t0.tv_sec >= 3)
			break;
	}
	wr(sysfs, "0/state", "off");
	return *applied ? 0 : -EAGAIN;
}

int nl_damos_pageout(const char *sysfs, const char *rel, int nid, uint64_t bytes,
		     uint64_t *applied, char *err, size_t errlen)
{
	uint64_t start = 0, end = 0;
	const char *fdir;
	int e;

	*applied = 0;
	if (!ours && nl_damos_probe(sysfs, err, errlen))
		return -EOPNOTSUPP;
	e = node_range(sysfs, nid, &start, &end);
	if (e) {
		snprintf(err, errlen, "no memory blocks for node %d: %s", nid, strerror(-e));
		return -EINVAL;
	}
	fdir = exists(sysfs, SCHEME "/ops_filters") ? "ops_filters" : "filters";
	e = set_region(sysfs, start, end);
	set_scheme(sysfs, &e, bytes, end - start);
	set_filter(sysfs, &e, fdir, rel);
	if (e) {
		snprintf(err, errlen, "DAMOS configuration refused: %s", strerror(-e));
		return -EINVAL;
	}
	e = wr(sysfs, "0/state", "on");
	if (e) {
		snprintf(err, errlen, "DAMOS refused to start (memcg_path %s): %s", rel, strerror(-e));
		return e == -ENOENT ? -ENOENT : -EINVAL;
	}
	return run_scheme(sysfs, bytes, applied);
}

bool nl_damos_step_bounded(void)
{
	return damos_bounded;
}

void nl_damos_cleanup(void)
{
	if (!ours)
		return;
	wr(ours_sysfs, "0/state", "off");
	wr(ours_sysfs, "nr_kdamonds", "0");
	nl_damon_state_forget(NULL, 0);
	ours = false;
}
