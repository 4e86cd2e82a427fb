/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The loader's types: its options, the set of loaded objects and the exit
 * codes. A header of their own so that the loader's parts (kbtf.c,
 * load_common.c, load_vmscan.c) can use them without including the
 * loader they are called from.
 */
#ifndef NL_LOADER_TYPES_H
#define NL_LOADER_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "nl_types.h"
#include "exit_names.h"

struct nl_sched;
struct nl_alloc;
struct nl_migrate;
struct nl_vmscan;
struct bpf_link;

/* Exit codes shared by the CLI (documented in numalens --help). */
enum nl_exit {
	NL_EXIT_OK = 0,
	NL_EXIT_FAIL = 1,	/* runtime failure */
	NL_EXIT_USAGE = 2,	/* bad command line */
	NL_EXIT_PRIV = 3,	/* not root / missing CAP_BPF, CAP_PERFMON */
	NL_EXIT_KERNEL = 4,	/* kernel lacks BTF, bpffs/tracefs, or every tracepoint */
};

struct nl_bpf_opts {
	int cgroup_mode;	/* enum nl_cgroup_mode */
	const char *btf_path;	/* --btf: a BTF file of the running kernel for
				 * CO-RE (libbpf's btf_custom_path); NULL: the
				 * kernel's own /sys/kernel/btf/vmlinux */
	bool track_class;	/* attach mm_lru_insertion for anon/file/shmem */
	bool verbose;		/* libbpf's log to stderr */
	size_t map_budget_bytes;/* per per-CPU map; 0 = default 32 MiB */
	bool vmscan_only;	/* load only the reclaim (vmscan) object: for a
				 * long-running consumer of reclaim figures such
				 * as `numalens reclaim`, which has no use for
				 * the sched_switch/page-alloc hot-path programs */
	bool self_cost;		/* hold the kernel's BPF run-time stats
				 * (BPF_ENABLE_STATS) while open, for the
				 * per-program run counts and times. Off by
				 * default: while any holder has them on, every
				 * BPF program on the host pays two clock reads
				 * and a per-CPU update per run */
};

/* The loaded objects. Any skeleton pointer may be NULL when its
 * tracepoints are missing; `missing` says which and why. */
struct nl_bpf {
	struct nl_sched *sched;
	struct nl_alloc *alloc;
	struct nl_migrate *migrate;
	struct nl_vmscan *vmscan;	/* reclaim figures (vmscan.bpf.c) */
	struct nl_exit_names *exit_names;	/* names of exited processes (sched) */
	struct bpf_link *links[32];
	struct bpf_program *link_progs[32];	/* what links[i] runs */
	int nr_links;
	bool paused;		/* paused by nl_bpf_pause() */
	bool have_sched, have_alloc, have_alloc_class, have_migrate;
	bool have_vmscan;
	bool alloc_page_flags;	/* the alloc programs read node and zone from
				 * the struct page (tp_btf), not the pfn table */
	bool vmscan_memcg_arg;	/* 7.x: reclaim begin events name the memcg;
				 * false: limit reclaim is charged to the
				 * reclaiming task's cgroup */
	bool vmscan_proactive;	/* memory.reclaim told apart from limit reclaim
				 * (kallsyms had its entry points) */
	int stats_fd;		/* BPF_ENABLE_STATS fd; -1 if not asked for
				 * (self_cost) or refused */
	int nr_cpus;		/* possible CPUs: length of per-CPU value arrays */
	struct nl_alloc_slot *alloc_slots;	/* the alloc object's slot table,
				 * mmapped: nr_cpus * alloc_slots_per_cpu
				 * slots (nl_types.h); NULL without it */
	uint32_t alloc_slots_per_cpu;
	size_t alloc_slots_len;	/* bytes mapped */
	const struct nl_node_cell *node_cells;	/* the alloc object's exact node
				 * totals, mmapped (node_exact.h); NULL without */
	size_t node_cells_len;	/* bytes mapped */
	int nr_nodes;		/* 1 + highest possible node id: per-node slots
				 * of a sched_stats value (nl_sched_val_size) */
	uint32_t pidns_inum;	/* our pid namespace's inode number when it is
				 * not the initial one, else 0: process keys
				 * are pids of that namespace, and tasks it
				 * cannot see are summed under NL_TGID_OTHER_NS */
	char missing[512];
};

/* Where the kernel publishes its own BTF. */
#define NL_KERNEL_BTF "/sys/kernel/btf/vmlinux"

#endif
