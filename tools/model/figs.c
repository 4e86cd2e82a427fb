// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Counters -> figures; see figs.h. */
#include <math.h>
#include <string.h>
#include "figs.h"

#define MR_NUMA_MISPLACED 5	/* enum migrate_reason, stable since v5.x */

static uint64_t d(uint64_t cur, uint64_t prev)
{
	return cur >= prev ? cur - prev : 0;
}

void nl_figs_compute(struct nl_figs *f, const struct nl_counts *cur, const struct nl_counts *prev,
		     uint64_t interval_ns, bool numa_balancing)
{
	static const struct nl_counts zero;
	const struct nl_counts *p = prev ? prev : &zero;
	struct nl_alloc_figs *a = &f->alloc;
	struct nl_migrate_figs *m = &f->mig;
	uint64_t loc_sum = 0, classified = 0;

	memset(f, 0, sizeof(*f));
	for (int n = 0; n < NL_MAX_NODES; n++) {
		f->run_ns_by_node[n] = d(cur->run_ns[n], p->run_ns[n]);
		f->run_ns += f->run_ns_by_node[n];
		f->run_ns_total_by_node[n] = cur->run_ns[n];
		f->run_ns_total += cur->run_ns[n];
		a->pages_by_node[n] = d(cur->pages_by_node[n], p->pages_by_node[n]);
		a->pages_by_node_total[n] = cur->pages_by_node[n];
	}
	f->cpu_pct = interval_ns ? 100.0 * (double)f->run_ns / (double)interval_ns : 0;

	for (int b = 0; b < NL_LOC_BUCKETS; b++) {
		f->loc.bucket_ns[b] = d(cur->loc_ns[b], p->loc_ns[b]);
		f->locality_ns_total[b] = cur->loc_ns[b];
		loc_sum += f->loc.bucket_ns[b];
	}
	f->loc.nofault_ns = d(cur->nofault_ns, p->nofault_ns);
	f->loc.available = numa_balancing && loc_sum > 0;
	f->loc.mean = f->loc.available ? nl_snapshot_locality_mean(f->loc.bucket_ns) : NAN;

	a->events_local = d(cur->events_local, p->events_local);
	a->events_remote = d(cur->events_remote, p->events_remote);
	a->pages_local = d(cur->pages_local, p->pages_local);
	a->pages_remote = d(cur->pages_remote, p->pages_remote);
	for (int c = 0; c < NL_NR_CLASSES; c++) {
		a->pages_by_class[c] = d(cur->pages_by_class[c], p->pages_by_class[c]);
		a->pages_by_class_total[c] = cur->pages_by_class[c];
	}
	classified = a->pages_by_class[NL_CLASS_ANON] + a->pages_by_class[NL_CLASS_FILE] +
		     a->pages_by_class[NL_CLASS_SHMEM];
	/* LRU insertion can lag the allocation into the next interval, so
	 * this difference is clamped, never negative */
	a->pages_unclassified = a->pages_by_class[NL_CLASS_MOVABLE] > classified ?
				a->pages_by_class[NL_CLASS_MOVABLE] - classified : 0;
	a->fail_events = d(cur->fail_events, p->fail_events);
	a->events_local_total = cur->events_local;
	a->events_remote_total = cur->events_remote;
	a->pages_local_total = cur->pages_local;
	a->pages_remote_total = cur->pages_remote;
	a->fail_events_total = cur->fail_events;
	a->events_hit = d(cur->events_hit, p->events_hit);
	a->events_miss = d(cur->events_miss, p->events_miss);
	a->events_hit_total = cur->events_hit;
	a->events_miss_total = cur->events_miss;

	m->move_numa = d(cur->move_numa, p->move_numa);
	m->swap_numa = d(cur->swap_numa, p->swap_numa);
	m->stick_numa = d(cur->stick_numa, p->stick_numa);
	m->move_numa_total = cur->move_numa;
	m->swap_numa_total = cur->swap_numa;
	m->stick_numa_total = cur->stick_numa;
	for (int r = 0; r < NL_MIGRATE_REASONS; r++) {
		m->pages_ok_by_reason[r] = d(cur->mig_ok[r], p->mig_ok[r]);
		m->pages_fail_by_reason[r] = d(cur->mig_fail[r], p->mig_fail[r]);
		m->pages_ok += m->pages_ok_by_reason[r];
		m->pages_fail += m->pages_fail_by_reason[r];
		m->pages_ok_total += cur->mig_ok[r];
		m->pages_fail_total += cur->mig_fail[r];
	}
	m->numa_misplaced_ok = m->pages_ok_by_reason[MR_NUMA_MISPLACED];
	m->numa_misplaced_fail = m->pages_fail_by_reason[MR_NUMA_MISPLACED];
	m->numa_misplaced_ok_total = cur->mig_ok[MR_NUMA_MISPLACED];
	m->numa_misplaced_fail_total = cur->mig_fail[MR_NUMA_MISPLACED];
}
