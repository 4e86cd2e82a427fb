/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The snapshot model: one interval's view of the machine, built by
 * collect.c from the BPF maps plus procfs/sysfs/cgroupfs, and the only
 * thing the views (tui, text, json, prometheus) read. Views never touch
 * BPF maps or /proc themselves.
 *
 * Counters named *_total are monotonic since numalens started (or since
 * the object appeared); the matching *_delta fields are the change over
 * this interval (interval_ns). Rates are delta / interval.
 * Units: ns, pages (base pages of page_size bytes), bytes, events.
 */
#ifndef NL_SNAPSHOT_H
#define NL_SNAPSHOT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "nl_types.h"
#include "cgident.h"
#include "cling_stats.h"
#include "names.h"
#include "vmscan_types.h"
#include "procfs.h"
#include "zones.h"
#include "alloc_lat_types.h"
#include "alloc_stacks_types.h"
#include "page_life_types.h"

/* Locality of the NUMA-hinting faults, weighted by CPU time
 * (8 buckets of L/(L+R+1), L local and R remote faults). */
struct nl_locality {
	/* false when NUMA balancing is off or no sampled slice had faults:
	 * views print "unavailable"/NaN, never 0. */
	bool available;
	uint64_t bucket_ns[NL_LOC_BUCKETS];	/* delta over the interval */
	uint64_t nofault_ns;			/* delta: run time with no faults in window */
	/* CPU-time-weighted mean locality in [0,1] using bucket midpoints
	 * ((b + 0.5) / 8); NAN when !available. */
	double mean;
};

/* Page allocations of one process or cgroup over the interval. */
struct nl_alloc_figs {
	uint64_t events_local;		/* delta: page_nid == cpu_nid */
	uint64_t events_remote;		/* delta: page_nid != cpu_nid (unknown node excluded) */
	uint64_t pages_local;
	uint64_t pages_remote;
	uint64_t pages_by_node[NL_MAX_NODES];		/* delta, by page node */
	uint64_t pages_by_class[NL_NR_CLASSES];	/* delta, enum nl_alloc_class */
	uint64_t pages_unclassified;	/* MOVABLE - (ANON+FILE+SHMEM), clamped >= 0 */
	uint64_t fail_events;		/* delta: pfn == -1 (never local or remote) */
	uint64_t events_hit;		/* delta: page on the preferred node (bpf/alloc.bpf.c
					 * pref_node(): from the task's mempolicy) */
	uint64_t events_miss;		/* delta: page on another node than the preferred */
	/* since start (or since the process/cgroup was first seen) */
	uint64_t events_local_total, events_remote_total;
	uint64_t pages_local_total, pages_remote_total;
	uint64_t fail_events_total;
	uint64_t events_hit_total, events_miss_total;
	/* since start, the monotonic twins of pages_by_node/pages_by_class
	 * (Prometheus counters, view_prom.c) */
	uint64_t pages_by_node_total[NL_MAX_NODES];
	uint64_t pages_by_class_total[NL_NR_CLASSES];
};

/* NUMA moves and migrations (deltas over the interval). */
struct nl_migrate_figs {
	uint64_t move_numa, swap_numa, stick_numa;
	uint64_t pages_ok;			/* all reasons */
	uint64_t pages_fail;
	uint64_t numa_misplaced_ok;		/* reason MR_NUMA_MISPLACED */
	uint64_t numa_misplaced_fail;
	uint64_t pages_ok_by_reason[NL_MIGRATE_REASONS];
	uint64_t pages_fail_by_reason[NL_MIGRATE_REASONS];
	/* since start */
	uint64_t move_numa_total, swap_numa_total, stick_numa_total;
	uint64_t pages_ok_total, pages_fail_total;
	uint64_t numa_misplaced_ok_total, numa_misplaced_fail_total;
};

