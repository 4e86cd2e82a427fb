// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* One snapshot per interval; see collect.h. The process rows are built in
 * collect_procs.c, the cgroup rows in collect_cgroups.c, over the state in
 * collect_priv.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#include "cgroup.h"
#include "collect.h"
#include "collect_cgroups.h"
#include "collect_priv.h"
#include "collect_procs.h"
#include "counts.h"
#include "maps.h"
#include "procfs.h"
#include "reclaim_read.h"
#include "topology.h"
#include "alloc_latency.h"
#include "alloc_attrib.h"
#include "alloc_sample.h"
#include "page_lifetime.h"
#include "vmscan_figs.h"
#include "vmscan_read.h"

#define MAX_CPUS 4096

/* Keep the vmscan program's LRU mode in step with the kernel's (MGLRU can
 * be switched at run time). Returns true when MGLRU is on. */
static bool set_lru_mode(struct nl_collector *c)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/kernel/mm/lru_gen/enabled", c->o.sysfs_root);
	return nl_vs_set_lru_mode(c->b, path) != 0;
}

static void read_numastat(struct nl_collector *c, struct nl_numastat out[NL_MAX_NODES])
{
	memset(out, 0, sizeof(*out) * NL_MAX_NODES);
	for (int i = 0; i < c->topo.nr_nodes; i++) {
		int nid = c->topo.nids[i];

		nl_numastat_read(c->o.sysfs_root, nid, &out[nid]);
	}
}

/* Wait, at most ~50 ms, until /proc/stat has counted a tick on every node
 * with CPUs since c->cpu_prev was read, so the first snapshot, which
 * export takes right after open, has each node's busy ratio: the counts
 * are in USER_HZ ticks (10 ms at 100 Hz). */
static void wait_cpu_tick(struct nl_collector *c)
{
	double busy[NL_MAX_NODES];
	int want = 0;

	for (int i = 0; i < c->topo.nr_nodes; i++)
		want += c->topo.node[c->topo.nids[i]].nr_cpus > 0;
	for (int i = 0; i < 25; i++) {
		if (nl_cpu_times_read(c->o.procfs_root, c->cpu_cur, c->nr_cpu_slots) < 0 ||
		    nl_node_busy_pct(&c->topo, c->cpu_prev, c->cpu_cur, c->nr_cpu_slots, busy) >= want)
			return;
		nanosleep(&(struct timespec){ .tv_nsec = 2000000 }, NULL);
	}
}

/* In a container (a cgroup namespace, maybe a pid namespace of its own)
 * the host's hierarchy and procfs, mounted in, name cgroups and pids from
 * the host's side while /proc/<pid>/cgroup and cgroup.procs answer from
 * ours: learn the offsets once, so every process is labelled with the
 * host's path, as outside. */
static void cgroup_namespace(struct nl_collector *c)
{
	char self[64], link[64];
	ssize_t l;
	int e;

	snprintf(self, sizeof(self), "%s/self", c->o.procfs_root);
	l = readlink(self, link, sizeof(link) - 1);
	link[l > 0 ? l : 0] = '\0';
	c->cg_scan_ok = l > 0 && atoi(link) == (int)getpid();
	c->cg_ns_prefix[0] = '\0';
	if (!c->o.cgroup_root || !c->o.cgroup_root[0])
		return;
	e = nl_cgroup_ns_prefix(c->o.procfs_root, c->o.cgroup_root, c->o.cgroup_mode, c->cg_ns_prefix,
				sizeof(c->cg_ns_prefix));
	if (e)
		c->cg_ns_prefix[0] = '\0';	/* paths taken as they read */
}

