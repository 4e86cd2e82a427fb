// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The background reclaim agent (reclaim_agent.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cgroup.h"
#include "names.h"
#include "reclaim_agent.h"
#include "reclaim_jsonl.h"
#include "reclaim_scan.h"

double nl_ra_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

uint64_t nl_ra_cpu_ns(void)
{
	struct timespec t;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t))
		return 0;
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static void logf_(struct nl_ra *a, const struct nl_ra_cg *c, const char *fmt, ...)
{
	va_list ap;
	char ts[40];

	if (!a->cfg.log)
		return;
	if (a->cfg.json) {	/* the same words, as a "decision" line */
		char msg[2048];

		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		nl_ra_jsonl_msg(a->cfg.log, "decision", a->cfg.dry_run, c ? c->label : NULL, msg);
		return;
	}
	nl_ra_iso_time(ts, sizeof(ts));
	fprintf(a->cfg.log, "%s %s%s ", ts, a->cfg.dry_run ? "dry-run " : "", c ? c->label : "-");
	va_start(ap, fmt);
	vfprintf(a->cfg.log, fmt, ap);
	va_end(ap);
	fputc('\n', a->cfg.log);
	fflush(a->cfg.log);
}

bool nl_ra_mglru(void)
{
	uint64_t v = 0;
	FILE *f = fopen("/sys/kernel/mm/lru_gen/enabled", "re");

	if (!f)
		return false;
	if (fscanf(f, "%" SCNx64, &v) != 1)
		v = 0;
	fclose(f);
	return v & 1;
}

int nl_ra_init(struct nl_ra *a, const struct nl_ra_cfg *cfg, struct nl_lot_bpf *lot,
	       char *err, size_t errlen)
{
	memset(a, 0, sizeof(*a));
	a->cfg = *cfg;
	a->lot = lot;
	a->psz = sysconf(_SC_PAGESIZE);
	nl_rb_probe_all(&a->probe, cfg->v1, "/sys");
	a->backend = -1;
	if (cfg->backend >= 0) {
		if (!a->probe.ok[cfg->backend]) {
			snprintf(err, errlen, "backend %s cannot run here: %s", nl_rb_name(cfg->backend),
				 a->probe.why[cfg->backend]);
			return -EOPNOTSUPP;
		}
		a->backend = cfg->backend;
	} else {
		for (int i = 0; i < NL_RB_NR; i++)
			if (a->probe.ok[nl_rb_order[i]]) {
				a->backend = nl_rb_order[i];
				break;
			}
	}
	if (a->backend < 0) {
		snprintf(err, errlen, "no reclaim backend works here (lru_gen: %s; damos: %s; madvise: %s; memcg: %s)",
			 a->probe.why[NL_RB_LRUGEN], a->probe.why[0], a->probe.why[1], a->probe.why[2]);
		return -EOPNOTSUPP;
	}
	nl_rate_init(&a->rate, cfg->rate_mib_s * 1024 * 1024, nl_ra_now());
	a->mglru = nl_ra_mglru();
	return 0;
}

int nl_ra_add(struct nl_ra *a, const char *rel)
{
	struct nl_ra_cg *c;
	uint64_t id;
	char dir[4096];
	int e;

	snprintf(dir, sizeof(dir), "%s%s", a->cfg.root, rel);
	e = nl_cgroup_id_of(dir, &id);
	if (e)
		return e;
	int k = a->nr_cg;

	for (int i = 0; i < a->nr_cg; i++)
		if (a->cg[i].id == id && !a->cg[i].gone)
			return i;
	if (k == NL_RA_MAX_CG) {
		/* full: reuse the entry of a cgroup that went (patterns can
		 * match an unbounded stream of short-lived cgroups) */
		for (k = 0; k < a->nr_cg && !a->cg[k].gone; k++)
			;
		if (k == a->nr_cg)
			return -ENOSPC;
		if (a->lot)
			nl_lot_unmanage(a->lot, a->cg[k].id);
		if (a->scan)
			nl_scan_forget(a->scan, a->cg[k].id);
	}
	if (a->lot && (e = nl_lot_manage(a->lot, id)) < 0)
		return e;
	c = &a->cg[k];
	memset(c, 0, sizeof(*c));
	snprintf(c->rel, sizeof(c->rel), "%s", rel);
	snprintf(c->dir, sizeof(c->dir), "%s", dir);
	c->id = id;
	/* whoever can name a cgroup the pattern matches must not reach
	 * root's terminal or break the JSON: show it cleaned, as top does */
	nl_path_label(c->label, sizeof(c->label), c->rel, id);
	nl_psi_init(&c->psi, a->cfg.psi_us_s, 1.0, 30.0);
	nl_rcg_events_max(c->dir, a->cfg.v1, &c->events_max0);
	c->last_s = nl_ra_now();
	if (k == a->nr_cg)
		a->nr_cg++;
	a->adds++;
	return k;
}

