// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Synthetic snapshot for the export benchmark and tests; see export_synth.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export_synth.h"

#define SYNTH_PROCS 200
#define PER_POD 4	/* containers per pod slice */

static void synth_figs(struct nl_figs *f, uint64_t k, uint64_t seq, int nr_nodes)
{
	for (int n = 0; n < nr_nodes; n++) {
		f->run_ns_total_by_node[n] = seq * (k + 1) * 1000003ull * (uint64_t)(n + 1);
		f->alloc.pages_by_node_total[n] = seq * (k + 1) * (uint64_t)(7 + n);
		f->run_ns_total += f->run_ns_total_by_node[n];
		f->run_ns_by_node[n] = (k + 1) * 1000003ull * (uint64_t)(n + 1);
		f->run_ns += f->run_ns_by_node[n];
	}
	for (int b = 0; b < NL_LOC_BUCKETS; b++)
		f->locality_ns_total[b] = seq * (k % 5 + 1) * 12345678ull * (uint64_t)(b + 1);
	f->alloc.events_local_total = seq * (k + 3) * 11;
	f->alloc.events_remote_total = seq * (k + 3) * 2;
	f->alloc.pages_remote_total = seq * (k + 3) * 3;
	f->alloc.fail_events_total = seq * (k % 3);
	for (int c = 0; c < NL_NR_CLASSES; c++)
		f->alloc.pages_by_class_total[c] = seq * (k + 1) * (uint64_t)(c + 1);
	f->mig.pages_ok_total = seq * (k % 7);
	f->mig.pages_fail_total = seq * (k % 2);
	f->mig.numa_misplaced_ok_total = seq * (k % 7) / 2;
	f->mig.move_numa_total = seq * (k % 4);
}

/* Reclaim of cgroup k: limit reclaim with a few episodes of ~2^(10+k%16)
 * ns; the root (k 0) also gets kswapd's. Node figures are not kept
 * consistent with the cgroups: the benchmark needs the series, not sums. */
static void synth_vmscan(struct nl_vmscan_figs *v, uint64_t k, uint64_t seq, int nr_nodes)
{
	v->nr_nids = nr_nodes;
	for (int n = 0; n < nr_nodes; n++) {
		struct nl_vs_page_figs *p = &v->node[n].total[NL_VS_LIMIT];

		p->scanned[0] = seq * (k + 1) * 5;
		p->scanned[1] = seq * (k + 1) * 40;
		p->rotated[1] = seq * (k + 1) * 4;
		p->freed[0] = seq * (k + 1) * 3;
		p->freed[1] = seq * (k + 1) * 30;
		for (int t = 0; t < 2; t++) {
			v->pages_total[NL_VS_LIMIT].scanned[t] += p->scanned[t];
			v->pages_total[NL_VS_LIMIT].rotated[t] += p->rotated[t];
			v->pages_total[NL_VS_LIMIT].freed[t] += p->freed[t];
		}
	}
	v->time_total[NL_VS_LIMIT].episodes = seq * 3;
	v->time_total[NL_VS_LIMIT].hist[10 + k % 16] = seq * 3;
	v->time_total[NL_VS_LIMIT].elapsed_ns = seq * 3 * (1500ull << (k % 16));
	if (!k) {
		v->pages_total[NL_VS_KSWAPD].scanned[1] = seq * 100000;
		v->pages_total[NL_VS_KSWAPD].freed[1] = seq * 90000;
		v->time_total[NL_VS_KSWAPD].episodes = seq;
		v->time_total[NL_VS_KSWAPD].hist[28] = seq;
		v->time_total[NL_VS_KSWAPD].elapsed_ns = seq * 300000000ull;
	}
}

/* Node @n of @nr_nodes: 16 CPUs, 64 GiB, steady numastat and kswapd counts. */
static void synth_node(struct nl_node *x, int n, int nr_nodes, uint64_t seq)
{
	x->nid = n;
	x->nr_cpus = 16;
	snprintf(x->cpulist, sizeof(x->cpulist), "%d-%d", n * 16, n * 16 + 15);
	x->mem_total_bytes = 64ull << 30;
	x->mem_free_bytes = (32ull << 30) - seq * 4096;
	x->numastat_total = (struct nl_numastat){ seq * 1000, seq * 10, seq * 10, seq, seq * 990, seq * 10 };
	x->vmscan_total[NL_VS_KSWAPD].scanned[1] = seq * 100000 / (uint64_t)nr_nodes;
	x->vmscan_total[NL_VS_KSWAPD].freed[1] = seq * 90000 / (uint64_t)nr_nodes;
}

/* The path of cgroup @i: the root, then pod slices of PER_POD containers
 * each (*@pod: the index of the current pod); 1 % of the containers get a
 * new name every churn generation @gen. */
