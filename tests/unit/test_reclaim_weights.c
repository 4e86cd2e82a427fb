// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* bpf/include/lottery.h: the vectors of spec/seed_reclaim.md R1, R2, R4-R10, R12. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <cmocka.h>
#include "lottery.h"
#include "lot_stats.h"

/* xorshift64*: a seeded PRNG standing in for bpf_get_prandom_u32(). */
static u32 rnd(u64 *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return (u32)((*s * 0x2545F4914F6CDD1DULL) >> 32);
}

static void table_of(const u64 *w, int n, u32 mode, struct nl_lot_table *t)
{
	memset(t, 0, sizeof(*t));
	nl_lot_tickets(w, n >= 64 ? ~0ull : (1ull << n) - 1, t);
	t->mode = mode;
}

/* R1: §2.2's worked vector, 2577 with the anon term, 2517 without. */
static void test_r1_vector(void **state)
{
	struct nl_lot_in in = { .nr_nodes = 1, .swappiness = 60, .swap_ok = true,
				.anon_rule = NL_ANON_CODE };
	struct nl_lot_weights w;

	(void)state;
	in.n[0] = (struct nl_lot_node_in){ .inactive_file = 1000, .active_file = 3000,
		.inactive_anon = 2000, .active_anon = 2000, .scanned = { 500, 1000 },
		.rotated = { 450, 100 }, .have_scan = true };
	nl_lot_weights(&in, &w);
	assert_true(w.anon_in);
	assert_true(w.file_active_in);
	assert_int_equal(w.w[0], 2577);
	assert_int_equal(w.total, 2577);
	in.anon_rule = NL_ANON_INTENT;	/* file is large: intent leaves anon out */
	nl_lot_weights(&in, &w);
	assert_false(w.anon_in);
	assert_int_equal(w.w[0], 2517);
	in.anon_rule = NL_ANON_CODE;
	in.swap_ok = false;		/* R3: no swap, no anon term */
	nl_lot_weights(&in, &w);
	assert_int_equal(w.w[0], 2517);
}

/* Kame's 4-node scenario (S0:L1382): file 250/250/0/250, anon 250/250/500/250. */
static void kame(struct nl_lot_in *in, u32 rule)
{
	static const u64 file[4] = { 250, 250, 0, 250 }, anon[4] = { 250, 250, 500, 250 };

	memset(in, 0, sizeof(*in));
	in->nr_nodes = 4;
	in->swappiness = 60;
	in->swap_ok = true;
	in->anon_rule = rule;
	for (int i = 0; i < 4; i++)
		in->n[i] = (struct nl_lot_node_in){ .inactive_file = file[i], .inactive_anon = anon[i] };
}

/* R2/R3: under intent node 2 is ineligible and never drawn; the code rule
 * keeps it. */
static void test_r2_anon_rule(void **state)
{
	struct nl_lot_in in;
	struct nl_lot_weights w;
	struct nl_lot_table t = { 0 };
	u64 s = 42, hits[4] = { 0 };
	u32 why;

	(void)state;
	kame(&in, NL_ANON_INTENT);
	nl_lot_weights(&in, &w);
	assert_int_equal(w.eligible, 0xb);
	nl_lot_tickets(w.w, w.eligible, &t);
	assert_int_equal(t.nr, 3);
	for (int i = 0; i < 100000; i++) {
		int nid = nl_lot_pick(&t, rnd(&s), &why);

		assert_int_equal(why, NL_LOT_OK);
		assert_in_range(nid, 0, 3);
		hits[nid]++;
	}
	assert_int_equal(hits[2], 0);
	assert_true(hits[0] > 30000 && hits[1] > 30000 && hits[3] > 30000);
	kame(&in, NL_ANON_CODE);
	nl_lot_weights(&in, &w);
	assert_int_equal(w.eligible, 0xf);
	assert_true(w.w[2] > 0);
}