/* True when node @i's "freed nothing" mark of @c is at least
 * NL_RA_DRY_MAX_S old (@now_s: nl_ra_now() seconds): the node is tried
 * again, so a node that only looked dry (its pages busy for a moment) is
 * out of the draw for a few seconds, not until its figures change. */
static bool dry_mark_old(const struct nl_ra_cg *c, int i, double now_s)
{
	return c->dry[i] && now_s - c->dry_at[i] >= NL_RA_DRY_MAX_S;
}

int nl_ra_refresh(struct nl_ra *a, struct nl_ra_cg *c)
{
	struct nl_rcg_numa n;
	struct nl_scan_node *sc = c->scan;
	uint32_t swp = 60;
	int e = nl_rcg_numa_stat(c->dir, a->cfg.v1, &n);

	c->numa_reads++;
	if (e)
		return e == -ENOENT ? -ENOENT : e;
	/* the first step of a pass measures from here */
	c->ns = n;
	c->ns_ok = true;
	memset(&c->in, 0, sizeof(c->in));
	nl_rcg_swappiness(c->dir, a->cfg.v1, &swp);
	c->in.nr_nodes = (uint32_t)n.nr_nodes;
	c->in.swappiness = swp;
	c->in.swap_ok = nl_rcg_swap_ok(c->dir, a->cfg.v1);
	c->in.anon_rule = a->cfg.anon_rule;
	c->in.mglru = a->mglru = nl_ra_mglru();
	/* madvise frees page cache only where a task of the cgroup maps it */
	c->in.mapped_file_only = a->backend == NL_RB_MADVISE && n.have_mapped;
	/* lru_gen evicts old generations only: tickets for what it frees */
	c->in.old_gens_only = a->backend == NL_RB_LRUGEN;
	c->in.mapped_file_major = a->backend == NL_RB_LRUGEN && n.have_mapped;
	c->have_scan = nl_scan_get(a->scan, c->id, n.nr_nodes, sc) == 0;
	for (int i = 0; i < n.nr_nodes; i++) {
		struct nl_lot_node_in *d = &c->in.n[i];

		d->inactive_anon = n.inactive_anon[i];
		d->active_anon = n.active_anon[i];
		d->inactive_file = n.inactive_file[i];
		d->active_file = n.active_file[i];
		d->file_mapped = n.file_mapped[i];
		d->have_scan = c->have_scan;
		if (c->have_scan) {
			memcpy(d->scanned, sc[i].scanned, sizeof(d->scanned));
			memcpy(d->rotated, sc[i].rotated, sizeof(d->rotated));
		}
	}
	{
		u64 fig[NL_MAX_NODES] = { 0 };
		uint64_t was = c->dry_mask;

		double now = nl_ra_now();

		for (int i = 0; i < n.nr_nodes; i++) {
			fig[i] = nl_lot_node_figure(&c->in, (uint32_t)i);
			if (dry_mark_old(c, i, now))
				c->dry[i] = 0;	/* tried again: see dry_at */
		}
		c->dry_mask = nl_lot_weights_wet(&c->in, fig, c->dry, a->cfg.step_pages, &c->w);
		if (c->dry_mask != was)
			for (int i = 0; i < NL_MAX_NODES; i++)
				if ((c->dry_mask ^ was) & (1ull << i))
					logf_(a, c, "node %d %s", i, c->dry_mask & (1ull << i)
					      ? "freed nothing in its last step: no tickets until its figures change (5 s at most)"
					      : "figures changed or 5 s passed: tickets again");
	}
	{
		struct nl_lot_in p = c->in;

		for (int i = 0; i < n.nr_nodes; i++)
			p.n[i].have_scan = false;
		nl_lot_weights(&p, &c->w_prior);
	}
	memset(&c->t, 0, sizeof(c->t));
	nl_lot_tickets(c->w.w, c->w.eligible, &c->t);
	c->t.mode = a->cfg.draw_mode;
	c->t.balanced = nl_lot_balanced(c->w.w, c->w.eligible, a->cfg.draw_mode == NL_LOT_KERNEL2011,
					a->cfg.bal_lo, a->cfg.bal_hi);
	if (a->lot)
		nl_lot_set_table(a->lot, c->id, &c->t);
	return 0;
}

/* Victim for one step: the BPF lottery, or round-robin over eligible
 * nodes. -1 with *@reason when there is none. */
