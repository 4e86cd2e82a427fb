// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The agent's side of reclaim_read.h: its state, one JSON file and one
 * text status file per agent process, each replaced atomically. The
 * files themselves are written and removed by the source layer
 * (agent_files.h); here they are rendered.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "agent_files.h"
#include "reclaim_hook.h"
#include "reclaim_pub.h"
#include "reclaim_report.h"
#include "reclaim_read.h"

static cJSON *nodes_arr(const uint64_t *v, int n)
{
	cJSON *a = cJSON_CreateArray();

	for (int i = 0; a && i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber((double)v[i]));
	return a;
}

cJSON *nl_pub_state_obj(struct nl_ra *a)
{
	cJSON *root = cJSON_CreateObject(), *arr;

	if (!root)
		return NULL;
	cJSON_AddStringToObject(root, "format", NL_RECLAIM_FORMAT);
	cJSON_AddNumberToObject(root, "pid", (double)getpid());
	cJSON_AddStringToObject(root, "cgroup_mode", a->cfg.v1 ? "v1-memory" : "v2");
	cJSON_AddStringToObject(root, "cgroup_root", a->cfg.root ? a->cfg.root : "");
	cJSON_AddStringToObject(root, "backend", nl_rb_name(a->backend));
	cJSON_AddStringToObject(root, "victim", a->cfg.victim == NL_VICTIM_RR ? "round-robin" : "lottery");
	cJSON_AddBoolToObject(root, "dry_run", a->cfg.dry_run);
	cJSON_AddStringToObject(root, "scan_source", a->scan ? "vmscan" : "prior");
	cJSON_AddNumberToObject(root, "hook_latency_us_p50", nl_hook_latency_us(a, 50));
	cJSON_AddNumberToObject(root, "hook_latency_us_p99", nl_hook_latency_us(a, 99));
	arr = cJSON_AddArrayToObject(root, "cgroups");
	for (int j = 0; arr && j < a->nr_cg; j++) {
		struct nl_ra_cg *c = &a->cg[j];
		struct nl_lot_counts k = { 0 };
		uint64_t draws[NL_LOT_NR_SOURCES][NL_MAX_NODES];
		int n = c->in.nr_nodes ? (int)c->in.nr_nodes : 1;
		cJSON *o, *d, *p;

		if (c->gone || !(o = cJSON_CreateObject()))
			continue;
		cJSON_AddItemToArray(arr, o);
		if (a->lot)
			nl_lot_read_counts(a->lot, c->id, &k);
		for (int s = 0; s < NL_LOT_NR_SOURCES; s++)
			for (int i = 0; i < NL_MAX_NODES; i++)
				draws[s][i] = s == NL_LOT_SRC_AGENT && a->cfg.victim == NL_VICTIM_RR
						      ? c->draws_rr[i] : k.draws[s][i];
		cJSON_AddNumberToObject(o, "id", (double)c->id);
		cJSON_AddStringToObject(o, "path", c->label);
		cJSON_AddBoolToObject(o, "reclaiming", c->wm.active);
		cJSON_AddNumberToObject(o, "high_bytes", (double)c->wm.high);
		cJSON_AddNumberToObject(o, "low_bytes", (double)c->wm.low);
		cJSON_AddNumberToObject(o, "scan_weight", (double)c->w.total);
		{
			uint64_t w[NL_MAX_NODES];

			for (int i = 0; i < NL_MAX_NODES; i++)
				w[i] = c->w.w[i];
			cJSON_AddItemToObject(o, "weight_by_node", nodes_arr(w, n));
		}
		d = cJSON_AddObjectToObject(o, "draws_by_node");
		cJSON_AddItemToObject(d, "limit", nodes_arr(draws[NL_LOT_SRC_LIMIT], n));
		cJSON_AddItemToObject(d, "agent", nodes_arr(draws[NL_LOT_SRC_AGENT], n));
		p = cJSON_AddObjectToObject(o, "pages_by_node");
		for (int b = 0; b < NL_RB_NR; b++)
			cJSON_AddItemToObject(p, nl_rb_name(b), nodes_arr(c->pages[b], n));
		cJSON_AddNumberToObject(o, "passes", (double)c->passes);
		cJSON_AddNumberToObject(o, "steps", (double)c->steps);
		cJSON_AddNumberToObject(o, "no_progress_stops", (double)c->no_progress_stops);
		cJSON_AddNumberToObject(o, "over_high_seconds", c->over_high_s);
		cJSON_AddNumberToObject(o, "agent_seconds", c->agent_s);
		{
			cJSON *h = cJSON_AddObjectToObject(o, "hook");

			cJSON_AddNumberToObject(h, "limit_events", (double)c->hook_events);
			cJSON_AddNumberToObject(h, "steps", (double)c->hook_steps);
			cJSON_AddNumberToObject(h, "pages", (double)c->hook_pages);
			cJSON_AddNumberToObject(h, "on_drawn_node_pages", (double)c->hook_on_pages);
			cJSON_AddNumberToObject(h, "clean_steps", (double)c->hook_clean_steps);
			cJSON_AddNumberToObject(h, "clean_pages", (double)c->hook_clean_pages);
			cJSON_AddNumberToObject(h, "clean_on_drawn_node_pages", (double)c->hook_clean_on_pages);
			cJSON_AddNumberToObject(h, "last_draw_id", (double)c->last_draw_id);
			cJSON_AddNumberToObject(h, "last_draw_node", c->hook_steps ? c->last_draw_nid : -1);
		}
	}
	return root;
}

/* The JSON document of reclaim_read.h; NULL on -ENOMEM. */
static char *render_json(struct nl_ra *a)
{
	cJSON *root = nl_pub_state_obj(a);
	char *out = root ? cJSON_PrintUnformatted(root) : NULL;

	cJSON_Delete(root);
	return out;
}

int nl_pub_write(struct nl_ra *a, const char *dir)
{
	char *json, *text = NULL;
	size_t tlen = 0;
	FILE *f;
	int e;

	if (!dir)
		dir = NL_RECLAIM_RUN_DIR;
	static bool pruned;
	static char made[4096];

	/* made once, and again after a write that failed (someone removed it) */
	if (strcmp(made, dir)) {
		e = nl_agent_files_mkdir(dir);
		if (e)
			return e;
		snprintf(made, sizeof(made), "%s", dir);
	}
	/* the files of agents killed before they could remove their own */
	if (!pruned) {
		nl_agent_files_prune(dir);
		pruned = true;
	}
	json = render_json(a);
	f = open_memstream(&text, &tlen);
	if (!json || !f) {
		if (f)
			fclose(f);
		free(json);
		free(text);
		return -ENOMEM;
	}
	fprintf(f, "agent pid %d\n", (int)getpid());
	nl_report_cost_print(a, f);
	for (int i = 0; i < a->nr_cg; i++)
		if (!a->cg[i].gone)
			nl_report_status(a, &a->cg[i], f);
	fclose(f);
	e = nl_agent_files_put(dir, "json", json, strlen(json));
	if (!e)
		e = nl_agent_files_put(dir, "status", text, tlen);
	if (e)
		made[0] = '\0';
	free(json);
	free(text);
	return e;
}

void nl_pub_remove(const char *dir)
{
	if (!dir)
		dir = NL_RECLAIM_RUN_DIR;
	nl_agent_files_remove(dir, "json");
	nl_agent_files_remove(dir, "status");
}
