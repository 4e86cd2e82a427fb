// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * R7 through the BPF program: 100,000 draws per weight vector by
 * BPF_PROG_RUN of lot_draw (bpf/lottery.bpf.c), each node's share within
 * 5 sigma of its ticket share and chi-square below the p = 0.001 critical
 * value. Also R2 (an ineligible node is never drawn) and R9 (zero weights:
 * no victim). Prints one line per check; exit 0 all pass, 1 a failure,
 * 77 cannot run here (not root, kernel refuses the program).
 *   usage: lot_dist [DRAWS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "reclaim_lot.h"
#include "loader.h"
#include "lot_stats.h"

#define FAKE_CGID 0x7265636c61696dULL	/* no real cgroup has this id */

static int run(struct nl_lot_bpf *l, const char *name, const unsigned long long *w, int n,
	       long draws, unsigned long long *hits, unsigned long long *novictim)
{
	u64 ww[NL_LOT_MAX_NODES] = { 0 };
	struct nl_lot_table t = { 0 };
	uint32_t why;

	for (int i = 0; i < n; i++)
		ww[i] = w[i];
	nl_lot_tickets(ww, (1u << n) - 1, &t);
	t.mode = NL_LOT_HALF_OPEN;
	if (nl_lot_set_table(l, FAKE_CGID, &t)) {
		printf("FAIL %s: publish\n", name);
		return -1;
	}
	memset(hits, 0, sizeof(*hits) * NL_LOT_MAX_NODES);
	*novictim = 0;
	for (long i = 0; i < draws; i++) {
		int nid = nl_lot_draw(l, FAKE_CGID, &why);

		if (nid >= 0 && nid < NL_LOT_MAX_NODES)
			hits[nid]++;
		else if (nid == -1)
			(*novictim)++;
		else {
			printf("FAIL %s: BPF_PROG_RUN: %s\n", name, strerror(-nid));
			return -1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct { const char *name; unsigned long long w[4]; } vec[] = {
		{ "w=100,200,300,400", { 100, 200, 300, 400 } },
		{ "w=1000,1000,0,1000", { 1000, 1000, 0, 1000 } },
		{ "w=5,3,2,0", { 5, 3, 2, 0 } },
	};
	long draws = argc > 1 ? atol(argv[1]) : 100000;
	struct nl_lot_bpf *l;
	unsigned long long hits[NL_LOT_MAX_NODES], nov;
	struct nl_lot_counts c;
	char err[256], why[200];
	bool have_limit;
	int failed = 0, e;

	/* 4-node tables whatever the host's node count: count draws for 4 */
	e = nl_lot_open(&l, NL_CG_V2, true, getenv("NL_VERBOSE") != NULL, NULL, 4, &have_limit, err, sizeof(err));
	if (e) {
		printf("SKIP: %s\n", err);
		return 77;
	}
	/* The limit-path hook must load where the tracepoint exists. */
	{
		FILE *f = fopen("/sys/kernel/tracing/events/vmscan/mm_vmscan_memcg_reclaim_begin/id", "r");

		printf("limit hook (mm_vmscan_memcg_reclaim_begin): %s\n",
		       have_limit ? "attached" : "not attached");
		if (f && !have_limit) {
			printf("FAIL: the tracepoint exists but the hook did not load (NL_VERBOSE=1 shows why)\n");
			failed++;
		}
		if (f)
			fclose(f);
	}
	if (nl_lot_manage(l, FAKE_CGID) < 0) {
		printf("FAIL: no slot\n");
		return 1;
	}
	for (size_t k = 0; k < sizeof(vec) / sizeof(vec[0]); k++) {
		struct nl_lot_table t;
		double p[4], x2 = 0;

		if (run(l, vec[k].name, vec[k].w, 4, draws, hits, &nov))
			return 1;
		nl_lot_get_table(l, FAKE_CGID, &t);
		for (int i = 0; i < 4; i++)
			p[i] = (double)t.e[i].tickets / t.sum;
		printf("%s tickets=%u,%u,%u,%u draws=%llu,%llu,%llu,%llu", vec[k].name,
		       t.e[0].tickets, t.e[1].tickets, t.e[2].tickets, t.e[3].tickets,
		       hits[0], hits[1], hits[2], hits[3]);
		if (nov || !nl_lot_fit(hits, p, 4, (unsigned long long)draws, &x2, why, sizeof(why))) {
			printf(" FAIL: %s (no-victim %llu)\n", nov ? "no-victim draws" : why, nov);
			failed++;
		} else {
			printf(" chi2=%.2f ok\n", x2);
		}
	}
	/* R2: Kame's scenario under the intended rule: node 2 never drawn. */
	{
		struct nl_lot_in in = { .nr_nodes = 4, .swappiness = 60, .swap_ok = true };
		static const u64 file[4] = { 250, 250, 0, 250 }, anon[4] = { 250, 250, 500, 250 };
		struct nl_lot_weights w;
		struct nl_lot_table t = { 0 };
		uint32_t r;

		for (int i = 0; i < 4; i++) {
			in.n[i].inactive_file = file[i];
			in.n[i].inactive_anon = anon[i];
		}
		nl_lot_weights(&in, &w);
		nl_lot_tickets(w.w, w.eligible, &t);
		nl_lot_set_table(l, FAKE_CGID, &t);
		memset(hits, 0, sizeof(hits));
		for (long i = 0; i < draws; i++) {
			int nid = nl_lot_draw(l, FAKE_CGID, &r);

			if (nid >= 0)
				hits[nid]++;
		}
		printf("R2 intent kame draws=%llu,%llu,%llu,%llu", hits[0], hits[1], hits[2], hits[3]);
		if (hits[2] || hits[0] + hits[1] + hits[3] != (unsigned long long)draws) {
			printf(" FAIL: node 2 drawn or no-victim\n");
			failed++;
		} else {
			printf(" ok\n");
		}
	}
	/* R9: eligible nodes, zero weight: no victim, reason zero-weight. */
	{
		unsigned long long z[4] = { 0 };
		uint32_t r = 0;

		if (run(l, "zero", z, 4, 1000, hits, &nov))
			return 1;
		nl_lot_draw(l, FAKE_CGID, &r);
		printf("R9 zero weights: no-victim %llu of 1000, reason %s", nov, nl_lot_reason_str(r));
		if (nov != 1000 || r != NL_LOT_ZERO_WEIGHT) {
			printf(" FAIL\n");
			failed++;
		} else {
			printf(" ok\n");
		}
	}
	/* The BPF counters saw every draw. */
	nl_lot_read_counts(l, FAKE_CGID, &c);
	{
		unsigned long long tot = 0;

		for (int s = 0; s < NL_LOT_NR_SOURCES; s++) {
			for (int i = 0; i < NL_LOT_MAX_NODES; i++)
				tot += c.draws[s][i];
			for (int i = 0; i < NL_LOT_NR_REASONS; i++)
				tot += c.novictim[s][i];
		}
		printf("BPF counted %llu draws, expected %llu", tot, 4ULL * draws + 1001);
		if (tot != 4ULL * (unsigned long long)draws + 1001) {
			printf(" FAIL\n");
			failed++;
		} else {
			printf(" ok\n");
		}
	}
	nl_lot_close(l);
	return failed ? 1 : 0;
}