/* Figures common to a process and a cgroup. */
struct nl_figs {
	uint64_t run_ns_by_node[NL_MAX_NODES];	/* delta: on-CPU time per node */
	uint64_t run_ns;			/* delta: sum over nodes */
	uint64_t run_ns_total;			/* since start */
	uint64_t run_ns_total_by_node[NL_MAX_NODES];
	double cpu_pct;				/* run_ns / interval_ns * 100 (can exceed 100) */
	struct nl_locality loc;
	struct nl_alloc_figs alloc;
	struct nl_migrate_figs mig;
	uint64_t locality_ns_total[NL_LOC_BUCKETS];	/* since start, for histograms */
};

/* ---- reclaim (vmscan) figures: the seed's memory.vmscan_stat ---- */

/* Pages reclaim touched, in one context (enum nl_vs_ctx); [0] anon,
 * [1] file, base pages. scanned = the seed's scanned_*_pages (inactive
 * isolated + active taken), refill = its active-list part (memory.stat
 * pgrefill), rotated = activated, freed = reclaimed. pageout_* are
 * MADV_PAGEOUT/DAMON pages, which have no anon/file split. Invariants:
 * freed[t] <= scanned[t], refill[t] <= scanned[t]. */
struct nl_vs_page_figs {
	uint64_t scanned[2], refill[2], rotated[2], freed[2];
	uint64_t pageout_scanned, pageout_rotated, pageout_freed;
};

/* Reclaim episodes of one context: begin -> end per task, wall clock. */
struct nl_vs_time_figs {
	uint64_t elapsed_ns;		/* the seed's elapsed_ns_by_* */
	uint64_t episodes;
	uint64_t throttled;		/* mm_vmscan_throttled events */
	uint64_t throttled_ns;
	uint64_t hist[NL_VS_HIST];	/* episodes by log2(ns), bucket b = [2^b, 2^(b+1)) */
};

/* One node's share of a cgroup's reclaim pages, per context: the
 * interval's deltas and the totals since start. */
struct nl_vs_node_figs {
	struct nl_vs_page_figs delta[NL_VS_NR_CTX], total[NL_VS_NR_CTX];
};

/* Reclaim of one cgroup, hierarchical (its subtree, removed descendants
 * included: parents are recursive sums). Deltas over the interval
 * and *_total since start, per context; node[nid] splits pages[c] and
 * pages_total[c] by node. The node split is sized to the nids the
 * machine has (nr_nids = highest nid + 1), not NL_MAX_NODES, so one
 * allocation of nl_vmscan_figs_size(nr_nids) bytes holds it all: read
 * it through nl_vs_node(), which gives zeros past nr_nids.
 * Attribution rules: README "numalens vmscan". */
struct nl_vmscan_figs {
	struct nl_vs_page_figs pages[NL_VS_NR_CTX], pages_total[NL_VS_NR_CTX];
	struct nl_vs_time_figs time[NL_VS_NR_CTX], time_total[NL_VS_NR_CTX];
	int nr_nids;
	struct nl_vs_node_figs node[];
};

/* Bytes of a struct nl_vmscan_figs with @nr_nids node slots. */
static inline size_t nl_vmscan_figs_size(int nr_nids)
{
	return sizeof(struct nl_vmscan_figs) +
	       (size_t)(nr_nids > 0 ? nr_nids : 0) * sizeof(struct nl_vs_node_figs);
}

/* Node @nid's share of @v (NULL allowed): zeros when @v has no slot
 * for it (a node that joined later, or a cgroup without figures). */
static inline const struct nl_vs_node_figs *nl_vs_node(const struct nl_vmscan_figs *v, int nid)
{
	static const struct nl_vs_node_figs zero;

	return v && nid >= 0 && nid < v->nr_nids ? &v->node[nid] : &zero;
}

/* ---- the reclaim agent (`numalens reclaim`) ---- */

