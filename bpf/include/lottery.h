/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The memcg victim-node lottery (docs/reclaim.md, "How it chooses a
 * node": weights, tickets, the draw, the balance test), in plain C shared by BPF (bpf/lottery.bpf.c: the draw) and user space
 * (tools/reclaim/reclaim_*.c: weights, tickets, publication; tests/unit).
 *
 * Split of work: user space computes weights and tickets (never inline in a
 * tracepoint: the reclaim path must stay short) and publishes them into a BPF array map slot per memcg;
 * BPF draws over the published table with bpf_get_prandom_u32().
 *
 * Units: every count is in base pages; weights are the original patches' dimensionless
 * page-equivalents (pages x prio / 200); tickets are integers summing to
 * about 2^16.
 */
#ifndef NL_LOTTERY_H
#define NL_LOTTERY_H

#include "nl_types.h"

#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif

#define NL_LOT_MAX_NODES NL_MAX_NODES
/* Index mask the verifier can follow (NL_LOT_MAX_NODES is a power of 2):
 * clang bound-checks one register and indexes with a copy of it, and drops
 * a mask it can prove redundant, hence the empty asm on the BPF side. */
#ifdef __bpf__
#define NL_LOT_IDX(i) ({ u32 __i = (i); asm volatile("" : "+r"(__i)); __i & (NL_LOT_MAX_NODES - 1); })
#else
#define NL_LOT_IDX(i) ((i) & (NL_LOT_MAX_NODES - 1))
#endif
_Static_assert((NL_LOT_MAX_NODES & (NL_LOT_MAX_NODES - 1)) == 0, "NL_LOT_MAX_NODES: power of 2");
/* memcgs the BPF side holds ticket tables for (lot_tables map entries). */
#define NL_LOT_MAX_CG 64
/* Weights are scaled to 2^16 tickets in total. */
#define NL_LOT_TICKET_SHIFT 16
/* Cold-start prior: fewer scanned pages than this and a node's reclaimability factor is
 * the prior 1.0 (all its masked pages count), not (s - r) / (s + 1). */
#define NL_LOT_SCAN_MIN 32
/* Bounded retries of a reader that met a table being rewritten (the seqcount rule of struct
 * nl_lot_slot). */
#define NL_LOT_READ_TRIES 4

/* The anon rule: when the inactive anon LRU takes part in a node's weight. */
enum nl_lot_anon_rule {
	NL_ANON_INTENT = 0,	/* default: only when file is small, file*fp < anon*ap */
	NL_ANON_CODE = 1,	/* the patches' code: when file*fp >= anon*ap */
};

/* Draw modes (see nl_lot_pick()). */
enum nl_lot_mode {
	NL_LOT_HALF_OPEN = 0,	/* r uniform in [0, sum), intervals [start, start+t) */
	NL_LOT_KERNEL2011 = 1,	/* r = rand & 0xffff, closed intervals, misses */
};

/* Outcome of a draw. NL_LOT_OK carries a node; every other value is "no
 * victim" with its reason: the caller must not pick a node itself. */
enum nl_lot_reason {
	NL_LOT_OK = 0,
	NL_LOT_NO_TABLE = 1,	/* memcg not managed / nothing published yet */
	NL_LOT_NO_ELIGIBLE = 2,	/* no node has reclaimable pages */
	NL_LOT_ZERO_WEIGHT = 3,	/* eligible nodes but total weight 0 */
	NL_LOT_BUSY = 4,	/* table rewritten during every read attempt */
	NL_LOT_MISS = 5,	/* kernel2011 mode: draw beyond the last ticket:
				 * the patches then use the local node, no mask */
	NL_LOT_NR_REASONS = 6,
};

/* Who asked for a draw. */
enum nl_lot_source {
	NL_LOT_SRC_LIMIT = 0,	/* mm_vmscan_memcg_reclaim_begin: memcg hit its limit */
	NL_LOT_SRC_AGENT = 1,	/* the agent's background pass (BPF_PROG_RUN) */
	NL_LOT_NR_SOURCES = 2,
};

/* One ticket interval (the patches' struct numascan_ticket). */
struct nl_lot_ticket {
	u32 nid;
	u32 start;	/* prefix sum of the tickets before this entry */
	u32 tickets;	/* >= 1 for every eligible node */
};

/* One published ticket table. Only eligible nodes have entries, in node id
 * order, so `start` is increasing and sum = last start + last tickets. */
struct nl_lot_table {
	u64 total_weight;	/* W, sum of the eligible nodes' weights */
	u32 nr;			/* entries used in e[] */
	u32 sum;		/* sum of tickets */
	u32 balanced;		/* nl_lot_balanced() of these weights */
	u32 mode;		/* enum nl_lot_mode to draw with */
	struct nl_lot_ticket e[NL_LOT_MAX_NODES];
};

/* One memcg's slot in the lot_tables map: two tables and a sequence
 * number. seq is even when stable; the writer makes it odd, rewrites
 * t[(seq / 2 + 1) & 1], then makes it even again. Readers use
 * t[(seq / 2) & 1], which is never the buffer being written (see
 * nl_lot_draw_slot()). */
struct nl_lot_slot {
	u64 cgroup_id;		/* 0: free slot */
	u32 seq;
	u32 quiet;		/* set by user space while the agent stands by
				 * for this memcg (it cannot help it now): a limit
				 * event is only counted (quiet_events), no draw,
				 * no ring buffer record, no agent wakeup */
	struct nl_lot_table t[2];
};

/* Decision record sent to user space (lot_events ring buffer). */
struct nl_lot_event {
	u64 ts_ns;		/* bpf_ktime_get_ns() */
	u64 cgroup_id;		/* the memcg drawn for */
	u32 nid;		/* victim node, valid when reason == NL_LOT_OK */
	u32 reason;		/* enum nl_lot_reason */
	u32 source;		/* enum nl_lot_source */
	u32 draw_id;		/* CPU << 24 | that CPU's limit-path draw count
				 * (from 1, wraps): the step acting on it names it */
};

/* The kernel's own limit reclaim of a managed memcg (lot_limit_state, one
 * per slot, updated atomically): runs begun and not yet ended, and the
 * pages they reclaimed. The agent waits for the runs in flight to end
 * before a hook step, so the step's numa_stat deltas are its own. */
struct nl_lot_limit_state {
	__s64 inflight;		/* can dip below 0 for runs begun before the load */
	u64 reclaimed;		/* pages, from mm_vmscan_memcg_reclaim_end */
	u64 quiet_events;	/* limit events while the slot was quiet */
};

/* Per-slot "no victim" counters (lot_counts, per-CPU). */
struct nl_lot_novictim {
	u64 n[NL_LOT_NR_SOURCES][NL_LOT_NR_REASONS];
};

/* Draws by slot, source and node are single u64s of the per-CPU array
 * lot_draws, sized at load for the possible node count @nr (so a 2-node
 * host does not pay for 64 nodes' counters): this is the index. */
#define NL_LOT_DRAW_IDX(slot, src, nid, nr) \
	(((u32)(slot) * NL_LOT_NR_SOURCES + (u32)(src)) * (u32)(nr) + (u32)(nid))

/* One slot's counters summed over CPUs (nl_lot_read_counts()). */
struct nl_lot_counts {
	u64 draws[NL_LOT_NR_SOURCES][NL_LOT_MAX_NODES];
	u64 novictim[NL_LOT_NR_SOURCES][NL_LOT_NR_REASONS];
};

/* Context of the syscall program the agent runs with BPF_PROG_RUN. */
struct nl_lot_run_ctx {
	u64 cgroup_id;		/* in: memcg to draw for */
	u32 nid;		/* out */
	u32 reason;		/* out: enum nl_lot_reason */
};

#ifndef NL_LOT_READ_ONCE
#define NL_LOT_READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#endif

/*
 * Draw from @t with the 32-bit random @r. Returns the victim nid, or -1 with
 * *@reason set (NL_LOT_OK on success).
 * Half-open mode: x = (r * sum) >> 32 is uniform on [0, sum) up to a
 * bias below sum / 2^32 (< 2^-15); the entry with start <= x < start + t is
 * found by a binary search of at most log2(NL_LOT_MAX_NODES) + 1 steps
 * (NL_LOT_SEARCH_STEPS).
 * Kernel2011 mode (the patches' lottery): x = r & 0xffff and lib/bsearch.c's
 * probe order over closed intervals [start, start + t]; no match is NL_LOT_MISS.
 * In both modes an empty table is NL_LOT_NO_ELIGIBLE; a zero total weight is
 * NL_LOT_ZERO_WEIGHT in half-open mode only (the patches drew anyway).
 */
/* Steps that end a binary search over NL_LOT_MAX_NODES entries in both
 * modes: log2(64) + 1. */
#define NL_LOT_SEARCH_STEPS 7
_Static_assert(NL_LOT_MAX_NODES <= 1 << (NL_LOT_SEARCH_STEPS - 1), "NL_LOT_SEARCH_STEPS too small");

static __always_inline int nl_lot_pick(const struct nl_lot_table *t, u32 r, u32 *reason)
{
	u32 nr = t->nr, lo = 0, hi, i;

	if (nr == 0 || nr > NL_LOT_MAX_NODES) {
		*reason = NL_LOT_NO_ELIGIBLE;
		return -1;
	}
	hi = nr;
	if (t->mode == NL_LOT_KERNEL2011) {
		u32 x = r & 0xffff;

		for (i = 0; i < NL_LOT_SEARCH_STEPS && lo < hi; i++) {
			u32 mid = lo + (hi - lo) / 2;
			u32 s, n;

			if (mid >= NL_LOT_MAX_NODES)
				break;
			s = t->e[NL_LOT_IDX(mid)].start;
			n = t->e[NL_LOT_IDX(mid)].tickets;
			if (x < s)
				hi = mid;
			else if (x > s + n)
				lo = mid + 1;
			else {
				*reason = NL_LOT_OK;
				return t->e[NL_LOT_IDX(mid)].nid;
			}
		}
		*reason = NL_LOT_MISS;
		return -1;
	}
	if (t->total_weight == 0 || t->sum == 0) {
		*reason = NL_LOT_ZERO_WEIGHT;
		return -1;
	}
	{
		u32 x = (u32)(((u64)r * t->sum) >> 32);

		/* Invariant: e[lo].start <= x < e[hi].start (e[nr].start = sum). */
		hi = nr;
		for (i = 0; i < NL_LOT_SEARCH_STEPS && hi - lo > 1; i++) {
			u32 mid = lo + (hi - lo) / 2;

			if (mid >= NL_LOT_MAX_NODES)
				break;
			if (t->e[NL_LOT_IDX(mid)].start <= x)
				lo = mid;
			else
				hi = mid;
		}
		if (lo >= NL_LOT_MAX_NODES) {
			*reason = NL_LOT_NO_ELIGIBLE;
			return -1;
		}
		*reason = NL_LOT_OK;
		return t->e[NL_LOT_IDX(lo)].nid;
	}
}

/* Read barrier: x86 keeps loads in order, so the BPF side (x86 only here)
 * needs just a compiler barrier; user space uses an acquire fence. */
#ifdef __bpf__
#define NL_LOT_RMB() asm volatile("" ::: "memory")
#else
#define NL_LOT_RMB() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#endif

/*
 * Read @s consistently and draw with @r. The reader uses
 * t[(seq / 2) & 1], which the writer leaves alone until it starts its
 * second rewrite after the read began, i.e. until seq passes
 * (seq_before | 1) + 1. Retries up to NL_LOT_READ_TRIES times otherwise.
 * Returns like nl_lot_pick(), or -1 with NL_LOT_BUSY.
 */
static __always_inline int nl_lot_draw_slot(const struct nl_lot_slot *s, u32 r, u32 *reason)
{
	for (int k = 0; k < NL_LOT_READ_TRIES; k++) {
		u32 seq = NL_LOT_READ_ONCE(s->seq);
		int nid;

		NL_LOT_RMB();
		nid = nl_lot_pick(&s->t[(seq >> 1) & 1], r, reason);
		NL_LOT_RMB();
		if (NL_LOT_READ_ONCE(s->seq) - seq <= (seq & 1 ? 1u : 2u))
			return nid;
	}
	*reason = NL_LOT_BUSY;
	return -1;
}

#ifndef __bpf__
/* ---- user space only: weights, tickets, balance, publication ---------- */
#include <stdbool.h>
#include <string.h>

/* Weight inputs of one node of one memcg. Pages come from memory.numa_stat.
 * Under MGLRU the kernel reports the two youngest generations as "active"
 * and older ones as "inactive"; a memcg that has not been aged yet has
 * every page in the youngest generations, so "inactive" is 0 and means
 * nothing. With nl_lot_in.mglru set the weights therefore count each
 * type's pages whatever their generation (MGLRU evicts from the oldest
 * generation of every type it scans), keeping the patches' choice of which
 * types count and its scan/rotate factor.
 * scanned/rotated are recent (decayed) per type, index 0 = anon, 1 = file;
 * have_scan = 0 when the source is not available (then the cold-start
 * prior of NL_LOT_SCAN_MIN). */
struct nl_lot_node_in {
	u64 inactive_anon, active_anon, inactive_file, active_file;
	u64 file_mapped;	/* used when nl_lot_in.mapped_file_only */
	u64 scanned[2], rotated[2];
	bool have_scan;
};

/* Weight inputs of one memcg. */
struct nl_lot_in {
	u32 nr_nodes;		/* nodes [0, nr_nodes) with data, <= NL_LOT_MAX_NODES */
	u32 swappiness;		/* 0..200 (memory.swappiness / vm.swappiness) */
	bool swap_ok;		/* system swap > 0 and the memcg may swap: anon
				 * pages are eligible only then */
	u32 anon_rule;		/* enum nl_lot_anon_rule */
	bool seed_cold;		/* true: no cold-start prior (as in the patches:
				 * a never-scanned node weighs 0) */
	bool mglru;		/* multi-gen LRU: active/inactive are generations */
	/* the backend frees page cache only where a task maps it (madvise):
	 * a node's file pages count up to its file_mapped */
	bool mapped_file_only;
	/* the backend evicts only MGLRU's old generations (lru_gen: those
	 * older than the two youngest, which memory.numa_stat reports as
	 * "inactive"): while any node holds such pages only they count, so
	 * a node gets tickets for what a step there frees without aging it
	 * first; with none anywhere every generation counts (the step ages) */
	bool old_gens_only;
	/* the backend tells hot page cache from cold only where it is mapped
	 * (lru_gen: aging reads page-table accessed bits; read(2) page cache
	 * stays in the generation it came in, however often it is read): a
	 * node's file pages count only when at least half of them are
	 * mapped, the rest is left to the kernel's own reclaim */
	bool mapped_file_major;
	struct nl_lot_node_in n[NL_LOT_MAX_NODES];
};

/* Weights of one memcg. */
struct nl_lot_weights {
	u64 w[NL_LOT_MAX_NODES];
	u64 total;		/* sum over eligible nodes */
	u64 eligible;		/* bit nid set: node has counted pages */
	bool anon_in;		/* the anon term took part */
	bool file_active_in;	/* inactive file was low: active file counted */
	bool old_only;		/* only MGLRU's old generations counted */
};

/* Pages in MGLRU's old generations over nodes [0, @n) of the types the
 * weights count (anon only when swap can take it and @anon_in). */
static inline u64 nl_lot_old_pages(const struct nl_lot_in *in, u32 n, bool anon_in)
{
	u64 t = 0;

	for (u32 i = 0; i < n; i++)
		t += in->n[i].inactive_file + (in->swap_ok && anon_in ? in->n[i].inactive_anon : 0);
	return t;
}

/* pages * (s - r) / (s + 1) in 128-bit, r clamped to s, or pages itself
 * under the cold-start prior. */
static inline u64 nl_lot_factor(u64 pages, u64 s, u64 r, bool have, bool no_prior)
{
	if (r > s)
		r = s;	/* where the patches' unsigned subtraction wrapped */
	if (!no_prior && (!have || s < NL_LOT_SCAN_MIN))
		return pages;
	return (u64)((unsigned __int128)pages * (s - r) / (s + 1));
}

/*
 * Node weights as the patches compute them (pages of the LRUs in the mask,
 * scaled by swappiness and the scanned/rotated factor), with the intended
 * lru_mask (the patches' uninitialized `mask` cannot be reproduced; the
 * anon rule picks whether anon counts), eligibility (a node with counted
 * pages; anon only with swap), the cold-start prior and r clamped to s.
 * Integer arithmetic truncating in the patches' order. @out is fully
 * written.
 */
static inline void nl_lot_weights(const struct nl_lot_in *in, struct nl_lot_weights *out)
{
	u64 ap = (u64)(in->swappiness > 200 ? 200 : in->swappiness) + 1;
	u64 fp = 200 - ap + 1;
	u64 act_f = 0, inact_f = 0, nr_anon = 0;
	u32 n = in->nr_nodes > NL_LOT_MAX_NODES ? NL_LOT_MAX_NODES : in->nr_nodes;
	unsigned __int128 lf, la;

	memset(out, 0, sizeof(*out));
	for (u32 i = 0; i < n; i++) {
		act_f += in->n[i].active_file;
		inact_f += in->n[i].inactive_file;
		nr_anon += in->n[i].inactive_anon + in->n[i].active_anon;
	}
	out->file_active_in = act_f > inact_f;	/* inactive_file_is_low, memcg-wide */
	lf = (unsigned __int128)(act_f + inact_f) * fp;
	la = (unsigned __int128)nr_anon * ap;
	out->anon_in = in->anon_rule == NL_ANON_CODE ? lf >= la : lf < la;
	out->old_only = in->mglru && in->old_gens_only &&
			nl_lot_old_pages(in, n, out->anon_in) > 0;
	for (u32 i = 0; i < n; i++) {
		const struct nl_lot_node_in *d = &in->n[i];
		bool young = !out->old_only && in->mglru;
		u64 file = d->inactive_file +
			   (young || (!out->old_only && out->file_active_in) ? d->active_file : 0);

		if (in->mapped_file_only && file > d->file_mapped)
			file = d->file_mapped;
		if (in->mapped_file_major && d->file_mapped * 2 < d->inactive_file + d->active_file)
			file = 0;
		u64 anon = in->swap_ok && out->anon_in
				   ? d->inactive_anon + (young ? d->active_anon : 0) : 0;

		if (file + anon == 0)
			continue;
		out->eligible |= 1ull << i;
		anon = nl_lot_factor(anon, d->scanned[0], d->rotated[0], d->have_scan, in->seed_cold);
		file = nl_lot_factor(file, d->scanned[1], d->rotated[1], d->have_scan, in->seed_cold);
		out->w[i] = (u64)(((unsigned __int128)anon * ap + (unsigned __int128)file * fp) / 200);
		out->total += out->w[i];
	}
}

/*
 * A node whose last step freed nothing loses its tickets until its figures
 * change, so the lottery stops drawing a node the backend cannot free
 * (no "no progress" storms). @fig[i] is node i's figure now (the pages the
 * backend can free there); @dry[i] is 0, or 1 + the figure when a step on
 * node i last freed nothing. A node whose figure moved by more than @slack
 * pages since is forgiven (dry[i] = 0); the others are cleared from
 * w->eligible, their weight taken out of w->total. Returns the mask of
 * nodes left out.
 */
static inline u64 nl_lot_drop_dry(struct nl_lot_weights *w, const u64 *fig, u64 *dry, u64 slack)
{
	u64 out = 0;

	for (u32 i = 0; i < NL_LOT_MAX_NODES; i++) {
		u64 was, d;

		if (!dry[i])
			continue;
		was = dry[i] - 1;
		d = fig[i] > was ? fig[i] - was : was - fig[i];
		if (d > slack) {
			dry[i] = 0;
			continue;
		}
		if (w->eligible & (1ull << i)) {
			w->eligible &= ~(1ull << i);
			w->total -= w->w[i];
			w->w[i] = 0;
			out |= 1ull << i;
		}
	}
	return out;
}

/*
 * Weights with dry nodes left out (nl_lot_weights, then nl_lot_drop_dry).
 * When only old generations count and no node is left (every node holding
 * them is dry, or they are page cache the backend leaves to the kernel),
 * the weights are taken again over every generation: otherwise a few old
 * pages the backend cannot free would keep the nodes whose pages are all
 * young out of the draw for good (nothing ages them while the agent has
 * no victim). Returns the mask of dry nodes left out.
 */
static inline u64 nl_lot_weights_wet(const struct nl_lot_in *in, const u64 *fig, u64 *dry, u64 slack,
				     struct nl_lot_weights *out)
{
	u64 dropped;

	nl_lot_weights(in, out);
	dropped = nl_lot_drop_dry(out, fig, dry, slack);
	if (!out->eligible && out->old_only) {
		struct nl_lot_in all = *in;

		all.old_gens_only = false;
		nl_lot_weights(&all, out);
		dropped = nl_lot_drop_dry(out, fig, dry, slack);
	}
	return dropped;
}

/* The figure nl_lot_drop_dry() watches for node @i of @in: the pages of
 * the types the weights count there (anon only when swap can take it). */
static inline u64 nl_lot_node_figure(const struct nl_lot_in *in, u32 i)
{
	const struct nl_lot_node_in *d = &in->n[i];
	u64 file = d->inactive_file + d->active_file;

	if (in->mapped_file_only && file > d->file_mapped)
		file = d->file_mapped;
	if (in->mapped_file_major && d->file_mapped * 2 < file)
		file = 0;
	return file + (in->swap_ok ? d->inactive_anon + d->active_anon : 0);
}

/*
 * Tickets: t = max(1, floor(w << 16 / (W + 1))) for each node
 * whose bit is set in @eligible, in node order, with prefix-sum starts.
 * @w has NL_LOT_MAX_NODES entries. Fills @t's entries, nr, sum and
 * total_weight; leaves mode and balanced alone.
 */
static inline void nl_lot_tickets(const u64 *w, u64 eligible, struct nl_lot_table *t)
{
	u64 W = 0;
	u32 start = 0;

	for (u32 i = 0; i < NL_LOT_MAX_NODES; i++)
		if (eligible & (1ull << i))
			W += w[i];
	t->nr = 0;
	for (u32 i = 0; i < NL_LOT_MAX_NODES; i++) {
		u64 k;

		if (!(eligible & (1ull << i)))
			continue;
		k = (u64)(((unsigned __int128)w[i] << NL_LOT_TICKET_SHIFT) / ((unsigned __int128)W + 1));
		if (!k)
			k = 1;
		t->e[t->nr].nid = i;
		t->e[t->nr].start = start;
		t->e[t->nr].tickets = (u32)k;
		start += (u32)k;
		t->nr++;
	}
	for (u32 i = t->nr; i < NL_LOT_MAX_NODES; i++)
		t->e[i] = (struct nl_lot_ticket){ 0, start, 0 };
	t->sum = start;
	t->total_weight = W;
}

/*
 * The balance test: true when every eligible node's weight lies in
 * [lo_pct, hi_pct] percent of the average. The average is W / n, or the
 * patches' W / (n + 1) when @compat. No eligible node: false.
 */
static inline bool nl_lot_balanced(const u64 *w, u64 eligible, bool compat, u32 lo_pct, u32 hi_pct)
{
	u64 W = 0, n = 0, avg, lo, hi;

	for (u32 i = 0; i < NL_LOT_MAX_NODES; i++)
		if (eligible & (1ull << i)) {
			W += w[i];
			n++;
		}
	if (!n)
		return false;
	avg = W / (compat ? n + 1 : n);
	lo = lo_pct * avg / 100;
	hi = hi_pct * avg / 100;
	for (u32 i = 0; i < NL_LOT_MAX_NODES; i++)
		if ((eligible & (1ull << i)) && (w[i] < lo || w[i] > hi))
			return false;
	return true;
}

/*
 * Publish @t into @s (the one writer of @s must be serialized by the
 * caller): the inactive buffer is rewritten between an odd and an even seq.
 */
static inline void nl_lot_publish(struct nl_lot_slot *s, const struct nl_lot_table *t)
{
	u32 seq = __atomic_load_n(&s->seq, __ATOMIC_RELAXED);

	__atomic_store_n(&s->seq, seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	memcpy(&s->t[((seq >> 1) + 1) & 1], t, sizeof(*t));
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&s->seq, seq + 2, __ATOMIC_RELEASE);
}

/*
 * Copy the current table of @s into @out by the readers' rule of
 * nl_lot_draw_slot(). Returns 0, or -EAGAIN after NL_LOT_READ_TRIES
 * attempts that all overlapped a rewrite of the buffer read.
 */
static inline int nl_lot_read_slot(const struct nl_lot_slot *s, struct nl_lot_table *out)
{
	for (int k = 0; k < NL_LOT_READ_TRIES; k++) {
		u32 seq = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);

		memcpy(out, &s->t[(seq >> 1) & 1], sizeof(*out));
		NL_LOT_RMB();
		if (__atomic_load_n(&s->seq, __ATOMIC_RELAXED) - seq <= (seq & 1 ? 1u : 2u))
			return 0;
	}
	return -11; /* -EAGAIN */
}

/* Name of a reason code, for logs. */
static inline const char *nl_lot_reason_str(u32 r)
{
	static const char *const names[NL_LOT_NR_REASONS] = {
		"ok", "no-table", "no-eligible-node", "zero-weight", "busy", "miss",
	};
	return r < NL_LOT_NR_REASONS ? names[r] : "unknown";
}
#endif /* !__bpf__ */

#endif
