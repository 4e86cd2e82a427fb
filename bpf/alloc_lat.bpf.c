// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * alloc_lat: how long the page allocator takes, opt-in (`numalens top
 * --alloc-latency`). fentry/fexit on the allocator's core function, which
 * every page allocation passes (__alloc_frozen_pages_noprof since 6.15,
 * __alloc_pages_noprof on 6.10-6.14, __alloc_pages before: user space sets
 * the target it finds). One call in nl_sample_every is timed; the others
 * pay the two trampolines and a task-storage push and pop.
 *
 * The start times sit on a small stack in task-local storage, not in a
 * per-CPU slot: an allocation that enters direct reclaim may sleep and
 * finish on another CPU, and an interrupt's allocation may nest inside a
 * task's on the same task. Each entry remembers the call's order and gfp,
 * so an exit that finds another call on top (its entry was skipped by the
 * kernel's recursion guard) leaves the stack alone.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include "alloc_lat_types.h"
#include "log2.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Set before load: time one call in this many (1: every call). */
const volatile u32 nl_sample_every = 64;
/* Set before load: node = (page flags >> shift) & mask (nl_page_layout). */
const volatile u32 nl_node_shift = 0, nl_node_mask = 0;
/* Set before load: the hook's gfp and order argument positions, from its
 * prototype in the kernel's BTF (the return value is read by the helper,
 * so the argument count may change between kernels). */
const volatile u32 nl_gfp_arg = 0, nl_order_arg = 1;

#define STACK_DEPTH 4

/* gfp bits (include/linux/gfp_types.h: ___GFP_MOVABLE_BIT 3,
 * ___GFP_RECLAIMABLE_BIT 4; the same numbers since the flags became an
 * enum of bits, and as #defines before). */
#define GFP_MOVABLE	0x08u
#define GFP_RECLAIMABLE	0x10u

struct lat_frame {
	u64 start_ns;		/* 0: not sampled */
	u32 gfp, order;
};

struct lat_stack {
	struct lat_frame f[STACK_DEPTH];
	u32 depth;		/* frames in use, at most STACK_DEPTH */
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct lat_stack);
} lat_stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NL_LAT_NR_HISTS);
	__type(key, u32);
	__type(value, struct nl_lat_hist);
} lat_hists SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NL_LAT_NR_STATS);
	__type(key, u32);
	__type(value, u64);
} lat_stats SEC(".maps");

static __always_inline void stat_add(u32 k)
{
	u64 *c = bpf_map_lookup_elem(&lat_stats, &k);

	if (c)
		*c += 1;
}

/* struct page's flags word: an unsigned long up to 6.17, memdesc_flags_t
 * (a struct holding it) since; CO-RE tells them apart by the type. */
struct page___ul {
	unsigned long flags;
} __attribute__((preserve_access_index));

static __always_inline u64 page_flags_of(const struct page *page)
{
	u64 v = 0;

	if (bpf_core_field_exists(struct page___ul, flags))
		bpf_probe_read_kernel(&v, sizeof(v), (const void *)page +
				      bpf_core_field_offset(struct page___ul, flags));
	else
		bpf_probe_read_kernel(&v, sizeof(v), (const void *)page +
				      bpf_core_field_offset(struct page, flags));
	return v;
}

/* log2 of @ns, at most NL_LAT_BUCKETS - 1 (0 for 0 and 1). */
static __always_inline u32 log2_bucket(u64 ns)
{
	u32 b = nl_log2(ns);

	return b < NL_LAT_BUCKETS ? b : NL_LAT_BUCKETS - 1;
}

/* Entry: push this call on the task's stack, timed if sampled. */
static __always_inline void enter(u32 gfp, u32 order)
{
	struct lat_stack *st;
	u64 start = 0;
	u32 d;

	stat_add(NL_LAT_CALLS);
	if (nl_sample_every <= 1 || bpf_get_prandom_u32() % nl_sample_every == 0)
		start = bpf_ktime_get_ns();
	st = bpf_task_storage_get(&lat_stacks, bpf_get_current_task_btf(), 0,
				  BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!st) {
		if (start)
			stat_add(NL_LAT_LOST);
		return;
	}
	d = st->depth;
	if (d >= STACK_DEPTH) {
		/* no real nesting goes this deep (task, softirq, hardirq):
		 * these are frames whose exit never ran; start afresh */
		d = 0;
	}
	st->f[d].start_ns = start;
	st->f[d].gfp = gfp;
	st->f[d].order = order;
	st->depth = d + 1;
	if (start)
		stat_add(NL_LAT_SAMPLED);
}

/* Exit: pop the call and count it if timed. @check: the entry's gfp and
 * order are known here (fexit), so a call whose entry never ran is left
 * alone; a kretprobe knows only the result and pops the top. */
static __always_inline void leave(u32 gfp, u32 order, bool check, const struct page *page)
{
	struct lat_stack *st = bpf_task_storage_get(&lat_stacks, bpf_get_current_task_btf(), 0, 0);
	struct nl_lat_hist *h;
	u64 start, now, ns;
	u32 d, place, class, idx, depth;

	if (!st)
		return;
	/* one load, kept in a register: the compiler re-read st->depth after
	 * the check, and the verifier then saw an unbounded index (the
	 * kretprobe program failed to load on 6.12 and 7.3) */
	depth = st->depth;
	barrier_var(depth);
	if (!depth || depth > STACK_DEPTH)
		return;
	d = (depth - 1) & (STACK_DEPTH - 1);	/* STACK_DEPTH is a power of 2 */
	if (check) {
		/* the nearest frame of this call: frames above it lost their
		 * exit (the kernel's recursion guard skipped it) and go; no
		 * frame at all: its entry never ran, the stack stays */
		int k, found = -1;

		for (k = STACK_DEPTH - 1; k >= 0; k--)
			if (found < 0 && (u32)k <= d && st->f[k].gfp == gfp && st->f[k].order == order)
				found = k;
		if (found < 0)
			return;
		d = (u32)found & (STACK_DEPTH - 1);
	}
	st->depth = d;
	start = st->f[d].start_ns;
	if (!start)
		return;
	now = bpf_ktime_get_ns();
	ns = now > start ? now - start : 0;
	if (!page)
		place = NL_LAT_FAILED;
	else
		place = ((page_flags_of(page) >> nl_node_shift) & nl_node_mask) ==
			bpf_get_numa_node_id() ? NL_LAT_LOCAL : NL_LAT_REMOTE;
	gfp = st->f[d].gfp;
	class = gfp & GFP_MOVABLE ? 2 : gfp & GFP_RECLAIMABLE ? 1 : 0;
	idx = place * NL_LAT_NR_CLASSES + class;
	h = bpf_map_lookup_elem(&lat_hists, &idx);
	if (!h)
		return;
	h->count[log2_bucket(ns) & (NL_LAT_BUCKETS - 1)] += 1;
	h->sum_ns += ns;
}

/* fentry/fexit where the kernel allows them. User space sets the target
 * it found; the one named here is a default that every kernel from 6.10
 * has, so the programs also load alone (make verify). */
SEC("fentry/__alloc_pages_noprof")
int lat_enter(u64 *ctx)
{
	u64 gfp = 0, order = 0;

	bpf_get_func_arg(ctx, nl_gfp_arg, &gfp);
	bpf_get_func_arg(ctx, nl_order_arg, &order);
	enter((u32)gfp, (u32)order);
	return 0;
}

SEC("fexit/__alloc_pages_noprof")
int lat_exit(u64 *ctx)
{
	u64 gfp = 0, order = 0, ret = 0;

	bpf_get_func_arg(ctx, nl_gfp_arg, &gfp);
	bpf_get_func_arg(ctx, nl_order_arg, &order);
	bpf_get_func_ret(ctx, &ret);
	leave((u32)gfp, (u32)order, true, (const struct page *)ret);
	return 0;
}

/* Argument @i of a kprobe (the first six are in registers on x86-64),
 * read through the helper: a plain switch compiles to a computed offset
 * into the context, which the verifier refuses. */
static __always_inline u64 kprobe_arg(struct pt_regs *regs, u32 i)
{
	switch (i) {
	case 0: return PT_REGS_PARM1_CORE(regs);
	case 1: return PT_REGS_PARM2_CORE(regs);
	case 2: return PT_REGS_PARM3_CORE(regs);
	case 3: return PT_REGS_PARM4_CORE(regs);
	case 4: return PT_REGS_PARM5_CORE(regs);
	default: return 0;
	}
}

/* kprobe/kretprobe where fentry is refused (some hosts answer EPERM):
 * dearer, and the exit cannot tell a skipped entry apart. */
SEC("kprobe")
int lat_kenter(struct pt_regs *regs)
{
	enter((u32)kprobe_arg(regs, nl_gfp_arg), (u32)kprobe_arg(regs, nl_order_arg));
	return 0;
}

SEC("kretprobe")
int lat_kexit(struct pt_regs *regs)
{
	leave(0, 0, false, (const struct page *)PT_REGS_RC(regs));
	return 0;
}