/* Backends of the agent, in the order of its probe (reclaim_backend.h). */
#define NL_RA_NR_BACKENDS 4	/* damos, madvise, memcg, lru_gen */
/* Draw sources: [0] the limit-reclaim hook, [1] the agent's own passes. */
#define NL_RA_NR_SOURCES 2

/* What a running agent published about one cgroup it manages (its state
 * file under NL_RECLAIM_RUN_DIR, reclaim_read.h). Counters are since that
 * agent started; *_delta over this snapshot's interval (0 on the first
 * sight). Arrays by nid. Accounted apart from direct-reclaim stalls: the agent's own reclaim
 * is never reported as tasks stalling. */
struct nl_reclaim_agent_figs {
	int pid;				/* the agent process */
	char backend[16];			/* in use: "damos", "madvise", "memcg" */
	char victim[16];			/* "lottery" or "round-robin" */
	bool dry_run;				/* decisions only, nothing reclaimed */
	bool reclaiming;			/* usage crossed high and not yet at low */
	bool scan_vmscan;			/* weights fed by vmscan figures, else the cold-start prior */
	uint64_t high_bytes, low_bytes;		/* resolved watermarks */
	uint64_t weight_total;			/* the seed's scan_weight */
	uint64_t weight[NL_MAX_NODES];
	uint64_t draws_total[NL_RA_NR_SOURCES][NL_MAX_NODES];	/* victim draws by node */
	uint64_t pages_total[NL_RA_NR_BACKENDS][NL_MAX_NODES];	/* pages freed (numa_stat deltas) */
	uint64_t passes_total, steps_total, no_progress_stops_total;
	uint64_t pages_delta;			/* all backends and nodes */
	uint64_t passes_delta;
	double over_high_seconds_total;		/* usage above high */
	double agent_seconds_total;		/* wall time in the agent's own reclaim calls */
};

/* One process (tgid). */
struct nl_proc {
	pid_t pid;
	char comm[NL_NAME_MAX];		/* cleaned by the name rule (names.h): valid
					 * UTF-8, control characters as \xHH */
	uint64_t cgroup_id;		/* index into the cgroup table, 0 if unknown */
	char cgroup_path[256];		/* cgroup path relative to its mount, "/" for root */
	bool alive;			/* false: exited during the interval (last figures) */
	/* resident pages per node from /proc/PID/numa_maps; rss_known false
	 * when it could not be read (permissions, exited). */
	bool rss_known;
	uint64_t rss_pages_by_node[NL_MAX_NODES];
	/* memory policy from the same numa_maps read (procfs.h): the task's
	 * and the busiest other one a mapping set; meaningful when rss_known */
	struct nl_mempolicy mempolicy;
	struct nl_figs f;
};

/* One cgroup. Figures are hierarchical: its own tasks plus all
 * descendants, including removed ones (a parent's counts never go down). */
struct nl_cgroup {
	uint64_t id;			/* kernfs id (inode number) */
	uint64_t parent_id;		/* 0 for the root */
	char path[512];			/* relative to the hierarchy root, "/" for root;
					 * cleaned by the name rule (names.h); a longer
					 * path is cut on a character and ends in
					 * "...#<id>", an altered one in "#<id>": a
					 * unique label */
	char *long_path;		/* owned: the full path when path[] is such a
					 * label, else NULL; see nl_cgroup_full_path() */
	int depth;			/* 0 for the root */
	bool removed;			/* gone from cgroupfs; kept for the grace period */
	/* the Kubernetes pod and container and the systemd service the full
	 * path names (cgident.h), read once here so that every view shows
	 * the same; all empty for a cgroup of none */
	struct nl_cg_ident ident;
	/* memory.numa_stat per node (bytes): anon and file; known false on
	 * kernels/hierarchies without it */
	bool numa_stat_known;
	uint64_t anon_bytes_by_node[NL_MAX_NODES];
	uint64_t file_bytes_by_node[NL_MAX_NODES];
	struct nl_figs f;
	/* reclaim (owned by the snapshot); NULL when the vmscan program is
	 * not loaded or the cgroup never reclaimed: read it through
	 * nl_vmscan_figs_cgroup() (vmscan_figs.h) */
	struct nl_vmscan_figs *vmscan;
	/* the reclaim agent managing this cgroup (owned by the snapshot);
	 * NULL when none runs for it */
	struct nl_reclaim_agent_figs *agent;
};


