/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * collect: one struct nl_snapshot per interval from the BPF side's raw
 * counts (raw_counts.h) and what the kernel already keeps (sysfs numastat
 * and meminfo, /proc/stat, numa_maps, memory.numa_stat, and the state
 * running `numalens reclaim` agents publish, reclaim_read.h). It makes the
 * deltas, folds the cgroup hierarchy and evicts exited processes and
 * removed cgroups from the BPF maps, so every view reads the same figures.
 */
#ifndef NL_COLLECT_H
#define NL_COLLECT_H

#include <sys/types.h>
#include "collect_opts.h"
#include "loader.h"
#include "snapshot.h"

struct nl_collector;

/* Create a collector over the loaded objects @b: reads the topology and
 * loads the pfn table into BPF. Returns 0 and sets *@out, or -errno (with
 * a message in @err). */
int nl_collect_open(struct nl_collector **out, struct nl_bpf *b, const struct nl_collect_opts *o,
		    char *err, size_t errlen);

/* Build the snapshot of the interval since the previous call (or since
 * open) into @s (freed and refilled). Returns 0 or -errno. */
int nl_collect_snapshot(struct nl_collector *c, struct nl_snapshot *s);

/*
 * What a view looks at now: the process @pid (0: none) and the processes
 * whose cleaned name contains @comm (NULL or "": none). From the next
 * snapshot on their RSS per node (numa_maps) is read whatever their rank
 * among the busiest and largest, so a detail window or a name filter
 * never shows "-" for a process that is simply idle and small.
 */
void nl_collect_focus(struct nl_collector *c, int pid, const char *comm);

/* Free the collector (not the BPF objects). Safe on NULL. */
void nl_collect_close(struct nl_collector *c);

#endif
