/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * collect_priv: the collector's state, shared by its parts and by nothing
 * else: collect.c (open, close, the snapshot and its node, zone and source
 * figures), collect_procs.c (the process rows) and collect_cgroups.c (the
 * cgroup rows). Views see struct nl_collector only as an opaque pointer
 * (collect.h).
 */
#ifndef NL_COLLECT_PRIV_H
#define NL_COLLECT_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>
#include "cgroup.h"
#include "collect_opts.h"
#include "counts.h"
#include "loader.h"
#include "names.h"
#include "procfs.h"
#include "snapshot.h"
#include "topology.h"
#include "vmscan_raw.h"
#include "zones.h"

/*
 * One collector: the options it was opened with, the topology, the raw
 * counters of this and the previous interval (the deltas of a snapshot)
 * and what it keeps between snapshots so a process or cgroup costs few
 * reads. Counters are as BPF and the kernel count them (events, pages,
 * ns); times are CLOCK_MONOTONIC ns unless a field says otherwise.
 * struct rss_ent (the numa_maps readings) is complete in collect_procs.c
 * only, their one reader; nl_collect_close() frees the array.
 */
struct nl_collector {
	struct nl_bpf *b;
	struct nl_collect_opts o;
	struct nl_topo topo;
	uint64_t last_ns;		/* CLOCK_MONOTONIC of the previous snapshot */
	uint64_t seq;
	/* this and the previous interval's raw counters */
	struct nl_counts_table tgids, prev_tgids;
	struct nl_counts_table cgroups;		/* own, as read */
	struct nl_counts_table cg_tot, prev_cg_tot;	/* hierarchical */
	struct nl_node_counts nodes[NL_MAX_NODES], prev_nodes[NL_MAX_NODES];
	struct nl_numastat numastat_prev[NL_MAX_NODES];
	int nr_zones;
	char zone_names[NL_NR_ZONES][NL_ZONE_NAME_MAX];
	uint64_t pgalloc_prev[NL_NR_ZONES];
	struct nl_cpu_times *cpu_prev, *cpu_cur;
	int nr_cpu_slots;
	uint32_t alloc_period;		/* the BPF side's sample period now (alloc_sample.h) */
	struct nl_cgroup_map cgmap;
	struct nl_cgroup_fold fold;
	uint64_t procs_evicted, cgroups_evicted;
	uint64_t rss_reads, rss_reused;		/* this snapshot's numa_maps reads / reuses */
	/* pid -> comm of the previous interval, sorted by pid: the name of a
	 * process that exited before we could read /proc/PID/comm */
	struct comm_ent { pid_t pid; char comm[NL_NAME_MAX]; char cgroup[256]; uint64_t cgroup_id; } *comms;
	int nr_comms;
	/* removed cgroups still shown: id and intervals left */
	struct { uint64_t id, parent; int left; char *path; int depth; } *gone;	/* path: full, owned */
	int nr_gone, cap_gone;
	/* reclaim (vmscan): own fold, NULL without the vmscan program */
	struct nl_vs_state *vs;
	struct nl_vs_raw vs_raw;
	/* reclaim agents' published state -> nl_cgroup.agent */
	struct nl_ra_reader *ra_rd;
	/* allocation latency, NULL unless asked for */
	struct nl_alloc_latency_state *lat;
	struct nl_alloc_attrib_state *attrib;
	struct nl_page_lifetime_state *life;
	/* the last numa_maps reading of each process read, reused while the
	 * process stays as it was (rss_reuse) */
	struct rss_ent *rss;
	int nr_rss, cap_rss;
	uint64_t rss_gen;
	/* what a view looks at now (nl_collector_focus): its numa_maps are
	 * read whatever its rank */
	int focus_pid;
	char focus_comm[NL_NAME_MAX];
	/* the followed process's cgroup in the last snapshot (nl_focus) */
	struct nl_focus focus_last;
	/* this snapshot's last cgroup paths and their ids (cgroup_id_memo) */
	struct { char rel[512]; uint64_t id; } cgid[8];
	int nr_cgid, next_cgid;
	/* resident pages of the idle processes add_idle_procs() listed this
	 * snapshot, by pid: read_rss() ranks by them without reading statm
	 * again */
	struct pid_pages { pid_t pid; uint64_t pages; } *idle_res;
	int nr_idle_res;
	/* pid -> entry of the last cgroup tree whose cgroup.procs listed it,
	 * sorted by pid (cgroup_scan); ent -1: listed by more than one */
	/* where our cgroup namespace's root is in the mounted hierarchy ("" if
	 * at its top): /proc/<pid>/cgroup paths are relative to it */
	char cg_ns_prefix[4096];
	/* cgroup.procs lists pids of our pid namespace: false when that is
	 * not the one the mounted procfs shows (/proc/self is not getpid()) */
	bool cg_scan_ok;
	struct cg_of { pid_t pid; int ent; } *cgof;
	int nr_cgof, cap_cgof;
	pid_t *scan_pids;
	int cap_scan_pids;
	/* name and resident size of each idle process as last read from
	 * <pid>/stat, sorted by pid: a process that has not run since cannot
	 * have renamed itself (add_idle_procs) */
	struct idle_ent { pid_t pid; uint64_t res; uint64_t at_ns; char comm[NL_NAME_MAX]; } *idle, *idle_next;
	int nr_idle, nr_idle_next;
	int nr_list_pids;			/* processes /proc listed last time */
	unsigned long long task_full_seen;	/* task_map_full drops at the last snapshot */
	/* the baseline snapshot nl_collect_open() takes and throws away: it
	 * needs the BPF counts, names and the cgroup tree, not what only a
	 * view reads (idle processes, numa_maps, memory.numa_stat) */
	bool baseline;
};

/* Now on clock @clk in ns (CLOCK_MONOTONIC for intervals and ages). */
static inline uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#endif
