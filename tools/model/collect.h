/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * collect: one struct nl_snapshot per interval from the BPF maps (maps.c)
 * and what the kernel already keeps (sysfs numastat and meminfo,
 * /proc/stat, numa_maps, memory.numa_stat, and the state running
 * `numalens reclaim` agents publish, reclaim_read.h). It makes the deltas, folds the
 * cgroup hierarchy and evicts exited processes and removed cgroups from
 * the BPF maps, so every view reads the same figures.
 */
#ifndef NL_COLLECT_H
#define NL_COLLECT_H

#include <sys/types.h>
#include "loader.h"
#include "snapshot.h"

struct nl_collector;

struct nl_collect_opts {
	const char *sysfs_root;		/* "/sys" */
	const char *procfs_root;	/* "/proc" */
	int cgroup_mode;		/* enum nl_cgroup_mode, as given to the loader */
	const char *cgroup_root;	/* mount point of that hierarchy */
	int rss_max_procs;		/* numa_maps reads per interval for the busiest and,
					 * with all_procs, as many for the largest; 0 = 64;
					 * < 0 = none by rank, for a consumer that shows no
					 * per-process RSS (export) or a user who asks for
					 * none (the focused processes still get theirs):
					 * each read walks the process's page tables */
	int cgroup_grace;		/* intervals a removed cgroup stays visible; 0 = 1 */
	const char *reclaim_dir;	/* reclaim agents' state (reclaim_read.h);
					 * NULL = NL_RECLAIM_RUN_DIR */
	const char *cling_pin_dir;	/* scx_cling's pinned maps; NULL = CLING_PIN_DIR */
	int watch_pid;			/* > 0: this process is in every snapshot while it
					 * lives, with zero figures when BPF saw nothing
					 * of it (an idle process asked for with -p) */
	uint32_t alloc_latency_sample;	/* > 0: time one allocator call in this many
					 * (snapshot alloc_lat); 0: off */
	uint32_t alloc_stacks_sample;	/* > 0: attribute one remote or miss allocation
					 * in this many to its kernel stack (snapshot
					 * alloc_stacks); 0: off */
	uint32_t page_life_sample;	/* > 0: time one page in this many from its
					 * allocation to its free (snapshot
					 * page_life); 0: off */
	bool all_procs;			/* also every live process with resident memory
					 * that BPF saw nothing of (zero figures): idle
					 * processes' node placement */
};

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
void nl_collector_focus(struct nl_collector *c, int pid, const char *comm);

/* Free the collector (not the BPF objects). Safe on NULL. */
void nl_collect_close(struct nl_collector *c);

#endif
