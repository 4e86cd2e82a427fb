/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * collect_rss: the RSS per node and memory policy of a snapshot's
 * processes, from /proc/<pid>/numa_maps. A read walks every page table of
 * the process (15-25 ms for a guest's 1 GiB), so only the busiest and, on
 * request, the largest processes are read, and a reading is reused while
 * little can have moved since. A part of the process rows
 * (collect_procs.c), owning the readings it keeps (struct nl_collect_rss).
 */
#ifndef NL_COLLECT_RSS_H
#define NL_COLLECT_RSS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "snapshot.h"
#include "topology.h"

/* A process and its resident pages. */
struct nl_pid_pages {
	pid_t pid;
	uint64_t pages;
};

/* The readings kept between snapshots (opaque). */
struct nl_collect_rss;

/* What nl_collect_rss_read() reads, borrowed for the call. */
struct nl_collect_rss_in {
	const char *procfs_root;
	int max_procs;			/* reads for the busiest (and as many for the
					 * largest); < 0: none by rank */
	bool by_size;			/* also the largest by resident size */
	const struct nl_topo *topo;	/* which nodes have memory */
	/* read whatever their rank: the watched pid, the focused pid (0:
	 * none) and names containing focus_comm ("": none) */
	int watch_pid, focus_pid;
	const char *focus_comm;
	/* resident pages already known this snapshot, sorted by pid (idle
	 * processes' <pid>/stat sizes), for the ranking by size */
	const struct nl_pid_pages *known;
	int nr_known;
	uint64_t now_ns;		/* CLOCK_MONOTONIC: the age of readings */
};

/* nl_collect_rss_new - an empty set of readings; NULL on -ENOMEM. */
struct nl_collect_rss *nl_collect_rss_new(void);

/*
 * nl_collect_rss_read - p->rss_known, p->rss_pages_by_node and
 * p->mempolicy of the live processes of @s (in CPU order, busiest first)
 * that @in picks, read or reused; readings no process used are dropped.
 */
void nl_collect_rss_read(struct nl_collect_rss *c, const struct nl_collect_rss_in *in, struct nl_snapshot *s);

/* nl_collect_rss_skip - a snapshot without reads (the baseline): its
 * counts are zero; the readings stay for the next read. */
void nl_collect_rss_skip(struct nl_collect_rss *c);

/* nl_collect_rss_counts - numa_maps reads and reuses of the last snapshot. */
void nl_collect_rss_counts(const struct nl_collect_rss *c, uint64_t *reads, uint64_t *reused);

/* nl_collect_rss_free - free the readings. Safe on NULL. */
void nl_collect_rss_free(struct nl_collect_rss *c);

#endif
