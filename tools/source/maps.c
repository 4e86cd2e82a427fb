// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Reading the BPF stats maps; see maps.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "maps.h"
#include "sched.skel.h"
#include "alloc.skel.h"
#include "migrate.skel.h"

/* Iterate all keys of @fd, calling @fn with the per-CPU value array. */
static int for_each(int fd, size_t ksz, size_t vsz, int cpus,
		    int (*fn)(const void *key, const void *vals, int cpus, void *ctx), void *ctx)
{
	unsigned char key[64], next[64];
	size_t vstride = (vsz + 7) & ~7ul;
	unsigned char *vals = malloc(vstride * (size_t)cpus);
	void *prev = NULL;
	int e = 0;

	if (!vals)
		return -ENOMEM;
	while (!bpf_map_get_next_key(fd, prev, next)) {
		memcpy(key, next, ksz);
		prev = key;
		/* -ENOENT: deleted since get_next_key; skip it */
		if (bpf_map_lookup_elem(fd, key, vals))
			continue;
		e = fn(key, vals, cpus, ctx);
		if (e)
			break;
	}
	free(vals);
	return e;
}

struct read_ctx {
	struct nl_counts_table *t[2];	/* by enum nl_id_kind */
	struct nl_node_counts *nodes;
	int nr_nodes;			/* run_ns slots of a sched_stats value */
};

/* Counters of the id @key names into *@c (NULL for an unknown kind,
 * which is skipped). Returns 0 or -ENOMEM. */
static int id_counts(struct read_ctx *ctx, const struct nl_id_key *key, struct nl_counts **c)
{
	*c = NULL;
	if (key->kind > NL_KIND_CGROUP)
		return 0;
	*c = nl_counts_get(ctx->t[key->kind], key->id);
	return *c ? 0 : -ENOMEM;
}

static int on_sched(const void *k, const void *vals, int cpus, void *p)
{
	const struct nl_id_key *key = k;
	struct read_ctx *ctx = p;
	size_t stride = nl_sched_val_size(ctx->nr_nodes);	/* a multiple of 8 */
	struct nl_counts *c;
	int e = id_counts(ctx, key, &c);

	if (e || !c)
		return e;
	for (int cpu = 0; cpu < cpus; cpu++) {
		const struct nl_sched_val *v = (const void *)((const char *)vals + stride * (size_t)cpu);

		for (int n = 0; n < ctx->nr_nodes; n++) {
			c->run_ns[n] += v->run_ns[n];
			if (key->kind == NL_KIND_CGROUP)
				ctx->nodes[n].run_ns += v->run_ns[n];
		}
		for (int b = 0; b < NL_LOC_BUCKETS; b++)
			c->loc_ns[b] += v->loc_ns[b];
		c->nofault_ns += v->nofault_ns;
		c->slices += v->slices;
	}
	return 0;
}

static int on_alloc(const void *k, const void *vals, int cpus, void *p)
{
	const struct nl_alloc_key *key = k;
	const struct nl_alloc_val *v = vals;
	struct read_ctx *ctx = p;
	uint64_t ev = 0, pg = 0;
	struct nl_counts *c;

	if (key->kind > NL_KIND_CGROUP || key->class >= NL_NR_CLASSES)
		return 0;
	c = nl_counts_get(ctx->t[key->kind], key->id);
	if (!c)
		return -ENOMEM;
	for (int cpu = 0; cpu < cpus; cpu++) {
		ev += v[cpu].events;
		pg += v[cpu].pages;
	}
	c->pages_by_class[key->class] += pg;
	if (key->class >= NL_CLASS_ANON)	/* LRU-join re-count: class only */
		return 0;
	if (key->zone == NL_ZONE_FAILED) {
		c->fail_events += ev;
		return 0;
	}
	if (key->page_nid == NL_NID_UNKNOWN || key->page_nid >= NL_MAX_NODES) {
		c->events_unknown += ev;
		c->pages_unknown += pg;
		return 0;
	}
	c->pages_by_node[key->page_nid] += pg;
	if (key->page_nid == key->cpu_nid) {
		c->events_local += ev;
		c->pages_local += pg;
	} else {
		c->events_remote += ev;
		c->pages_remote += pg;
	}
	if (key->kind == NL_KIND_CGROUP) {
		struct nl_node_counts *pn = &ctx->nodes[key->page_nid];

		pn->pages += pg;
		if (key->page_nid == key->cpu_nid) {
			pn->events_local += ev;
		} else {
			pn->events_other += ev;
			if (key->cpu_nid < NL_MAX_NODES)
				ctx->nodes[key->cpu_nid].events_from_remote += ev;
		}
	}
	return 0;
}

static int on_migrate(const void *k, const void *vals, int cpus, void *p)
{
	const struct nl_id_key *key = k;
	const struct nl_migrate_val *v = vals;
	struct read_ctx *ctx = p;
	struct nl_counts *c;
	int e = id_counts(ctx, key, &c);

	if (e || !c)
		return e;
	for (int cpu = 0; cpu < cpus; cpu++) {
		c->move_numa += v[cpu].move_numa;
		c->swap_numa += v[cpu].swap_numa;
		c->stick_numa += v[cpu].stick_numa;
		for (int r = 0; r < NL_MIGRATE_REASONS; r++) {
			c->mig_ok[r] += v[cpu].pages_ok[r];
			c->mig_fail[r] += v[cpu].pages_fail[r];
		}
	}
	return 0;
}

