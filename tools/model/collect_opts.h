/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * collect_opts: what a collector is opened with (nl_collect_open,
 * collect.h). A header of its own so the collector's parts
 * (collect_procs.c keeps a copy) need not include collect.h: collect.c
 * includes its parts' headers, so a part that included collect.h would
 * close a loop of modules (tests/unit/check_layers.sh).
 */
#ifndef NL_COLLECT_OPTS_H
#define NL_COLLECT_OPTS_H

#include <stdbool.h>
#include <stdint.h>

/* What nl_collect_open() is given. Copied: the strings must outlive the
 * collector. */
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
	uint32_t alloc_sample;		/* page allocations counted in full: 1 = every one,
					 * N = one in N standing for N, 0 = chosen each
					 * interval from the allocation rate
					 * (alloc_sample.h) */
	bool all_procs;			/* also every live process with resident memory
					 * that BPF saw nothing of (zero figures): idle
					 * processes' node placement */
};

#endif
