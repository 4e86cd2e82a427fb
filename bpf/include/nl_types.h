/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Types shared by numalens' BPF programs and user space: map keys, map
 * values and limits. Every counter here is monotonic (never reset by BPF);
 * user space makes deltas and rates (tools/model/collect.c).
 *
 * Units: *_ns are nanoseconds, pages are base pages (1 << order per
 * allocation event), events are page-allocator calls.
 */
#ifndef NL_TYPES_H
#define NL_TYPES_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
#endif

/* Highest number of NUMA nodes numalens supports (node ids 0..63): the
 * size of user space's per-node tables and the limit each command checks
 * /sys/devices/system/node/possible against before it loads anything.
 * BPF values with per-node slots are sized at load time to the possible
 * node count instead (see struct nl_sched_val). A node id beyond what a
 * program was sized for is counted in NL_DROP_NODE_RANGE, never folded
 * into another node. */
#define NL_MAX_NODES 64
/* Locality buckets: 8 equal 12.5% bins of L/(L+R+1). */
#define NL_LOC_BUCKETS 8
/* Entries in the pfn -> (nid, zone) range table (pfn_ranges map). */
#define NL_MAX_PFN_RANGES 256
/* Migration reasons we keep apart (enum migrate_reason, MR_TYPES is 10 on
 * 6.18 and 7.3); larger values go to the last slot. */
#define NL_MIGRATE_REASONS 12
/* "No node": the pfn is in no known range. */
#define NL_NID_UNKNOWN 0xff
/* nl_alloc_key.zone markers: the allocation failed (pfn == -1; never
 * local or remote), or its pfn is in no known range. */
#define NL_ZONE_FAILED 0xfe
#define NL_ZONE_UNKNOWN 0xff

/* What a key's id names. */
enum nl_id_kind {
	NL_KIND_TGID = 0,	/* a process, by tgid as numalens' pid namespace
				 * sees it (NL_TGID_OTHER_NS: not visible there) */
	NL_KIND_CGROUP = 1,	/* a cgroup, by kernfs id (see nl_cgroup_mode) */
};

/* Which hierarchy the cgroup id comes from; set by user space before load. */
enum nl_cgroup_mode {
	NL_CG_V2 = 0,		/* bpf_get_current_cgroup_id(): cgroup v2 id */
	NL_CG_V1_MEMORY = 1,	/* the task's v1 memory-controller cgroup id,
				 * for hybrid hosts where v2 holds nothing */
};

/* Allocation class. KERNEL/RECLAIMABLE/MOVABLE are decided at
 * mm_page_alloc from the migratetype; ANON/FILE/SHMEM are added later when
 * a page allocated under MOVABLE reaches an LRU (pagemap:mm_lru_insertion,
 * joined by pfn). MOVABLE - (ANON + FILE + SHMEM) is "unclassified": a user
 * page we never saw reach an LRU (never guessed). */
enum nl_alloc_class {
	NL_CLASS_KERNEL = 0,		/* MIGRATE_UNMOVABLE and others */
	NL_CLASS_RECLAIMABLE = 1,	/* MIGRATE_RECLAIMABLE: slab, dentries */
	NL_CLASS_MOVABLE = 2,		/* MIGRATE_MOVABLE: user pages */
	NL_CLASS_ANON = 3,
	NL_CLASS_FILE = 4,
	NL_CLASS_SHMEM = 5,		/* file + swap-backed: tmpfs, sysv, MAP_SHARED anon */
	NL_NR_CLASSES = 6,
};

/* Indices of the per-CPU `drops` array each BPF object has. */
enum nl_drop {
	NL_DROP_TASK_MAP_FULL = 0,	/* per-tgid map full: event not counted per task */
	NL_DROP_CGROUP_MAP_FULL = 1,	/* per-cgroup map full */
	NL_DROP_PENDING_FULL = 2,	/* pfn join slot reused before its page reached an LRU:
				 * that page stays unclassified */
	NL_DROP_NODE_RANGE = 3,		/* node id >= the possible node count */
	NL_DROP_PFN_UNKNOWN = 4,	/* pfn in no range of the table */
	NL_DROP_EXIT_RING_FULL = 5,	/* exit ring full (NL_EXIT_RING unread): the name of a
					 * process that lived < 1 interval is lost */
	NL_DROP_SLICE_UNSEEN = 6,	/* sched_switch: the switch that began prev's slice was
					 * not seen on this CPU (a missed event) and prev is no
					 * fair-class task whose own start mark gives the slice:
					 * that slice's run time is not counted */
	NL_NR_DROPS = 7,
};

