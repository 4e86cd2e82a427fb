/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A synthetic snapshot with hand-computed figures for the view tests:
 * 2 nodes (nids 0 and 1), interval 2 s (so rates are half the deltas),
 * page 4096 B, three processes and a 5-cgroup tree.
 *
 *   pid 100 memhog  /work/a  cpu 150%  run 2.4 s N0 + 0.6 s N1 (80/20 %)
 *           rss 25600 + 2560 pages (100 + 10 MiB)
 *           pages local 3000, remote 1000 -> 1500/s, 500/s, 25.0 % remote
 *           locality b6 = 1 s, b7 = 3 s -> mean 29/32 = 90.625 %
 *           migrated 10 ok + 2 failed = 12, moves 3 + swaps 1
 *   pid 200 sleeper /work/b  cpu 5%    run 0.1 s all on N1
 *           rss unknown, no allocations (ratio n/a), locality unavailable
 *   pid 300 remote  /other   cpu 50%   run 1 s on N0
 *           rss 512 pages on N1 (2 MiB); pages local 100, remote 900
 *           -> 50/s, 450/s, 90.0 % remote; locality b1 = 1 s -> 18.75 %
 *           migrated 50 ok
 *   cgroups (pre-order): / (1), /work (2), /work/a (3), /work/b (4),
 *           /other (5); figures hierarchical; /other numa_stat unknown.
 */
#ifndef NL_SNAPSHOT_FIXTURE_H
#define NL_SNAPSHOT_FIXTURE_H

#include <stdlib.h>
#include <string.h>
#include "snapshot.h"

/* cmocka 1.1.5 (bookworm) has only assert_float_equal, too coarse for ns
 * ratios; this prints both values on failure. */
#define assert_near(a, b, eps) do { \
		double a_ = (a), b_ = (b); \
		if (!(__builtin_fabs(a_ - b_) <= (eps))) \
			fail_msg("%s = %.17g, expected %.17g", #a, a_, b_); \
	} while (0)

#define FIX_INTERVAL_NS 2000000000ull
#define FIX_TIMESTAMP_NS 1735689600123456789ull	/* 2025-01-01T00:00:00.123Z, > 2^53 */

static inline void fix_add_figs(struct nl_figs *dst, const struct nl_figs *src)
{
	dst->run_ns += src->run_ns;
	dst->run_ns_total += src->run_ns_total;
	for (int n = 0; n < NL_MAX_NODES; n++) {
		dst->run_ns_by_node[n] += src->run_ns_by_node[n];
		dst->run_ns_total_by_node[n] += src->run_ns_total_by_node[n];
		dst->alloc.pages_by_node[n] += src->alloc.pages_by_node[n];
	}
	for (int b = 0; b < NL_LOC_BUCKETS; b++) {
		dst->loc.bucket_ns[b] += src->loc.bucket_ns[b];
		dst->locality_ns_total[b] += src->locality_ns_total[b];
	}
	dst->loc.nofault_ns += src->loc.nofault_ns;
	dst->alloc.events_local += src->alloc.events_local;
	dst->alloc.events_remote += src->alloc.events_remote;
	dst->alloc.pages_local += src->alloc.pages_local;
	dst->alloc.pages_remote += src->alloc.pages_remote;
	dst->alloc.pages_local_total += src->alloc.pages_local_total;
	dst->alloc.pages_remote_total += src->alloc.pages_remote_total;
	dst->mig.pages_ok += src->mig.pages_ok;
	dst->mig.pages_fail += src->mig.pages_fail;
	dst->mig.move_numa += src->mig.move_numa;
	dst->mig.swap_numa += src->mig.swap_numa;
}

/* Derive cpu_pct and locality like collect.c is expected to. */
static inline void fix_finish_figs(struct nl_figs *f, bool numa_balancing)
{
	uint64_t sum = 0;

	f->cpu_pct = (double)f->run_ns * 100.0 / FIX_INTERVAL_NS;
	for (int b = 0; b < NL_LOC_BUCKETS; b++)
		sum += f->loc.bucket_ns[b];
	f->loc.available = numa_balancing && sum > 0;
	f->loc.mean = f->loc.available ? nl_snapshot_locality_mean(f->loc.bucket_ns) : __builtin_nan("");
}

