// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The reclaim agent's Prometheus families (view_prom_reclaim.h). */
#include <stdio.h>
#include "view_agent.h"
#include "prom_write.h"
#include "view_prom_reclaim.h"

#define P "numalens_reclaim_agent_"

static void family(struct nl_buf *b, const char *name, const char *type, const char *help)
{
	nl_prom_family_pre(b, P, name, type, help);
}

/* `numalens_reclaim_agent_<name>{cgroup="<path>"` */
static void open_row(struct nl_buf *b, const char *name, const struct nl_cgroup *c)
{
	nl_prom_open(b, P, name);
	nl_prom_label(b, "cgroup", c->path);
}

/* One u64 per cgroup, picked by @f. */
static void fam_scalar(struct nl_buf *b, const struct nl_snapshot *s, const char *name, const char *type,
		       const char *help, uint64_t (*f)(const struct nl_reclaim_agent_figs *))
{
	family(b, name, type, help);
	for (int i = 0; i < s->nr_cgroups; i++)
		if (s->cgroups[i].agent) {
			open_row(b, name, &s->cgroups[i]);
			nl_prom_close_u64(b, f(s->cgroups[i].agent));
		}
}

static uint64_t f_reclaiming(const struct nl_reclaim_agent_figs *a) { return a->reclaiming; }
static uint64_t f_high(const struct nl_reclaim_agent_figs *a) { return a->high_bytes; }
static uint64_t f_low(const struct nl_reclaim_agent_figs *a) { return a->low_bytes; }
static uint64_t f_passes(const struct nl_reclaim_agent_figs *a) { return a->passes_total; }
static uint64_t f_steps(const struct nl_reclaim_agent_figs *a) { return a->steps_total; }
static uint64_t f_noprog(const struct nl_reclaim_agent_figs *a) { return a->no_progress_stops_total; }

/* numalens_reclaim_agent_info: who manages each cgroup, and how. */
static void fam_info(struct nl_buf *b, const struct nl_snapshot *s)
{
	family(b, "info", "gauge", "A numalens reclaim agent manages this cgroup (always 1): its pid, "
	       "the backend in use, the victim rule, dry run, and where the weights' scanned/rotated "
	       "figures come from (vmscan, or the cold-start prior).");
	for (int i = 0; i < s->nr_cgroups; i++) {
		const struct nl_reclaim_agent_figs *a = s->cgroups[i].agent;

		if (!a)
			continue;
		open_row(b, "info", &s->cgroups[i]);
		nl_prom_label_u64(b, "pid", (uint64_t)a->pid);
		nl_prom_label(b, "backend", a->backend);
		nl_prom_label(b, "victim", a->victim);
		nl_prom_label(b, "dry_run", a->dry_run ? "true" : "false");
		nl_prom_label(b, "scan_source", a->scan_vmscan ? "vmscan" : "prior");
		nl_prom_close_u64(b, 1);
	}
}

/* The families by node: the victim weights, the draws by source and the
 * freed memory by backend. */
static void fam_by_node(struct nl_buf *b, const struct nl_snapshot *s)
{
	family(b, "node_weight", "gauge", "Victim-node weight of the node (scan_weight Nn in --status, "
	       "dimensionless page-equivalents); tickets are proportional to it.");
	for (int i = 0; i < s->nr_cgroups; i++)
		for (int k = 0; s->cgroups[i].agent && k < s->nr_nodes; k++) {
			int nid = s->nodes[k].nid;

			if (nid < 0 || nid >= NL_MAX_NODES)
				continue;
			open_row(b, "node_weight", &s->cgroups[i]);
			nl_prom_label_u64(b, "node", (uint64_t)nid);
			nl_prom_close_u64(b, s->cgroups[i].agent->weight[nid]);
		}
	family(b, "draws_total", "counter", "Victim-node draws of the BPF lottery (or the round-robin rule) "
	       "by node and source: limit = the memcg hit its limit, agent = a background pass.");
	for (int i = 0; i < s->nr_cgroups; i++)
		for (int x = 0; s->cgroups[i].agent && x < NL_RA_NR_SOURCES; x++)
			for (int k = 0; k < s->nr_nodes; k++) {
				int nid = s->nodes[k].nid;

				if (nid < 0 || nid >= NL_MAX_NODES)
					continue;
				open_row(b, "draws_total", &s->cgroups[i]);
				nl_prom_label_u64(b, "node", (uint64_t)nid);
				nl_prom_label(b, "source", nl_agent_source_names[x]);
				nl_prom_close_u64(b, s->cgroups[i].agent->draws_total[x][nid]);
			}
	family(b, "reclaimed_bytes_total", "counter", "Memory the agent freed, by node and backend "
	       "(memory.numa_stat deltas around each step, pages x page size).");
	for (int i = 0; i < s->nr_cgroups; i++)
		for (int x = 0; s->cgroups[i].agent && x < NL_RA_NR_BACKENDS; x++)
			for (int k = 0; k < s->nr_nodes; k++) {
				int nid = s->nodes[k].nid;

				if (nid < 0 || nid >= NL_MAX_NODES)
					continue;
				open_row(b, "reclaimed_bytes_total", &s->cgroups[i]);
				nl_prom_label_u64(b, "node", (uint64_t)nid);
				nl_prom_label(b, "backend", nl_agent_backend_names[x]);
				nl_prom_close_u64(b, s->cgroups[i].agent->pages_total[x][nid] * (uint64_t)s->page_size);
			}
}

void nl_prom_render_reclaim_agent(struct nl_buf *b, const struct nl_snapshot *s)
{
	bool any = false;

	for (int i = 0; i < s->nr_cgroups && !any; i++)
		any = s->cgroups[i].agent != NULL;
	if (!any)
		return;
	fam_info(b, s);
	fam_scalar(b, s, "reclaiming", "gauge", "1 while usage is between crossing the high watermark and "
		   "reaching the low one (hysteresis), else 0.", f_reclaiming);
	fam_scalar(b, s, "high_bytes", "gauge", "High watermark in bytes (--high resolved against memory.max).",
		   f_high);
	fam_scalar(b, s, "low_bytes", "gauge", "Low watermark in bytes: reclaim stops at or below it.", f_low);
	fam_scalar(b, s, "passes_total", "counter", "Background reclaim passes (each at most --pass-steps steps).",
		   f_passes);
	fam_scalar(b, s, "steps_total", "counter", "Reclaim steps (each at most --step pages from one drawn node).",
		   f_steps);
	fam_scalar(b, s, "no_progress_stops_total", "counter",
		   "Passes stopped because three steps in a row freed nothing.", f_noprog);
	family(b, "over_high_seconds_total", "counter", "Time the cgroup's usage spent above the high watermark.");
	for (int i = 0; i < s->nr_cgroups; i++)
		if (s->cgroups[i].agent) {
			open_row(b, "over_high_seconds_total", &s->cgroups[i]);
			nl_prom_close_dbl(b, s->cgroups[i].agent->over_high_seconds_total, 6);
		}
	family(b, "reclaim_seconds_total", "counter", "Wall time the agent spent in its own reclaim calls "
	       "(accounted apart from direct-reclaim stalls).");
	for (int i = 0; i < s->nr_cgroups; i++)
		if (s->cgroups[i].agent) {
			open_row(b, "reclaim_seconds_total", &s->cgroups[i]);
			nl_prom_close_dbl(b, s->cgroups[i].agent->agent_seconds_total, 6);
		}
	fam_by_node(b, s);
}