/* One online NUMA node. */
struct nl_node {
	int nid;
	int nr_cpus;
	char cpulist[128];			/* as in sysfs, e.g. "0-3,8" */
	double cpu_busy_pct;			/* from /proc/stat over the interval, 0..100;
						 * NaN: no online CPU (or no tick) */
	uint64_t mem_total_bytes, mem_free_bytes, mem_used_bytes;
	uint8_t distance[NL_MAX_NODES];		/* SLIT row by node id (10 = local),
						 * 0 unknown (topology.h) */
	struct nl_numastat numastat;		/* delta */
	struct nl_numastat numastat_total;	/* absolute, as read */
	/* BPF view of allocations landing on / made from this node (delta, events) */
	uint64_t bpf_events_local;		/* cpu node == page node == nid */
	uint64_t bpf_events_other;		/* page on nid, allocated from another node's CPU
						 * (what numastat counts as other_node) */
	uint64_t bpf_events_from_remote;	/* allocated on nid's CPUs, page elsewhere */
	uint64_t bpf_pages;			/* pages allocated on this node */
	/* against the preferred node, as numastat's numa_hit, numa_miss
	 * and numa_foreign (delta, events) */
	uint64_t bpf_events_hit, bpf_events_miss, bpf_events_foreign;
	/* the same since numalens started (Prometheus counters) */
	uint64_t bpf_events_hit_total, bpf_events_miss_total, bpf_events_foreign_total;
	/* the same by zone index (names in nl_snapshot.zone_names): delta,
	 * and as read (monotonic while the keys that hold them live) */
	uint64_t bpf_pages_by_zone[NL_NR_ZONES], bpf_pages_by_zone_total[NL_NR_ZONES];
	/* numastat (local_node + other_node) minus the BPF events for this
	 * node, clamped at 0: allocations mm_page_alloc does not fire for,
	 * such as the bulk allocator, shown apart rather
	 * than hidden in a tolerance. */
	uint64_t numastat_unattributed;
	uint64_t run_ns;			/* delta: all on-CPU time seen on this node */
	/* reclaim of this node's LRUs, every cgroup, per context (vmscan) */
	struct nl_vs_page_figs vmscan[NL_VS_NR_CTX], vmscan_total[NL_VS_NR_CTX];
};

/* Counters about numalens itself. */
struct nl_self {
	uint64_t drops[NL_NR_DROPS];	/* totals since start, enum nl_drop */
	uint64_t procs_evicted;		/* exited tgids removed from the BPF maps */
	uint64_t cgroups_evicted;	/* removed cgroups folded into parents and dropped */
	uint64_t numa_maps_read;	/* this interval: processes whose numa_maps was read */
	uint64_t numa_maps_reused;	/* this interval: processes given their last reading
					 * (nothing can have moved their pages since) */
	/* per BPF program: name, run count and run time (kernel.bpf_stats_enabled) */
	int nr_progs;
	struct {
		char name[64];
		uint64_t run_cnt;
		uint64_t run_time_ns;
	} progs[32];
	bool bpf_stats_enabled;
};

