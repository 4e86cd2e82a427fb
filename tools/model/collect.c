// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * One snapshot per interval; see collect.h. This file keeps the interval
 * and the order of the steps: read the raw counts (raw_counts.h), then the
 * parts that own their rows and state fold them: nodes and zones
 * (collect_nodes.c), processes (collect_procs.c), cgroups
 * (collect_cgroups.c), the sources and self figures (collect_sources.c),
 * and the reclaim, agent and opt-in figures of the model's other modules.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#include "alloc_attrib.h"
#include "alloc_latency.h"
#include "alloc_sample.h"
#include "collect.h"
#include "collect_cgroups.h"
#include "collect_nodes.h"
#include "collect_procs.h"
#include "collect_sources.h"
#include "page_lifetime.h"
#include "names.h"
#include "procfs.h"
#include "raw_counts.h"
#include "reclaim_read.h"
#include "vmscan_figs.h"
#include "vmscan_read.h"
#include "topology.h"

/* One collector: its options, the raw counts of the interval and the
 * parts that fold them; times are CLOCK_MONOTONIC ns. */
struct nl_collector {
	struct nl_bpf *b;
	struct nl_collect_opts o;
	uint64_t last_ns;		/* the previous snapshot */
	uint64_t seq;
	uint32_t alloc_period;		/* the BPF side's sample period now (alloc_sample.h) */
	/* the baseline snapshot nl_collect_open() takes and throws away: it
	 * needs the BPF counts, names and the cgroup tree, not what only a
	 * view reads (idle processes, numa_maps, memory.numa_stat) */
	bool baseline;
	struct nl_raw_counts raw;
	struct nl_raw_counts_ops ops;
	struct nl_collect_nodes *nodes;
	struct nl_collect_procs *procs;
	struct nl_collect_cgroups *cgroups;
	struct nl_vs_state *vs;		/* reclaim fold; NULL without the vmscan program */
	struct nl_ra_reader *ra_rd;	/* reclaim agents' published state */
	/* opt-ins, NULL unless asked for */
	struct nl_alloc_latency_state *lat;
	struct nl_alloc_attrib_state *attrib;
	struct nl_page_lifetime_state *life;
	/* what a view looks at now (nl_collect_focus): its numa_maps are read
	 * whatever its rank */
	int focus_pid;
	char focus_comm[NL_NAME_MAX];
	struct nl_focus focus_last;	/* the followed process's cgroup last time */
};

static uint64_t clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Keep the vmscan program's LRU mode in step with the kernel's (MGLRU can
 * be switched at run time). Returns true when MGLRU is on. */
static bool set_lru_mode(struct nl_collector *c)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/kernel/mm/lru_gen/enabled", c->o.sysfs_root);
	return nl_vmscan_read_set_lru_mode(c->b, path) != 0;
}

/* The pfn -> node table BPF places pages by. 0 or -errno (message in @err). */
static int load_pfn_table(struct nl_collector *c, char *err, size_t errlen)
{
	struct nl_pfn_range ranges[NL_MAX_PFN_RANGES];
	char zoneinfo[512];
	int e, n;

	snprintf(zoneinfo, sizeof(zoneinfo), "%s/zoneinfo", c->o.procfs_root);
	n = nl_pfn_ranges_build(ranges, NL_MAX_PFN_RANGES, c->o.sysfs_root, zoneinfo);
	if (n < 0) {
		snprintf(err, errlen, "cannot build the pfn -> node table from %s/devices/system/memory: %s",
			 c->o.sysfs_root, strerror(-n));
		return n;
	}
	e = nl_bpf_set_pfn_table(c->b, ranges, n);
	if (e)
		snprintf(err, errlen, "cannot load the pfn table into BPF: %s", strerror(-e));
	return e;
}

