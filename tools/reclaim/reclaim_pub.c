// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The agent's side of reclaim_read.h: its state, one JSON file and one
 * text status file per agent process, each replaced atomically.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "reclaim_pub.h"
#include "reclaim_report.h"
#include "reclaim_read.h"

/* mkdir -p of @dir (two levels are enough for /run/numalens/reclaim). */
static int make_dir(const char *dir)
{
	char p[4096];

	snprintf(p, sizeof(p), "%s", dir);
	for (char *s = p + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			if (mkdir(p, 0755) && errno != EEXIST)
				return -errno;
			*s = '/';
		}
	return mkdir(p, 0755) && errno != EEXIST ? -errno : 0;
}

/* Write @len bytes of @text to @dir/<pid>.<ext> through a temporary file
 * and rename(2). 0 or -errno. */
static int put_file(const char *dir, const char *ext, const char *text, size_t len)
{
	char path[4200], tmp[4300];
	FILE *f;
	int e = 0;

	snprintf(path, sizeof(path), "%s/%d.%s", dir, (int)getpid(), ext);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "we");
	if (!f)
		return -errno;
	if (fwrite(text, 1, len, f) != len)
		e = -EIO;
	if (fclose(f) && !e)
		e = -errno;
	if (!e && rename(tmp, path))
		e = -errno;
	if (e)
		unlink(tmp);
	return e;
}

static cJSON *nodes_arr(const uint64_t *v, int n)
{
	cJSON *a = cJSON_CreateArray();

	for (int i = 0; a && i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber((double)v[i]));
	return a;
}

/* The JSON document of reclaim_read.h; NULL on -ENOMEM. */
static char *render_json(struct nl_ra *a)
{
	cJSON *root = cJSON_CreateObject(), *arr;
	char *out;

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
		cJSON_AddStringToObject(o, "path", c->rel);
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
	}
	out = cJSON_PrintUnformatted(root);
	cJSON_Delete(root);
	return out;
}

int nl_ra_publish(struct nl_ra *a, const char *dir)
{
	char *json, *text = NULL;
	size_t tlen = 0;
	FILE *f;
	int e;

	if (!dir)
		dir = NL_RECLAIM_RUN_DIR;
	e = make_dir(dir);
	if (e)
		return e;
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
	for (int i = 0; i < a->nr_cg; i++)
		if (!a->cg[i].gone)
			nl_ra_status(a, &a->cg[i], f);
	fclose(f);
	e = put_file(dir, "json", json, strlen(json));
	if (!e)
		e = put_file(dir, "status", text, tlen);
	free(json);
	free(text);
	return e;
}

void nl_ra_unpublish(const char *dir)
{
	char path[4200];

	if (!dir)
		dir = NL_RECLAIM_RUN_DIR;
	snprintf(path, sizeof(path), "%s/%d.json", dir, (int)getpid());
	unlink(path);
	snprintf(path, sizeof(path), "%s/%d.status", dir, (int)getpid());
	unlink(path);
}