int nl_maps_read(const struct nl_bpf *b, struct nl_counts_table *tgids,
		 struct nl_counts_table *cgroups, struct nl_node_counts nodes[NL_MAX_NODES])
{
	struct read_ctx ctx = { .t = { tgids, cgroups }, .nodes = nodes,
				.nr_nodes = b->nr_nodes < NL_MAX_NODES ? b->nr_nodes : NL_MAX_NODES };
	int e = 0;

	nl_counts_clear(tgids);
	nl_counts_clear(cgroups);
	memset(nodes, 0, sizeof(*nodes) * NL_MAX_NODES);
	if (b->sched)
		e = for_each(bpf_map__fd(b->sched->maps.sched_stats), sizeof(struct nl_id_key),
			     nl_sched_val_size(ctx.nr_nodes), b->nr_cpus, on_sched, &ctx);
	if (!e && b->alloc)
		e = for_each(bpf_map__fd(b->alloc->maps.alloc_stats), sizeof(struct nl_alloc_key),
			     sizeof(struct nl_alloc_val), b->nr_cpus, on_alloc, &ctx);
	if (!e && b->migrate)
		e = for_each(bpf_map__fd(b->migrate->maps.migrate_stats), sizeof(struct nl_id_key),
			     sizeof(struct nl_migrate_val), b->nr_cpus, on_migrate, &ctx);
	return e;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static bool in_set(int kind, uint64_t id, int want_kind, const uint64_t *ids, int n)
{
	return kind == want_kind && bsearch(&id, ids, (size_t)n, sizeof(*ids), cmp_u64);
}

int nl_maps_forget(const struct nl_bpf *b, int kind, uint64_t *ids, int n)
{
	struct nl_alloc_key key, next;
	void *prev = NULL;
	int deleted = 0;

	if (n <= 0)
		return 0;
	qsort(ids, (size_t)n, sizeof(*ids), cmp_u64);
	for (int i = 0; i < n; i++) {
		struct nl_id_key k = { .id = ids[i], .kind = (uint32_t)kind };

		if (b->sched)
			deleted += !bpf_map_delete_elem(bpf_map__fd(b->sched->maps.sched_stats), &k);
		if (b->migrate)
			deleted += !bpf_map_delete_elem(bpf_map__fd(b->migrate->maps.migrate_stats), &k);
		if (kind != NL_KIND_CGROUP)
			continue;
		/* a retired cgroup's ancestry is of no further use */
		if (b->sched)
			bpf_map_delete_elem(bpf_map__fd(b->sched->maps.cg_ancestry), &ids[i]);
		if (b->alloc)
			bpf_map_delete_elem(bpf_map__fd(b->alloc->maps.cg_ancestry), &ids[i]);
		if (b->migrate)
			bpf_map_delete_elem(bpf_map__fd(b->migrate->maps.cg_ancestry), &ids[i]);
	}
	if (!b->alloc)
		return deleted;
	/* One pass over the alloc map: a deleted current key would make
	 * get_next_key restart from the beginning, so delete the previous
	 * key once we have stepped past it. */
	int fd = bpf_map__fd(b->alloc->maps.alloc_stats);

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		if (prev && in_set(key.kind, key.id, kind, ids, n))
			deleted += !bpf_map_delete_elem(fd, &key);
		key = next;
		prev = &key;
	}
	if (prev && in_set(key.kind, key.id, kind, ids, n))
		deleted += !bpf_map_delete_elem(fd, &key);
	return deleted;
}

int nl_maps_cgroup_ancestors(const struct nl_bpf *b, uint64_t id, uint64_t *anc, int max)
{
	struct bpf_map *m[3] = {
		b->alloc ? b->alloc->maps.cg_ancestry : NULL,
		b->sched ? b->sched->maps.cg_ancestry : NULL,
		b->migrate ? b->migrate->maps.cg_ancestry : NULL,
	};
	struct nl_cg_ancestry a;
	int n = 0;

	for (int i = 0; i < 3; i++) {
		if (!m[i] || bpf_map_lookup_elem(bpf_map__fd(m[i]), &id, &a))
			continue;
		while (n < max && n < NL_CG_ANCESTORS && a.id[n])
			anc[n] = a.id[n], n++;
		return n;
	}
	return -ENOENT;
}

int nl_maps_exited_comm(const struct nl_bpf *b, uint32_t tgid, char *out, size_t len)
{
	struct nl_comm c;
	int fd;

	if (!b->sched)
		return -ENOENT;
	fd = bpf_map__fd(b->sched->maps.exited_comm);
	if (bpf_map_lookup_elem(fd, &tgid, &c))
		return -ENOENT;
	bpf_map_delete_elem(fd, &tgid);
	c.comm[sizeof(c.comm) - 1] = 0;
	snprintf(out, len, "%s", c.comm);
	return 0;
}