static int pick(struct nl_ra *a, struct nl_ra_cg *c, uint32_t *reason)
{
	if (a->cfg.victim == NL_VICTIM_RR) {
		for (int k = 0; k < NL_MAX_NODES; k++) {
			int nid = (c->rr_next + k) % NL_MAX_NODES;

			if (c->w.eligible & (1ull << nid)) {
				c->rr_next = nid + 1;
				c->draws_rr[nid]++;
				*reason = NL_LOT_OK;
				return nid;
			}
		}
		*reason = NL_LOT_NO_ELIGIBLE;
		return -1;
	}
	{
		int nid = nl_lot_draw(a->lot, c->id, reason);

		if (nid < -1) {
			logf_(a, c, "BPF draw failed: %s", strerror(-nid));
			*reason = NL_LOT_NO_TABLE;
			return -1;
		}
		return nid;
	}
}

/* Tickets of node @nid in @t (0 when it has none). */
static uint32_t tickets_of(const struct nl_lot_table *t, int nid)
{
	for (uint32_t i = 0; i < t->nr && i < NL_LOT_MAX_NODES; i++)
		if ((int)t->e[i].nid == nid)
			return t->e[i].tickets;
	return 0;
}

/* Next backend after @k in order of preference that the probe allowed,
 * or -1. */
static int next_backend(struct nl_ra *a, int k)
{
	int i = 0;

	while (i < NL_RB_NR && nl_rb_order[i] != k)
		i++;
	for (i++; i < NL_RB_NR; i++)
		if (a->probe.ok[nl_rb_order[i]])
			return nl_rb_order[i];
	return -1;
}

/* One step; returns pages freed (>= 0), or -ENOENT when the cgroup went.
 * @tag starts its log line (the hook's draw, or ""); *@on_out gets the
 * pages freed on @nid. @chain: a pass step, whose per-node deltas start
 * at the tick's last memory.numa_stat read (c->ns: the refresh's, or the
 * previous step's after) rather than at a read of their own; what the
 * kernel freed in the short gap in between (a usage read and a draw, the
 * start of a tick's reads for the first step) counts as the step's. A
 * hook step reads afresh: its start waited for the kernel's own limit
 * reclaim to end, and its deltas must not take that run in. */