static void synth_path(struct nl_snapshot *s, int i, int *pod, uint64_t gen)
{
	struct nl_cgroup *c = &s->cgroups[i];

	if (i == 0) {
		snprintf(c->path, sizeof(c->path), "/");
	} else if ((i - 1) % (PER_POD + 1) == 0) {
		*pod = i;
		c->depth = 1;
		c->parent_id = 1;
		snprintf(c->path, sizeof(c->path), "/kubepods-burstable-pod%08x_1b2c_4d5e_8f90_%012x.slice",
			 (unsigned)i, (unsigned)i * 2654435761u);
	} else {
		/* 1 % of the containers get a new name every 10 seqs */
		uint64_t g = (uint64_t)i % 100 == 0 ? gen : 0;

		c->depth = 2;
		c->parent_id = (uint64_t)*pod + 1;
		char leaf[96];

		/* a 64-digit id, as containerd names its scopes */
		snprintf(leaf, sizeof(leaf), "/cri-containerd-%016llx%016llx%016llx%016llx.scope",
			 (unsigned long long)i * 0x9e3779b97f4a7c15ull, (unsigned long long)g,
			 (unsigned long long)i, 0ull);
		snprintf(c->path, sizeof(c->path), "%.400s%s", s->cgroups[*pod].path, leaf);
	}
}

/* Cgroup @i's figures, memory and reclaim. Returns 0 or -ENOMEM. */
static int synth_cgroup(struct nl_cgroup *c, int i, int nr_nodes, uint64_t seq)
{
	c->id = (uint64_t)i + 1;
	nl_cgident_parse(c->path, &c->ident);
	c->numa_stat_known = true;
	for (int n = 0; n < nr_nodes; n++) {
		c->anon_bytes_by_node[n] = (uint64_t)(i + 1) << 20;
		c->file_bytes_by_node[n] = (uint64_t)(n + 1) << 20;
	}
	synth_figs(&c->f, (uint64_t)i, seq, nr_nodes);
	c->vmscan = calloc(1, nl_vmscan_figs_size(nr_nodes));
	if (!c->vmscan)
		return -ENOMEM;
	synth_vmscan(c->vmscan, (uint64_t)i, seq, nr_nodes);
	return 0;
}

/* SYNTH_PROCS processes and two BPF programs' run counts. */
static void synth_procs(struct nl_snapshot *s, int nr_nodes, uint64_t seq)
{
	s->nr_procs = SYNTH_PROCS;
	for (int i = 0; i < SYNTH_PROCS; i++) {
		struct nl_proc *p = &s->procs[i];

		p->pid = 1000 + i;
		snprintf(p->comm, sizeof(p->comm), "worker-%d", i);
		p->alive = true;
		synth_figs(&p->f, (uint64_t)i, seq, nr_nodes);
	}
	s->self.nr_progs = 2;
	snprintf(s->self.progs[0].name, sizeof(s->self.progs[0].name), "nl_sched_switch");
	snprintf(s->self.progs[1].name, sizeof(s->self.progs[1].name), "nl_page_alloc");
	for (int k = 0; k < 2; k++) {
		s->self.progs[k].run_cnt = seq * 100000;
		s->self.progs[k].run_time_ns = seq * 15000000;
	}
}

int nl_export_synth(struct nl_snapshot *s, int nr_cgroups, int nr_nodes, uint64_t seq)
{
	uint64_t gen = seq / 10;	/* churn generation */
	int pod = -1;

	if (nr_cgroups < 1 || nr_nodes < 1 || nr_nodes > NL_MAX_NODES)
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	s->seq = seq;
	s->timestamp_ns = 1767225600000000000ull + seq * 1000000000ull;
	s->interval_ns = 1000000000ull;
	s->page_size = 4096;
	snprintf(s->kernel, sizeof(s->kernel), "synthetic");
	s->src = (struct nl_sources){ .sched = true, .alloc = true, .alloc_class = true, .migrate = true,
				      .numa_balancing = true, .vm_numa_stat = true, .vmscan = true };
	s->nodes = calloc((size_t)nr_nodes, sizeof(*s->nodes));
	s->cgroups = calloc((size_t)nr_cgroups, sizeof(*s->cgroups));
	s->procs = calloc(SYNTH_PROCS, sizeof(*s->procs));
	if (!s->nodes || !s->cgroups || !s->procs) {
		nl_snapshot_free(s);
		return -ENOMEM;
	}
	s->nr_nodes = nr_nodes;
	for (int n = 0; n < nr_nodes; n++)
		synth_node(&s->nodes[n], n, nr_nodes, seq);
	s->nr_cgroups = nr_cgroups;
	for (int i = 0; i < nr_cgroups; i++) {
		synth_path(s, i, &pod, gen);
		if (synth_cgroup(&s->cgroups[i], i, nr_nodes, seq)) {
			nl_snapshot_free(s);
			return -ENOMEM;
		}
	}
	synth_procs(s, nr_nodes, seq);
	return 0;
}
