/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Fixtures for the collector's parts (test_collect_*.c): raw counts as the
 * BPF readers would hand them, and the BPF side's answers (re-reads,
 * forgets, cgroup ancestry) recorded instead of done. Include after
 * <cmocka.h>.
 */
#ifndef NL_COLLECT_FIXTURE_H
#define NL_COLLECT_FIXTURE_H

#include <stdint.h>
#include <string.h>
#include "raw_counts.h"

/* What the fake BPF side was asked, and what it answers. */
struct fake_bpf {
	int forgets;			/* calls */
	int forget_kind;		/* of the last */
	uint64_t forgot[16];		/* ids of the last */
	int nr_forgot;
	uint64_t reread_id;		/* the process whose tail is ... */
	uint64_t reread_run_ns;		/* ... this much run time on node 0 */
	int rereads;
};

static int fake_reread(void *ctx, uint64_t tgid, struct nl_counts *c)
{
	struct fake_bpf *f = ctx;

	f->rereads++;
	if (tgid == f->reread_id && f->reread_run_ns > c->run_ns[0])
		c->run_ns[0] = f->reread_run_ns;
	return 0;
}

static int fake_forget(void *ctx, int kind, uint64_t *ids, int n)
{
	struct fake_bpf *f = ctx;

	f->forgets++;
	f->forget_kind = kind;
	f->nr_forgot = n < 16 ? n : 16;
	memcpy(f->forgot, ids, (size_t)f->nr_forgot * sizeof(*ids));
	return n;
}

static int fake_ancestors(void *ctx, uint64_t id, uint64_t *anc, int max)
{
	return -ENOENT;
}

/* @ops answered by @f. */
static inline void fake_ops(struct nl_raw_counts_ops *ops, struct fake_bpf *f)
{
	*ops = (struct nl_raw_counts_ops){ .ctx = f, .reread_tgid = fake_reread, .forget = fake_forget,
					   .cgroup_ancestors = fake_ancestors };
}

/* Set @id's counters in table @t: @run_ns on node 0, @events local
 * allocations of one page each. */
static inline void put_counts(struct nl_counts_table *t, uint64_t id, uint64_t run_ns, uint64_t events)
{
	struct nl_counts *c = nl_counts_get(t, id);

	assert_non_null(c);
	c->run_ns[0] = run_ns;
	c->events_local = events;
	c->pages_local = events;
	c->pages_by_node[0] = events;
}

#endif