static long step(struct nl_ra *a, struct nl_ra_cg *c, int nid, uint64_t bytes, const char *tag,
		 uint64_t *on_out, bool chain)
{
	struct nl_rcg_numa before, after;
	/* The step frees the types the weights counted: with the anon rule
	 * leaving anon out (plenty of page cache), lru_gen evicts page cache
	 * only (swappiness 0) and madvise skips anon VMAs. Evicted anon comes
	 * back one major fault per page from swap, page cache in readahead
	 * batches, so evicting anon beside ample cache costs the workload
	 * many more faults for the same pages. */
	struct nl_rb_target t = { c->dir, c->rel, a->cfg.v1, nid, c->in.swap_ok && c->w.anon_in,
				  c->in.swappiness, a->cfg.cold_ms };
	uint64_t asked = 0, freed = 0, on = 0;
	char err[256] = "";
	double t0;
	int e, k = a->backend;

	if (chain && c->ns_ok) {
		before = c->ns;
	} else {
		c->numa_reads++;
		if (nl_rcg_numa_stat(c->dir, a->cfg.v1, &before))
			return -ENOENT;
	}
	t0 = nl_ra_now();
	e = nl_rb_reclaim(k, &t, bytes, &asked, err, sizeof(err));
	c->agent_s += nl_ra_now() - t0;
	if (e == -ENOENT) {
		logf_(a, c, "cgroup disappeared mid-pass: dropped");
		return -ENOENT;
	}
	if (e == -ESRCH || e == -EOPNOTSUPP || e == -EPERM || e == -EINVAL) {
		int nk = next_backend(a, k);

		logf_(a, c, "backend %s: %s%s%s", nl_rb_name(k), err,
		      nk >= 0 ? "; this step falls back to " : "", nk >= 0 ? nl_rb_name(nk) : "");
		if (e != -ESRCH && nk >= 0) {
			/* refused by the kernel: stop using it */
			a->backend = nk;
			logf_(a, c, "backend in use is now %s%s", nl_rb_name(nk),
			      nk == NL_RB_MEMCG ? " (memcg-wide, the last resort: not node-targeted)" : "");
		}
		if (nk < 0)
			return 0;
		err[0] = '\0';	/* said above; what follows is the fallback's */
		t0 = nl_ra_now();
		e = nl_rb_reclaim(nk, &t, bytes, &asked, err, sizeof(err));
		c->agent_s += nl_ra_now() - t0;
		k = nk;
		if (e == -ENOENT)
			return -ENOENT;
	}
	c->numa_reads++;
	if (nl_rcg_numa_stat(c->dir, a->cfg.v1, &after)) {
		c->ns_ok = false;
		return -ENOENT;
	}
	c->ns = after;
	c->ns_ok = true;
	for (int i = 0; i < NL_MAX_NODES; i++) {
		uint64_t b = nl_rcg_numa_node_pages(&before, i), f = nl_rcg_numa_node_pages(&after, i);

		if (b > f) {
			c->pages[k][i] += b - f;
			freed += b - f;
			if (i == nid)
				on += b - f;
		}
	}
	/* DAMOS can start yet free nothing (e.g. pages its regions never
	 * qualify): after 3 such steps in a row, use the next backend. */
	if (k == NL_RB_DAMOS && a->backend == NL_RB_DAMOS) {
		a->damos_zero = freed ? 0 : a->damos_zero + 1;
		if (a->damos_zero >= 3 && next_backend(a, k) >= 0) {
			a->backend = next_backend(a, k);
			logf_(a, c, "backend damos freed nothing in 3 steps: backend in use is now %s",
			      nl_rb_name(a->backend));
		}
	}
	/* a node that freed nothing loses its tickets until its figures
	 * change (nl_ra_refresh); dry-run and fallback steps included */
	if (nid >= 0 && nid < NL_MAX_NODES) {
		struct nl_lot_in fin = c->in;

		for (int i = 0; i < NL_MAX_NODES; i++) {
			fin.n[i].inactive_anon = after.inactive_anon[i];
			fin.n[i].active_anon = after.active_anon[i];
			fin.n[i].inactive_file = after.inactive_file[i];
			fin.n[i].active_file = after.active_file[i];
			fin.n[i].file_mapped = after.file_mapped[i];
		}
		/* lru_gen waiting for its next aging is "not yet", not "cannot" */
		if (freed)
			c->dry[nid] = 0;
		else if (e != -EINPROGRESS) {
			c->dry[nid] = 1 + nl_lot_node_figure(&fin, (uint32_t)nid);
			c->dry_at[nid] = nl_ra_now();
		}
	}
	c->target_pages += on;
	c->offnode_pages += freed - on;
	c->freed_all += freed;
	c->steps++;
	if (on_out)
		*on_out = on;
	if (a->cfg.verbose)
		logf_(a, c, "%sstep node=%d backend=%s asked=%" PRIu64 "KiB freed=%" PRIu64
		      " pages (%" PRIu64 " on node %d)%s%s", tag, nid, nl_rb_name(k), asked / 1024, freed,
		      on, nid, err[0] && e != -EAGAIN ? ": " : "", err[0] && e != -EAGAIN ? err : "");
	/* a step that came up short and says why (e.g. dirty file pages):
	 * once without -v, where the step lines are not logged */
	if (!a->cfg.verbose && !e && err[0] && !c->skip_told && (c->skip_told = true))
		logf_(a, c, "%s", err);
	if (!c->in.swap_ok && freed == 0 && k != NL_RB_MEMCG && !c->noswap_told &&
	    (before.inactive_anon[nid] || before.active_anon[nid]) && (c->noswap_told = true))
		logf_(a, c, "no swap (system or memory.swap.max): the anon pages on node %d cannot "
		      "be paged out", nid);
	return (long)freed;
}

static bool tick_full(struct nl_ra *a, struct nl_ra_cg *c, double now_s);

/* Swap use of @c now, bytes; 0 when it cannot be read (v1, no swap
 * accounting): then only usage and time bring a full look forward. */
static uint64_t swap_now(const struct nl_ra *a, const struct nl_ra_cg *c)
{
	uint64_t v;

	return nl_rcg_swap_usage(c->dir, a->cfg.v1, &v) ? 0 : v;
}

/* True when a node's "freed nothing" mark of @c is NL_RA_DRY_MAX_S old:
 * only a full look (nl_ra_refresh) lifts it, and a memcg standing by for
 * want of a node (its nodes all marked) would otherwise wait for its next
 * NL_SB_FULL_EVERY_S look, NL_SB_TICKS ticks later than the limit. */
static bool dry_expired(const struct nl_ra_cg *c, double now_s)
{
	for (int i = 0; i < NL_MAX_NODES; i++)
		if (dry_mark_old(c, i, now_s))
			return true;
	return false;
}

