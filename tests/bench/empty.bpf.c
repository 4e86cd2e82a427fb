// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * make bench: the floor. Programs that do nothing, attached to the same
 * tracepoints numalens uses, with the same attach types (tp_btf, as
 * numalens loads them where it can read the node from the struct page;
 * a host where it falls back to the classic tracepoints and the pfn table
 * compares with a lower floor than its own), so the
 * bench can divide numalens' ns/event by what merely running a BPF
 * program there costs. tests/bench/cost.sh loads them with
 * `bpftool prog loadall ... autoattach`.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

SEC("tp_btf/mm_page_alloc")
int BPF_PROG(empty_page_alloc)
{
	return 0;
}

SEC("tp_btf/mm_lru_insertion")
int BPF_PROG(empty_lru_insertion)
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
