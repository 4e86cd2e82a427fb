/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * scx_cling's policy math, in plain C that compiles into the BPF scheduler
 * (sched_ext/scx_cling.bpf.c), into the statistics reader
 * (tools/source/cling_stats.c, which shows the same busy flags) and into
 * the cmocka unit tests (tests/unit/test_cling.c): the cling predicate,
 * the failure ratio and its bookkeeping, the halving decay and busiest
 * node, the busy-node rule, the degree bounds, the home-node choice that
 * skips a busy node, and the node that serves a node without online CPUs
 * (the nearest one with CPUs, by SLIT distance). docs/scx_cling.md tells
 * the rules in prose. This is the bottom layer of scx_cling: no maps and
 * no contract; sched_ext/scx_cling.h builds the interface on top of it.
 *
 * No libc, no division by a variable other than (total + 1), loops bounded
 * by CLING_MAX_NODES and indices masked, so the verifier accepts it.
 * Before including, the BPF side includes vmlinux.h; user space gets the
 * fixed-width types from <stdint.h> here.
 */
#ifndef CLING_H
#define CLING_H

#ifndef __bpf__
#include <stdbool.h>
#include <stdint.h>
typedef int32_t cling_s32;
typedef uint32_t cling_u32;
typedef uint64_t cling_u64;
#else
typedef s32 cling_s32;
typedef u32 cling_u32;
typedef u64 cling_u64;
#endif

/* Node ids handled: 0..CLING_MAX_NODES-1 (a power of two, for masking).
 * 64 covers the largest machines people run NUMA-aware schedulers on
 * (8-socket or SGI/HPE class); the loader refuses more in one line. */
#define CLING_MAX_NODES 64
#define CLING_NODE_MASK (CLING_MAX_NODES - 1)
#define CLING_NO_NODE (-1)

/* One attempt or failure weighs 1024 (the kernel's NUMA_MIGRATE_WEIGHT). */
#define CLING_WEIGHT 1024ULL
/* The degree is a percentage: default 20, accepted 0..100. */
#define CLING_DEGREE_DEFAULT 20
#define CLING_DEGREE_MAX 100

_Static_assert((CLING_MAX_NODES & (CLING_MAX_NODES - 1)) == 0,
	       "CLING_MAX_NODES must be a power of two (index masking)");

/*
 * cling_for - i over 0..@n-1. In BPF an open-coded iterator (bpf_for):
 * the verifier then checks the body once instead of once per node, which
 * with dozens of nodes and data-dependent branches in the body exceeded
 * its budget (the load failed with E2BIG at 24 nodes).
 */
#ifdef __bpf__
#define cling_for(i, n) bpf_for(i, 0, (n) < CLING_MAX_NODES ? (n) : CLING_MAX_NODES)
#else
#define cling_for(i, n) for (i = 0; i < (n) && i < CLING_MAX_NODES; i++)
#endif

/*
 * cling_idx - @nid as an array index in 0..CLING_MAX_NODES-1. The empty asm
 * keeps the compiler from dropping the mask after a range check it has
 * seen (it did, and the verifier then rejected the access as unbounded).
 */
static inline cling_u32 cling_idx(int nid)
{
	cling_u32 k = (cling_u32)nid;

#ifdef __bpf__
	asm volatile("" : "+r"(k));
#endif
	return k & CLING_NODE_MASK;
}

/*
 * struct cling_mstat - one NUMA group's migration statistics.
 * @failure: weighted failures per node (1024 per failure, halved per decay)
 * @total:   weighted attempts per node (1024 per attempt, halved per decay)
 * @busiest: node with the most weighted failures at the last decay, or
 *           CLING_NO_NODE until some node has a failure
 */
struct cling_mstat {
	cling_u64 failure[CLING_MAX_NODES];
	cling_u64 total[CLING_MAX_NODES];
	cling_s32 busiest;
	cling_u32 pad;
};

