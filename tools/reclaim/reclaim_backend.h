/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Node-targeted reclaim backends of the agent (spec/anchors.md §6.2-6.3:
 * there is no memcg x node reclaim interface upstream):
 *  - DAMOS: a paddr DAMON context whose region is the node's physical
 *    range, a memcg filter and a pageout scheme with a size quota;
 *  - madvise: process_madvise(MADV_PAGEOUT) on the ranges of the cgroup's
 *    tasks whose pages sit on the node (found with move_pages(2));
 *  - memcg: memory.reclaim, memcg-wide: the last resort, not node-targeted.
 * Each step asks for a number of bytes; what was really freed, and from
 * which node, the caller measures from memory.numa_stat.
 */
#ifndef NL_RECLAIM_BACKEND_H
#define NL_RECLAIM_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum nl_rb_kind {
	NL_RB_DAMOS = 0,
	NL_RB_MADVISE = 1,
	NL_RB_MEMCG = 2,
	NL_RB_NR = 3,
};

/* Result of probing every backend at start. */
struct nl_rb_probe {
	bool ok[NL_RB_NR];
	char why[NL_RB_NR][160];	/* why not, when !ok */
};

/* One step's target. */
struct nl_rb_target {
	const char *dir;	/* absolute cgroup directory */
	const char *rel;	/* path under the cgroup root ("/a/b"), for DAMOS */
	bool v1;		/* v1 memory controller */
	int nid;		/* node to reclaim from (ignored by memcg) */
	bool anon_ok;		/* swap can take anon pages (else madvise skips anon VMAs) */
};

/* Name of a backend ("damos", "madvise", "memcg"). */
const char *nl_rb_name(enum nl_rb_kind k);

/* Probe all backends for cgroups of this hierarchy (@v1) on @sysfs ("/sys").
 * Never fails; p->ok says what can be used. */
void nl_rb_probe_all(struct nl_rb_probe *p, bool v1, const char *sysfs);

/*
 * Ask backend @k to reclaim up to @bytes of @t's memory (from node t->nid
 * where the backend can target). *@asked gets the bytes the backend acted
 * on (madvise: pages advised; others: @bytes). Returns 0, -ENOENT (the
 * cgroup is gone), -ESRCH (no live task to act on: madvise), -EAGAIN (the
 * kernel did less than asked; not an error), -EOPNOTSUPP / -EPERM /
 * -EINVAL (the kernel refused the backend), or another -errno. @err gets
 * one line on failure.
 */
int nl_rb_reclaim(enum nl_rb_kind k, const struct nl_rb_target *t, uint64_t bytes,
		  uint64_t *asked, char *err, size_t errlen);

/* Release what a backend keeps between steps (the DAMON kdamond). */
void nl_rb_cleanup(void);

#endif