bool nl_ra_tick(struct nl_ra *a, struct nl_ra_cg *c, double now_s)
{
	uint64_t u;
	uint32_t why;
	bool requeue;
	int ch;

	if (c->gone)
		return false;
	/* standing by: two counter reads unless a full look is due (the
	 * refault guard keeps its own clock, so it always gets the full
	 * tick) */
	if (c->sb.on && !c->rguard_on && !dry_expired(c, now_s) && !nl_rcg_usage(c->dir, a->cfg.v1, &u) &&
	    !nl_sb_full_due(&c->sb, now_s, u, swap_now(a, c), c->wm.high ? c->wm.high : c->limit)) {
		c->usage = u;
		c->sb.skipped++;
		return false;
	}
	requeue = tick_full(a, c, now_s);
	c->ns_ok = false;	/* the next tick's pass measures from its own refresh */
	if (c->gone)
		return false;
	/* a pass can stop short while lru_gen waits for its next aging, and
	 * a node's mapped share of its page cache can swing across the 50%
	 * lru_gen asks for within a second (a workload that maps its files
	 * pass by pass): only a state that held for NL_SB_TICKS full ticks in
	 * a row counts, or the agent would miss the moments it can act */
	why = nl_sb_observe(&c->sb, c->w.eligible, c->rguard_on, c->pass_dry, c->wm_bad);
	/* a dry run is there to show the decisions and the figures behind
	 * them (scan source included): it never stands by */
	if (a->cfg.dry_run)
		why = 0;
	ch = nl_sb_update(&c->sb, why, now_s, c->usage, swap_now(a, c));
	if (ch && a->lot)
		nl_lot_set_quiet(a->lot, c->id, ch > 0);
	if (ch > 0) {
		char b[256];

		logf_(a, c, "standing by: %s; its limit reclaim is left to the kernel (hook quiet, "
		      "figures read again when usage or swap use moves, or every %.0f s)",
		      nl_sb_why_str(why, b, sizeof(b)), NL_SB_FULL_EVERY_S);
	} else if (ch < 0) {
		logf_(a, c, "acting again after %.1f s standing by", now_s - c->sb.since_s);
	}
	return requeue;
}