/* R4: a never-scanned node with 1 GiB of inactive file gets at least its
 * page share; with the seed's behaviour it gets weight 0. */
static void test_r4_cold_start(void **state)
{
	struct nl_lot_in in = { .nr_nodes = 3, .swappiness = 60, .swap_ok = true };
	struct nl_lot_weights w;
	double pages = 0, share;

	(void)state;
	for (int i = 0; i < 2; i++)
		in.n[i] = (struct nl_lot_node_in){ .inactive_file = 262144, .active_file = 1000,
			.scanned = { 0, 10000 }, .rotated = { 0, 2000 }, .have_scan = true };
	in.n[2] = (struct nl_lot_node_in){ .inactive_file = 262144, .have_scan = true };
	nl_lot_weights(&in, &w);
	for (int i = 0; i < 3; i++)
		pages += (double)(in.n[i].inactive_file);
	share = (double)w.w[2] / (double)w.total;
	assert_true(share >= 262144.0 / pages);
	in.seed_cold = true;
	nl_lot_weights(&in, &w);
	assert_int_equal(w.w[2], 0);
	assert_true(w.eligible & 4);	/* still eligible: 1 ticket in the seed */
	/* scan data "not available" takes the prior on every node */
	in.seed_cold = false;
	for (int i = 0; i < 3; i++)
		in.n[i].have_scan = false;
	nl_lot_weights(&in, &w);
	assert_int_equal(w.w[0], w.w[2]);
}

/* R5: rotated > scanned is clamped; 2^40 pages x prio 200 does not overflow. */
static void test_r5_sanity(void **state)
{
	struct nl_lot_in in = { .nr_nodes = 2, .swappiness = 0, .swap_ok = false };
	struct nl_lot_weights w;

	(void)state;
	in.n[0] = (struct nl_lot_node_in){ .inactive_file = 1ULL << 40,
		.scanned = { 0, 1ULL << 40 }, .rotated = { 0, 0 }, .have_scan = true };
	in.n[1] = (struct nl_lot_node_in){ .inactive_file = 1000,
		.scanned = { 0, 100 }, .rotated = { 0, 500 }, .have_scan = true };
	nl_lot_weights(&in, &w);
	/* file_prio 200: (2^40 * 2^40 / (2^40 + 1)) * 200 / 200 = 2^40 - 1 */
	assert_int_equal(w.w[0], (1ULL << 40) - 1);
	assert_int_equal(w.w[1], 0);
}

/* MGLRU: an unaged memcg has all pages "active" (youngest generations):
 * classic rules see nothing eligible, the mglru rule counts them. */
static void test_mglru(void **state)
{
	struct nl_lot_in in = { .nr_nodes = 2, .swappiness = 60, .swap_ok = true };
	struct nl_lot_weights w;

	(void)state;
	in.n[0].active_anon = 3000;
	in.n[1].active_anon = 1000;
	nl_lot_weights(&in, &w);
	assert_int_equal(w.eligible, 0);
	in.mglru = true;
	nl_lot_weights(&in, &w);
	assert_int_equal(w.eligible, 3);
	assert_int_equal(w.w[0], 3000 * 61 / 200);
	assert_int_equal(w.w[1], 1000 * 61 / 200);
	in.swap_ok = false;	/* still no anon without swap */
	nl_lot_weights(&in, &w);
	assert_int_equal(w.eligible, 0);
}

/* R6: the ticket vectors. */
static void test_r6_tickets(void **state)
{
	static const struct { u64 w[4]; u32 t[4]; } v[] = {
		{ { 1000, 1000, 0, 1000 }, { 21838, 21838, 1, 21838 } },
		{ { 100, 200, 300, 400 }, { 6547, 13094, 19641, 26188 } },
		{ { 0, 0, 0, 0 }, { 1, 1, 1, 1 } },
		{ { 1, 0, 0, 0 }, { 32768, 1, 1, 1 } },
	};
	(void)state;
	for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++) {
		u64 w[NL_LOT_MAX_NODES] = { 0 };
		struct nl_lot_table t;
		u32 start = 0;

		memcpy(w, v[k].w, sizeof(v[k].w));
		table_of(w, 4, NL_LOT_HALF_OPEN, &t);
		assert_int_equal(t.nr, 4);
		for (int i = 0; i < 4; i++) {
			assert_int_equal(t.e[i].nid, i);
			assert_int_equal(t.e[i].tickets, v[k].t[i]);
			assert_int_equal(t.e[i].start, start);
			start += v[k].t[i];
		}
		assert_int_equal(t.sum, start);
	}
}

