// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What the agent shows: the status block, which begins with the
 * scan_weight line of the patches that proposed NUMA-aware memcg reclaim,
 * and the agent's own cost. Its metrics are `numalens export`'s (view_prom_reclaim.c), from
 * the state it publishes (reclaim_pub.c).
 */
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdio.h>
#include "reclaim_report.h"
#include "reclaim_damos.h"

/* The first lines: the cgroup, its watermarks and state, the backend. */
static void status_head(const struct nl_ra *a, const struct nl_ra_cg *c, FILE *f)
{
	fprintf(f, "cgroup %s id=%" PRIu64 " usage=%" PRIu64 "KiB limit=", c->label, c->id, c->usage / 1024);
	if (c->limit == NL_RCG_NO_LIMIT)
		fprintf(f, "max");
	else
		fprintf(f, "%" PRIu64 "KiB", c->limit / 1024);
	if (c->wm.high && !c->wm_bad)
		fprintf(f, " high=%" PRIu64 "KiB low=%" PRIu64 "KiB", c->wm.high / 1024, c->wm.low / 1024);
	else	/* unresolvable for this limit: the agent skips the cgroup */
		fprintf(f, " high=n/a low=n/a (cannot resolve for this limit: skipped)");
	fprintf(f, " state=%s backend=%s victim=%s\n", c->wm.active ? "reclaiming" : "idle",
		nl_rb_name(a->backend), a->cfg.victim == NL_VICTIM_RR ? "round-robin" : "lottery");
	if (a->backend == NL_RB_DAMOS && c->steps)
		fprintf(f, "damos step bound: %s\n", nl_damos_step_bounded()
			? "yes (quota charged with paged-out bytes only: quotas/fail_charge_num=0)"
			: "no (this kernel charges the quota before the memcg filter: the quota spans "
			  "the node, and one step can page out all of the cgroup's pages there)");
}

/* The weights in the `scan_weight=W N0=w0 ...` form of the patches that
 * proposed NUMA-aware memcg reclaim, the tickets and the scan source. */
static void status_weights(const struct nl_ra *a, const struct nl_ra_cg *c, int n, FILE *f)
{
	fprintf(f, "scan_weight=%llu", (unsigned long long)c->w.total);
	for (int i = 0; i < n; i++)
		fprintf(f, " N%d=%llu", i, (unsigned long long)c->w.w[i]);
	fprintf(f, "\ntickets");
	for (uint32_t i = 0; i < c->t.nr && i < NL_LOT_MAX_NODES; i++)
		fprintf(f, " N%u=[%u,%u)", c->t.e[i].nid, c->t.e[i].start,
			c->t.e[i].start + c->t.e[i].tickets);
	fprintf(f, " sum=%u balanced=%s (window %u-%u%% of W/%s) anon=%s active_file=%s swap=%s lru=%s\n",
		c->t.sum, c->t.balanced ? "yes" : "no", a->cfg.bal_lo, a->cfg.bal_hi,
		a->cfg.draw_mode == NL_LOT_KERNEL2011 ? "(n+1)" : "n",
		c->w.anon_in ? "in" : "out", c->w.file_active_in ? "in" : "out",
		c->in.swap_ok ? "yes" : "no", !c->in.mglru ? "classic" : c->w.old_only ? "mglru(old generations)" : "mglru(all generations)");
	if (!c->have_scan) {
		fprintf(f, "scan source=prior: no scanned/rotated figures (%s): cold-start prior, "
			   "factor 1.0 on every node\n", a->scan ? "none fed yet"
			: a->scan_from ? "no reclaim tracepoints" : "a one-shot --status has no history");
	} else {
		/* per node: anon scanned/rotated, file scanned/rotated; a type
		 * under NL_LOT_SCAN_MIN scanned pages still uses the prior */
		fprintf(f, "scan source=vmscan (recent scanned/rotated, all contexts, decayed):");
		for (int i = 0; i < n; i++)
			fprintf(f, " N%d=anon:%llu/%llu,file:%llu/%llu", i,
				(unsigned long long)c->scan[i].scanned[0], (unsigned long long)c->scan[i].rotated[0],
				(unsigned long long)c->scan[i].scanned[1], (unsigned long long)c->scan[i].rotated[1]);
		fprintf(f, "\nscan_weight_prior=%llu", (unsigned long long)c->w_prior.total);
		for (int i = 0; i < n; i++)
			fprintf(f, " N%d=%llu", i, (unsigned long long)c->w_prior.w[i]);
		fputc('\n', f);
	}
}

/* The draws by source and the pages reclaimed by backend and node; @k
 * gets the BPF counts. */
static void status_draws(const struct nl_ra *a, const struct nl_ra_cg *c, int n, struct nl_lot_counts *k,
			 FILE *f)
{
	if (a->lot)
		nl_lot_read_counts(a->lot, c->id, k);
	for (int s = 0; s < NL_LOT_NR_SOURCES; s++) {
		fprintf(f, "draws %s:", s == NL_LOT_SRC_LIMIT ? "limit" : "agent");
		for (int i = 0; i < n; i++)
			fprintf(f, " N%d=%llu", i, (unsigned long long)(
				s == NL_LOT_SRC_AGENT && a->cfg.victim == NL_VICTIM_RR ? c->draws_rr[i]
										 : k->draws[s][i]));
		for (int r = 1; r < NL_LOT_NR_REASONS; r++)
			if (k->novictim[s][r])
				fprintf(f, " %s=%llu", nl_lot_reason_str((uint32_t)r),
					(unsigned long long)k->novictim[s][r]);
		fputc('\n', f);
	}
	for (int b = 0; b < NL_RB_NR; b++) {
		uint64_t t = 0;

		for (int i = 0; i < n; i++)
			t += c->pages[b][i];
		if (!t)
			continue;
		fprintf(f, "reclaimed %s pages:", nl_rb_name(b));
		for (int i = 0; i < n; i++)
			fprintf(f, " N%d=%" PRIu64, i, c->pages[b][i]);
		fputc('\n', f);
	}
}

