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
#include "reclaim_agent.h"
#include "reclaim_scan.h"

double nl_ra_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void logf_(struct nl_ra *a, const struct nl_ra_cg *c, const char *fmt, ...)
{
	va_list ap;
	struct timespec t;

	if (!a->cfg.log)
		return;
	clock_gettime(CLOCK_REALTIME, &t);
	fprintf(a->cfg.log, "%lld.%03ld %s%s ", (long long)t.tv_sec, t.tv_nsec / 1000000,
		a->cfg.dry_run ? "dry-run " : "", c ? c->rel : "-");
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
		for (int k = 0; k < NL_RB_NR; k++)
			if (a->probe.ok[k]) {
				a->backend = k;
				break;
			}
	}
	if (a->backend < 0) {
		snprintf(err, errlen, "no reclaim backend works here (damos: %s; madvise: %s; memcg: %s)",
			 a->probe.why[0], a->probe.why[1], a->probe.why[2]);
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
	nl_psi_init(&c->psi, a->cfg.psi_us_s, 1.0, 30.0);
	nl_rcg_events_max(c->dir, a->cfg.v1, &c->events_max0);
	c->last_s = nl_ra_now();
	if (k == a->nr_cg)
		a->nr_cg++;
	a->adds++;
	return k;
}

int nl_ra_refresh(struct nl_ra *a, struct nl_ra_cg *c)
{
	struct nl_rcg_numa n;
	struct nl_scan_node *sc = c->scan;
	uint32_t swp = 60;
	int e = nl_rcg_numa_stat(c->dir, a->cfg.v1, &n);

	if (e)
		return e == -ENOENT ? -ENOENT : e;
	memset(&c->in, 0, sizeof(c->in));
	nl_rcg_swappiness(c->dir, a->cfg.v1, &swp);
	c->in.nr_nodes = (uint32_t)n.nr_nodes;
	c->in.swappiness = swp;
	c->in.swap_ok = nl_rcg_swap_ok(c->dir, a->cfg.v1);
	c->in.anon_rule = a->cfg.anon_rule;
	c->in.mglru = a->mglru = nl_ra_mglru();
	c->have_scan = nl_scan_get(a->scan, c->id, n.nr_nodes, sc) == 0;
	for (int i = 0; i < n.nr_nodes; i++) {
		struct nl_lot_node_in *d = &c->in.n[i];

		d->inactive_anon = n.inactive_anon[i];
		d->active_anon = n.active_anon[i];
		d->inactive_file = n.inactive_file[i];
		d->active_file = n.active_file[i];
		d->have_scan = c->have_scan;
		if (c->have_scan) {
			memcpy(d->scanned, sc[i].scanned, sizeof(d->scanned));
			memcpy(d->rotated, sc[i].rotated, sizeof(d->rotated));
		}
	}
	nl_lot_weights(&c->in, &c->w);
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

			if (c->w.eligible & (1u << nid)) {
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

/* Next backend after @k that the probe allowed, or -1. */
static int next_backend(struct nl_ra *a, int k)
{
	for (int j = k + 1; j < NL_RB_NR; j++)
		if (a->probe.ok[j])
			return j;
	return -1;
}

/* One step; returns pages freed (>= 0), or -ENOENT when the cgroup went. */
static long step(struct nl_ra *a, struct nl_ra_cg *c, int nid, uint64_t bytes)
{
	struct nl_rcg_numa before, after;
	struct nl_rb_target t = { c->dir, c->rel, a->cfg.v1, nid, c->in.swap_ok };
	uint64_t asked = 0, freed = 0, on = 0;
	char err[256] = "";
	double t0;
	int e, k = a->backend;

	if (nl_rcg_numa_stat(c->dir, a->cfg.v1, &before))
		return -ENOENT;
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
	if (nl_rcg_numa_stat(c->dir, a->cfg.v1, &after))
		return -ENOENT;
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
	c->target_pages += on;
	c->offnode_pages += freed - on;
	c->steps++;
	if (a->cfg.verbose)
		logf_(a, c, "step node=%d backend=%s asked=%" PRIu64 "KiB freed=%" PRIu64
		      " pages (%" PRIu64 " on node %d)%s%s", nid, nl_rb_name(k), asked / 1024, freed,
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

bool nl_ra_tick(struct nl_ra *a, struct nl_ra_cg *c, double now_s)
{
	uint64_t step_max = (uint64_t)a->cfg.step_pages * (uint64_t)a->psz, psi_us;
	bool was = c->wm.active, requeue = false;
	int noprog = 0;
	uint32_t s;

	if (c->gone)
		return false;
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
	if (!nl_wm_update(&c->wm, c->usage))
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
			logf_(a, c, "no victim node: %s; pass ends", nl_lot_reason_str(reason));
			break;
		}
		if (a->cfg.dry_run) {
			logf_(a, c, "would reclaim %" PRIu64 " KiB from node %d via %s (usage %" PRIu64
			      " KiB, high %" PRIu64 ", low %" PRIu64 ", tickets %u of %u, %s)",
			      got / 1024, nid, nl_rb_name(a->backend), c->usage / 1024, c->wm.high / 1024,
			      c->wm.low / 1024, tickets_of(&c->t, nid), c->t.sum, c->t.balanced ? "balanced" : "unbalanced");
			c->steps++;
			break;	/* nothing changes, one decision per pass */
		}
		freed = step(a, c, nid, got);
		if (freed == -ENOENT) {
			c->gone = true;
			return false;
		}
		if ((uint64_t)freed * (uint64_t)a->psz < got)
			nl_rate_refund(&a->rate, got - (uint64_t)freed * (uint64_t)a->psz);
		if (freed <= 0 && ++noprog >= 3) {
			c->no_progress_stops++;
			/* said once until a step frees something again */
			if (!c->stuck)
				logf_(a, c, "no progress in 3 steps: pass stops (usage %" PRIu64
				      " KiB); retried every interval, said again after progress",
				      c->usage / 1024);
			c->stuck = true;
			break;
		}
		if (freed > 0)
			noprog = 0, c->stuck = false;
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
