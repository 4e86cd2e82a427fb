// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The background reclaim agent: its cgroups and their weights (reclaim_agent.h). */
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

double nl_agent_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

uint64_t nl_agent_cpu_ns(void)
{
	struct timespec t;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t))
		return 0;
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

void nl_agent_log(struct nl_ra *a, const struct nl_ra_cg *c, const char *fmt, ...)
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
		nl_jsonl_msg(a->cfg.log, "decision", a->cfg.dry_run, c ? c->label : NULL, msg);
		return;
	}
	nl_jsonl_iso_time(ts, sizeof(ts));
	fprintf(a->cfg.log, "%s %s%s ", ts, a->cfg.dry_run ? "dry-run " : "", c ? c->label : "-");
	va_start(ap, fmt);
	vfprintf(a->cfg.log, fmt, ap);
	va_end(ap);
	fputc('\n', a->cfg.log);
	fflush(a->cfg.log);
}

bool nl_agent_mglru(void)
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

int nl_agent_init(struct nl_ra *a, const struct nl_ra_cfg *cfg, struct nl_lot_bpf *lot,
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
	nl_rate_init(&a->rate, cfg->rate_mib_s * 1024 * 1024, nl_agent_now());
	a->mglru = nl_agent_mglru();
	return 0;
}

int nl_agent_add(struct nl_ra *a, const char *rel)
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
	nl_name_path_label(c->label, sizeof(c->label), c->rel, id);
	nl_psi_init(&c->psi, a->cfg.psi_us_s, 1.0, 30.0);
	nl_rcg_events_max(c->dir, a->cfg.v1, &c->events_max0);
	c->last_s = nl_agent_now();
	if (k == a->nr_cg)
		a->nr_cg++;
	a->adds++;
	return k;
}

bool nl_agent_dry_mark_old(const struct nl_ra_cg *c, int i, double now_s)
{
	return c->dry[i] && now_s - c->dry_at[i] >= NL_RA_DRY_MAX_S;
}

int nl_agent_refresh(struct nl_ra *a, struct nl_ra_cg *c)
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
	c->in.mglru = a->mglru = nl_agent_mglru();
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

		double now = nl_agent_now();

		for (int i = 0; i < n.nr_nodes; i++) {
			fig[i] = nl_lot_node_figure(&c->in, (uint32_t)i);
			if (nl_agent_dry_mark_old(c, i, now))
				c->dry[i] = 0;	/* tried again: see dry_at */
		}
		c->dry_mask = nl_lot_weights_wet(&c->in, fig, c->dry, a->cfg.step_pages, &c->w);
		if (c->dry_mask != was)
			for (int i = 0; i < NL_MAX_NODES; i++)
				if ((c->dry_mask ^ was) & (1ull << i))
					nl_agent_log(a, c, "node %d %s", i, c->dry_mask & (1ull << i)
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

void nl_agent_novictim(struct nl_ra *a, struct nl_ra_cg *c, uint32_t reason, const char *where)
{
	if (c->novictim_said == reason + 1)
		return;
	c->novictim_said = reason + 1;
	nl_agent_log(a, c, "no victim node: %s; %s (said again only when the reason changes)",
		     nl_lot_reason_str(reason), where);
}

bool nl_agent_any_eligible(const struct nl_ra *a)
{
	for (int i = 0; i < a->nr_cg; i++)
		if (!a->cg[i].gone && a->cg[i].w.eligible)
			return true;
	return false;
}

bool nl_agent_all_standby(const struct nl_ra *a)
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

bool nl_agent_watch(const struct nl_ra *a)
{
	for (int i = 0; i < a->nr_cg; i++) {
		const struct nl_ra_cg *c = &a->cg[i];

		/* standing by: the interval's tick is soon enough */
		if (!c->gone && !c->wm_bad && c->wm.high && !c->sb.on && c->usage > c->wm.low / 2)
			return true;
	}
	return false;
}

bool nl_agent_over_high(struct nl_ra *a)
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
