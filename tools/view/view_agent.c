// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The reclaim agent's figures in the top views (view_agent.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "view_agent.h"
#include "view_fmt.h"

const char *const nl_agent_backend_names[NL_RA_NR_BACKENDS] = { "damos", "madvise", "memcg", "lru_gen" };
const char *const nl_agent_source_names[NL_RA_NR_SOURCES] = { "limit", "agent" };

void nl_agent_fmt_rate(char *b, size_t sz, const struct nl_snapshot *s, const struct nl_cgroup *c,
		       bool compact)
{
	if (!c->agent)
		snprintf(b, sz, "-");
	else if (c->agent->dry_run)
		snprintf(b, sz, "dry");
	else if (compact)
		nl_fmt_num(b, sz, nl_fmt_rate(c->agent->pages_delta, s->interval_ns));
	else
		snprintf(b, sz, "%.1f", nl_fmt_rate(c->agent->pages_delta, s->interval_ns));
}

static uint64_t node_pages(const struct nl_reclaim_agent_figs *a, int nid)
{
	uint64_t t = 0;

	for (int k = 0; k < NL_RA_NR_BACKENDS; k++)
		t += a->pages_total[k][nid];
	return t;
}

void nl_agent_text_section(FILE *out, const struct nl_snapshot *s, const struct nl_filter *f)
{
	int n = 0;

	for (int i = 0; i < s->nr_cgroups; i++)
		n += s->cgroups[i].agent && (!f || nl_sort_filter_cgroup(f, &s->cgroups[i]));
	if (!n)
		return;
	fprintf(out, "\nRECLAIM AGENTS  %d cgroup%s managed by numalens reclaim; counters since each agent "
		"started, agent reclaim only (not direct-reclaim stalls)\n"
		"  PAGES = pages the agent freed (memory.numa_stat deltas), by node below; DRAWS = victim-node "
		"draws, limit hook / agent passes; SCAN = source of the weights' scanned/rotated figures: "
		"vmscan (measured) or prior (cold start)\n", n, n == 1 ? "" : "s");
	fprintf(out, "%-24s %7s %-8s %-10s %6s %9s %9s %8s %8s %10s %9s %8s %-6s\n", "CGROUP", "PID", "BACKEND",
		"STATE", "VICTIM", "HIGH_MiB", "LOW_MiB", "PASSES", "STEPS", "PAGES", "OVERHI_s", "AGENT_s",
		"SCAN");
	for (int i = 0; i < s->nr_cgroups; i++) {
		const struct nl_cgroup *c = &s->cgroups[i];
		const struct nl_reclaim_agent_figs *a = c->agent;
		uint64_t pages = 0;

		if (!a || (f && !nl_sort_filter_cgroup(f, c)))
			continue;
		for (int k = 0; k < s->nr_nodes; k++)
			if (s->nodes[k].nid >= 0 && s->nodes[k].nid < NL_MAX_NODES)
				pages += node_pages(a, s->nodes[k].nid);
		fprintf(out, "%-24s %7d %-8s %-10s %6s %9.1f %9.1f %8" PRIu64 " %8" PRIu64 " %10" PRIu64
			" %9.1f %8.3f %-6s\n", c->path, a->pid, a->backend,
			a->dry_run ? "dry-run" : a->reclaiming ? "reclaiming" : "idle",
			strcmp(a->victim, "round-robin") ? "lotto" : "rr", a->high_bytes / 1048576.0,
			a->low_bytes / 1048576.0, a->passes_total, a->steps_total, pages,
			a->over_high_seconds_total, a->agent_seconds_total, a->scan_vmscan ? "vmscan" : "prior");
		for (int k = 0; k < s->nr_nodes; k++) {
			int nid = s->nodes[k].nid;

			if (nid < 0 || nid >= NL_MAX_NODES)
				continue;
			fprintf(out, "  N%-3d weight %-10" PRIu64 " draws %" PRIu64 "/%" PRIu64 "  pages", nid,
				a->weight[nid], a->draws_total[0][nid], a->draws_total[1][nid]);
			for (int b = 0; b < NL_RA_NR_BACKENDS; b++)
				fprintf(out, " %s=%" PRIu64, nl_agent_backend_names[b], a->pages_total[b][nid]);
			fputc('\n', out);
		}
	}
}

/* u64 as a raw JSON number: exact past 2^53, as the rest of the view. */
static void put_u64(cJSON *o, const char *k, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	cJSON_AddRawToObject(o, k, buf);
}

/* {"<nid>": v, ...} over the snapshot's nodes. */
static void put_by_node(cJSON *o, const char *k, const struct nl_snapshot *s, const uint64_t *v)
{
	cJSON *m = cJSON_AddObjectToObject(o, k);
	char nid[16];

	for (int i = 0; m && i < s->nr_nodes; i++) {
		int n = s->nodes[i].nid;

		snprintf(nid, sizeof(nid), "%d", n);
		put_u64(m, nid, n >= 0 && n < NL_MAX_NODES ? v[n] : 0);
	}
}

cJSON *nl_agent_json(const struct nl_snapshot *s, const struct nl_cgroup *c)
{
	const struct nl_reclaim_agent_figs *a = c->agent;
	cJSON *o, *d, *p;

	if (!a)
		return cJSON_CreateNull();
	if (!(o = cJSON_CreateObject()))
		return NULL;
	cJSON_AddNumberToObject(o, "pid", a->pid);
	cJSON_AddStringToObject(o, "backend", a->backend);
	cJSON_AddStringToObject(o, "victim", a->victim);
	cJSON_AddBoolToObject(o, "dry_run", a->dry_run);
	cJSON_AddBoolToObject(o, "reclaiming", a->reclaiming);
	cJSON_AddStringToObject(o, "scan_source", a->scan_vmscan ? "vmscan" : "prior");
	put_u64(o, "high_bytes", a->high_bytes);
	put_u64(o, "low_bytes", a->low_bytes);
	put_u64(o, "scan_weight", a->weight_total);
	put_by_node(o, "weight_by_node", s, a->weight);
	if ((d = cJSON_AddObjectToObject(o, "draws_total_by_node")))
		for (int k = 0; k < NL_RA_NR_SOURCES; k++)
			put_by_node(d, nl_agent_source_names[k], s, a->draws_total[k]);
	if ((p = cJSON_AddObjectToObject(o, "reclaimed_pages_total_by_node")))
		for (int k = 0; k < NL_RA_NR_BACKENDS; k++)
			put_by_node(p, nl_agent_backend_names[k], s, a->pages_total[k]);
	put_u64(o, "reclaimed_pages", a->pages_delta);
	put_u64(o, "passes", a->passes_delta);
	put_u64(o, "passes_total", a->passes_total);
	put_u64(o, "steps_total", a->steps_total);
	put_u64(o, "no_progress_stops_total", a->no_progress_stops_total);
	cJSON_AddNumberToObject(o, "over_high_seconds_total", a->over_high_seconds_total);
	cJSON_AddNumberToObject(o, "agent_seconds_total", a->agent_seconds_total);
	return o;
}