/* R7: 100,000 half-open draws, 20 seeds: 5 sigma per node, chi-square. */
static void test_r7_distribution(void **state)
{
	static const u64 vec[][4] = { { 100, 200, 300, 400 }, { 1000, 1000, 0, 1000 },
				      { 5, 3, 2, 0 } };
	(void)state;
	for (size_t k = 0; k < sizeof(vec) / sizeof(vec[0]); k++) {
		u64 w[NL_LOT_MAX_NODES] = { 0 };
		struct nl_lot_table t;
		double p[4];

		memcpy(w, vec[k], sizeof(vec[k]));
		table_of(w, 4, NL_LOT_HALF_OPEN, &t);
		for (int i = 0; i < 4; i++)
			p[i] = (double)t.e[i].tickets / t.sum;
		for (u64 seed = 1; seed <= 20; seed++) {
			u64 s = seed * 0x9E3779B97F4A7C15ULL, c[4] = { 0 };
			char why[160];
			double x2;
			u32 r;

			for (int i = 0; i < 100000; i++) {
				int nid = nl_lot_pick(&t, rnd(&s), &r);

				assert_int_equal(r, NL_LOT_OK);
				c[nid]++;
			}
			if (!nl_lot_fit(c, p, 4, 100000, &x2, why, sizeof(why)))
				fail_msg("vector %zu seed %llu: %s", k, (unsigned long long)seed, why);
		}
	}
}

/* R7: a 1-ticket node covers exactly one value of [0, sum). */
static void test_r7_one_ticket(void **state)
{
	u64 w[NL_LOT_MAX_NODES] = { 1000, 1000, 0, 1000 };
	struct nl_lot_table t;
	u32 r, hits = 0;

	(void)state;
	table_of(w, 4, NL_LOT_HALF_OPEN, &t);
	t.total_weight = 3000;
	/* every x in [0, sum) maps to the entry containing it */
	for (u64 x = 0; x < t.sum; x++) {
		/* r whose (r * sum) >> 32 == x */
		u32 rr = (u32)(((x << 32) + t.sum - 1) / t.sum);
		int nid = nl_lot_pick(&t, rr, &r);

		assert_int_equal(r, NL_LOT_OK);
		if (nid == 2)
			hits++;
		assert_true(x >= t.e[nid].start && x < t.e[nid].start + t.e[nid].tickets);
	}
	assert_int_equal(hits, 1);
}

/* R8: kernel2011 emulation, hit and miss rates. */
static void test_r8_kernel2011(void **state)
{
	u64 w0[NL_LOT_MAX_NODES] = { 0 }, w1[NL_LOT_MAX_NODES] = { 1 };
	struct nl_lot_table t;
	u32 r, hit = 0, miss = 0;

	(void)state;
	table_of(w0, 4, NL_LOT_KERNEL2011, &t);
	for (u32 x = 0; x < 65536; x++) {
		nl_lot_pick(&t, x, &r);
		hit += r == NL_LOT_OK;
	}
	assert_int_equal(hit, 5);	/* 5/65536 */
	table_of(w1, 4, NL_LOT_KERNEL2011, &t);
	for (u32 x = 0; x < 65536; x++) {
		nl_lot_pick(&t, x, &r);
		miss += r == NL_LOT_MISS;
	}
	/* 65536 - (32771 + 1) values miss: 49.995% */
	assert_int_equal(miss, 65536 - 32772);
}