/* The parts and the opt-in figures. 0 or -errno. */
static int open_parts(struct nl_collector *c)
{
	const struct nl_collect_opts *o = &c->o;
	int e;

	e = nl_collect_cgroups_new(&c->cgroups, o->cgroup_root, o->cgroup_grace);
	if (!e && !(c->procs = nl_collect_procs_new(o)))
		e = -ENOMEM;
	if (!e && !(c->ra_rd = nl_ra_reader_new()))
		e = -ENOMEM;
	if (!e && c->b->vmscan) {
		e = nl_vmscan_figs_state_new(&c->vs);
		set_lru_mode(c);
	}
	if (!e && o->alloc_latency_sample && !(c->lat = nl_alloc_latency_start(o->alloc_latency_sample)))
		e = -ENOMEM;
	if (!e && o->alloc_stacks_sample && !(c->attrib = nl_alloc_attrib_start(o->alloc_stacks_sample)))
		e = -ENOMEM;
	if (!e && o->page_life_sample && !(c->life = nl_page_lifetime_start(o->page_life_sample)))
		e = -ENOMEM;
	return e;
}

/* Baseline: the programs have been counting since attach, before the first
 * interval began; a throwaway snapshot makes the first real one a delta
 * over its own interval only. 0 or -errno. */
static int take_baseline(struct nl_collector *c)
{
	struct nl_snapshot base = {};
	int e;

	nl_collect_nodes_start(c->nodes);
	c->last_ns = clock_ns(CLOCK_MONOTONIC);
	c->baseline = true;
	e = nl_collect_snapshot(c, &base);
	c->baseline = false;
	nl_snapshot_free(&base);
	if (e)
		return e;
	nl_collect_nodes_after_baseline(c->nodes);
	c->seq = 0;
	return 0;
}

int nl_collect_open(struct nl_collector **out, struct nl_bpf *b, const struct nl_collect_opts *o,
		    char *err, size_t errlen)
{
	struct nl_collector *c = calloc(1, sizeof(*c));
	int e;

	if (!c)
		return -ENOMEM;
	c->b = b;
	c->o = *o;
	nl_raw_counts_ops_bpf(b, &c->ops);
	/* before the first interval, so its slices are binned only if balancing runs */
	nl_bpf_set_numa_balancing(b, nl_proc_sysctl_read_int(c->o.procfs_root, "kernel/numa_balancing") > 0);
	if (!c->o.rss_max_procs)
		c->o.rss_max_procs = 64;
	e = nl_collect_nodes_open(&c->nodes, o->sysfs_root, o->procfs_root, err, errlen);
	if (!e)
		e = load_pfn_table(c, err, errlen);
	if (e) {
		nl_collect_close(c);
		return e;
	}
	/* a fixed period holds from the first allocation; the automatic one
	 * counts every allocation until the first interval says the rate */
	c->alloc_period = o->alloc_sample ? o->alloc_sample : 1;
	nl_bpf_set_alloc_sample(b, c->alloc_period);
	e = open_parts(c);
	if (!e) {
		e = take_baseline(c);
		if (e)
			snprintf(err, errlen, "cannot read the BPF maps: %s", strerror(-e));
	}
	if (e) {
		nl_collect_close(c);
		return e;
	}
	*out = c;
	return 0;
}

/* The sample period this interval's allocation figures were counted at,
 * and the next interval's, chosen from the kernel's own count of
 * allocator calls in this one (so it costs no BPF work to know the rate):
 * numastat's, which counts calls as a BPF event comes per call; pgalloc's
 * pages (a huge page is 512) only where vm.numa_stat is off. */
static void fill_alloc_sample(struct nl_collector *c, struct nl_snapshot *s)
{
	uint64_t calls = 0, pages = 0;

	for (int i = 0; i < s->nr_nodes; i++)
		calls += s->nodes[i].numastat.local_node + s->nodes[i].numastat.other_node;
	for (int z = 0; z < s->nr_zones; z++)
		pages += s->pgalloc[z];
	if (s->src.vm_numa_stat && calls)
		pages = calls;
	s->src.alloc_sample_period = c->alloc_period ? c->alloc_period : 1;
	/* the first interval is mostly our own start-up (BPF loads, BTF):
	 * no rate to go by */
	if (s->seq <= 1 && !c->o.alloc_sample)
		return;
	c->alloc_period = nl_alloc_sample_next(c->o.alloc_sample, pages, s->interval_ns);
	nl_bpf_set_alloc_sample(c->b, c->alloc_period);
}

void nl_collect_focus(struct nl_collector *c, int pid, const char *comm)
{
	if (!c)
		return;
	c->focus_pid = pid > 0 ? pid : 0;
	snprintf(c->focus_comm, sizeof(c->focus_comm), "%s", comm ? comm : "");
}