/* cling_degree_valid - true iff @degree (a parsed integer) is in 0..100. */
static inline bool cling_degree_valid(long long degree)
{
	return degree >= 0 && degree <= CLING_DEGREE_MAX;
}

/*
 * cling_ratio - failure ratio in integer percent: failure * 100 / (total + 1)
 * (the +1 keeps it defined at zero). With failure <= total it is at most
 * 99: 1 in 5 -> 19, 2 in 9 -> 22, 1 in 1 -> 99.
 */
static inline cling_u32 cling_ratio(cling_u64 failure, cling_u64 total)
{
	return (cling_u32)(failure * 100 / (total + 1));
}

/* cling_node_ok - true iff 0 <= @nid < @nr_nodes <= CLING_MAX_NODES. */
static inline bool cling_node_ok(int nid, int nr_nodes)
{
	return nid >= 0 && nid < nr_nodes && nid < CLING_MAX_NODES;
}

/*
 * cling_note - record one attempt to place a task on node @nid, and whether
 * it failed: total[nid] += 1024, and failure[nid] += 1024 on failure.
 * Atomic adds: several CPUs account into the same group at once. Out of
 * range @nid is ignored.
 */
static inline void cling_note(struct cling_mstat *st, int nid, bool failed)
{
	if (nid < 0 || nid >= CLING_MAX_NODES)
		return;
	__sync_fetch_and_add(&st->total[cling_idx(nid)], CLING_WEIGHT);
	if (failed)
		__sync_fetch_and_add(&st->failure[cling_idx(nid)], CLING_WEIGHT);
}

/*
 * cling_halve - halve *@v (rounding down, as v / 2) while other CPUs may
 * add to it (cling_note): subtracting the upper half of the value read,
 * atomically, loses none of their adds, where a plain "*v /= 2" could
 * overwrite one made in between.
 */
static inline void cling_halve(cling_u64 *v)
{
	cling_u64 old = *(volatile cling_u64 *)v;

	__sync_fetch_and_sub(v, old - old / 2);
}

/*
 * cling_decay - one decay period: for every node < @nr_nodes
 * halve failure and total, then busiest = argmax of the halved failures
 * (strictly greater, starting from 0, so the lowest nid wins ties and the
 * old value stays when every node is 0). One failure with no new events is
 * 512 after one period and 0 after 11.
 */
static inline void cling_decay(struct cling_mstat *st, int nr_nodes)
{
	cling_u64 max_failure = 0, f;
	int i;

	cling_for(i, nr_nodes) {
		cling_halve(&st->failure[cling_idx(i)]);
		cling_halve(&st->total[cling_idx(i)]);
		f = st->failure[cling_idx(i)];
		if (f > max_failure) {
			max_failure = f;
			st->busiest = i;
		}
	}
}

/*
 * cling_busy - the busy-node ("pause") rule: node @nid is busy
 * for this group iff failure[nid] >= 1024 and nid is the group's busiest
 * node and ratio[nid] > @degree (strictly). At most one node per group
 * (the busiest) can be busy; degree 100 means never busy.
 */
static inline bool cling_busy(const struct cling_mstat *st, int nid, cling_u32 degree)
{
	cling_u64 f, t;

	if (nid < 0 || nid >= CLING_MAX_NODES)
		return false;
	f = st->failure[cling_idx(nid)];
	t = st->total[cling_idx(nid)];
	if (f < CLING_WEIGHT)
		return false;
	if (st->busiest != nid)
		return false;
	return cling_ratio(f, t) > degree;
}

/*
 * cling_predicate - the cling predicate, as the kernel proposal's
 * task_numa_cling() states it: true iff the task's group does cling (@grouped), its preferred
 * node @pnid is set, the source node @snid is the preferred node, the
 * destination @dnid is not, and the source is not busy (@src_busy, the
 * value of cling_busy() for @snid). At wakeup @snid is the node of
 * prev_cpu and @dnid the node of the waker's CPU: true means "do not pull
 * toward the waker, stay on @snid".
 */