/* R9: empty memcg, all-zero weights: no victim with a reason. */
static void test_r9_no_victim(void **state)
{
	struct nl_lot_in in = { .nr_nodes = 4, .swappiness = 60, .swap_ok = true };
	struct nl_lot_weights w;
	struct nl_lot_table t = { 0 };
	u64 zero[NL_LOT_MAX_NODES] = { 0 };
	u32 r;

	(void)state;
	nl_lot_weights(&in, &w);	/* empty memcg */
	assert_int_equal(w.eligible, 0);
	assert_int_equal(w.total, 0);
	nl_lot_tickets(w.w, w.eligible, &t);
	assert_int_equal(nl_lot_pick(&t, 12345, &r), -1);
	assert_int_equal(r, NL_LOT_NO_ELIGIBLE);
	/* anon only, no swap: nothing eligible */
	in.swap_ok = false;
	in.n[1].inactive_anon = 5000;
	nl_lot_weights(&in, &w);
	assert_int_equal(w.eligible, 0);
	/* eligible but every weight 0 */
	table_of(zero, 4, NL_LOT_HALF_OPEN, &t);
	for (u32 x = 0; x < 1000; x++) {
		assert_int_equal(nl_lot_pick(&t, x * 4294967u, &r), -1);
		assert_int_equal(r, NL_LOT_ZERO_WEIGHT);
	}
	memset(&t, 0, sizeof(t));
	t.nr = 40;	/* corrupt count */
	assert_int_equal(nl_lot_pick(&t, 1, &r), -1);
}

/* R10: balance classification. */
static void test_r10_balance(void **state)
{
	u64 eq4[NL_LOT_MAX_NODES] = { 1000, 1000, 1000, 1000 };
	u64 var4[NL_LOT_MAX_NODES] = { 900, 1000, 1100, 1000 };
	u64 eq6[NL_LOT_MAX_NODES] = { 1000, 1000, 1000, 1000, 1000, 1000 };
	u64 skew[NL_LOT_MAX_NODES] = { 100, 1000, 1000, 1000 };

	(void)state;
	assert_true(nl_lot_balanced(eq4, 0xf, false, 80, 120));
	assert_false(nl_lot_balanced(eq4, 0xf, true, 80, 120));
	assert_true(nl_lot_balanced(var4, 0xf, false, 80, 120));
	assert_true(nl_lot_balanced(eq6, 0x3f, true, 80, 120));
	assert_false(nl_lot_balanced(skew, 0xf, false, 80, 120));
	assert_true(nl_lot_balanced(skew, 0xe, false, 80, 120));	/* node 0 ineligible */
	assert_true(nl_lot_balanced(skew, 0xf, false, 10, 200));	/* window is a parameter */
	assert_false(nl_lot_balanced(skew, 0, false, 80, 120));		/* no node */
}

/* R12: a reader never sees a half-written table while a writer flips. */
static struct nl_lot_slot slot;
static volatile int stop;

static void *writer(void *arg)
{
	struct nl_lot_table t;
	u64 w[NL_LOT_MAX_NODES] = { 0 };
	u64 s = 7;
	long n = 0;

	(void)arg;
	while (!stop) {
		for (int i = 0; i < 8; i++)
			w[i] = rnd(&s) % 100000;
		memset(&t, 0, sizeof(t));
		nl_lot_tickets(w, 0xff, &t);
		nl_lot_publish(&slot, &t);
		n++;
	}
	return (void *)n;
}

