/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * scx_cling's interface: everything its BPF side (scx_cling.bpf.c and its
 * *.bpf.h parts) and its user side (the loader, and
 * tools/source/cling_stats.c behind `numalens export`) must agree on, in
 * one header: the pinned maps and their value types, the defaults of the
 * tunables, the table sizes. The layering:
 *
 *   bpf/include/cling.h      pure policy math (no maps, no libc): the BPF
 *                            side, the unit tests and the readers share it
 *   sched_ext/scx_cling.h    this file: the contract, built on cling.h
 *   sched_ext/include/scx/   the sched_ext plumbing (struct_ops wrappers,
 *                            exit info, open/load/attach), scheduler-neutral
 *
 * The maps are pinned under CLING_PIN_DIR (/sys/fs/bpf/scx_cling/) from
 * attach until detach; the loader removes them on exit:
 *   info    ARRAY, 1 entry:       key u32 0 -> struct cling_info
 *   nodes   PERCPU_ARRAY:         key u32 nid -> struct cling_node_stats
 *                                 (one value per possible CPU: sum them)
 *   groups  HASH:                 key u64 cgroup id (cgroup v2 inode number)
 *                                 -> struct cling_group (scheduler state)
 *   gmem    HASH:                 key u64 cgroup id -> struct cling_group_mem
 *                                 (resident pages, written by the loader)
 *   task_homes LRU_HASH:          key u32 tid -> struct cling_task_home
 * Counters are monotonic since attach; failure/total are the decayed
 * attempt and failure weights of cling.h (halved every decay period).
 * The _Static_asserts pin the value sizes: a reader built from another
 * version must not misread a pinned map.
 */
#ifndef SCX_CLING_INTF_H
#define SCX_CLING_INTF_H

#include "cling.h"

#define CLING_PIN_DIR "/sys/fs/bpf/scx_cling"
/* The pinned maps' names: the BPF side's map names, pinned as such. */
#define CLING_PIN_NAMES { "info", "nodes", "groups", "gmem", "task_homes" }
/* Most NUMA groups tracked at once (groups and gmem hold this many). */
#define CLING_MAX_GROUPS 1024
/* Most tasks listed by `scx_cling --tasks` (task_homes, an LRU map). */
#define CLING_MAX_TASK_HOMES 16384
/* CPU ids tracked by the hotplug bitmap (a power of two, for masking). */
#define CLING_MAX_CPUS 8192

/* The tunables' defaults, as the loader's options and the BPF side's
 * read-only globals start. */
#define CLING_WAIT_BOUND_US_DEFAULT 5000	/* --wait-bound-us */
#define CLING_STEAL_US_DEFAULT 40000		/* --steal-after-us: two slices */
#define CLING_DECAY_MS_DEFAULT 6000		/* --decay-ms */

_Static_assert((CLING_MAX_CPUS & (CLING_MAX_CPUS - 1)) == 0,
	       "CLING_MAX_CPUS must be a power of two (index masking)");

/*
 * struct cling_info - scheduler-wide facts, written by the loader (at
 * attach and about once a second).
 * @loader_pid: pid of the scx_cling loader (a reader treats the pins as
 *              stale when it is gone)
 * @nr_nodes:   possible nodes scheduled (node ids 0..nr_nodes-1)
 * @degree:     --cling-degree, percent
 * @decay_ms:   decay timer period, ms
 * @wait_bound_ns: a task queued on its home node longer than this while
 *              another node has an idle CPU counts as a failure, ns
 * @steal_ns:   an idle CPU of another node may take a task queued this
 *              long, ns
 * @loader_start: the loader's start time (field 22 of /proc/PID/stat, clock
 *              ticks since boot): with @loader_pid it names the loader, so
 *              a reused pid does not make stale pins look alive
 * @hotplug_events: CPU online/offline events the scheduler handled
 * @restarts:   times the loader re-attached after the kernel asked it to
 *              restart (SCX_ECODE_ACT_RESTART)
 * @node_cpus:  online CPUs per node, as the scheduler counts them
 */