/* What this kernel/session can and cannot show. */
struct nl_sources {
	bool sched;		/* sched_switch program attached */
	bool alloc;		/* mm_page_alloc attached */
	bool alloc_class;	/* mm_lru_insertion attached (anon/file/shmem split) */
	bool migrate;		/* migration tracepoints attached */
	bool vmscan;		/* reclaim tracepoints attached */
	bool vmscan_memcg_arg;	/* the kernel names the memcg at reclaim begin
				 * (7.x); false: limit reclaim is charged to the
				 * reclaiming task's cgroup */
	bool mglru;		/* multi-gen LRU on (lru_gen/enabled bit 0) when
				 * the reclaim figures were read */
	bool numa_balancing;	/* /proc/sys/kernel/numa_balancing != 0 */
	bool vm_numa_stat;	/* /proc/sys/vm/numa_stat != 0: numastat cross-check valid */
	bool sched_ext;		/* a sched_ext scheduler was enabled: locality only
				 * for tasks whose fault counters moved */
	/* the sysctls as read this interval, -1 where the kernel has none */
	int sysctl_numa_balancing;	/* kernel.numa_balancing (bit 1: memory tiering) */
	int sysctl_numa_stat;		/* vm.numa_stat */
	int sysctl_zone_reclaim_mode;	/* vm.zone_reclaim_mode: != 0 reclaims on the
					 * local node before going remote */
	int cgroup_mode;	/* enum nl_cgroup_mode */
	uint32_t alloc_sample_period;	/* this interval's allocation figures were
					 * counted from one allocation in this many,
					 * each standing for as many (1: every one,
					 * exact); alloc_sample.h for their error */
	char cgroup_root[256];	/* mount point the cgroup paths are relative to */
	char missing[512];	/* human list of what is unavailable and why */
};

/* Page-allocator latency, opt-in (top --alloc-latency; bpf/alloc_lat.bpf.c):
 * one allocator call in sample_every timed from entry to exit of the
 * allocator's core function (hook), counted by log2(ns) per (place,
 * class), hist index place * NL_LAT_NR_CLASSES + class (enum nl_lat_place;
 * class kernel, reclaimable, movable by the call's gfp flags). Deltas over
 * the interval. */
struct nl_alloc_latency {
	bool enabled;			/* asked for */
	bool available;			/* the program runs; else unavailable says why */
	char hook[64];			/* the kernel function timed */
	char unavailable[320];
	uint32_t sample_every;
	uint64_t calls, sampled, lost;	/* enum nl_lat_stat */
	uint64_t hist[NL_LAT_NR_HISTS][NL_LAT_BUCKETS];	/* bucket b = [2^b, 2^(b+1)) ns */
	uint64_t sum_ns[NL_LAT_NR_HISTS];
	/* the program's own runs and run time (both entry and exit), 0
	 * unless the kernel counts BPF run times (--self-cost) */
	uint64_t prog_runs, prog_run_ns;
};

/* Stacks kept and frames named per stack in a snapshot (top --alloc-stacks). */
#define NL_ATTRIB_TOP 10
#define NL_ATTRIB_FRAMES 20
#define NL_ATTRIB_FRAME_LEN 64

/* One attributed allocation site: sampled allocations since start under
 * one kernel stack, gfp flags, class and order. */
struct nl_alloc_site {
	uint64_t events, pages;		/* sampled, since start */
	uint32_t gfp;
	char gfp_names[160];		/* "__GFP_IO|__GFP_FS|..." (hex for unnamed bits) */
	uint8_t class;			/* enum nl_alloc_class: kernel, reclaimable, movable */
	uint8_t kind;			/* NL_STK_REMOTE | NL_STK_MISS */
	uint8_t order;
	bool thp;			/* order is the PMD order: a transparent huge page */
	int nr_frames;
	/* innermost first, the tracing frames (BPF, tracepoint) left out:
	 * "function+0xoff", or the hex address when kallsyms hides it */
	char frames[NL_ATTRIB_FRAMES][NL_ATTRIB_FRAME_LEN];
};

/* Miss and remote attribution, opt-in (top --alloc-stacks;
 * bpf/alloc_stacks.bpf.c): allocations that landed off the CPU's node or
 * off the preferred node, one in sample_every counted under its kernel
 * stack. Figures are totals since start (a site's share needs the whole
 * run), not interval deltas. */