static void test_r12_publish(void **state)
{
	pthread_t th;
	void *flips;
	long reads = 0, busy = 0;

	(void)state;
	{
		u64 w[NL_LOT_MAX_NODES] = { 1, 2, 3, 4, 5, 6, 7, 8 };
		struct nl_lot_table t = { 0 };

		nl_lot_tickets(w, 0xff, &t);
		nl_lot_publish(&slot, &t);
	}
	assert_int_equal(pthread_create(&th, NULL, writer, NULL), 0);
	for (int i = 0; i < 300000; i++) {
		struct nl_lot_table t;
		u32 sum = 0;

		if (nl_lot_read_slot(&slot, &t)) {
			busy++;
			continue;
		}
		reads++;
		assert_int_equal(t.nr, 8);
		for (u32 k = 0; k < t.nr; k++) {
			assert_int_equal(t.e[k].start, sum);
			assert_int_equal(t.e[k].nid, k);
			sum += t.e[k].tickets;
		}
		assert_int_equal(sum, t.sum);
		assert_true(sum <= 65536 + 8);
	}
	stop = 1;
	pthread_join(th, &flips);
	assert_true(reads > 0);
	assert_true((long)flips > 100);
	print_message("# %ld consistent reads, %ld retried out, %ld flips\n", reads, busy,
		      (long)flips);
}

/* Tickets count what the backend can free: madvise frees page cache only
 * where a task maps it, so a node full of unmapped cache gets few tickets
 * under madvise and its full share under the LRU backends. */
static void test_backend_figures(void **state)
{
	struct nl_lot_in in = { .nr_nodes = 2, .swappiness = 60, .swap_ok = false, .mglru = true };
	struct nl_lot_weights w;
	struct nl_lot_table t;

	(void)state;
	in.n[0] = (struct nl_lot_node_in){ .inactive_file = 8000, .file_mapped = 100 };
	in.n[1] = (struct nl_lot_node_in){ .inactive_file = 2000, .file_mapped = 2000 };
	nl_lot_weights(&in, &w);	/* lru_gen / damos / memcg: all of it */
	assert_true(w.w[0] > 3 * w.w[1]);
	assert_int_equal(nl_lot_node_figure(&in, 0), 8000);
	in.mapped_file_only = true;	/* madvise */
	nl_lot_weights(&in, &w);
	assert_true(w.w[1] > 10 * w.w[0]);
	assert_int_equal(nl_lot_node_figure(&in, 0), 100);
	memset(&t, 0, sizeof(t));
	nl_lot_tickets(w.w, w.eligible, &t);
	assert_true(t.e[1].tickets > 10 * t.e[0].tickets);
	/* anon counts only when swap can take it */
	in.n[0].inactive_anon = 5000;
	assert_int_equal(nl_lot_node_figure(&in, 0), 100);
	in.swap_ok = true;
	assert_int_equal(nl_lot_node_figure(&in, 0), 5100);
}

/* lru_gen tells hot page cache from cold only where it is mapped: a node
 * whose page cache is mostly unmapped (read(2)) gets no file tickets, a
 * mostly mapped one keeps all of its file pages. */
static void test_mapped_file_major(void **state)
{
	struct nl_lot_in in = { .nr_nodes = 2, .swappiness = 60, .swap_ok = false, .mglru = true };
	struct nl_lot_weights w;

	(void)state;
	in.n[0] = (struct nl_lot_node_in){ .inactive_file = 8000, .file_mapped = 100 };
	in.n[1] = (struct nl_lot_node_in){ .inactive_file = 2000, .active_file = 1000, .file_mapped = 1600 };
	nl_lot_weights(&in, &w);
	assert_int_equal(w.eligible, 3);
	in.old_gens_only = in.mapped_file_major = true;	/* lru_gen */
	nl_lot_weights(&in, &w);
	assert_int_equal(w.eligible, 1u << 1);
	assert_int_equal(w.w[1], 2000 * 140 / 200);	/* old generations, mapped or not */
	assert_int_equal(nl_lot_node_figure(&in, 0), 0);
	assert_int_equal(nl_lot_node_figure(&in, 1), 3000);
	/* all of it unmapped: no node is eligible, the kernel keeps it */
	in.n[1].file_mapped = 0;
	nl_lot_weights(&in, &w);
	assert_int_equal(w.eligible, 0);
}