/* The agent's counters, standing by and the hook's steps. */
static void status_counters(const struct nl_ra *a, const struct nl_ra_cg *c, const struct nl_lot_counts *k,
			    FILE *f)
{
	fprintf(f, "passes=%" PRIu64 " steps=%" PRIu64 " no_progress_stops=%" PRIu64
		" on_victim_node_pages=%" PRIu64 " off_node_pages=%" PRIu64
		" over_high_s=%.1f agent_reclaim_s=%.3f %s=%" PRIu64 " (+%" PRIu64
		" since start) psi_backoffs=%" PRIu64 " refault_guard_pauses=%" PRIu64
		" refault_guard_hook_events=%" PRIu64 "%s\n",
		c->passes, c->steps, c->no_progress_stops, c->target_pages, c->offnode_pages,
		c->over_high_s, c->agent_s,
		/* v1 has no memory.events: nl_rcg_events_max reads memory.failcnt */
		a->cfg.v1 ? "memory.failcnt" : "memory.events.max",
		c->events_max, c->events_max - c->events_max0,
		c->psi.backoffs, c->rguard.trips, c->hook_guarded, c->psi_ok ? "" : " (no PSI for this cgroup)");
	{
		/* events the hook drew no node for are counted in BPF only */
		uint64_t nv = 0, quiet = 0;

		for (int r = 1; r < NL_LOT_NR_REASONS; r++)
			nv += k->novictim[NL_LOT_SRC_LIMIT][r];
		if (a->lot)
			nl_lot_quiet_events(a->lot, c->id, &quiet);
		fprintf(f, "standby: %s enters=%" PRIu64 " seconds=%.1f light_ticks=%" PRIu64
			" limit_events_left_to_kernel=%" PRIu64 " full_looks=%" PRIu64 " full_looks_early=%" PRIu64
			" full_ticks=%" PRIu64 " numa_stat_reads=%" PRIu64 "\n", c->sb.on ? "on" : "off", c->sb.enters,
			nl_sb_seconds(&c->sb, nl_agent_now()), c->sb.skipped, quiet, c->sb.looks, c->sb.looks_early,
			c->full_ticks, c->numa_reads);
		fprintf(f, "hook: limit_events=%" PRIu64 " steps=%" PRIu64 " pages=%" PRIu64
			" on_drawn_node_pages=%" PRIu64 " kernel_pages_during_steps=%" PRIu64, c->hook_events + nv,
			c->hook_steps, c->hook_pages, c->hook_on_pages, c->hook_overlap_pages);
	}
	fprintf(f, " clean_steps=%" PRIu64 " clean_pages=%" PRIu64 " clean_on_drawn_node_pages=%" PRIu64,
		c->hook_clean_steps, c->hook_clean_pages, c->hook_clean_on_pages);
	if (c->hook_steps)
		fprintf(f, " last_draw=%u last_draw_node=%d", c->last_draw_id, c->last_draw_nid);
	fputc('\n', f);
}

void nl_report_status(struct nl_ra *a, struct nl_ra_cg *c, FILE *f)
{
	struct nl_lot_counts k = { 0 };
	int n = c->in.nr_nodes ? (int)c->in.nr_nodes : 1;

	status_head(a, c, f);
	status_weights(a, c, n, f);
	status_draws(a, c, n, &k, f);
	status_counters(a, c, &k, f);
}

void nl_report_cost_print(const struct nl_ra *a, FILE *f)
{
	static const char *const part[NL_RA_PART_NR] = { "tick", "feed", "publish", "match", "pause", "wait" };
	const struct nl_ra_cost *k = &a->cost;
	uint64_t all = 0;

	fprintf(f, "agent_cost: loops=%" PRIu64 " polls=%" PRIu64 " records=%" PRIu64 " publishes=%" PRIu64
		" publishes_standing_by=%" PRIu64 " tracepoint_switches=%" PRIu64 " cpu_ms", k->loops, k->polls,
		k->records, k->publishes, k->publishes_standing_by, k->attaches);
	for (int i = 0; i < NL_RA_PART_NR; i++) {
		fprintf(f, " %s=%.1f", part[i], (double)k->cpu_ns[i] / 1e6);
		all += k->cpu_ns[i];
	}
	fprintf(f, " all=%.1f\n", (double)all / 1e6);
}

cJSON *nl_report_cost_obj(const struct nl_ra *a)
{
	static const char *const part[NL_RA_PART_NR] = { "tick", "feed", "publish", "match", "pause", "wait" };
	const struct nl_ra_cost *k = &a->cost;
	cJSON *o = cJSON_CreateObject(), *ms;
	uint64_t all = 0;

	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "loops", (double)k->loops);
	cJSON_AddNumberToObject(o, "polls", (double)k->polls);
	cJSON_AddNumberToObject(o, "records", (double)k->records);
	cJSON_AddNumberToObject(o, "publishes", (double)k->publishes);
	cJSON_AddNumberToObject(o, "publishes_standing_by", (double)k->publishes_standing_by);
	cJSON_AddNumberToObject(o, "tracepoint_switches", (double)k->attaches);
	ms = cJSON_AddObjectToObject(o, "cpu_ms");
	for (int i = 0; ms && i < NL_RA_PART_NR; i++) {
		cJSON_AddNumberToObject(ms, part[i], (double)k->cpu_ns[i] / 1e6);
		all += k->cpu_ns[i];
	}
	if (ms)
		cJSON_AddNumberToObject(ms, "all", (double)all / 1e6);
	return o;
}