static inline bool cling_predicate(bool grouped, int pnid, int snid, int dnid, bool src_busy)
{
	return grouped && pnid != CLING_NO_NODE && dnid != pnid && snid == pnid && !src_busy;
}

/* A node can be a home only with at least 1/CLING_HOME_MIN_DIV of the
 * pages: a residue (a few stack or page-cache pages) on a second node must
 * not pull a whole group there when its real home is busy. */
#define CLING_HOME_MIN_DIV 8

/*
 * cling_serving - the node that serves node @nid's tasks: @nid itself when
 * it has online CPUs, else the node with CPUs nearest to it. @serve is the
 * table cling_nearest() fills (NULL: every node serves itself). Returns
 * CLING_NO_NODE when @nid is out of range or no node has a CPU.
 */
static inline int cling_serving(const cling_s32 *serve, int nid)
{
	if (nid < 0 || nid >= CLING_MAX_NODES)
		return CLING_NO_NODE;
	return serve ? serve[cling_idx(nid)] : nid;
}

/*
 * cling_group_home - a NUMA group's home node: the node with
 * the most resident pages in @pages[0..@nr_nodes) (from the cgroup's
 * memory.numa_stat), skipping a node that is busy for the group, so the
 * second-best node takes over while the best one is busy, and skipping
 * nodes with less than 1/CLING_HOME_MIN_DIV of all pages. Ties go to the
 * lowest nid. A node without online CPUs (a CXL or memory-only node, or
 * one whose CPUs went offline) is never a home: its pages make the node
 * that serves it (@serve, see cling_serving) the home, and the busy test
 * applies to that serving node. @st may be NULL (no statistics yet:
 * nothing is busy). Returns the nid, or CLING_NO_NODE when no node
 * qualifies.
 */
static inline int cling_group_home(const cling_u64 *pages, int nr_nodes,
				   const struct cling_mstat *st, cling_u32 degree,
				   const cling_s32 *serve)
{
	cling_u64 best = 0, sum = 0;
	int i, s, home = CLING_NO_NODE;

	cling_for(i, nr_nodes) {
		sum += pages[cling_idx(i)];
	}
	cling_for(i, nr_nodes) {
		if (pages[cling_idx(i)] <= best || pages[cling_idx(i)] * CLING_HOME_MIN_DIV < sum)
			continue;
		s = cling_serving(serve, i);
		if (s < 0)
			continue;
		if (st && cling_busy(st, s, degree))
			continue;
		best = pages[cling_idx(i)];
		home = s;
	}
	return home;
}

/* Distance of a node to itself in the SLIT (ACPI) and in sysfs. */
#define CLING_LOCAL_DISTANCE 10
/* A distance that stands for "no such node" (sysfs values fit in 8 bits). */
#define CLING_FAR_DISTANCE 255

/*
 * cling_nearest - the node that serves node @nid (cling_serving): @nid
 * itself if @cpus[@nid] > 0, else the node m with @cpus[m] > 0 at the
 * smallest distance @dist[m] (row @nid of the SLIT, as in
 * /sys/devices/system/node/nodeN/distance), ties to the node with more
 * online CPUs, then to the lowest nid. Returns CLING_NO_NODE when no node
 * below @nr_nodes has an online CPU.
 */
static inline int cling_nearest(const unsigned char *dist, const cling_u32 *cpus, int nr_nodes,
				int nid)
{
	int m, best = CLING_NO_NODE;

	if (nid >= 0 && nid < nr_nodes && nid < CLING_MAX_NODES && cpus[cling_idx(nid)])
		return nid;
	cling_for(m, nr_nodes) {
		if (!cpus[cling_idx(m)])
			continue;
		if (best < 0 || dist[cling_idx(m)] < dist[cling_idx(best)] ||
		    (dist[cling_idx(m)] == dist[cling_idx(best)] &&
		     cpus[cling_idx(m)] > cpus[cling_idx(best)]))
			best = m;
	}
	return best;
}

#endif /* CLING_H */