/* lru_gen evicts only MGLRU's old generations ("inactive" in numa_stat):
 * a node whose pages are all young gets no tickets while another node
 * holds old ones, and everything counts again once no node has any. */
static void test_old_generations(void **state)
{
	struct nl_lot_in in = { .nr_nodes = 3, .swappiness = 60, .swap_ok = true, .mglru = true };
	struct nl_lot_weights w;
	struct nl_lot_table t;

	(void)state;
	in.n[0] = (struct nl_lot_node_in){ .active_anon = 4000, .active_file = 4000 };	/* all young */
	in.n[1] = (struct nl_lot_node_in){ .inactive_file = 1000, .active_file = 3000 };
	in.n[2] = (struct nl_lot_node_in){ .inactive_file = 3000, .active_file = 100 };
	nl_lot_weights(&in, &w);	/* other backends: every generation */
	assert_int_equal(w.eligible, 7);
	assert_false(w.old_only);
	assert_true(w.w[0] > w.w[2]);
	in.old_gens_only = true;	/* lru_gen */
	nl_lot_weights(&in, &w);
	assert_true(w.old_only);
	assert_int_equal(w.eligible, (1u << 1) | (1u << 2));
	assert_int_equal(w.w[1], 1000 * 140 / 200);
	assert_int_equal(w.w[2], 3000 * 140 / 200);
	memset(&t, 0, sizeof(t));
	nl_lot_tickets(w.w, w.eligible, &t);
	assert_int_equal(t.nr, 2);
	assert_true(t.e[1].tickets > 2 * t.e[0].tickets);	/* node 2 holds 3x node 1's */
	/* old anon counts only when swap can take it */
	in.n[0].inactive_anon = 30000;	/* enough anon for the anon rule to take it */
	nl_lot_weights(&in, &w);
	assert_true(w.eligible & 1u);
	in.swap_ok = false;
	nl_lot_weights(&in, &w);
	assert_false(w.eligible & 1u);
	/* nothing old anywhere: every generation counts (the step ages first) */
	in.swap_ok = true;
	for (int i = 0; i < 3; i++)
		in.n[i].inactive_file = in.n[i].inactive_anon = 0;
	nl_lot_weights(&in, &w);
	assert_false(w.old_only);
	assert_int_equal(w.eligible, 7);
}

/* A node whose last step freed nothing has no tickets until its figures
 * move by more than the slack; the draw then never picks it. */
static void test_dry_node(void **state)
{
	struct nl_lot_in in = { .nr_nodes = 3, .swappiness = 60, .swap_ok = true, .mglru = true };
	struct nl_lot_weights w;
	struct nl_lot_table t;
	u64 fig[NL_LOT_MAX_NODES] = { 0 }, dry[NL_LOT_MAX_NODES] = { 0 }, seed = 7;
	u32 reason, drop;

	(void)state;
	for (int i = 0; i < 3; i++)
		in.n[i] = (struct nl_lot_node_in){ .inactive_file = 1000, .inactive_anon = 1000 };
	for (int i = 0; i < 3; i++)
		fig[i] = nl_lot_node_figure(&in, (u32)i);
	dry[1] = 1 + fig[1];		/* node 1's last step freed nothing */
	nl_lot_weights(&in, &w);
	drop = nl_lot_drop_dry(&w, fig, dry, 32);
	assert_int_equal(drop, 1u << 1);
	assert_int_equal(w.eligible, (1u << 0) | (1u << 2));
	assert_int_equal(w.w[1], 0);
	assert_int_equal(w.total, w.w[0] + w.w[2]);
	memset(&t, 0, sizeof(t));
	nl_lot_tickets(w.w, w.eligible, &t);
	assert_int_equal(t.nr, 2);
	for (int k = 0; k < 10000; k++)
		assert_int_not_equal(nl_lot_pick(&t, rnd(&seed), &reason), 1);
	/* a small move (within the slack) keeps it out */
	fig[1] -= 20;
	nl_lot_weights(&in, &w);
	assert_int_equal(nl_lot_drop_dry(&w, fig, dry, 32), 1u << 1);
	assert_int_not_equal(dry[1], 0);
	/* its figures changed: tickets again, and the mark is gone */
	fig[1] += 500;
	nl_lot_weights(&in, &w);
	assert_int_equal(nl_lot_drop_dry(&w, fig, dry, 32), 0);
	assert_int_equal(dry[1], 0);
	assert_true(w.eligible & (1u << 1));
	/* every node dry: nothing eligible, "no victim" (said once by the agent) */
	for (int i = 0; i < 3; i++)
		dry[i] = 1 + fig[i];
	nl_lot_weights(&in, &w);
	assert_int_equal(nl_lot_drop_dry(&w, fig, dry, 32), 7);
	memset(&t, 0, sizeof(t));
	nl_lot_tickets(w.w, w.eligible, &t);
	assert_int_equal(nl_lot_pick(&t, 1, &reason), -1);
	assert_int_equal(reason, NL_LOT_NO_ELIGIBLE);
}

