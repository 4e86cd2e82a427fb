/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Which cgroups the agent manages: the CGROUP arguments (paths or glob
 * patterns under the cgroup mount), matched at start and again every
 * interval, since a pattern may name cgroups made later; the root cgroup
 * is never a target. And the start-up checks on what matched: watermarks
 * that can act, and no cgroup another running agent manages.
 */
#ifndef NL_RECLAIM_MATCH_H
#define NL_RECLAIM_MATCH_H

#include <stdbool.h>
#include <stdint.h>
#include "reclaim_agent.h"

/* The most CGROUP arguments one agent takes. */
#define NL_MATCH_MAX 32

/* The CGROUP arguments and what matching them found. */
struct nl_match {
	const char *pat[NL_MATCH_MAX];
	int npat;
	bool status;		/* --status: only reads, so the root may be looked at */
	uint64_t root_id;	/* the root cgroup's id (0: unknown) */
	const char *root_pat;	/* the argument that named the root cgroup, if any */
};

/* Is @pat a pattern? Only '*' and '?' make one: a path with brackets but
 * neither (a typo, or a name holding '[') is a plain path that must exist,
 * so it fails at once instead of waiting for a match that never comes;
 * within a pattern, "[...]" is a set as in glob(7). */
bool nl_match_is_pattern(const char *pat);

/* Does any CGROUP argument of @m hold a pattern? */
bool nl_match_has_pattern(const struct nl_match *m);

/* Manage every directory under @root (the cgroup mount) that an argument
 * of @m names or matches (nl_agent_add); with @report, new ones are logged
 * and a full table is said on stderr when its count changes. Sets
 * m->root_pat when an argument names the root cgroup. Returns how many
 * matched. */
int nl_match_all(struct nl_ra *ra, struct nl_match *m, const char *root, bool report);

/* Bytes against percent can be checked only once the limits are known:
 * --high 16M with the default --low 70% of a 64M limit never acts. Returns
 * 0, or NL_EXIT_USAGE after saying which cgroup on stderr (@prog first). */
int nl_match_check_watermarks(const struct nl_ra *ra, const char *prog);

/* Another agent that manages one of @ra's cgroups (@cg_mode: enum
 * nl_cgroup_mode): a second agent on a cgroup would fight the first (two
 * watermark loops, two lotteries, each reclaiming what the other sees as
 * its own progress). Returns 0, or NL_EXIT_USAGE after naming the other
 * agent's pid on stderr. */
int nl_match_check_owners(const struct nl_ra *ra, int cg_mode, const char *prog);

#endif