static bool tick_full(struct nl_ra *a, struct nl_ra_cg *c, double now_s)
{
	uint64_t step_max = (uint64_t)a->cfg.step_pages * (uint64_t)a->psz, psi_us;
	/* stuck_before: the last pass stopped short too (this one's freed
	 * pages clear c->stuck, so it cannot tell) */
	bool was = c->wm.active, requeue = false, stuck_before = c->stuck;
	uint64_t pass_freed = 0;
	int noprog = 0;
	uint32_t s;

	if (c->gone)
		return false;
	c->full_ticks++;
	if (nl_rcg_limit(c->dir, a->cfg.v1, &c->limit) || nl_ra_refresh(a, c) ||
	    nl_rcg_usage(c->dir, a->cfg.v1, &c->usage)) {
		logf_(a, c, "cgroup disappeared: dropped");
		c->gone = true;
		return false;
	}
	nl_rcg_events_max(c->dir, a->cfg.v1, &c->events_max);
	{
		struct nl_wm w = c->wm;

		int e = nl_wm_resolve(&a->cfg.high, &a->cfg.low, c->limit, &w);

		if (e) {
			if (!c->wm_bad)
				logf_(a, c, "%s; skipped until that changes", e == -ERANGE
				      ? "--low resolves to at least --high for this memory limit: give a lower --low"
				      : "no memory limit to take a percentage of: give --high/--low in bytes");
			c->wm_bad = true;
			return false;
		}
		c->wm_bad = false;
		c->wm.high = w.high;
		c->wm.low = w.low;
	}
	if (c->usage > c->wm.high)
		c->over_high_s += now_s - c->last_s;
	c->last_s = now_s;
	c->psi_ok = nl_rcg_psi_some_us(c->dir, &psi_us) == 0;
	{
		uint64_t ra, rf, maj;
		bool ok = !nl_rcg_refault_stat(c->dir, &ra, &rf, &maj), on;

		/* only refaults the workload waits on count: page cache read
		 * back by read(2) or readahead costs it no fault, and anon
		 * the agent does not evict is the kernel's doing */
		if (ok && c->rf_have)
			c->rf_cost += nl_refault_cost(ra > c->rf_anon ? ra - c->rf_anon : 0,
						      rf > c->rf_file ? rf - c->rf_file : 0,
						      maj > c->rf_maj ? maj - c->rf_maj : 0,
						      c->in.swap_ok && c->w.anon_in);
		if (ok)
			c->rf_anon = ra, c->rf_file = rf, c->rf_maj = maj, c->rf_have = true;
		on = !a->cfg.dry_run && ok && nl_refault_guard_update(&c->rguard, now_s, c->rf_cost, c->freed_all);
		if (on != c->rguard_on)
			logf_(a, c, on ? "the pages it evicts come back as faults (memory.stat workingset_refault, pgmajfault): "
					 "not reclaiming ahead of the limit for %.0f s"
				       : "evicted pages stay out again: reclaiming ahead of the limit", c->rguard.until_s - now_s);
		c->rguard_on = on;
	}
	if (!nl_wm_update(&c->wm, c->usage) || c->rguard_on)
		return false;
	if (!was)
		logf_(a, c, "usage %" PRIu64 " KiB > high %" PRIu64 " KiB: reclaiming to low %" PRIu64
		      " KiB", c->usage / 1024, c->wm.high / 1024, c->wm.low / 1024);
	if (c->psi_ok) {
		uint64_t nb = c->psi.backoffs;

		if (nl_psi_update(&c->psi, now_s, psi_us)) {
			if (c->psi.backoffs != nb)
				logf_(a, c, "memory.pressure over %.0f us/s: backing off %.1f s",
				      a->cfg.psi_us_s, c->psi.until_s - now_s);
			return false;
		}
	}
	c->passes++;
	for (s = 0; s < a->cfg.pass_steps; s++) {
		uint64_t want = nl_wm_step_bytes(&c->wm, c->usage, step_max), got;
		uint32_t reason;
		int nid;
		long freed;

		if (!want)
			break;
		got = nl_rate_take(&a->rate, nl_ra_now(), want);
		if (!got) {
			if (a->cfg.verbose)
				logf_(a, c, "rate limit %.1f MiB/s reached: pass ends", a->cfg.rate_mib_s);
			requeue = true;
			break;
		}
		nid = pick(a, c, &reason);
		if (nid < 0) {
			nl_rate_refund(&a->rate, got);
			c->novictim[reason < NL_LOT_NR_REASONS ? reason : 0]++;
			nl_ra_novictim(a, c, reason, "pass ends");
			break;
		}
		c->novictim_said = 0;
		if (a->cfg.dry_run) {
			/* usage never falls in a dry run, so the usage watch
			 * decides again every 50 ms: one line a second says it */
			if (now_s - c->dry_said_s >= 1.0 || !c->dry_said_s) {
				logf_(a, c, "would reclaim %" PRIu64 " KiB from node %d via %s (usage %" PRIu64
				      " KiB, high %" PRIu64 ", low %" PRIu64 ", tickets %u of %u, %s; "
				      "%" PRIu64 " more decisions since the last line)",
				      got / 1024, nid, nl_rb_name(a->backend), c->usage / 1024, c->wm.high / 1024,
				      c->wm.low / 1024, tickets_of(&c->t, nid), c->t.sum,
				      c->t.balanced ? "balanced" : "unbalanced", c->dry_unsaid);
				c->dry_said_s = now_s;
				c->dry_unsaid = 0;
			} else {
				c->dry_unsaid++;
			}
			c->steps++;
			break;	/* nothing changes, one decision per pass */
		}
		freed = step(a, c, nid, got, "", NULL, true);
		if (freed == -ENOENT) {
			c->gone = true;
			return false;
		}
		if ((uint64_t)freed * (uint64_t)a->psz < got)
			nl_rate_refund(&a->rate, got - (uint64_t)freed * (uint64_t)a->psz);
		if (a->between_steps)
			a->between_steps(a);
		if (c->gone)
			return false;
		if (freed <= 0 && ++noprog >= 3) {
			c->no_progress_stops++;
			/* said once for a run of passes that stop short: one
			 * that freed pages and then stopped keeps acting
			 * (pass_dry), and would otherwise say it every pass */
			if (!stuck_before)
				logf_(a, c, "no progress in 3 steps: pass stops (usage %" PRIu64
				      " KiB); retried every interval, said again after a pass that does not stop short",
				      c->usage / 1024);
			c->stuck = true;
			c->pass_dry = !pass_freed;
			break;
		}
		if (freed > 0)
			noprog = 0, c->stuck = c->pass_dry = false, pass_freed += (uint64_t)freed;
		if (nl_rcg_usage(c->dir, a->cfg.v1, &c->usage)) {
			c->gone = true;
			return false;
		}
		if (!nl_wm_update(&c->wm, c->usage)) {
			logf_(a, c, "usage %" PRIu64 " KiB <= low: idle (%" PRIu64 " steps so far)",
			      c->usage / 1024, c->steps);
			break;
		}
	}
	if (s == a->cfg.pass_steps && c->wm.active)
		requeue = true;	/* bounded pass done, still above low */
	return requeue && !a->cfg.dry_run;
}

