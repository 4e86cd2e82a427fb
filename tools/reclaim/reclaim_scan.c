// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Decayed scanned/rotated pages per memcg and node (reclaim_scan.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "reclaim_scan.h"

struct scan_ent {
	uint64_t cgid;		/* 0: free */
	struct nl_scan_node n[NL_MAX_NODES];
};

struct nl_scan_src {
	int max;
	struct scan_ent *e;
};

struct nl_scan_src *nl_scan_src_new(int max_cg)
{
	struct nl_scan_src *s = calloc(1, sizeof(*s));

	if (!s || max_cg < 1)
		return free(s), NULL;
	s->e = calloc((size_t)max_cg, sizeof(*s->e));
	if (!s->e)
		return free(s), NULL;
	s->max = max_cg;
	return s;
}

void nl_scan_src_free(struct nl_scan_src *s)
{
	if (s)
		free(s->e);
	free(s);
}

static struct scan_ent *find(struct nl_scan_src *s, uint64_t cgid, int make)
{
	struct scan_ent *free_e = NULL;

	for (int i = 0; i < s->max; i++) {
		if (s->e[i].cgid == cgid)
			return &s->e[i];
		if (!s->e[i].cgid && !free_e)
			free_e = &s->e[i];
	}
	if (!make || !free_e)
		return NULL;
	memset(free_e, 0, sizeof(*free_e));
	free_e->cgid = cgid;
	return free_e;
}

int nl_scan_feed(struct nl_scan_src *s, uint64_t cgid, const struct nl_scan_node *delta,
		 int nr_nodes)
{
	struct scan_ent *e;

	if (!s || !cgid || nr_nodes < 0 || nr_nodes > NL_MAX_NODES)
		return -EINVAL;
	e = find(s, cgid, 1);
	if (!e)
		return -ENOSPC;
	for (int i = 0; i < NL_MAX_NODES; i++)
		for (int t = 0; t < 2; t++) {
			uint64_t ds = i < nr_nodes ? delta[i].scanned[t] : 0;
			uint64_t dr = i < nr_nodes ? delta[i].rotated[t] : 0;

			if (dr > ds)
				dr = ds;
			e->n[i].scanned[t] = e->n[i].scanned[t] / 2 + ds;
			e->n[i].rotated[t] = e->n[i].rotated[t] / 2 + dr;
			if (e->n[i].rotated[t] > e->n[i].scanned[t])
				e->n[i].rotated[t] = e->n[i].scanned[t];
		}
	return 0;
}

void nl_scan_forget(struct nl_scan_src *s, uint64_t cgid)
{
	struct scan_ent *e = s ? find(s, cgid, 0) : NULL;

	if (e)
		memset(e, 0, sizeof(*e));
}

int nl_scan_get(struct nl_scan_src *s, uint64_t cgid, int nr_nodes, struct nl_scan_node *out)
{
	struct scan_ent *e = s && cgid ? find(s, cgid, 0) : NULL;

	if (nr_nodes > NL_MAX_NODES)
		nr_nodes = NL_MAX_NODES;
	if (nr_nodes > 0)
		memset(out, 0, sizeof(*out) * (size_t)nr_nodes);
	if (!e)
		return -ENODATA;
	if (nr_nodes > 0)
		memcpy(out, e->n, sizeof(*out) * (size_t)nr_nodes);
	return 0;
}