/* lru_gen: the only old pages sit on a node whose step freed nothing,
 * the cgroup's pages elsewhere are all young. The young node must get
 * tickets again (its step ages first), not wait for an aging nothing does
 * (a VM run stood by 24 s with 80 MiB over its watermark). */
static void test_dry_old_node(void **state)
{
	struct nl_lot_in in = { .nr_nodes = 4, .swappiness = 60, .swap_ok = true, .mglru = true,
				.old_gens_only = true };
	struct nl_lot_weights w;
	u64 fig[NL_LOT_MAX_NODES] = { 0 }, dry[NL_LOT_MAX_NODES] = { 0 };

	(void)state;
	in.n[1] = (struct nl_lot_node_in){ .active_anon = 20000 };	/* all young */
	in.n[3] = (struct nl_lot_node_in){ .inactive_anon = 3, .inactive_file = 2 };
	for (int i = 0; i < 4; i++)
		fig[i] = nl_lot_node_figure(&in, (u32)i);
	/* no dry node: only the old pages count */
	assert_int_equal(nl_lot_weights_wet(&in, fig, dry, 32, &w), 0);
	assert_true(w.old_only);
	assert_int_equal(w.eligible, 1u << 3);
	/* node 3 freed nothing: node 1's young pages count */
	dry[3] = 1 + fig[3];
	assert_int_equal(nl_lot_weights_wet(&in, fig, dry, 32, &w), 1u << 3);
	assert_false(w.old_only);
	assert_int_equal(w.eligible, 1u << 1);
	assert_int_equal(w.total, w.w[1]);
	assert_true(w.w[1] > 0);
	/* the plain pair leaves nothing eligible: what the agent did before */
	nl_lot_weights(&in, &w);
	nl_lot_drop_dry(&w, fig, dry, 32);
	assert_int_equal(w.eligible, 0);
	/* both dry: nothing eligible either way */
	dry[1] = 1 + fig[1];
	assert_int_equal(nl_lot_weights_wet(&in, fig, dry, 32, &w), (1u << 1) | (1u << 3));
	assert_int_equal(w.eligible, 0);
	/* no dry node, but the only old pages are page cache nobody maps,
	 * which lru_gen leaves to the kernel: the young node counts */
	memset(dry, 0, sizeof(dry));
	in.mapped_file_major = true;
	in.n[3] = (struct nl_lot_node_in){ .inactive_file = 100 };
	for (int i = 0; i < 4; i++)
		fig[i] = nl_lot_node_figure(&in, (u32)i);
	nl_lot_weights(&in, &w);
	assert_int_equal(w.eligible, 0);	/* the plain weights: nobody */
	assert_int_equal(nl_lot_weights_wet(&in, fig, dry, 32, &w), 0);
	assert_int_equal(w.eligible, 1u << 1);
}