void nl_ra_novictim(struct nl_ra *a, struct nl_ra_cg *c, uint32_t reason, const char *where)
{
	if (c->novictim_said == reason + 1)
		return;
	c->novictim_said = reason + 1;
	logf_(a, c, "no victim node: %s; %s (said again only when the reason changes)",
	      nl_lot_reason_str(reason), where);
}

bool nl_ra_hook_overlap(double *ov_end_s, bool ran_over, double start_s, double end_s, double *lag_ms)
{
	*lag_ms = -1;
	/* only a kernel run's overlap starts the window: a step inside it
	 * overlapped no run of its own */
	if (ran_over) {
		*ov_end_s = end_s;
		return true;
	}
	if (*ov_end_s > 0 && start_s - *ov_end_s < NL_RA_FLUSH_LAG_S) {
		*lag_ms = (start_s - *ov_end_s) * 1e3;
		return true;
	}
	return false;
}

long nl_ra_hook_step(struct nl_ra *a, struct nl_ra_cg *c, int nid, uint32_t draw_id,
		     uint64_t first_ts_ns, uint32_t events)
{
	uint64_t step_max = (uint64_t)a->cfg.step_pages * (uint64_t)a->psz, bytes = step_max, got, on = 0;
	uint64_t usage;
	struct timespec t;
	double lat_us;
	char tag[96];
	long freed;

	int64_t inflight = 0;
	uint64_t k0 = 0, k1 = 0;
	double t0_step;
	bool track;
	int waited = 0;

	if (c->gone)
		return -ENOENT;
	/* The event fires as the kernel starts its own limit reclaim: wait
	 * (at most 20 ms) for that run to end, so the step's numa_stat
	 * deltas are the step's, not the kernel's. */
	track = a->lot && !nl_lot_limit_state(a->lot, c->id, &inflight, &k0);
	for (; track && inflight > 0 && waited < 20; waited++) {
		struct timespec ms = { 0, 1000000 };

		nanosleep(&ms, NULL);
		if (nl_lot_limit_state(a->lot, c->id, &inflight, &k0))
			track = false;
	}
	clock_gettime(CLOCK_MONOTONIC, &t);
	lat_us = ((double)t.tv_sec * 1e9 + (double)t.tv_nsec - (double)first_ts_ns) / 1e3;
	c->hook_events += events;
	c->novictim_said = 0;
	/* The refault guard is on: what the agent evicts comes back, so a
	 * step on top of the kernel's own limit reclaim (which takes only what
	 * the charge needs) would evict working set; the kernel handles it. */
	if (c->rguard_on && !a->cfg.dry_run) {
		c->hook_guarded++;
		return 0;
	}
	/* The memcg is at its limit: one --step buys room for one step of
	 * allocation, and the next limit hit follows at once. Take it down
	 * to low instead (the gap, at most one pass of steps), as a pass
	 * would; it frees from the drawn node what the backend finds there. */
	if (!c->rguard_on && !c->wm_bad && c->wm.high && !nl_rcg_usage(c->dir, a->cfg.v1, &usage) &&
	    usage > c->wm.low) {
		uint64_t gap = usage - c->wm.low, cap = step_max * (a->cfg.pass_steps ? a->cfg.pass_steps : 1);

		bytes = gap < step_max ? step_max : gap > cap ? cap : gap;
	}
	got = nl_rate_take(&a->rate, nl_ra_now(), bytes);
	if (!got) {
		if (a->cfg.verbose)
			logf_(a, c, "hook draw=%u node=%d: rate limit %.1f MiB/s reached, no step",
			      draw_id, nid, a->cfg.rate_mib_s);
		return 0;
	}
	a->lat_us[a->nr_lat++ % NL_RA_LAT_MAX] = lat_us < 0 ? 0 : lat_us;
	snprintf(tag, sizeof(tag), "hook draw=%u events=%u latency_us=%.0f waited_ms=%d ", draw_id, events,
		 lat_us, waited);
	c->last_draw_id = draw_id;
	c->last_draw_nid = nid;
	if (a->cfg.dry_run) {
		logf_(a, c, "%swould reclaim %" PRIu64 " KiB from node %d via %s", tag, got / 1024, nid,
		      nl_rb_name(a->backend));
		c->hook_steps++;
		return 0;
	}
	t0_step = nl_ra_now();
	freed = step(a, c, nid, got, tag, &on, false);
	if (freed == -ENOENT) {
		c->gone = true;
		return -ENOENT;
	}
	/* A kernel run in flight at either end of the step, or one that
	 * ended within it, put its own pages into the step's numa_stat
	 * deltas: such a step's node share is not the step's alone. Nor is
	 * one that started within NL_RA_FLUSH_LAG_S of an overlapped step's
	 * end: the statistics of that run's last pages can wait for a later
	 * flush (a load run saw a step 32 ms after one hold 512 of the
	 * kernel's pages from another node). */
	{
		bool ran_over = !track || inflight > 0, overlap;
		double lag_ms = -1;

		if (track && (nl_lot_limit_state(a->lot, c->id, &inflight, &k1) || inflight > 0 || k1 != k0))
			ran_over = true;
		overlap = nl_ra_hook_overlap(&c->hook_ov_end_s, ran_over, t0_step, nl_ra_now(), &lag_ms);
		if (k1 > k0)
			c->hook_overlap_pages += k1 - k0;
		if (!overlap) {
			c->hook_clean_steps++;
			c->hook_clean_pages += (uint64_t)freed;
			c->hook_clean_on_pages += on;
		} else if (a->cfg.verbose && lag_ms >= 0) {
			logf_(a, c, "hook draw=%u overlapped the statistics of a kernel limit reclaim that ended "
			      "%.0f ms before it (not yet all flushed): its deltas are not its alone", draw_id, lag_ms);
		} else if (a->cfg.verbose) {
			logf_(a, c, "hook draw=%u overlapped the kernel's own limit reclaim (%" PRIu64
			      " pages by runs that ended meanwhile): its deltas are not its alone",
			      draw_id, k1 > k0 ? k1 - k0 : 0);
		}
	}
	if ((uint64_t)freed * (uint64_t)a->psz < got)
		nl_rate_refund(&a->rate, got - (uint64_t)freed * (uint64_t)a->psz);
	c->hook_steps++;
	c->hook_pages += (uint64_t)freed;
	c->hook_on_pages += on;
	return freed;
}

