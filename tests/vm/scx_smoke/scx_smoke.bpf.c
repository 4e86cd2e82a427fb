// SPDX-License-Identifier: GPL-2.0
/*
 * scx_smoke: the VM tests' trivial sched_ext scheduler. Every runnable task
 * goes to the global DSQ with the default slice; it counts what it does so
 * the loader can show it really scheduled. It proves that the guest kernel,
 * clang/bpftool and the static libbpf work for sched_ext.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char _license[] SEC("license") = "GPL";

__u64 nr_enqueued;   /* ops.enqueue calls */
__u32 init_called;   /* ops.init ran (sleepable) */
__u32 exit_called;   /* ops.exit ran */
__s32 exit_kind;     /* scx_exit_info.kind seen by ops.exit */

SEC("struct_ops/smoke_enqueue")
void BPF_PROG(smoke_enqueue, struct task_struct *p, u64 enq_flags)
{
	__sync_fetch_and_add(&nr_enqueued, 1);
	scx_bpf_dsq_insert(p, SCX_DSQ_GLOBAL, SCX_SLICE_DFL, enq_flags);
}

SEC("struct_ops.s/smoke_init")
s32 BPF_PROG(smoke_init)
{
	init_called = 1;
	return 0;
}

SEC("struct_ops/smoke_exit")
void BPF_PROG(smoke_exit, struct scx_exit_info *ei)
{
	exit_kind = ei->kind;
	exit_called = 1;
}

SEC(".struct_ops.link")
struct sched_ext_ops smoke_ops = {
	.enqueue = (void *)smoke_enqueue,
	.init = (void *)smoke_init,
	.exit = (void *)smoke_exit,
	.name = "scx_smoke",
};
