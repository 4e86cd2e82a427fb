// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Reading the reclaim agents' state files into the snapshot
 * (reclaim_read.h). */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "agent_files.h"
#include "cgroup.h"
#include "reclaim_read.h"

struct prev_ent {
	int pid;
	uint64_t id, pages, passes;
};

struct nl_ra_reader {
	struct prev_ent *prev, *cur;
	int nprev, ncur, cap;
};

struct nl_ra_reader *nl_ra_reader_new(void)
{
	return calloc(1, sizeof(struct nl_ra_reader));
}

void nl_ra_reader_free(struct nl_ra_reader *r)
{
	if (!r)
		return;
	free(r->prev);
	free(r->cur);
	free(r);
}

static uint64_t num(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	return cJSON_IsNumber(v) && v->valuedouble > 0 ? (uint64_t)v->valuedouble : 0;
}

static double dbl(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static void str(const cJSON *o, const char *k, char *out, size_t len)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	snprintf(out, len, "%s", cJSON_IsString(v) ? v->valuestring : "");
}

/* An array by nid into @out[NL_MAX_NODES]. */
static void by_node(const cJSON *o, const char *k, uint64_t *out)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, k), *v;
	int i = 0;

	cJSON_ArrayForEach(v, a) {
		if (i >= NL_MAX_NODES)
			break;
		out[i++] = cJSON_IsNumber(v) && v->valuedouble > 0 ? (uint64_t)v->valuedouble : 0;
	}
}

static const struct prev_ent *find_prev(const struct nl_ra_reader *r, int pid, uint64_t id)
{
	for (int i = 0; i < r->nprev; i++)
		if (r->prev[i].pid == pid && r->prev[i].id == id)
			return &r->prev[i];
	return NULL;
}

static int remember(struct nl_ra_reader *r, int pid, uint64_t id, uint64_t pages, uint64_t passes)
{
	if (r->ncur == r->cap) {
		int cap = r->cap ? r->cap * 2 : 16;
		struct prev_ent *a = realloc(r->cur, (size_t)cap * sizeof(*a));
		struct prev_ent *b = realloc(r->prev, (size_t)cap * sizeof(*b));

		if (a)
			r->cur = a;
		if (b)
			r->prev = b;
		if (!a || !b)
			return -ENOMEM;
		r->cap = cap;
	}
	r->cur[r->ncur++] = (struct prev_ent){ pid, id, pages, passes };
	return 0;
}

static const char *const backend_keys[NL_RA_NR_BACKENDS] = { "damos", "madvise", "memcg", "lru_gen" };
static const char *const source_keys[NL_RA_NR_SOURCES] = { "limit", "agent" };

/* One cgroup entry of an agent file into @g. */
static int attach(struct nl_ra_reader *r, const cJSON *root, const cJSON *e, int pid,
		  struct nl_cgroup *g)
{
	struct nl_reclaim_agent_figs *a = calloc(1, sizeof(*a));
	const cJSON *d = cJSON_GetObjectItemCaseSensitive(e, "draws_by_node");
	const cJSON *p = cJSON_GetObjectItemCaseSensitive(e, "pages_by_node");
	const struct prev_ent *pv = find_prev(r, pid, g->id);
	char src[16];
	uint64_t pages = 0;

	if (!a)
		return -ENOMEM;
	a->pid = pid;
	str(root, "backend", a->backend, sizeof(a->backend));
	str(root, "victim", a->victim, sizeof(a->victim));
	str(root, "scan_source", src, sizeof(src));
	a->scan_vmscan = !strcmp(src, "vmscan");
	a->dry_run = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "dry_run"));
	a->reclaiming = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "reclaiming"));
	a->high_bytes = num(e, "high_bytes");
	a->low_bytes = num(e, "low_bytes");
	a->weight_total = num(e, "scan_weight");
	by_node(e, "weight_by_node", a->weight);
	for (int k = 0; k < NL_RA_NR_SOURCES; k++)
		by_node(d, source_keys[k], a->draws_total[k]);
	for (int k = 0; k < NL_RA_NR_BACKENDS; k++) {
		by_node(p, backend_keys[k], a->pages_total[k]);
		for (int n = 0; n < NL_MAX_NODES; n++)
			pages += a->pages_total[k][n];
	}
	a->passes_total = num(e, "passes");
	a->steps_total = num(e, "steps");
	a->no_progress_stops_total = num(e, "no_progress_stops");
	a->over_high_seconds_total = dbl(e, "over_high_seconds");
	a->agent_seconds_total = dbl(e, "agent_seconds");
	if (pv) {
		a->pages_delta = pages >= pv->pages ? pages - pv->pages : 0;
		a->passes_delta = a->passes_total >= pv->passes ? a->passes_total - pv->passes : 0;
	}
	g->agent = a;
	return remember(r, pid, g->id, pages, a->passes_total);
}