bool nl_ra_any_eligible(const struct nl_ra *a)
{
	for (int i = 0; i < a->nr_cg; i++)
		if (!a->cg[i].gone && a->cg[i].w.eligible)
			return true;
	return false;
}

bool nl_ra_all_standby(const struct nl_ra *a)
{
	int n = 0;

	for (int i = 0; i < a->nr_cg; i++) {
		if (a->cg[i].gone)
			continue;
		if (!a->cg[i].sb.on)
			return false;
		n++;
	}
	return n > 0;
}

bool nl_ra_watch(const struct nl_ra *a)
{
	for (int i = 0; i < a->nr_cg; i++) {
		const struct nl_ra_cg *c = &a->cg[i];

		/* standing by: the interval's tick is soon enough */
		if (!c->gone && !c->wm_bad && c->wm.high && !c->sb.on && c->usage > c->wm.low / 2)
			return true;
	}
	return false;
}

bool nl_ra_over_high(struct nl_ra *a)
{
	for (int i = 0; i < a->nr_cg; i++) {
		struct nl_ra_cg *c = &a->cg[i];
		uint64_t u;

		/* paused by the refault guard, its last pass stopped short
		 * (3 steps in a row freed nothing, even if earlier steps of
		 * that pass freed pages: c->stuck, not the standby rule's
		 * pass_dry), or the last draw found no node to take from
		 * (e.g. only read(2) page cache under lru_gen): the
		 * interval's tick, which refreshes the weights, is soon
		 * enough. Re-running the tick every 50 ms for nothing took
		 * CPU from the workload: an idle agent raised the build-like
		 * load's PSI stall 3-10x under TCG. Under dd | tail every
		 * pass stops short, so there only the interval's tick and
		 * the limit hook start passes: the setup the bench's limit
		 * hits figures were measured with. */
		if (c->gone || c->wm_bad || !c->wm.high || c->rguard_on || c->stuck || c->novictim_said || c->sb.on ||
		    nl_rcg_usage(c->dir, a->cfg.v1, &u))
			continue;
		if (u > c->wm.high)
			return true;
	}
	return false;
}

static int cmp_dbl(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

double nl_ra_hook_latency_us(const struct nl_ra *a, double p)
{
	uint64_t n = a->nr_lat < NL_RA_LAT_MAX ? a->nr_lat : NL_RA_LAT_MAX;
	static double v[NL_RA_LAT_MAX];
	size_t k;

	if (!n)
		return -1;
	memcpy(v, a->lat_us, sizeof(v[0]) * n);
	qsort(v, n, sizeof(v[0]), cmp_dbl);
	/* nearest rank */
	k = (size_t)(p / 100.0 * (double)n + 0.999999);
	if (k < 1)
		k = 1;
	return v[k > n ? n - 1 : k - 1];
}
