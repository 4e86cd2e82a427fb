// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * migrate: NUMA-balancing task moves (sched:sched_move_numa, swap_numa,
 * stick_numa) and page migrations (migrate:mm_migrate_pages, succeeded and
 * failed base pages by reason), per tgid and per cgroup. A swap counts for
 * both tasks; a stick is a move attempt the kernel gave up on.
 * Page migrations are charged to the current task: for NUMA-balancing
 * (reason MR_NUMA_MISPLACED) that is the task taking the hinting fault.
 */
#include "nl_common.bpf.h"
#include "cg_ancestry.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	/* preallocated: one event may insert two new keys (the task's
	 * and its cgroup's), possibly with interrupts off, and the allocator's
	 * per-CPU cache of per-CPU values holds one to three, refilled
	 * only once interrupts are back on */
	__uint(max_entries, 16384);
	__type(key, struct nl_id_key);
	__type(value, struct nl_migrate_val);
} migrate_stats SEC(".maps");

static const struct nl_migrate_val zero_mig;

enum what { MOVE, SWAP, STICK };

static __always_inline struct nl_migrate_val *get(u64 id, u32 kind, u32 why)
{
	struct nl_id_key key = { .id = id, .kind = kind };

	return nl_cg_lookup_or_init(&migrate_stats, &key, &zero_mig, why,
				    kind == NL_KIND_CGROUP ? id : 0);
}

static __always_inline void task_event(struct task_struct *t, enum what w)
{
	struct nl_migrate_val *v[2];

	if (!t)
		return;
	v[0] = get(nl_task_tgid(t), NL_KIND_TGID, NL_DROP_TASK_MAP_FULL);
	/* NUMA moves are rare: probe reads, which the verifier checks at
	 * no cost (nl_task_cgroup_rare) */
	v[1] = get(nl_cgroup_id_rare(nl_task_cgroup_rare(t)), NL_KIND_CGROUP,
		   NL_DROP_CGROUP_MAP_FULL);
	for (int i = 0; i < 2; i++) {
		if (!v[i])
			continue;
		if (w == MOVE)
			v[i]->move_numa++;
		else if (w == SWAP)
			v[i]->swap_numa++;
		else
			v[i]->stick_numa++;
	}
}

SEC("tp_btf/sched_move_numa")
int BPF_PROG(handle_move_numa, struct task_struct *t, int src_cpu, int dst_cpu)
{
	task_event(t, MOVE);
	return 0;
}

SEC("tp_btf/sched_swap_numa")
int BPF_PROG(handle_swap_numa, struct task_struct *src, int src_cpu,
	     struct task_struct *dst, int dst_cpu)
{
	task_event(src, SWAP);
	task_event(dst, SWAP);
	return 0;
}

SEC("tp_btf/sched_stick_numa")
int BPF_PROG(handle_stick_numa, struct task_struct *src, int src_cpu,
	     struct task_struct *dst, int dst_cpu)
{
	task_event(src, STICK);
	return 0;
}

SEC("tp_btf/mm_migrate_pages")
int BPF_PROG(handle_migrate_pages, unsigned long succeeded, unsigned long failed,
	     unsigned long thp_succeeded, unsigned long thp_failed,
	     unsigned long thp_split, unsigned long large_folio_split,
	     int mode, int reason)
{
	u32 r = reason;
	struct nl_migrate_val *v[2];

	if (r >= NL_MIGRATE_REASONS)
		r = NL_MIGRATE_REASONS - 1;
	v[0] = get(nl_current_tgid(), NL_KIND_TGID, NL_DROP_TASK_MAP_FULL);
	v[1] = get(nl_current_cgroup_id_rare(), NL_KIND_CGROUP, NL_DROP_CGROUP_MAP_FULL);
	for (int i = 0; i < 2; i++) {
		if (!v[i])
			continue;
		v[i]->pages_ok[r] += succeeded;
		v[i]->pages_fail[r] += failed;
	}
	return 0;
}
