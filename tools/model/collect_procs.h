/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * collect_procs: the process rows of a collector's snapshot (collect.c
 * orders the steps). Who each process is (name, cgroup: from procfs, from
 * the cgroup.procs of the last cgroup tree, or as BPF recorded it at
 * exit), the idle processes BPF saw nothing of (all_procs, watch_pid),
 * their RSS per node from numa_maps, reused while it cannot have moved,
 * and the eviction of exited processes from the BPF maps. It owns what it
 * keeps between snapshots (struct nl_collect_procs) and reads the BPF
 * side only through the raw counts (raw_counts.h), so unit tests drive it
 * from fixtures.
 */
#ifndef NL_COLLECT_PROCS_H
#define NL_COLLECT_PROCS_H

#include <stdbool.h>
#include <stdint.h>
#include "cgroup.h"
#include "collect_opts.h"
#include "raw_counts.h"
#include "snapshot.h"
#include "topology.h"

/* The process part's state between snapshots (opaque). */
struct nl_collect_procs;

/* This interval's inputs of nl_collect_procs_fill(), borrowed for the call. */
struct nl_collect_procs_in {
	/* this interval's counts; ->tgids is taken as the previous reading
	 * for the next interval (swapped with the part's own table, which
	 * the next read clears) */
	struct nl_raw_counts *raw;
	const struct nl_raw_counts_ops *ops;	/* NULL: nothing re-read or forgotten */
	const struct nl_topo *topo;		/* which nodes have memory */
	const struct nl_cgroup_map *cgmap;	/* the last cgroup tree; NULL or empty:
						 * no cgroup ids, no cgroup.procs scan */
	bool baseline;				/* the throwaway first snapshot: BPF counts
						 * and names only (no idle processes,
						 * numa_maps or cgroup.procs scan) */
	/* what a view looks at now: the process @focus_pid (0: none) and those
	 * whose cleaned name contains @focus_comm (NULL or "": none) have
	 * their numa_maps read whatever their rank */
	int focus_pid;
	const char *focus_comm;
	uint64_t now_ns;			/* CLOCK_MONOTONIC ns: the age of what the
						 * part keeps (idle names, numa_maps) */
};

/* What the part did in the last snapshot (the snapshot's self figures). */
struct nl_collect_procs_stats {
	uint64_t evicted;	/* exited processes forgotten in the BPF maps, since open */
	uint64_t rss_reads;	/* numa_maps reads in the last snapshot */
	uint64_t rss_reused;	/* numa_maps readings reused in it */
};

/*
 * nl_collect_procs_new - the process part for a collector opened with @o
 * (copied; its strings must outlive the part; rss_max_procs 0 is taken
 * as given, the collector sets its default). Learns where our cgroup and
 * pid namespaces sit in the mounted hierarchy and procfs. NULL on -ENOMEM.
 */
struct nl_collect_procs *nl_collect_procs_new(const struct nl_collect_opts *o);

/*
 * nl_collect_procs_fill - s->procs and s->nr_procs from @in's per-process
 * counters against the previous interval's, in CPU order (busiest first),
 * over s->interval_ns (> 0) with s->src.numa_balancing. Also
 * s->other_pidns, the figures of the processes outside our pid namespace.
 * Processes that exited are forgotten through @in->ops. Returns 0, or
 * -ENOMEM (s->procs may then be set: the caller frees the snapshot).
 */
int nl_collect_procs_fill(struct nl_collect_procs *c, const struct nl_collect_procs_in *in,
			  struct nl_snapshot *s);

/* nl_collect_procs_stats - the part's counts for the snapshot's self figures. */
void nl_collect_procs_stats(const struct nl_collect_procs *c, struct nl_collect_procs_stats *out);

/* nl_collect_procs_free - free the part. Safe on NULL. */
void nl_collect_procs_free(struct nl_collect_procs *c);

#endif
