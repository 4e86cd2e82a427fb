// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The node and zone rows of a snapshot; see collect_nodes.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "collect_nodes.h"
#include "procfs.h"
#include "zones.h"

#define MAX_CPUS 4096

/* The node part: the topology and the previous interval's readings. */
struct nl_collect_nodes {
	const char *sysfs_root, *procfs_root;
	struct nl_topo topo;
	struct nl_node_counts prev[NL_MAX_NODES];	/* BPF's, by node id */
	struct nl_numastat numastat_prev[NL_MAX_NODES];
	int nr_zones;
	char zone_names[NL_NR_ZONES][NL_ZONE_NAME_MAX];
	uint64_t pgalloc_prev[NL_NR_ZONES];
	struct nl_cpu_times *cpu_prev, *cpu_cur;	/* by CPU id */
	int nr_cpu_slots;
};

static uint64_t d64(uint64_t a, uint64_t b)
{
	return a >= b ? a - b : 0;
}

static void read_numastat(struct nl_collect_nodes *c, struct nl_numastat out[NL_MAX_NODES])
{
	memset(out, 0, sizeof(*out) * NL_MAX_NODES);
	for (int i = 0; i < c->topo.nr_nodes; i++) {
		int nid = c->topo.nids[i];

		nl_proc_numastat_read(c->sysfs_root, nid, &out[nid]);
	}
}

int nl_collect_nodes_open(struct nl_collect_nodes **out, const char *sysfs_root, const char *procfs_root,
			  char *err, size_t errlen)
{
	struct nl_collect_nodes *c = calloc(1, sizeof(*c));
	char zoneinfo[512];
	int e, n;

	if (!c)
		return -ENOMEM;
	c->sysfs_root = sysfs_root;
	c->procfs_root = procfs_root;
	e = nl_topo_load(&c->topo, sysfs_root);
	if (e) {
		snprintf(err, errlen, "cannot read the NUMA topology under %s: %s", sysfs_root,
			 c->topo.err[0] ? c->topo.err : strerror(-e));
		nl_collect_nodes_close(c);
		return e;
	}
	snprintf(zoneinfo, sizeof(zoneinfo), "%s/zoneinfo", procfs_root);
	n = nl_zone_names(zoneinfo, c->zone_names, NL_NR_ZONES);
	c->nr_zones = n > 0 ? n : 0;
	nl_zone_vmstat_pgalloc(procfs_root, c->zone_names, c->nr_zones, c->pgalloc_prev);
	c->nr_cpu_slots = c->topo.nr_cpu_ids > 0 ? c->topo.nr_cpu_ids : 1;
	if (c->nr_cpu_slots > MAX_CPUS)
		c->nr_cpu_slots = MAX_CPUS;
	c->cpu_prev = calloc((size_t)c->nr_cpu_slots, sizeof(*c->cpu_prev));
	c->cpu_cur = calloc((size_t)c->nr_cpu_slots, sizeof(*c->cpu_cur));
	if (!c->cpu_prev || !c->cpu_cur) {
		nl_collect_nodes_close(c);
		return -ENOMEM;
	}
	*out = c;
	return 0;
}

const struct nl_topo *nl_collect_nodes_topo(const struct nl_collect_nodes *c)
{
	return &c->topo;
}

void nl_collect_nodes_start(struct nl_collect_nodes *c)
{
	nl_proc_cpu_times_read(c->procfs_root, c->cpu_prev, c->nr_cpu_slots);
	read_numastat(c, c->numastat_prev);
}

static void swap_cpu(struct nl_collect_nodes *c)
{
	struct nl_cpu_times *t = c->cpu_prev;

	c->cpu_prev = c->cpu_cur;
	c->cpu_cur = t;
}

void nl_collect_nodes_after_baseline(struct nl_collect_nodes *c)
{
	double busy[NL_MAX_NODES];
	int want = 0;

	swap_cpu(c);	/* the baseline's reading out, start's back */
	for (int i = 0; i < c->topo.nr_nodes; i++)
		want += c->topo.node[c->topo.nids[i]].nr_cpus > 0;
	/* counts are in USER_HZ ticks (10 ms at 100 Hz) */
	for (int i = 0; i < 25; i++) {
		if (nl_proc_cpu_times_read(c->procfs_root, c->cpu_cur, c->nr_cpu_slots) < 0 ||
		    nl_proc_node_busy_pct(&c->topo, c->cpu_prev, c->cpu_cur, c->nr_cpu_slots, busy) >= want)
			return;
		nanosleep(&(struct timespec){ .tv_nsec = 2000000 }, NULL);
	}
}