int nl_collect_open(struct nl_collector **out, struct nl_bpf *b, const struct nl_collect_opts *o,
		    char *err, size_t errlen)
{
	struct nl_collector *c = calloc(1, sizeof(*c));
	struct nl_pfn_range ranges[NL_MAX_PFN_RANGES];
	char zoneinfo[512];
	int e, n;

	if (!c)
		return -ENOMEM;
	c->b = b;
	c->o = *o;
	/* before the first interval, so its slices are binned only if balancing runs */
	nl_bpf_set_numa_balancing(b, nl_sysctl_read_int(c->o.procfs_root, "kernel/numa_balancing") > 0);
	if (!c->o.rss_max_procs)
		c->o.rss_max_procs = 64;
	if (!c->o.cgroup_grace)
		c->o.cgroup_grace = 1;
	e = nl_topo_load(&c->topo, o->sysfs_root);
	if (e) {
		snprintf(err, errlen, "cannot read the NUMA topology under %s: %s", o->sysfs_root,
			 c->topo.err[0] ? c->topo.err : strerror(-e));
		free(c);
		return e;
	}
	snprintf(zoneinfo, sizeof(zoneinfo), "%s/zoneinfo", o->procfs_root);
	n = nl_pfn_ranges_build(ranges, NL_MAX_PFN_RANGES, o->sysfs_root, zoneinfo);
	if (n < 0) {
		snprintf(err, errlen, "cannot build the pfn -> node table from %s/devices/system/memory: %s",
			 o->sysfs_root, strerror(-n));
		nl_collect_close(c);
		return n;
	}
	e = nl_bpf_set_pfn_table(b, ranges, n);
	if (e) {
		snprintf(err, errlen, "cannot load the pfn table into BPF: %s", strerror(-e));
		nl_collect_close(c);
		return e;
	}
	n = nl_zone_names(zoneinfo, c->zone_names, NL_NR_ZONES);
	c->nr_zones = n > 0 ? n : 0;
	nl_vmstat_pgalloc(o->procfs_root, c->zone_names, c->nr_zones, c->pgalloc_prev);
	/* a fixed period holds from the first allocation; the automatic one
	 * counts every allocation until the first interval says the rate */
	c->alloc_period = o->alloc_sample ? o->alloc_sample : 1;
	nl_bpf_set_alloc_sample(b, c->alloc_period);
	cgroup_namespace(c);
	e = nl_cgroup_fold_init(&c->fold, (int)NL_COUNTS_WIDTH);
	if (!e && !(c->ra_rd = nl_ra_reader_new()))
		e = -ENOMEM;
	if (!e && b->vmscan) {
		e = nl_vs_state_new(&c->vs);
		set_lru_mode(c);
	}
	if (!e && o->alloc_latency_sample && !(c->lat = nl_alloc_latency_start(o->alloc_latency_sample)))
		e = -ENOMEM;
	if (!e && o->alloc_stacks_sample && !(c->attrib = nl_alloc_attrib_start(o->alloc_stacks_sample)))
		e = -ENOMEM;
	if (!e && o->page_life_sample && !(c->life = nl_page_lifetime_start(o->page_life_sample)))
		e = -ENOMEM;
	if (e) {
		nl_collect_close(c);
		return e;
	}
	c->nr_cpu_slots = c->topo.nr_cpu_ids > 0 ? c->topo.nr_cpu_ids : 1;
	if (c->nr_cpu_slots > MAX_CPUS)
		c->nr_cpu_slots = MAX_CPUS;
	c->cpu_prev = calloc((size_t)c->nr_cpu_slots, sizeof(*c->cpu_prev));
	c->cpu_cur = calloc((size_t)c->nr_cpu_slots, sizeof(*c->cpu_cur));
	if (!c->cpu_prev || !c->cpu_cur) {
		nl_collect_close(c);
		return -ENOMEM;
	}
	nl_cpu_times_read(o->procfs_root, c->cpu_prev, c->nr_cpu_slots);
	read_numastat(c, c->numastat_prev);
	c->last_ns = now_ns(CLOCK_MONOTONIC);
	/* Baseline: the programs have been counting since attach, before
	 * this interval began; a throwaway snapshot makes the first real one
	 * a delta over its own interval only. */
	struct nl_snapshot base = {};

	c->baseline = true;
	e = nl_collect_snapshot(c, &base);
	c->baseline = false;
	nl_snapshot_free(&base);
	if (e) {
		snprintf(err, errlen, "cannot read the BPF maps: %s", strerror(-e));
		nl_collect_close(c);
		return e;
	}
	/* ... but the CPU busy ratio is not a BPF count: the first snapshot's
	 * spans from the reading above, the baseline's swapped back */
	struct nl_cpu_times *t = c->cpu_prev;

	c->cpu_prev = c->cpu_cur;
	c->cpu_cur = t;
	wait_cpu_tick(c);
	c->seq = 0;
	*out = c;
	return 0;
}