/* sched map: key and value. One entry per (kind, id). */
struct nl_id_key {
	u64 id;		/* tgid or cgroup kernfs id */
	u32 kind;	/* enum nl_id_kind */
	u32 pad;
};

/* On-CPU time and NUMA-fault locality of one tgid or cgroup (sched.bpf.c).
 * run_ns[n]: time on CPUs of node n (its execution time); the array has
 *   one slot per possible node (nl_sched_val_size()), set at load time, so
 *   a 4-node host pays for 4 slots and a 64-node one for 64.
 * loc_ns[b]: run time of slices whose task had local/remote hinting faults
 *   in its current scan window, in locality bucket b, weighted by run time.
 * nofault_ns: run time of user tasks with no faults in the window.
 * Sum(loc_ns) + nofault_ns <= Sum(run_ns): kernel threads and exiting tasks
 * add only to run_ns (they have no locality of their own). */
struct nl_sched_val {
	u64 loc_ns[NL_LOC_BUCKETS];
	u64 nofault_ns;
	u64 slices;	/* sched_switch-outs counted */
	u64 run_ns[];	/* [nr_nodes] */
};

/* Bytes of one sched_stats value for @nr_nodes per-node slots. */
#define nl_sched_val_size(nr_nodes) (sizeof(struct nl_sched_val) + (u64)(nr_nodes) * sizeof(u64))

/* Ancestors recorded per counted cgroup (bpf/cg_ancestry.bpf.h): a cgroup
 * that lives between two collections folds into the nearest of them that
 * user space knows; deeper chains end at the root. */
#define NL_CG_ANCESTORS 8

/* The ancestors' cgroup ids, nearest (the parent) first; 0 ends the list. */
struct nl_cg_ancestry {
	u64 id[NL_CG_ANCESTORS];
};

/* The NL_KIND_TGID key under which tasks are summed that numalens' pid
 * namespace cannot see (numalens runs in a container or under unshare
 * --pid): above any pid_max, so never a real process. */
#define NL_TGID_OTHER_NS 0xffffffffu

/* Name of an exited process: a slot of sched.bpf.c's `exit_ring` array.
 * Record n (counting from 0 since load) sits in slot n % NL_EXIT_RING;
 * @seq is n + 1 (modulo 2^32) once the record is whole, 0 while it is
 * being written, so a reader takes a slot only when @seq is the one its
 * position expects. */
struct nl_comm {
	u32 tgid;	/* as numalens' pid namespace sees it */
	u32 seq;
	char comm[16];
};

/* Exit records between two collections, at most (the ring's slots). The
 * ring must stay within 32 KiB (1,024 x 24 bytes plus the map's header):
 * the kernel then allocates it from the direct map with kmalloc, where
 * a larger array or a BPF ring buffer is vmalloc memory, whose page-table
 * walks cost the exit program ~0.2-0.5 us more per exit on our host. */
#define NL_EXIT_RING 1024

/* alloc key: one counter per (process, cgroup, CPU node, page node, zone,
 * class, preferred node). One key serves both views: user space sums it
 * into the process's and the cgroup's figures, so each event costs one
 * counter update, not two. 24 bytes: three words to hash and compare. */
struct nl_alloc_key {
	u64 cgroup_id;	/* the allocating task's cgroup (see nl_cgroup_mode);
			 * NL_CGROUP_RETIRED: see below */
	u32 tgid;	/* as numalens' pid namespace sees it; NL_TGID_OTHER_NS,
			 * NL_TGID_RETIRED */
	u8 cpu_nid;	/* node of the allocating CPU */
	u8 page_nid;	/* node of the page, from the pfn table; NL_NID_UNKNOWN */
	u8 zone;	/* zone index in its node (ZONE_DMA=0, DMA32, NORMAL, MOVABLE...) */
	u8 class;	/* enum nl_alloc_class */
	u8 pref_nid;	/* the node the allocation was meant for (numastat's
			 * hit/miss/foreign), from the task's mempolicy;
			 * NL_NID_UNKNOWN */
	u8 pad[7];
};