static struct nl_numastat numastat_delta(const struct nl_numastat *a, const struct nl_numastat *b)
{
#define D(f) .f = a->f >= b->f ? a->f - b->f : 0
	return (struct nl_numastat){ D(numa_hit), D(numa_miss), D(numa_foreign),
				     D(interleave_hit), D(local_node), D(other_node) };
#undef D
}

/* Zone names and the kernel's pgalloc_<zone> deltas into @s. */
static void fill_zones(struct nl_collect_nodes *c, struct nl_snapshot *s)
{
	uint64_t cur[NL_NR_ZONES];

	s->nr_zones = c->nr_zones;
	memcpy(s->zone_names, c->zone_names, sizeof(s->zone_names));
	if (nl_zone_vmstat_pgalloc(c->procfs_root, c->zone_names, c->nr_zones, cur))
		return;
	for (int z = 0; z < c->nr_zones; z++)
		s->pgalloc[z] = d64(cur[z], c->pgalloc_prev[z]);
	memcpy(s->pgalloc_total, cur, sizeof(cur));
	memcpy(c->pgalloc_prev, cur, sizeof(cur));
}

/* BPF's per-node counts of node @nid into @n: this interval's and totals. */
static void node_bpf(struct nl_node *n, const struct nl_node_counts *bc, const struct nl_node_counts *bp)
{
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
}

int nl_collect_nodes_fill(struct nl_collect_nodes *c, const struct nl_node_counts cur[NL_MAX_NODES],
			  struct nl_snapshot *s)
{
	struct nl_numastat ns[NL_MAX_NODES];
	double busy[NL_MAX_NODES];

	nl_topo_refresh_mem(&c->topo, c->sysfs_root);
	nl_topo_refresh_cpus(&c->topo, c->sysfs_root);	/* CPU hotplug */
	read_numastat(c, ns);
	nl_proc_cpu_times_read(c->procfs_root, c->cpu_cur, c->nr_cpu_slots);
	nl_proc_node_busy_pct(&c->topo, c->cpu_prev, c->cpu_cur, c->nr_cpu_slots, busy);
	s->nodes = calloc((size_t)c->topo.nr_nodes, sizeof(*s->nodes));
	if (!s->nodes)
		return -ENOMEM;
	s->nr_nodes = c->topo.nr_nodes;
	fill_zones(c, s);
	for (int i = 0; i < c->topo.nr_nodes; i++) {
		int nid = c->topo.nids[i];
		const struct nl_topo_node *tn = &c->topo.node[nid];
		struct nl_node *n = &s->nodes[i];

		n->nid = nid;
		n->nr_cpus = tn->nr_cpus;
		snprintf(n->cpulist, sizeof(n->cpulist), "%s", tn->cpulist);
		n->cpu_busy_pct = busy[nid];	/* NaN without online CPUs: JSON null */
		n->mem_total_bytes = tn->mem_total_bytes;
		n->mem_free_bytes = tn->mem_free_bytes;
		n->mem_used_bytes = d64(tn->mem_total_bytes, tn->mem_free_bytes);
		memcpy(n->distance, tn->distance, sizeof(n->distance));
		n->numastat_total = ns[nid];
		n->numastat = numastat_delta(&ns[nid], &c->numastat_prev[nid]);
		node_bpf(n, &cur[nid], &c->prev[nid]);
		n->numastat_unattributed = d64(n->numastat.local_node + n->numastat.other_node,
					       n->bpf_events_local + n->bpf_events_other);
	}
	memcpy(c->numastat_prev, ns, sizeof(ns));
	memcpy(c->prev, cur, sizeof(c->prev));
	swap_cpu(c);
	return 0;
}

void nl_collect_nodes_close(struct nl_collect_nodes *c)
{
	if (!c)
		return;
	nl_topo_free(&c->topo);
	free(c->cpu_prev);
	free(c->cpu_cur);
	free(c);
}