static struct nl_numastat numastat_delta(const struct nl_numastat *a, const struct nl_numastat *b)
{
#define D(f) .f = a->f >= b->f ? a->f - b->f : 0
	return (struct nl_numastat){ D(numa_hit), D(numa_miss), D(numa_foreign),
				     D(interleave_hit), D(local_node), D(other_node) };
#undef D
}

static uint64_t d64(uint64_t a, uint64_t b)
{
	return a >= b ? a - b : 0;
}

/* Zone names and the kernel's pgalloc_<zone> deltas into @s. */
static void fill_zones(struct nl_collector *c, struct nl_snapshot *s)
{
	uint64_t cur[NL_NR_ZONES];

	s->nr_zones = c->nr_zones;
	memcpy(s->zone_names, c->zone_names, sizeof(s->zone_names));
	if (nl_vmstat_pgalloc(c->o.procfs_root, c->zone_names, c->nr_zones, cur))
		return;
	for (int z = 0; z < c->nr_zones; z++)
		s->pgalloc[z] = d64(cur[z], c->pgalloc_prev[z]);
	memcpy(s->pgalloc_total, cur, sizeof(cur));
	memcpy(c->pgalloc_prev, cur, sizeof(cur));
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

static int fill_nodes(struct nl_collector *c, struct nl_snapshot *s)
{
	struct nl_numastat cur[NL_MAX_NODES];
	double busy[NL_MAX_NODES];

	nl_topo_refresh_mem(&c->topo, c->o.sysfs_root);
	nl_topo_refresh_cpus(&c->topo, c->o.sysfs_root);	/* CPU hotplug */
	read_numastat(c, cur);
	nl_cpu_times_read(c->o.procfs_root, c->cpu_cur, c->nr_cpu_slots);
	nl_node_busy_pct(&c->topo, c->cpu_prev, c->cpu_cur, c->nr_cpu_slots, busy);
	s->nodes = calloc((size_t)c->topo.nr_nodes, sizeof(*s->nodes));
	if (!s->nodes)
		return -ENOMEM;
	s->nr_nodes = c->topo.nr_nodes;
	fill_zones(c, s);
	for (int i = 0; i < c->topo.nr_nodes; i++) {
		int nid = c->topo.nids[i];
		const struct nl_topo_node *tn = &c->topo.node[nid];
		struct nl_node *n = &s->nodes[i];
		const struct nl_node_counts *bc = &c->nodes[nid], *bp = &c->prev_nodes[nid];

		n->nid = nid;
		n->nr_cpus = tn->nr_cpus;
		snprintf(n->cpulist, sizeof(n->cpulist), "%s", tn->cpulist);
		n->cpu_busy_pct = busy[nid];	/* NaN without online CPUs: JSON null */
		n->mem_total_bytes = tn->mem_total_bytes;
		n->mem_free_bytes = tn->mem_free_bytes;
		n->mem_used_bytes = d64(tn->mem_total_bytes, tn->mem_free_bytes);
		memcpy(n->distance, tn->distance, sizeof(n->distance));
		n->numastat_total = cur[nid];
		n->numastat = numastat_delta(&cur[nid], &c->numastat_prev[nid]);
		n->bpf_events_local = d64(bc->events_local, bp->events_local);
		n->bpf_events_other = d64(bc->events_other, bp->events_other);
		n->bpf_events_from_remote = d64(bc->events_from_remote, bp->events_from_remote);
		n->bpf_pages = d64(bc->pages, bp->pages);
		n->bpf_events_hit = d64(bc->events_hit, bp->events_hit);
		n->bpf_events_miss = d64(bc->events_miss, bp->events_miss);
		n->bpf_events_foreign = d64(bc->events_foreign, bp->events_foreign);
		n->bpf_events_hit_total = bc->events_hit;
		n->bpf_events_miss_total = bc->events_miss;
		n->bpf_events_foreign_total = bc->events_foreign;
		for (int z = 0; z < NL_NR_ZONES; z++) {
			n->bpf_pages_by_zone[z] = d64(bc->pages_by_zone[z], bp->pages_by_zone[z]);
			n->bpf_pages_by_zone_total[z] = bc->pages_by_zone[z];
		}
		n->run_ns = d64(bc->run_ns, bp->run_ns);
		n->numastat_unattributed = d64(n->numastat.local_node + n->numastat.other_node,
					       n->bpf_events_local + n->bpf_events_other);
	}
	memcpy(c->numastat_prev, cur, sizeof(cur));
	struct nl_cpu_times *t = c->cpu_prev;

	c->cpu_prev = c->cpu_cur;
	c->cpu_cur = t;
	return 0;
}
void nl_collector_focus(struct nl_collector *c, int pid, const char *comm)
{
	if (!c)
		return;
	c->focus_pid = pid > 0 ? pid : 0;
	snprintf(c->focus_comm, sizeof(c->focus_comm), "%s", comm ? comm : "");
}
/* True when a sched_ext scheduler is enabled (or being enabled or
 * disabled): /sys/kernel/sched_ext/state reads other than "disabled".
 * False when the kernel has no sched_ext. */
static bool sched_ext_on(const char *sysfs_root)
{
	char path[512], state[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/kernel/sched_ext/state", sysfs_root);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (!fgets(state, sizeof(state), f))
		state[0] = 0;
	fclose(f);
	return state[0] && strncmp(state, "disabled", 8) != 0;
}

static void fill_sources(struct nl_collector *c, struct nl_snapshot *s)
{
	struct nl_sources *src = &s->src;
	int nb = nl_sysctl_read_int(c->o.procfs_root, "kernel/numa_balancing");
	int ns = nl_sysctl_read_int(c->o.procfs_root, "vm/numa_stat");

	src->sched = c->b->have_sched;
	src->alloc = c->b->have_alloc;
	src->alloc_class = c->b->have_alloc_class;
	src->migrate = c->b->have_migrate;
	src->vmscan = c->b->have_vmscan;
	src->vmscan_memcg_arg = c->b->vmscan_memcg_arg;
	src->numa_balancing = nb > 0;
	nl_bpf_set_numa_balancing(c->b, src->numa_balancing);
	src->vm_numa_stat = ns != 0;	/* absent sysctl (old kernels): always counted */
	src->sysctl_numa_balancing = nb < 0 ? -1 : nb;
	src->sysctl_numa_stat = ns < 0 ? -1 : ns;
	src->sysctl_zone_reclaim_mode = nl_sysctl_read_int(c->o.procfs_root, "vm/zone_reclaim_mode");
	if (src->sysctl_zone_reclaim_mode < 0)
		src->sysctl_zone_reclaim_mode = -1;
	src->cgroup_mode = c->o.cgroup_mode;
	snprintf(src->cgroup_root, sizeof(src->cgroup_root), "%s", c->o.cgroup_root);
	snprintf(src->missing, sizeof(src->missing), "%s", c->b->missing);
	if (nb == 0) {
		size_t l = strlen(src->missing);

		snprintf(src->missing + l, sizeof(src->missing) - l, "%slocality: NUMA balancing is off (kernel.numa_balancing=0)",
			 l ? "; " : "");
	}
	src->sched_ext = sched_ext_on(c->o.sysfs_root);
	nl_bpf_set_sched_ext(c->b, src->sched_ext);
	if (src->sched_ext && nb != 0) {
		size_t l = strlen(src->missing);

		snprintf(src->missing + l, sizeof(src->missing) - l,
			 "%slocality: sched_ext (tasks on a sched_ext scheduler take no NUMA hinting "
			 "faults; only tasks whose fault counters moved are binned)", l ? "; " : "");
	}
}

static void fill_self(struct nl_collector *c, struct nl_snapshot *s)
{
	unsigned long long drops[NL_NR_DROPS], cnt[32], ns[32];
	char names[32][64];
	int n;

	nl_bpf_drops(c->b, drops);
	for (int i = 0; i < NL_NR_DROPS; i++)
		s->self.drops[i] = drops[i];
	s->self.procs_evicted = c->procs_evicted;
	s->self.numa_maps_read = c->rss_reads;
	s->self.numa_maps_reused = c->rss_reused;
	s->self.cgroups_evicted = c->cgroups_evicted;
	s->self.bpf_stats_enabled = nl_bpf_stats_on(c->b);
	n = nl_bpf_prog_stats(c->b, names, cnt, ns, 32);
	s->self.nr_progs = n;
	for (int i = 0; i < n; i++) {
		snprintf(s->self.progs[i].name, sizeof(s->self.progs[i].name), "%s", names[i]);
		s->self.progs[i].run_cnt = cnt[i];
		s->self.progs[i].run_time_ns = ns[i];
	}
}

int nl_collect_snapshot(struct nl_collector *c, struct nl_snapshot *s)
{
	struct utsname u;
	uint64_t now = now_ns(CLOCK_MONOTONIC);
	int e;

	nl_snapshot_free(s);
	/* swap the tgid tables so the previous reading stays for deltas */
	struct nl_counts_table t = c->prev_tgids;

	c->prev_tgids = c->tgids;
	c->tgids = t;
	memcpy(c->prev_nodes, c->nodes, sizeof(c->nodes));
	e = nl_maps_read(c->b, &c->tgids, &c->cgroups, c->nodes);
	if (e)
		return e;
	s->seq = ++c->seq;
	s->timestamp_ns = now_ns(CLOCK_REALTIME);
	s->interval_ns = now - c->last_ns ? now - c->last_ns : 1;
	c->last_ns = now;
	s->page_size = sysconf(_SC_PAGESIZE);
	if (!uname(&u))
		snprintf(s->kernel, sizeof(s->kernel), "%s", u.release);
	fill_sources(c, s);
	s->in_child_pidns = c->b->pidns_inum != 0;
	/* scx_cling is another process: its pinned maps, when it runs */
	s->cling_running = !nl_cling_stats_read(c->o.cling_pin_dir ? c->o.cling_pin_dir : CLING_PIN_DIR,
						&s->cling);
	e = fill_nodes(c, s);
	fill_alloc_sample(c, s);
	if (!e)
		e = nl_collect_fill_procs(c, s, s->interval_ns);
	if (!e)
		e = nl_collect_fill_cgroups(c, s, s->interval_ns);
	if (!e && c->vs && c->cgmap.n) {
		s->src.mglru = set_lru_mode(c);
		e = nl_vs_read(c->b, &c->vs_raw);
		if (!e)
			e = nl_vs_fill(c->vs, &c->vs_raw, &c->cgmap, s);
	}
	if (!e && c->cgmap.n) {
		int n = nl_ra_read(c->ra_rd, c->o.reclaim_dir, c->o.cgroup_mode, s);

		e = n < 0 ? n : 0;
	}
	if (!e) {
		/* -p first: that is the process whose cgroups top keeps showing */
		nl_snapshot_set_focus(s, c->o.watch_pid > 0 ? c->o.watch_pid : c->focus_pid,
				      &c->focus_last);
		c->focus_last = s->focus;
	}
	fill_self(c, s);
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
	nl_topo_free(&c->topo);
	nl_counts_free(&c->tgids);
	nl_counts_free(&c->prev_tgids);
	nl_counts_free(&c->cgroups);
	nl_counts_free(&c->cg_tot);
	nl_counts_free(&c->prev_cg_tot);
	nl_cgroup_map_free(&c->cgmap);
	nl_cgroup_fold_free(&c->fold);
	nl_vs_state_free(c->vs);
	nl_vs_raw_free(&c->vs_raw);
	nl_ra_reader_free(c->ra_rd);
	nl_alloc_latency_stop(c->lat);
	nl_alloc_attrib_stop(c->attrib);
	nl_page_lifetime_stop(c->life);
	free(c->cpu_prev);
	free(c->cpu_cur);
	for (int gi = 0; gi < c->nr_gone; gi++)
		free(c->gone[gi].path);
	free(c->gone);
	free(c->rss);
	free(c->idle_res);
	free(c->idle);
	free(c->idle_next);
	free(c->cgof);
	free(c->scan_pids);
	free(c->comms);
	free(c);
}