struct nl_alloc_stacks {
	bool enabled;			/* asked for */
	bool available;			/* the program runs; else unavailable says why */
	char unavailable[320];
	uint32_t sample_every;
	/* enum nl_stk_stat since start: allocations seen, remote and miss
	 * among them, sampled, and the sampled ones lost (no stack slot,
	 * counts map full) */
	uint64_t allocs, seen_remote, seen_miss, sampled, no_stack, keys_full;
	int nr_keys;			/* distinct sites counted so far */
	int nr;				/* sites below, most sampled events first */
	struct nl_alloc_site top[NL_ATTRIB_TOP];
	/* the program's runs and run time since start, 0 unless the kernel
	 * counts BPF run times (--self-cost) */
	uint64_t prog_runs, prog_run_ns;
};

/* Page lifetime, opt-in (top --page-lifetime; bpf/page_life.bpf.c): one
 * allocation in sample_every timed until its page is freed, counted by
 * log2(ns) per (place, class) at the free, hist index place *
 * NL_LIFE_NR_CLASSES + class (enum nl_life_place, enum nl_life_class).
 * Deltas over the interval: a page counts in the interval it was freed. */
struct nl_page_lifetime {
	bool enabled;			/* asked for */
	bool available;			/* the programs run; else unavailable says why */
	char unavailable[320];
	uint32_t sample_every;
	uint64_t allocs, sampled, not_kept, freed;	/* enum nl_life_stat */
	uint64_t hist[NL_LIFE_NR_HISTS][NL_LIFE_BUCKETS];	/* bucket b = [2^b, 2^(b+1)) ns */
	uint64_t sum_ns[NL_LIFE_NR_HISTS];
	/* both programs' runs and run time, 0 unless the kernel counts BPF
	 * run times (--self-cost) */
	uint64_t prog_runs, prog_run_ns;
};

/* The process top follows (-p, or the TUI's detail window) and the full
 * path of the cgroup it is in, or was last seen in: collect.c carries it
 * from snapshot to snapshot, so once the process has exited and left the
 * rows `top -p PID` still shows the cgroups it ran in. pid 0: none;
 * cgroup "": the process was never seen. */
struct nl_focus {
	pid_t pid;
	char cgroup[4608];
};

/* The snapshot. Arrays are owned by the snapshot (nl_snapshot_free). */
struct nl_snapshot {
	uint64_t seq;			/* 1 for the first interval */
	uint64_t timestamp_ns;		/* CLOCK_REALTIME at the end of the interval */
	uint64_t interval_ns;		/* measured, not the requested one */
	long page_size;			/* bytes */
	char kernel[128];		/* uname -r */
	struct nl_sources src;

	int nr_nodes;
	struct nl_node *nodes;		/* sorted by nid */
	/* zones by index, as /proc/zoneinfo names them (0 when unreadable),
	 * and the kernel's pgalloc_<zone> deltas over the interval (base
	 * pages, every node summed; /proc/vmstat), to check the per-zone
	 * BPF pages against */
	int nr_zones;
	char zone_names[NL_NR_ZONES][NL_ZONE_NAME_MAX];
	uint64_t pgalloc[NL_NR_ZONES];
	uint64_t pgalloc_total[NL_NR_ZONES];	/* the same as read: since boot */
	int nr_procs;
	struct nl_proc *procs;		/* any order; views sort */
	int nr_cgroups;
	struct nl_cgroup *cgroups;	/* parents before children (pre-order) */
	struct nl_self self;
	/* numalens runs in a pid namespace other than the initial one (a
	 * container, unshare --pid): processes are listed by their pids in
	 * that namespace, and the tasks it cannot see are summed here, never
	 * listed (they have no pid numalens could show). in_child_pidns false:
	 * every process is listed and other_pidns is zero. */
	bool in_child_pidns;
	struct nl_figs other_pidns;
	/* scx_cling, read from the maps it pins while it runs
	 * (tools/source/cling_stats.h): monotonic per-node counters since it
	 * attached, NUMA groups with their homes and failure ratios.
	 * cling_running false (and cling empty) when it is not running. */
	bool cling_running;
	struct nl_cling_stats cling;
	struct nl_alloc_latency alloc_lat;	/* enabled false unless asked for */
	struct nl_alloc_stacks alloc_stacks;	/* enabled false unless asked for */
	struct nl_page_lifetime page_life;	/* enabled false unless asked for */
	struct nl_focus focus;			/* pid 0 unless a process is followed */
};

