/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Types shared by bpf/vmscan.bpf.c and user space: the reclaim figures of
 * the proposed memory.vmscan_stat (docs/vmscan.md), per
 * memcg x node x context. Counters are monotonic pages or ns; user space
 * makes deltas and folds the cgroup hierarchy (tools/model/vmscan_figs.c).
 */
#ifndef NL_VMSCAN_TYPES_H
#define NL_VMSCAN_TYPES_H

#include "nl_types.h"

/* Who reclaimed (memory.vmscan_stat's *_by_limit / *_by_system split). */
enum nl_vs_ctx {
	NL_VS_LIMIT = 0,	/* memcg reclaim: a charge hit memory.max/high
				 * (mm_vmscan_memcg_reclaim_begin/end) */
	NL_VS_DIRECT = 1,	/* global direct reclaim by an allocating task
				 * (mm_vmscan_direct_reclaim_begin/end, or a
				 * shrink outside any episode), and node_reclaim
				 * from the page allocator (zone_reclaim_mode) */
	NL_VS_KSWAPD = 2,	/* kswapd (mm_vmscan_kswapd_wake -> _sleep) */
	NL_VS_PROACTIVE = 3,	/* memory.reclaim, /sys/.../nodeN/reclaim,
				 * MADV_PAGEOUT/DAMON (mm_vmscan_reclaim_pages) */
	NL_VS_NR_CTX = 4,
};

/* log2 buckets of reclaim episode length: bucket b counts episodes of
 * [2^b, 2^(b+1)) ns (bucket 0 also takes 0 ns); the last bucket takes
 * everything >= 2^(NL_VS_HIST-1) ns (~275 s). */
#define NL_VS_HIST 39

/* Tasks that can be inside a reclaim episode at once (bounded hash; a
 * task beyond it is counted in drops[NL_DROP_TASK_MAP_FULL] and its
 * pages go to the context a shrink outside any episode gets). */
#define NL_VS_MAX_TASKS 4096

/* vmscan_pages key: one entry per (cgroup, node, context). */
struct nl_vs_key {
	u64 cgroup_id;	/* kernfs id in the hierarchy of nl_cgroup_mode;
			 * 0 = no memcg (kswapd, node-wide proactive
			 * reclaim): user space charges it to the root */
	u8 nid;
	u8 ctx;		/* enum nl_vs_ctx */
	u8 pad[6];
};

/* Pages of one (cgroup, node, context); index 0 = anon, 1 = file
 * (the kernel's is_file_lru / folio_is_file_lru). */
struct nl_vs_pages {
	u64 scanned[2];	/* isolated off the inactive list
			 * (lru_shrink_inactive nr_scanned) + taken off the
			 * active list (lru_shrink_active nr_taken): memory.vmscan_stat's
			 * scanned_{anon,file}_pages */
	u64 refill[2];	/* the active-list part of scanned (memory.stat
			 * pgrefill); under MGLRU always 0 */
	u64 rotated[2];	/* activated: put back on the active list by the
			 * inactive scan (reclaim_stat nr_activate[]) + kept
			 * active by the active scan (nr_referenced, what
			 * memory.vmscan_stat calls nr_rotated) */
	u64 freed[2];	/* reclaimed (lru_shrink_inactive nr_reclaimed) */
	/* mm_vmscan_reclaim_pages (MADV_PAGEOUT, DAMON) has no anon/file
	 * split: kept apart so that scanned == anon + file stays exact */
	u64 pageout_scanned;
	u64 pageout_rotated;
	u64 pageout_freed;
};

/* vmscan_time key: one entry per (cgroup, context). */
struct nl_vs_tkey {
	u64 cgroup_id;
	u32 ctx;
	u32 pad;
};

/* Reclaim episodes (begin -> end of one task) of one (cgroup, context). */
struct nl_vs_time {
	u64 elapsed_ns;		/* sum of episode lengths (wall clock, sleeps
				 * included: memory.vmscan_stat's elapsed_ns_by_*) */
	u64 episodes;		/* ended episodes */
	u64 throttled;		/* mm_vmscan_throttled events */
	u64 throttled_ns;	/* their usec_delayed, in ns */
	u64 hist[NL_VS_HIST];	/* episodes by log2(length ns) */
};

#endif /* NL_VMSCAN_TYPES_H */