struct cling_info {
	cling_u32 loader_pid;
	cling_u32 nr_nodes;
	cling_u32 degree;
	cling_u32 decay_ms;
	cling_u64 wait_bound_ns;
	cling_u64 steal_ns;
	cling_u64 loader_start;
	cling_u64 hotplug_events;
	cling_u32 restarts;
	cling_u32 pad;
	cling_u32 node_cpus[CLING_MAX_NODES];
};

/*
 * struct cling_node_stats - per node, per CPU; monotonic counts since attach.
 * @enqueued:    tasks inserted into this node's DSQ
 * @local:       tasks a CPU of this node took from this node's DSQ or ran
 *               directly after select_cpu placed them here
 * @remote:      tasks a CPU of this node took from another node's DSQ (after
 *               they waited past the wait bound: work conservation)
 * @cling_hits:  wakeups where the cling predicate held and the task stayed
 *               on this node instead of following the waker
 * @attempts:    placements of group tasks on this node, their home, by cling
 *               (onto an idle CPU here, or into this node's DSQ)
 * @failures:    queued attempts where the task waited past the bound while
 *               another node had an idle CPU, or another node took it
 * @queued:      tasks in this node's DSQ at the last enqueue/dispatch here
 *               (a gauge, meaningful in the CPU slot that wrote it last:
 *               readers take the maximum over CPUs of the latest stamp)
 * @queued_at:   scx_bpf_now() of that sample, ns
 * @home_ignored: placements of group tasks whose allowed CPUs (affinity,
 *               cpuset) include no online CPU of this node, their home: the
 *               home was not enforced
 */
struct cling_node_stats {
	cling_u64 enqueued;
	cling_u64 local;
	cling_u64 remote;
	cling_u64 cling_hits;
	cling_u64 attempts;
	cling_u64 failures;
	cling_u64 queued;
	cling_u64 queued_at;
	cling_u64 home_ignored;
};

/*
 * struct cling_group - one NUMA group (cgroup) as the scheduler sees it.
 * @ms:     decayed attempt/failure weights and busiest node (cling.h)
 * @home:   the group's home node at the last placement or decay
 *          (CLING_NO_NODE while it has no resident pages on a non-busy node)
 * @nr_tasks: tasks of this cgroup seen by ops.enable minus ops.disable
 *          (approximate: a task that changes cgroup counts where it started)
 */
struct cling_group {
	struct cling_mstat ms;
	cling_s32 home;
	cling_s32 nr_tasks;
};

/* struct cling_group_mem - resident pages per node of a NUMA-group cgroup
 * (anon + file of memory.numa_stat, in pages), refreshed by the loader;
 * @no_home set when the group holds too little memory to be near (the
 * loader's minimum): its tasks then get no group home and do not cling. */
struct cling_group_mem {
	cling_u64 pages[CLING_MAX_NODES];
	cling_u32 no_home;
	cling_u32 pad;
};

/*
 * struct cling_task_home - per task (key: pid = kernel tid), what
 * `scx_cling --tasks` shows: @home the node used for placement,
 * @mem_home the node most of its own page allocations came from,
 * @cgid its NUMA group's cgroup id or 0. An LRU map: the oldest entries
 * go first when it is full.
 */
struct cling_task_home {
	cling_s32 home;
	cling_s32 mem_home;
	cling_u64 cgid;
};


/* Sizes the pinned maps' readers rely on (no padding surprises). */
_Static_assert(sizeof(struct cling_info) == 56 + 4 * CLING_MAX_NODES, "struct cling_info layout");
_Static_assert(sizeof(struct cling_node_stats) == 9 * 8, "struct cling_node_stats layout");
_Static_assert(sizeof(struct cling_group) == sizeof(struct cling_mstat) + 8, "struct cling_group layout");
_Static_assert(sizeof(struct cling_group_mem) == 8 * CLING_MAX_NODES + 8, "struct cling_group_mem layout");
_Static_assert(sizeof(struct cling_task_home) == 16, "struct cling_task_home layout");

#endif /* SCX_CLING_INTF_H */
