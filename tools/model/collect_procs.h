/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * collect_procs: the process rows of a collector's snapshot (collect.c
 * builds the rest). Who each process is (name, cgroup: from procfs, from
 * the cgroup.procs of the last cgroup tree, or as BPF recorded it at
 * exit), the idle processes BPF saw nothing of (all_procs, watch_pid),
 * their RSS per node from numa_maps, reused while it cannot have moved,
 * and the eviction of exited processes from the BPF maps.
 */
#ifndef NL_COLLECT_PROCS_H
#define NL_COLLECT_PROCS_H

#include <stdint.h>

struct nl_collector;
struct nl_snapshot;

/*
 * nl_collect_fill_procs - s->procs and s->nr_procs from this interval's
 * per-process counters (c->tgids against c->prev_tgids), in CPU order
 * (busiest first), over @interval ns (> 0). Also s->other_pidns, the
 * figures of the processes outside our pid namespace. Processes that
 * exited are forgotten in the BPF maps (c->procs_evicted counts them);
 * c->rss_reads and c->rss_reused count this snapshot's numa_maps reads
 * and reuses. Returns 0, or -ENOMEM (s->procs may then be set: the
 * caller frees the snapshot).
 */
int nl_collect_fill_procs(struct nl_collector *c, struct nl_snapshot *s, uint64_t interval);

#endif