/* Keys only user space writes, so that a process's and a cgroup's sums
 * stay monotonic when the other half of a key is retired: an exited
 * process's counts move to (NL_TGID_RETIRED, its cgroup), a removed
 * cgroup's counts of a process to (that tgid, NL_CGROUP_RETIRED); counts
 * with both halves retired are dropped (the node figures come from the
 * exact totals, node_cells). */
#define NL_TGID_RETIRED 0xfffffffeu
#define NL_CGROUP_RETIRED (~0ULL)

struct nl_alloc_val {
	u64 events;	/* allocator calls (what numastat counts) */
	u64 pages;	/* base pages: sum of 1 << order */
};

/* One slot of the per-CPU direct-mapped counter table (alloc_slots map,
 * CPU c's slots at [c * slots_per_cpu, (c + 1) * slots_per_cpu)): a key
 * and its monotonic counters. events == 0: the slot is free. A key whose
 * slot another key holds is counted in the alloc_stats hash instead. */
struct nl_alloc_slot {
	struct nl_alloc_key key;
	struct nl_alloc_val val;
};

/* Slots per CPU at most (a power of two; the loader may use fewer to fit
 * its memory budget). */
#define NL_ALLOC_SLOTS_MAX 4096

/* Allocation failures (pfn == -1) use the same key with page_nid =
 * NL_NID_UNKNOWN and zone = NL_ZONE_FAILED; class is the requested one. */

/* Slots of the pending map per CPU (a power of two). */
#define NL_PENDING_SLOTS 4096
/* Slots of the pending_hot map per CPU (a power of two, < NL_PENDING_SLOTS). */
#define NL_PENDING_HOT 512
/* A movable page waiting to reach an LRU, so that its anon/file/shmem
 * class can be charged to whoever allocated it (pending maps, keyed by pfn). */
struct nl_pending_page {
	u64 pfn;	/* the pfn, or the struct page address (tp_btf);
			 * 0: free slot (pfn 0 is never handed out) */
	struct nl_alloc_key key;	/* as counted at mm_page_alloc */
	u32 order;	/* the order in the low byte; above it the weight the
			 * allocation was counted with (the sample period; 0 = 1) */
	u32 seq;	/* its CPU's join clock when made: tracked allocations,
			 * or movable ones for a sampled page in the ring */
};

/* Exact node and zone totals (alloc.bpf.c's node_cells map), bumped for
 * every allocation whether or not the sampler counts it in a key. A row
 * of cells per CPU, row = user space's nl_node_exact_row(possible nodes N).
 * Each call counts in exactly one kind (local or from another node's CPU,
 * x meant for the page's node (hit), another (miss) or unknown), so every
 * sum user space makes of them only grows:
 *  [0, N * NL_NODEX_ZONES) by (page node, zone): a = local hits, b = pages;
 *  [P, P + N) by page node (P = N * NL_NODEX_ZONES): a = local misses,
 *    b = local calls of unknown intent;
 *  [P + N, P + 2N) by page node: a = remote hits, b = remote misses;
 *  [P + 2N, P + 3N) by page node: a = remote calls of unknown intent;
 *  [P + 3N, P + 4N) by node: a = calls from its CPUs placed elsewhere,
 *    b = calls meant for it placed elsewhere (numa_foreign).
 * Failed allocations and pages on no known node are not counted. */
#define NL_NODEX_ZONES 8	/* zone indices a cell row has (zone bits <= 3) */
struct nl_node_cell {
	u64 a, b;
};

/* One contiguous pfn range on one node and zone, [start, end). */
struct nl_pfn_range {
	u64 start;
	u64 end;
	u32 nid;
	u32 zone;
};

/* NUMA moves and page migrations of one tgid or cgroup (migrate.bpf.c). */
struct nl_migrate_val {
	u64 move_numa;		/* sched:sched_move_numa: task moved to its preferred node */
	u64 swap_numa;		/* sched:sched_swap_numa, counted for both tasks */
	u64 stick_numa;		/* sched:sched_stick_numa: move attempt that failed */
	u64 pages_ok[NL_MIGRATE_REASONS];	/* migrate:mm_migrate_pages succeeded, by reason */
	u64 pages_fail[NL_MIGRATE_REASONS];	/* ... failed, by reason */
};

#endif /* NL_TYPES_H */
