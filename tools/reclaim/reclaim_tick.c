// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The agent's tick and its pass (reclaim_tick.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "reclaim_step.h"
#include "reclaim_tick.h"

/* Victim for one step: the BPF lottery, or round-robin over eligible
 * nodes. -1 with *@reason when there is none. */
static int pick(struct nl_ra *a, struct nl_ra_cg *c, uint32_t *reason)
{
	int nid;

	if (a->cfg.victim == NL_VICTIM_RR) {
		for (int k = 0; k < NL_MAX_NODES; k++) {
			nid = (c->rr_next + k) % NL_MAX_NODES;
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
	nid = nl_lot_draw(a->lot, c->id, reason);
	if (nid < -1) {
		nl_agent_log(a, c, "BPF draw failed: %s", strerror(-nid));
		*reason = NL_LOT_NO_TABLE;
		return -1;
	}
	return nid;
}

/* Tickets of node @nid in @t (0 when it has none). */
static uint32_t tickets_of(const struct nl_lot_table *t, int nid)
{
	for (uint32_t i = 0; i < t->nr && i < NL_LOT_MAX_NODES; i++)
		if ((int)t->e[i].nid == nid)
			return t->e[i].tickets;
	return 0;
}

/* Swap use of @c now, bytes; 0 when it cannot be read (v1, no swap
 * accounting): then only usage and time bring a full look forward. */
static uint64_t swap_now(const struct nl_ra *a, const struct nl_ra_cg *c)
{
	uint64_t v;

	return nl_rcg_swap_usage(c->dir, a->cfg.v1, &v) ? 0 : v;
}

/* True when a node's "freed nothing" mark of @c is NL_RA_DRY_MAX_S old:
 * only a full look (nl_agent_refresh) lifts it, and a memcg standing by for
 * want of a node (its nodes all marked) would otherwise wait for its next
 * NL_SB_FULL_EVERY_S look, NL_SB_TICKS ticks later than the limit. */
static bool dry_expired(const struct nl_ra_cg *c, double now_s)
{
	for (int i = 0; i < NL_MAX_NODES; i++)
		if (nl_agent_dry_mark_old(c, i, now_s))
			return true;
	return false;
}

/* The figures of a full look: limit, weights (nl_agent_refresh), usage,
 * limit events, and the watermarks resolved against the limit. False when
 * the tick ends here (the cgroup went, or its watermarks cannot be
 * resolved: said once). */
static bool tick_read(struct nl_ra *a, struct nl_ra_cg *c)
{
	struct nl_wm w;
	int e;

	if (nl_rcg_limit(c->dir, a->cfg.v1, &c->limit) || nl_agent_refresh(a, c) ||
	    nl_rcg_usage(c->dir, a->cfg.v1, &c->usage)) {
		nl_agent_log(a, c, "cgroup disappeared: dropped");
		c->gone = true;
		return false;
	}
	nl_rcg_events_max(c->dir, a->cfg.v1, &c->events_max);
	w = c->wm;
	e = nl_wm_resolve(&a->cfg.high, &a->cfg.low, c->limit, &w);
	if (e) {
		if (!c->wm_bad)
			nl_agent_log(a, c, "%s; skipped until that changes", e == -ERANGE
				     ? "--low resolves to at least --high for this memory limit: give a lower --low"
				     : "no memory limit to take a percentage of: give --high/--low in bytes");
		c->wm_bad = true;
		return false;
	}
	c->wm_bad = false;
	c->wm.high = w.high;
	c->wm.low = w.low;
	return true;
}

/* The refault guard's look at memory.stat: only refaults the workload
 * waits on count (page cache read back by read(2) or readahead costs it
 * no fault, and anon the agent does not evict is the kernel's doing). */
static void tick_refaults(struct nl_ra *a, struct nl_ra_cg *c, double now_s)
{
	uint64_t ra, rf, maj;
	bool ok = !nl_rcg_refault_stat(c->dir, &ra, &rf, &maj), on;

	if (ok && c->rf_have)
		c->rf_cost += nl_refault_cost(ra > c->rf_anon ? ra - c->rf_anon : 0,
					      rf > c->rf_file ? rf - c->rf_file : 0,
					      maj > c->rf_maj ? maj - c->rf_maj : 0,
					      c->in.swap_ok && c->w.anon_in);
	if (ok)
		c->rf_anon = ra, c->rf_file = rf, c->rf_maj = maj, c->rf_have = true;
	on = !a->cfg.dry_run && ok && nl_refault_guard_update(&c->rguard, now_s, c->rf_cost, c->freed_all);
	if (on != c->rguard_on)
		nl_agent_log(a, c, on ? "the pages it evicts come back as faults (memory.stat workingset_refault, pgmajfault): "
					       "not reclaiming ahead of the limit for %.0f s"
				     : "evicted pages stay out again: reclaiming ahead of the limit", c->rguard.until_s - now_s);
	c->rguard_on = on;
}

/* True while memory.pressure grows too fast (@psi_us: its "some" total,
 * us): the pass waits; a new back-off is said. */
static bool psi_backoff(struct nl_ra *a, struct nl_ra_cg *c, double now_s, uint64_t psi_us)
{
	uint64_t nb = c->psi.backoffs;

	if (!nl_psi_update(&c->psi, now_s, psi_us))
		return false;
	if (c->psi.backoffs != nb)
		nl_agent_log(a, c, "memory.pressure over %.0f us/s: backing off %.1f s",
			     a->cfg.psi_us_s, c->psi.until_s - now_s);
	return true;
}

/* A dry run's decision: usage never falls in a dry run, so the usage
 * watch decides again every 50 ms: one line a second says it. */
static void dry_decision(struct nl_ra *a, struct nl_ra_cg *c, double now_s, uint64_t got, int nid)
{
	if (now_s - c->dry_said_s >= 1.0 || !c->dry_said_s) {
		nl_agent_log(a, c, "would reclaim %" PRIu64 " KiB from node %d via %s (usage %" PRIu64
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
}

/* A pass under way: its step size (bytes), what it freed, its steps in a
 * row that freed nothing, and whether the last pass stopped short too
 * (this one's freed pages clear c->stuck, so it cannot tell). */
struct pass {
	uint64_t step_max, freed;
	int noprog;
	bool stuck_before;
};

/* What a pass does after a step. */
enum pass_next { PASS_GO, PASS_END, PASS_REQUEUE, PASS_GONE };

/* A step that freed @freed pages (<= 0: nothing): three in a row end the
 * pass. Returns PASS_END then, else PASS_GO. */
static enum pass_next pass_progress(struct nl_ra *a, struct nl_ra_cg *c, struct pass *p, long freed)
{
	if (freed <= 0 && ++p->noprog >= 3) {
		c->no_progress_stops++;
		/* said once for a run of passes that stop short: one that
		 * freed pages and then stopped keeps acting (pass_dry), and
		 * would otherwise say it every pass */
		if (!p->stuck_before)
			nl_agent_log(a, c, "no progress in 3 steps: pass stops (usage %" PRIu64
				     " KiB); retried every interval, said again after a pass that does not stop short",
				     c->usage / 1024);
		c->stuck = true;
		c->pass_dry = !p->freed;
		return PASS_END;
	}
	if (freed > 0)
		p->noprog = 0, c->stuck = c->pass_dry = false, p->freed += (uint64_t)freed;
	return PASS_GO;
}

/* One step of a pass: its size from the watermarks and the rate limit, its
 * node from the draw, then whether the pass goes on. */
static enum pass_next pass_step(struct nl_ra *a, struct nl_ra_cg *c, double now_s, struct pass *p)
{
	uint64_t want = nl_wm_step_bytes(&c->wm, c->usage, p->step_max), got;
	uint32_t reason;
	long freed;
	int nid;

	if (!want)
		return PASS_END;
	got = nl_rate_take(&a->rate, nl_agent_now(), want);
	if (!got) {
		if (a->cfg.verbose)
			nl_agent_log(a, c, "rate limit %.1f MiB/s reached: pass ends", a->cfg.rate_mib_s);
		return PASS_REQUEUE;
	}
	nid = pick(a, c, &reason);
	if (nid < 0) {
		nl_rate_refund(&a->rate, got);
		c->novictim[reason < NL_LOT_NR_REASONS ? reason : 0]++;
		nl_agent_novictim(a, c, reason, "pass ends");
		return PASS_END;
	}
	c->novictim_said = 0;
	if (a->cfg.dry_run) {
		dry_decision(a, c, now_s, got, nid);
		return PASS_END;	/* nothing changes, one decision per pass */
	}
	freed = nl_step(a, c, nid, got, "", NULL, true);
	if (freed == -ENOENT) {
		c->gone = true;
		return PASS_GONE;
	}
	if ((uint64_t)freed * (uint64_t)a->psz < got)
		nl_rate_refund(&a->rate, got - (uint64_t)freed * (uint64_t)a->psz);
	if (a->between_steps)
		a->between_steps(a);
	if (c->gone)
		return PASS_GONE;
	if (pass_progress(a, c, p, freed) == PASS_END)
		return PASS_END;
	if (nl_rcg_usage(c->dir, a->cfg.v1, &c->usage)) {
		c->gone = true;
		return PASS_GONE;
	}
	if (!nl_wm_update(&c->wm, c->usage)) {
		nl_agent_log(a, c, "usage %" PRIu64 " KiB <= low: idle (%" PRIu64 " steps so far)",
			     c->usage / 1024, c->steps);
		return PASS_END;
	}
	return PASS_GO;
}

/* One bounded pass: at most --pass-steps steps. Returns whether it must
 * be re-queued (rate limit reached, or all its steps done with usage
 * still above low; never in a dry run). */
static bool run_pass(struct nl_ra *a, struct nl_ra_cg *c, double now_s, bool stuck_before)
{
	struct pass p = { (uint64_t)a->cfg.step_pages * (uint64_t)a->psz, 0, 0, stuck_before };
	bool requeue = false;
	uint32_t s;

	c->passes++;
	for (s = 0; s < a->cfg.pass_steps; s++) {
		enum pass_next n = pass_step(a, c, now_s, &p);

		if (n == PASS_GONE)
			return false;
		if (n == PASS_REQUEUE)
			requeue = true;
		if (n != PASS_GO)
			break;
	}
	if (s == a->cfg.pass_steps && c->wm.active)
		requeue = true;	/* bounded pass done, still above low */
	return requeue && !a->cfg.dry_run;
}

/* A tick that reads @c's figures afresh, and a pass when usage is above
 * high. Returns true when the pass must be re-queued. */
static bool tick_full(struct nl_ra *a, struct nl_ra_cg *c, double now_s)
{
	bool was = c->wm.active, stuck_before = c->stuck;
	uint64_t psi_us;

	if (c->gone)
		return false;
	c->full_ticks++;
	if (!tick_read(a, c))
		return false;
	if (c->usage > c->wm.high)
		c->over_high_s += now_s - c->last_s;
	c->last_s = now_s;
	c->psi_ok = nl_rcg_psi_some_us(c->dir, &psi_us) == 0;
	tick_refaults(a, c, now_s);
	if (!nl_wm_update(&c->wm, c->usage) || c->rguard_on)
		return false;
	if (!was)
		nl_agent_log(a, c, "usage %" PRIu64 " KiB > high %" PRIu64 " KiB: reclaiming to low %" PRIu64
			     " KiB", c->usage / 1024, c->wm.high / 1024, c->wm.low / 1024);
	if (c->psi_ok && psi_backoff(a, c, now_s, psi_us))
		return false;
	return run_pass(a, c, now_s, stuck_before);
}

bool nl_tick(struct nl_ra *a, struct nl_ra_cg *c, double now_s)
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

		nl_agent_log(a, c, "standing by: %s; its limit reclaim is left to the kernel (hook quiet, "
			     "figures read again when usage or swap use moves, or every %.0f s)",
			     nl_sb_why_str(why, b, sizeof(b)), NL_SB_FULL_EVERY_S);
	} else if (ch < 0) {
		nl_agent_log(a, c, "acting again after %.1f s standing by", now_s - c->sb.since_s);
	}
	return requeue;
}