/* Free the arrays of @s and zero it. Safe on a zeroed snapshot. */
void nl_snapshot_free(struct nl_snapshot *s);

/* nl_snapshot_free_rows - free only @s's process and cgroup rows (with each
 * cgroup's owned parts) and zero their counts; nodes, sources and the rest
 * stay (the exporter keeps them after rendering). */
void nl_snapshot_free_rows(struct nl_snapshot *s);

/* nl_cgroup_full_path - @g's whole path relative to the hierarchy root:
 * what filters (-c, --cgroup-pattern) match, while g->path is the label
 * the views print. */
static inline const char *nl_cgroup_full_path(const struct nl_cgroup *g)
{
	return g->long_path ? g->long_path : g->path;
}

/* nl_snapshot_proc_cgroup - the full path of the cgroup process @pid is in
 * per @s's rows: its cgroup's nl_cgroup_full_path() found by id (the
 * process's cgroup_path is a label, cut or cleaned for long or odd names),
 * else that label when the cgroup is not in the table. NULL when @pid has
 * no row. */
const char *nl_snapshot_proc_cgroup(const struct nl_snapshot *s, pid_t pid);

/* nl_snapshot_set_focus - fill @s->focus for process @pid (0: none): the
 * cgroup its row in @s names, or, with no row (it exited), @last's cgroup
 * when @last followed the same pid (the previous snapshot's focus). */
void nl_snapshot_set_focus(struct nl_snapshot *s, pid_t pid, const struct nl_focus *last);

/* Deep-copy @src into @dst (which is overwritten, not freed): nodes,
 * processes, cgroups with their owned reclaim and agent parts, and the
 * scx_cling groups, so each snapshot can be freed on its own. Returns 0,
 * -EINVAL on negative counts, or -ENOMEM (then @dst is untouched). */
int nl_snapshot_copy(struct nl_snapshot *dst, const struct nl_snapshot *src);

/* Return the locality mean in [0,1] of @bucket_ns (CPU-time weighted,
 * bucket midpoints (b+0.5)/8), or NAN if the buckets sum to 0. */
double nl_snapshot_locality_mean(const uint64_t bucket_ns[NL_LOC_BUCKETS]);
/* Return the CPU-time median locality of @bucket_ns in [0,1]: the point
 * where half of the time lies below, taken linearly inside the bucket
 * that holds it (bucket b spans [b/8, (b+1)/8)); NAN if they sum to 0. */
double nl_snapshot_locality_median(const uint64_t bucket_ns[NL_LOC_BUCKETS]);

/*
 * Copy @missing (the snapshot's "; "-separated list of what is unavailable)
 * to @out without the entries that start with @prefix, for a view that
 * already says that part another way or does not show it. Entries that do
 * not fit @sz are left out whole.
 */
void nl_snapshot_missing_without(char *out, size_t sz, const char *missing, const char *prefix);

/* nl_snapshot_drop_name - the name views give drop reason @i (enum nl_drop):
 * "task_map_full", ...; "unknown" past the last. */
const char *nl_snapshot_drop_name(unsigned int i);

#endif /* NL_SNAPSHOT_H */