/* Build the fixture into @s (free with nl_snapshot_free). Returns 0 or -1. */
static inline int fix_build(struct nl_snapshot *s, bool numa_balancing)
{
	memset(s, 0, sizeof(*s));
	s->seq = 7;
	s->timestamp_ns = FIX_TIMESTAMP_NS;
	s->interval_ns = FIX_INTERVAL_NS;
	s->page_size = 4096;
	strcpy(s->kernel, "6.18.44-test");
	s->src = (struct nl_sources){ .sched = true, .alloc = true, .alloc_class = true,
				      .migrate = true, .numa_balancing = numa_balancing,
				      .vm_numa_stat = true, .cgroup_mode = NL_CG_V2 };
	strcpy(s->src.cgroup_root, "/sys/fs/cgroup");
	strcpy(s->src.missing, numa_balancing ? "" : "locality: kernel.numa_balancing=0");

	s->nr_nodes = 2;
	s->nodes = calloc(2, sizeof(*s->nodes));
	s->nr_procs = 3;
	s->procs = calloc(3, sizeof(*s->procs));
	s->nr_cgroups = 5;
	s->cgroups = calloc(5, sizeof(*s->cgroups));
	if (!s->nodes || !s->procs || !s->cgroups)
		return -1;

	struct nl_node *n0 = &s->nodes[0], *n1 = &s->nodes[1];
	n0->nid = 0; n0->nr_cpus = 2; strcpy(n0->cpulist, "0-1");
	n0->cpu_busy_pct = 62.5;
	n0->mem_total_bytes = 8ull << 30; n0->mem_free_bytes = 6ull << 30;
	n0->mem_used_bytes = 2ull << 30;
	n0->numastat = (struct nl_numastat){ .numa_hit = 4100, .numa_miss = 7, .numa_foreign = 9,
					     .interleave_hit = 3, .local_node = 4001, .other_node = 106 };
	n0->numastat_total = (struct nl_numastat){ .numa_hit = 123456789, .local_node = 123000000 };
	n0->bpf_events_local = 3990; n0->bpf_events_other = 105; n0->bpf_events_from_remote = 911;
	n0->numastat_unattributed = 12;	/* (4001 + 106) - (3990 + 105) */
	n0->bpf_pages = 4321; n0->run_ns = 3400000000ull;
	n1->nid = 1; n1->nr_cpus = 2; strcpy(n1->cpulist, "2-3");
	n1->cpu_busy_pct = 17.25;
	n1->mem_total_bytes = 8ull << 30; n1->mem_free_bytes = 7ull << 30;
	n1->mem_used_bytes = 1ull << 30;
	n1->numastat = (struct nl_numastat){ .numa_hit = 900, .local_node = 880, .other_node = 20 };
	n1->bpf_events_local = 870; n1->bpf_events_other = 19;
	n1->bpf_pages = 1900; n1->run_ns = 700000000ull;

	struct nl_proc *p = &s->procs[0];
	p->pid = 100; strcpy(p->comm, "memhog"); p->cgroup_id = 3;
	strcpy(p->cgroup_path, "/work/a"); p->alive = true; p->rss_known = true;
	p->rss_pages_by_node[0] = 25600; p->rss_pages_by_node[1] = 2560;
	p->f.run_ns_by_node[0] = 2400000000ull; p->f.run_ns_by_node[1] = 600000000ull;
	p->f.run_ns = 3000000000ull; p->f.run_ns_total = 30000000000ull;
	p->f.run_ns_total_by_node[0] = 24000000000ull; p->f.run_ns_total_by_node[1] = 6000000000ull;
	p->f.loc.bucket_ns[6] = 1000000000ull; p->f.loc.bucket_ns[7] = 3000000000ull;
	p->f.locality_ns_total[7] = 33000000000ull;
	p->f.loc.nofault_ns = 5;
	p->f.alloc.events_local = 2900; p->f.alloc.events_remote = 990;
	p->f.alloc.pages_local = 3000; p->f.alloc.pages_remote = 1000;
	p->f.alloc.pages_by_node[0] = 3000; p->f.alloc.pages_by_node[1] = 1000;
	p->f.alloc.pages_by_class[NL_CLASS_MOVABLE] = 3900; p->f.alloc.pages_by_class[NL_CLASS_ANON] = 3500;
	p->f.alloc.pages_by_class[NL_CLASS_KERNEL] = 100; p->f.alloc.pages_unclassified = 400;
	p->f.alloc.fail_events = 1; p->f.alloc.pages_local_total = 90000;
	p->f.alloc.pages_remote_total = 10000;
	p->f.mig.pages_ok = 10; p->f.mig.pages_fail = 2; p->f.mig.move_numa = 3; p->f.mig.swap_numa = 1;
	p->f.mig.pages_ok_by_reason[5] = 10; p->f.mig.numa_misplaced_ok = 10;
	p->f.mig.pages_fail_by_reason[0] = 2;	/* compaction */
	p->f.mig.pages_ok_total = 110;
	fix_finish_figs(&p->f, numa_balancing);

	p = &s->procs[1];
	p->pid = 200; strcpy(p->comm, "sleeper"); p->cgroup_id = 4;
	strcpy(p->cgroup_path, "/work/b"); p->alive = true; p->rss_known = false;
	p->f.run_ns_by_node[1] = 100000000ull; p->f.run_ns = 100000000ull;
	p->f.run_ns_total = 100000000ull; p->f.run_ns_total_by_node[1] = 100000000ull;
	p->f.loc.nofault_ns = 100000000ull;
	fix_finish_figs(&p->f, numa_balancing);

	p = &s->procs[2];
	p->pid = 300; strcpy(p->comm, "remote"); p->cgroup_id = 5;
	strcpy(p->cgroup_path, "/other"); p->alive = true; p->rss_known = true;
	p->rss_pages_by_node[1] = 512;
	p->f.run_ns_by_node[0] = 1000000000ull; p->f.run_ns = 1000000000ull;
	p->f.run_ns_total = 50000000000ull; p->f.run_ns_total_by_node[0] = 50000000000ull;
	p->f.loc.bucket_ns[1] = 1000000000ull;
	p->f.alloc.events_local = 100; p->f.alloc.events_remote = 900;
	p->f.alloc.pages_local = 100; p->f.alloc.pages_remote = 900;
	p->f.alloc.pages_by_node[0] = 100; p->f.alloc.pages_by_node[1] = 900;
	p->f.mig.pages_ok = 50;
	fix_finish_figs(&p->f, numa_balancing);

	static const struct { uint64_t id, parent; const char *path; int depth; } cg[5] = {
		{ 1, 0, "/", 0 }, { 2, 1, "/work", 1 }, { 3, 2, "/work/a", 2 },
		{ 4, 2, "/work/b", 2 }, { 5, 1, "/other", 1 },
	};
	for (int i = 0; i < 5; i++) {
		struct nl_cgroup *c = &s->cgroups[i];

		c->id = cg[i].id; c->parent_id = cg[i].parent;
		strcpy(c->path, cg[i].path); c->depth = cg[i].depth;
		c->numa_stat_known = i != 4;
	}
	/* hierarchical: each process adds to its cgroup and every ancestor */
	for (int k = 0; k < 3; k++) {
		uint64_t id = s->procs[k].cgroup_id;

		while (id) {
			struct nl_cgroup *c = &s->cgroups[id - 1];

			fix_add_figs(&c->f, &s->procs[k].f);
			id = c->parent_id;
		}
	}
	s->cgroups[0].anon_bytes_by_node[0] = 100ull << 20;
	s->cgroups[0].file_bytes_by_node[1] = 28ull << 20;
	s->cgroups[1].anon_bytes_by_node[0] = 100ull << 20;
	s->cgroups[2].anon_bytes_by_node[0] = 100ull << 20;
	for (int i = 0; i < 5; i++)
		fix_finish_figs(&s->cgroups[i].f, numa_balancing);

	s->self.drops[NL_DROP_PFN_UNKNOWN] = 4;
	s->self.procs_evicted = 2;
	s->self.nr_progs = 1;
	strcpy(s->self.progs[0].name, "handle_sched_switch");
	s->self.progs[0].run_cnt = 1000;
	s->self.progs[0].run_time_ns = 95000;
	s->self.bpf_stats_enabled = true;
	return 0;
}

#endif /* NL_SNAPSHOT_FIXTURE_H */
