// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The cgroups the agent manages, and the start-up checks on them
 * (reclaim_match.h). */
#include <errno.h>
#include <glob.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cgroup.h"
#include "loader.h"
#include "names.h"
#include "reclaim_jsonl.h"
#include "reclaim_match.h"
#include "reclaim_read.h"

/* Is @pat a pattern? Only '*' and '?' make one: a path with brackets but
 * neither (a typo, or a name holding '[') is a plain path that must exist,
 * so it fails at once instead of waiting for a match that never comes;
 * within a pattern, "[...]" is a set as in glob(7). */
bool nl_match_is_pattern(const char *pat)
{
	return strpbrk(pat, "*?") != NULL;
}

/* Does any CGROUP argument hold a pattern? */
bool nl_match_has_pattern(const struct nl_match *a)
{
	for (int i = 0; i < a->npat; i++)
		if (nl_match_is_pattern(a->pat[i]))
			return true;
	return false;
}

/* Is the directory @full the root cgroup, as a target? Reclaiming there
 * would act on the whole host, every service and the agent itself: never a
 * target (--status, which only reads, may look at it). */
static bool is_root_cgroup(const struct nl_match *a, const char *full)
{
	uint64_t id;

	return !a->status && a->root_id && !nl_cgroup_id_of(full, &id) && id == a->root_id;
}

/* Manage the cgroup @rel (relative to the mount): 1 if it is managed, -1
 * if the table is full, 0 if it cannot be (gone, not a directory). */
static int take(struct nl_ra *ra, const char *rel, bool report)
{
	uint64_t before = ra->adds;
	int k = nl_agent_add(ra, *rel ? rel : "/");

	/* names as the agent's other lines show them (cleaned): whoever makes
	 * a cgroup the pattern matches chooses its bytes */
	if (k >= 0) {
		if (ra->adds != before && report && ra->cfg.log) {
			if (ra->cfg.json)
				nl_jsonl_emit(ra->cfg.log, "managing", ra->cfg.dry_run, ra->cg[k].label, NULL);
			else
				fprintf(ra->cfg.log, "managing cgroup %s\n", ra->cg[k].label);
		}
		return 1;
	}
	return k == -ENOSPC ? -1 : 0;
}

/* Add every directory matching the patterns; returns how many matched. */
int nl_match_all(struct nl_ra *ra, struct nl_match *a, const char *root, bool report)
{
	/* how many the last report found no room for: said when it changes,
	 * not every interval (a pattern over 1000 cgroups made a line per
	 * cgroup and interval) */
	static int told_full;
	int found = 0, full = 0;
	char first[1100] = "";

	for (int i = 0; i < a->npat; i++) {
		char full_path[4096];
		struct stat st;
		glob_t g;

		snprintf(full_path, sizeof(full_path), "%s%s", root, a->pat[i]);
		/* a cgroup of that very name is meant as written: glob(3) reads
		 * the backslash of systemd's "\x2d" escapes as quoting and
		 * brackets as a set, so it would never find those names */
		if (!stat(full_path, &st) && S_ISDIR(st.st_mode)) {
			int t;

			if (is_root_cgroup(a, full_path)) {
				a->root_pat = a->pat[i];
				continue;
			}
			t = take(ra, a->pat[i], report);

			found += t > 0;
			if (t < 0 && !full++)
				nl_name_clean(first, sizeof(first), a->pat[i], strlen(a->pat[i]), 0, NULL);
			continue;
		}
		if (!nl_match_is_pattern(a->pat[i]) || glob(full_path, GLOB_ONLYDIR | GLOB_NOSORT, NULL, &g))
			continue;
		for (size_t j = 0; j < g.gl_pathc; j++) {
			const char *rel = g.gl_pathv[j] + strlen(root);
			int t;

			if (is_root_cgroup(a, g.gl_pathv[j])) {
				a->root_pat = a->pat[i];
				continue;
			}
			t = take(ra, rel, report);

			found += t > 0;
			if (t < 0 && !full++)
				nl_name_clean(first, sizeof(first), rel, strlen(rel), 0, NULL);
		}
		globfree(&g);
	}
	if (report && full != told_full) {
		if (full)
			fprintf(stderr, "numalens reclaim: more than %d cgroups match: %d ignored (%s%s)\n",
				NL_RA_MAX_CG, full, first, full > 1 ? " and others" : "");
		else
			fprintf(stderr, "numalens reclaim: every matching cgroup is managed again\n");
		told_full = full;
	}
	return found;
}

/* Bytes against percent can be checked only once the limits are known:
 * --high 16M with the default --low 70% of a 64M limit never acts. Returns
 * 0, or NL_EXIT_USAGE after saying which cgroup on stderr. */
int nl_match_check_watermarks(const struct nl_ra *ra, const char *prog)
{
	int unlimited = 0, first = -1;

	for (int i = 0; i < ra->nr_cg; i++) {
		struct nl_wm w;
		uint64_t limit = NL_RCG_NO_LIMIT;
		int e;

		nl_rcg_limit(ra->cg[i].dir, ra->cfg.v1, &limit);
		e = nl_wm_resolve(&ra->cfg.high, &ra->cfg.low, limit, &w);
		if (e == -EINVAL && !unlimited++)
			first = i;
		if (e == -ERANGE) {
			fprintf(stderr, "%s: cgroup %s: --low (%" PRIu64 " KiB here) is not below --high (%" PRIu64
				" KiB) for its memory limit; --low defaults to 70%%: give it in the units of --high\n",
				prog, ra->cg[i].label, w.low / 1024, w.high / 1024);
			return NL_EXIT_USAGE;
		}
	}
	/* a percent of no limit is no watermark: with every cgroup so, the
	 * agent would run its whole time doing nothing */
	if (unlimited && unlimited == ra->nr_cg) {
		fprintf(stderr, "%s: cgroup %s%s has no memory limit, so a percent watermark (75%%/70%% by "
			"default) never triggers: give --high and --low in bytes (e.g. --high 512M --low 448M) "
			"or set its %s\n", prog, ra->cg[first].label,
			unlimited > 1 ? " (and every other matched)" : "",
			ra->cfg.v1 ? "memory.limit_in_bytes" : "memory.max");
		return NL_EXIT_USAGE;
	}
	if (unlimited)
		fprintf(stderr, "%s: %d matched cgroup%s (%s%s) ha%s no memory limit: percent watermarks "
			"do nothing there until %s one\n", prog, unlimited, unlimited > 1 ? "s" : "",
			ra->cg[first].label, unlimited > 1 ? " and others" : "", unlimited > 1 ? "ve" : "s",
			unlimited > 1 ? "they get" : "it gets");
	return 0;
}

/* Another agent that manages one of @ra's cgroups: a second agent on a
 * cgroup would fight the first (two watermark loops, two lotteries, each
 * reclaiming what the other sees as its own progress). Returns 0, or
 * NL_EXIT_USAGE after naming the other agent's pid on stderr. */
int nl_match_check_owners(const struct nl_ra *ra, int cg_mode, const char *prog)
{
	for (int i = 0; i < ra->nr_cg; i++) {
		int pid = nl_ra_owner(NULL, cg_mode, ra->cg[i].id, getpid());

		if (pid > 0) {
			fprintf(stderr, "%s: cgroup %s is already managed by the reclaim agent with pid %d: "
				"stop that one first (--status %s shows what it does)\n",
				prog, ra->cg[i].label, pid, ra->cg[i].label);
			return NL_EXIT_USAGE;
		}
	}
	return 0;
}