/* Attach the cgroups of one agent file; returns how many, or -ENOMEM. */
static int read_one(struct nl_ra_reader *r, const char *txt, int pid, int cgroup_mode,
		    struct nl_snapshot *s)
{
	char mode[16];
	cJSON *root = cJSON_Parse(txt), *e;
	const cJSON *fmt = root ? cJSON_GetObjectItemCaseSensitive(root, "format") : NULL;
	int n = 0, err = 0;

	if (!root)
		return 0;
	str(root, "cgroup_mode", mode, sizeof(mode));
	if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, NL_RECLAIM_FORMAT) ||
	    (int)num(root, "pid") != pid ||
	    strcmp(mode, cgroup_mode == NL_CG_V1_MEMORY ? "v1-memory" : "v2")) {
		cJSON_Delete(root);
		return 0;
	}
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(root, "cgroups")) {
		uint64_t id = num(e, "id");

		for (int i = 0; id && i < s->nr_cgroups && !err; i++) {
			struct nl_cgroup *g = &s->cgroups[i];

			if (g->id != id || g->removed || g->agent)
				continue;
			err = attach(r, root, e, pid, g);
			n += !err;
			break;
		}
	}
	cJSON_Delete(root);
	return err ? err : n;
}

int nl_ra_read(struct nl_ra_reader *r, const char *dir, int cgroup_mode, struct nl_snapshot *s)
{
	struct nl_agent_file *f = NULL;
	int nf, total = 0, e = 0;

	if (!r || !s)
		return -EINVAL;
	if (!dir)
		dir = NL_RECLAIM_RUN_DIR;
	r->ncur = 0;
	nf = nl_agent_files_read(dir, "json", &f);
	if (nf < 0)
		e = nf;
	for (int i = 0; i < nf && !e; i++) {
		int n = read_one(r, f[i].text, f[i].pid, cgroup_mode, s);

		if (n < 0)
			e = n;
		else
			total += n;
	}
	nl_agent_files_free(f, nf);
	/* this interval's totals become the previous ones */
	struct prev_ent *t = r->prev;

	r->prev = r->cur;
	r->cur = t;
	r->nprev = r->ncur;
	r->ncur = 0;
	return e ? e : total;
}

/* Does the agent file @txt of @pid, in hierarchy @cgroup_mode, list @id? */
static bool lists_cgroup(const char *txt, int pid, int cgroup_mode, uint64_t id)
{
	char mode[16];
	cJSON *root = cJSON_Parse(txt), *e;
	const cJSON *fmt = root ? cJSON_GetObjectItemCaseSensitive(root, "format") : NULL;
	bool found = false;

	if (!root)
		return false;
	str(root, "cgroup_mode", mode, sizeof(mode));
	if (cJSON_IsString(fmt) && !strcmp(fmt->valuestring, NL_RECLAIM_FORMAT) &&
	    (int)num(root, "pid") == pid &&
	    !strcmp(mode, cgroup_mode == NL_CG_V1_MEMORY ? "v1-memory" : "v2"))
		cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(root, "cgroups"))
			found |= num(e, "id") == id;
	cJSON_Delete(root);
	return found;
}

int nl_ra_owner(const char *dir, int cgroup_mode, uint64_t id, int self)
{
	struct nl_agent_file *f = NULL;
	int nf = nl_agent_files_read(dir ? dir : NL_RECLAIM_RUN_DIR, "json", &f), pid = 0;

	for (int i = 0; i < nf && !pid; i++)
		if (f[i].pid != self && lists_cgroup(f[i].text, f[i].pid, cgroup_mode, id))
			pid = f[i].pid;
	nl_agent_files_free(f, nf);
	return nf < 0 ? nf : pid;
}