/* The interval's header: sequence, clocks, kernel, sources, scx_cling. */
static void fill_header(struct nl_collector *c, struct nl_snapshot *s, uint64_t now)
{
	struct utsname u;

	s->seq = ++c->seq;
	s->timestamp_ns = clock_ns(CLOCK_REALTIME);
	s->interval_ns = now - c->last_ns ? now - c->last_ns : 1;
	c->last_ns = now;
	s->page_size = sysconf(_SC_PAGESIZE);
	if (!uname(&u))
		snprintf(s->kernel, sizeof(s->kernel), "%s", u.release);
	nl_collect_sources_fill(c->b, &c->o, s);
	s->in_child_pidns = c->b->pidns_inum != 0;
	nl_raw_counts_take_cling(&c->raw, &s->cling_running, &s->cling);
}

/* The rows: processes over the last cgroup tree, then the tree walked
 * again and the cgroups, then what hangs on the cgroups (reclaim, the
 * agents' state). 0 or -errno. */
static int fill_rows(struct nl_collector *c, struct nl_snapshot *s, uint64_t now)
{
	const struct nl_cgroup_map *tree = nl_collect_cgroups_tree(c->cgroups);
	struct nl_collect_procs_in in = { .raw = &c->raw, .ops = &c->ops, .cgmap = tree,
					  .topo = nl_collect_nodes_topo(c->nodes), .baseline = c->baseline,
					  .focus_pid = c->focus_pid, .focus_comm = c->focus_comm,
					  .now_ns = now };
	int e = nl_collect_procs_fill(c->procs, &in, s);

	if (!e)
		e = nl_collect_cgroups_fill(c->cgroups, &c->raw, &c->ops, c->baseline, s);
	if (!e && c->vs && tree->n) {
		s->src.mglru = set_lru_mode(c);
		e = nl_raw_counts_read_vmscan(c->b, &c->raw);
		if (!e)
			e = nl_vmscan_figs_fill(c->vs, &c->raw.vs, tree, s);
	}
	if (!e && tree->n) {
		int n = nl_ra_read(c->ra_rd, c->o.reclaim_dir, c->o.cgroup_mode, s);

		e = n < 0 ? n : 0;
	}
	return e;
}

int nl_collect_snapshot(struct nl_collector *c, struct nl_snapshot *s)
{
	uint64_t now = clock_ns(CLOCK_MONOTONIC);
	struct nl_collect_procs_stats ps;
	int e;

	nl_snapshot_free(s);
	e = nl_raw_counts_read(c->b, c->o.cling_pin_dir, &c->raw);
	if (e)
		return e;
	fill_header(c, s, now);
	e = nl_collect_nodes_fill(c->nodes, c->raw.nodes, s);
	fill_alloc_sample(c, s);
	if (!e)
		e = fill_rows(c, s, now);
	if (!e) {
		/* -p first: that is the process whose cgroups top keeps showing */
		nl_snapshot_set_focus(s, c->o.watch_pid > 0 ? c->o.watch_pid : c->focus_pid,
				      &c->focus_last);
		c->focus_last = s->focus;
	}
	nl_collect_procs_stats(c->procs, &ps);
	nl_collect_sources_fill_self(c->b, &ps, nl_collect_cgroups_evicted(c->cgroups), s);
	nl_alloc_latency_fill(c->lat, &s->alloc_lat);
	nl_alloc_attrib_fill(c->attrib, &s->alloc_stacks);
	nl_page_lifetime_fill(c->life, &s->page_life);
	if (e)
		nl_snapshot_free(s);
	return e;
}

void nl_collect_close(struct nl_collector *c)
{
	if (!c)
		return;
	nl_collect_nodes_close(c->nodes);
	nl_collect_procs_free(c->procs);
	nl_collect_cgroups_free(c->cgroups);
	nl_raw_counts_free(&c->raw);
	nl_vmscan_figs_state_free(c->vs);
	nl_ra_reader_free(c->ra_rd);
	nl_alloc_latency_stop(c->lat);
	nl_alloc_attrib_stop(c->attrib);
	nl_page_lifetime_stop(c->life);
	free(c);
}