/* 64 nodes: the search reaches every entry in both modes (it needs
 * log2(64) + 1 steps), and a node id past 31 is a valid victim. */
static void test_64_nodes(void **state)
{
	u64 w[NL_LOT_MAX_NODES];
	struct nl_lot_table t;
	struct nl_lot_in in;
	struct nl_lot_weights lw;
	u32 r, seen63 = 0;

	(void)state;
	assert_int_equal(NL_LOT_MAX_NODES, 64);
	for (int i = 0; i < 64; i++)
		w[i] = (u64)i + 1;
	table_of(w, 64, NL_LOT_HALF_OPEN, &t);
	assert_int_equal(t.nr, 64);
	for (u64 x = 0; x < t.sum; x++) {
		u32 rr = (u32)(((x << 32) + t.sum - 1) / t.sum);
		int nid = nl_lot_pick(&t, rr, &r);

		assert_int_equal(r, NL_LOT_OK);
		assert_true(x >= t.e[nid].start && x < t.e[nid].start + t.e[nid].tickets);
		seen63 += nid == 63;
	}
	assert_int_equal(seen63, t.e[63].tickets);
	t.mode = NL_LOT_KERNEL2011;
	for (u32 x = 0; x < 65536; x++) {
		int want = -1, nid = nl_lot_pick(&t, x, &r);

		for (u32 i = 0; i < t.nr && want < 0; i++)
			if (x >= t.e[i].start && x <= t.e[i].start + t.e[i].tickets)
				want = (int)i;
		if (want < 0)
			assert_int_equal(r, NL_LOT_MISS);
		else	/* closed intervals share ends: either neighbour */
			assert_true(nid >= want && x >= t.e[nid].start &&
				    x <= t.e[nid].start + t.e[nid].tickets);
	}
	/* only node 40 holds pages: eligible bit 40, every draw picks it */
	memset(&in, 0, sizeof(in));
	in.nr_nodes = 64;
	in.swappiness = 60;
	in.n[40].inactive_file = 1000;
	nl_lot_weights(&in, &lw);
	assert_true(lw.eligible == 1ull << 40);
	nl_lot_tickets(lw.w, lw.eligible, &t);
	t.mode = NL_LOT_HALF_OPEN;
	assert_int_equal(nl_lot_pick(&t, 0xdeadbeef, &r), 40);
	assert_true(nl_lot_balanced(lw.w, lw.eligible, false, 80, 120));
	/* the BPF draw counters' index: one u64 per slot, source and node */
	assert_int_equal(NL_LOT_DRAW_IDX(0, 0, 0, 24), 0);
	assert_int_equal(NL_LOT_DRAW_IDX(0, 1, 0, 24), 24);
	assert_int_equal(NL_LOT_DRAW_IDX(1, 0, 23, 24), 2 * 24 + 23);
	assert_int_equal(NL_LOT_DRAW_IDX(NL_LOT_MAX_CG - 1, 1, 23, 24) + 1,
			 NL_LOT_MAX_CG * NL_LOT_NR_SOURCES * 24);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_r1_vector),
		cmocka_unit_test(test_r2_anon_rule),
		cmocka_unit_test(test_r4_cold_start),
		cmocka_unit_test(test_r5_sanity),
		cmocka_unit_test(test_mglru),
		cmocka_unit_test(test_old_generations),
		cmocka_unit_test(test_mapped_file_major),
		cmocka_unit_test(test_r6_tickets),
		cmocka_unit_test(test_r7_distribution),
		cmocka_unit_test(test_r7_one_ticket),
		cmocka_unit_test(test_r8_kernel2011),
		cmocka_unit_test(test_r9_no_victim),
		cmocka_unit_test(test_r10_balance),
		cmocka_unit_test(test_r12_publish),
		cmocka_unit_test(test_backend_figures),
		cmocka_unit_test(test_dry_node),
		cmocka_unit_test(test_dry_old_node),
		cmocka_unit_test(test_64_nodes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
