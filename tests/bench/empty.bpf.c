// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * make bench: the floor. Programs that do nothing, attached to the same
 * tracepoints numalens uses, with the same attach types (classic
 * tracepoint where numalens needs the pfn, tp_btf elsewhere), so the
 * bench can divide numalens' ns/event by what merely running a BPF
 * program there costs. tests/bench/cost.sh loads them with
 * `bpftool prog loadall ... autoattach`.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

SEC("tracepoint/kmem/mm_page_alloc")
int empty_page_alloc(void *ctx)
{
	return 0;
}

SEC("tracepoint/pagemap/mm_lru_insertion")
int empty_lru_insertion(void *ctx)
{
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(empty_sched_switch)
{
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(empty_process_exit)
{
	return 0;
}
