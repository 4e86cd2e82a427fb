// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Reading the BPF stats maps; see maps.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "maps.h"
#include "node_exact.h"
#include "sched.skel.h"
#include "alloc.skel.h"
#include "migrate.skel.h"

/* The old way, one key at a time: two syscalls per entry. For kernels or
 * maps without batch lookups. */
static int for_each_key(int fd, size_t ksz, size_t vsz, int cpus,
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

/* Iterate all entries of @fd, calling @fn with each key and its per-CPU
 * value array. Batch lookups read a few hundred entries per syscall (the
 * maps hold thousands of entries, and a first snapshot made 23,000 bpf(2)
 * calls one key at a time); a kernel that refuses them on the first call
 * gets the one-key walk. Returns 0, @fn's non-zero result, or -errno. */
static int for_each(int fd, size_t ksz, size_t vsz, int cpus,
		    int (*fn)(const void *key, const void *vals, int cpus, void *ctx), void *ctx)
{
	size_t vrow = ((vsz + 7) & ~7ul) * (size_t)cpus;
	uint32_t cap = 256;
	unsigned char *keys = malloc(ksz * cap), *vals = malloc(vrow * cap);
	unsigned char tok_in[64], tok_out[64];	/* opaque position (a u32 for hashes) */
	bool first = true, more = true;
	int e = 0;

	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	if (!keys || !vals) {
		free(keys);
		free(vals);
		return -ENOMEM;
	}
	while (more && !e) {
		uint32_t count = cap;
		int r = bpf_map_lookup_batch(fd, first ? NULL : tok_in, tok_out, keys, vals, &count, &opts);

		if (r < 0 && errno != ENOENT) {
			if (errno == ENOSPC && count == 0 && cap < 65536) {
				/* one bucket holds more than fit: bigger arrays */
				unsigned char *nk = realloc(keys, ksz * cap * 2);
				unsigned char *nv = nk ? realloc(vals, vrow * cap * 2) : NULL;

				if (nk)
					keys = nk;
				if (nv)
					vals = nv;
				if (!nk || !nv) {
					e = -ENOMEM;
					break;
				}
				cap *= 2;
				continue;
			}
			if (first) {	/* no batch ops here: the old walk */
				free(keys);
				free(vals);
				return for_each_key(fd, ksz, vsz, cpus, fn, ctx);
			}
			e = -errno;
			break;
		}
		more = r == 0;	/* ENOENT: this was the last batch */
		for (uint32_t i = 0; i < count && !e; i++)
			e = fn(keys + i * ksz, vals + i * vrow, cpus, ctx);
		memcpy(tok_in, tok_out, sizeof(tok_in));
		first = false;
	}
	free(keys);
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

/* Add @ev allocator calls and @pg pages under @key to the process's and
 * the cgroup's counters (each unless retired). The node figures come from
 * the exact totals instead (node_exact.h): these counts are sampled.
 * Returns 0 or -ENOMEM. */
static int add_alloc(struct read_ctx *ctx, const struct nl_alloc_key *key, uint64_t ev, uint64_t pg)
{
	struct nl_counts *cs[2] = { NULL, NULL };

	if (key->class >= NL_NR_CLASSES || (!ev && !pg))
		return 0;
	if (key->tgid != NL_TGID_RETIRED && !(cs[0] = nl_counts_get(ctx->t[NL_KIND_TGID], key->tgid)))
		return -ENOMEM;
	if (key->cgroup_id != NL_CGROUP_RETIRED &&
	    !(cs[1] = nl_counts_get(ctx->t[NL_KIND_CGROUP], key->cgroup_id)))
		return -ENOMEM;
	for (int i = 0; i < 2; i++) {
		struct nl_counts *c = cs[i];

		if (!c)
			continue;
		c->pages_by_class[key->class] += pg;
		if (key->class >= NL_CLASS_ANON)	/* LRU-join re-count: class only */
			continue;
		if (key->zone == NL_ZONE_FAILED) {
			c->fail_events += ev;
			continue;
		}
		if (key->page_nid == NL_NID_UNKNOWN || key->page_nid >= NL_MAX_NODES) {
			c->events_unknown += ev;
			c->pages_unknown += pg;
			continue;
		}
		c->pages_by_node[key->page_nid] += pg;
		if (key->pref_nid == key->page_nid)
			c->events_hit += ev;
		else if (key->pref_nid < NL_MAX_NODES)
			c->events_miss += ev;
		if (key->page_nid == key->cpu_nid) {
			c->events_local += ev;
			c->pages_local += pg;
		} else {
			c->events_remote += ev;
			c->pages_remote += pg;
		}
	}
	return 0;
}

static int on_alloc(const void *k, const void *vals, int cpus, void *p)
{
	const struct nl_alloc_val *v = vals;
	uint64_t ev = 0, pg = 0;

	for (int cpu = 0; cpu < cpus; cpu++) {
		ev += v[cpu].events;
		pg += v[cpu].pages;
	}
	return add_alloc(p, k, ev, pg);
}

/* A slot's counters as BPF leaves them: events is written last on a
 * claim, and 0 means free (nl_types.h). */
static bool slot_read(const struct nl_alloc_slot *s, struct nl_alloc_key *key, uint64_t *ev, uint64_t *pg)
{
	*ev = __atomic_load_n(&s->val.events, __ATOMIC_ACQUIRE);
	if (!*ev)
		return false;
	*key = s->key;
	*pg = __atomic_load_n(&s->val.pages, __ATOMIC_RELAXED);
	return true;
}

static int read_slots(const struct nl_bpf *b, struct read_ctx *ctx)
{
	size_t n = (size_t)b->nr_cpus * b->alloc_slots_per_cpu;
	struct nl_alloc_key key;
	uint64_t ev, pg;
	int e;

	for (size_t i = 0; i < n; i++) {
		if (!slot_read(&b->alloc_slots[i], &key, &ev, &pg))
			continue;
		e = add_alloc(ctx, &key, ev, pg);
		if (e)
			return e;
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

	/* the exit ring holds NL_EXIT_RING names: empty it every interval */
	nl_exit_names_drain(b->exit_names);
	nl_counts_clear(tgids);
	nl_counts_clear(cgroups);
	memset(nodes, 0, sizeof(*nodes) * NL_MAX_NODES);
	if (b->sched)
		e = for_each(bpf_map__fd(b->sched->maps.sched_stats), sizeof(struct nl_id_key),
			     nl_sched_val_size(ctx.nr_nodes), b->nr_cpus, on_sched, &ctx);
	if (!e && b->alloc)
		e = for_each(bpf_map__fd(b->alloc->maps.alloc_stats), sizeof(struct nl_alloc_key),
			     sizeof(struct nl_alloc_val), b->nr_cpus, on_alloc, &ctx);
	if (!e && b->alloc_slots)
		e = read_slots(b, &ctx);
	nl_node_exact_read(b, nodes);
	if (!e && b->migrate)
		e = for_each(bpf_map__fd(b->migrate->maps.migrate_stats), sizeof(struct nl_id_key),
			     sizeof(struct nl_migrate_val), b->nr_cpus, on_migrate, &ctx);
	return e;
}

int nl_maps_reread_id(const struct nl_bpf *b, int kind, uint64_t id, struct nl_counts *c)
{
	struct nl_id_key key = { .id = id, .kind = (uint32_t)kind };
	struct nl_counts fresh;
	struct read_ctx ctx = { .nr_nodes = b->nr_nodes < NL_MAX_NODES ? b->nr_nodes : NL_MAX_NODES };
	size_t vs = nl_sched_val_size(ctx.nr_nodes), ms = sizeof(struct nl_migrate_val);
	void *vals = malloc((vs > ms ? vs : ms) * (size_t)b->nr_cpus);
	struct nl_node_counts nodes[NL_MAX_NODES];
	struct nl_counts_table one = { 0 };
	const struct nl_counts *got;
	int e = 0;

	if (!vals)
		return -ENOMEM;
	memset(nodes, 0, sizeof(nodes));	/* written for cgroup keys only */
	ctx.t[0] = ctx.t[1] = &one;
	ctx.nodes = nodes;
	if (b->sched && !bpf_map_lookup_elem(bpf_map__fd(b->sched->maps.sched_stats), &key, vals))
		e = on_sched(&key, vals, b->nr_cpus, &ctx);
	if (!e && b->migrate && !bpf_map_lookup_elem(bpf_map__fd(b->migrate->maps.migrate_stats), &key, vals))
		e = on_migrate(&key, vals, b->nr_cpus, &ctx);
	got = e ? NULL : nl_counts_find(&one, id);
	if (got) {
		fresh = *got;
		/* counters only grow: never let a re-read take any back */
		for (int n = 0; n < NL_MAX_NODES; n++)
			c->run_ns[n] = fresh.run_ns[n] > c->run_ns[n] ? fresh.run_ns[n] : c->run_ns[n];
		for (int k = 0; k < NL_LOC_BUCKETS; k++)
			c->loc_ns[k] = fresh.loc_ns[k] > c->loc_ns[k] ? fresh.loc_ns[k] : c->loc_ns[k];
#define NL_MAX_INTO(f) (c->f = fresh.f > c->f ? fresh.f : c->f)
		NL_MAX_INTO(nofault_ns);
		NL_MAX_INTO(slices);
		NL_MAX_INTO(move_numa);
		NL_MAX_INTO(swap_numa);
		NL_MAX_INTO(stick_numa);
#undef NL_MAX_INTO
		for (int r = 0; r < NL_MIGRATE_REASONS; r++) {
			c->mig_ok[r] = fresh.mig_ok[r] > c->mig_ok[r] ? fresh.mig_ok[r] : c->mig_ok[r];
			c->mig_fail[r] = fresh.mig_fail[r] > c->mig_fail[r] ? fresh.mig_fail[r] : c->mig_fail[r];
		}
	}
	nl_counts_free(&one);
	free(vals);
	return e;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Whether @key belongs to an id of @kind in the sorted @ids[@n]. */
static bool key_in_set(const struct nl_alloc_key *key, int kind, const uint64_t *ids, int n)
{
	uint64_t id = kind == NL_KIND_TGID ? key->tgid : key->cgroup_id;

	return bsearch(&id, ids, (size_t)n, sizeof(*ids), cmp_u64) != NULL;
}

/* Where @key's counts go when the id of @kind in it is forgotten: the
 * same key with that half retired, so that the other half's sums stay
 * monotonic. Returns false when the other half was retired already: no
 * figure reads such a key (the node figures come from the exact totals),
 * so its counts go. */
static bool retired_key(const struct nl_alloc_key *key, int kind, struct nl_alloc_key *out)
{
	*out = *key;
	if (kind == NL_KIND_TGID)
		out->tgid = NL_TGID_RETIRED;
	else
		out->cgroup_id = NL_CGROUP_RETIRED;
	return out->tgid != NL_TGID_RETIRED || out->cgroup_id != NL_CGROUP_RETIRED;
}

/* Add @ev and @pg to the hash entry @key (a retired key, which only user
 * space writes), on CPU 0's value. Returns 0 or a negative errno (a full
 * map loses them). */
static int hash_add(int fd, const struct nl_alloc_key *key, uint64_t ev, uint64_t pg, int cpus)
{
	struct nl_alloc_val *v = calloc((size_t)cpus, sizeof(*v));
	int e = 0;

	if (!v)
		return -ENOMEM;
	if (!bpf_map_lookup_elem(fd, key, v))
		for (int c = 1; c < cpus; c++) {
			v[0].events += v[c].events;
			v[0].pages += v[c].pages;
			v[c] = (struct nl_alloc_val){ 0, 0 };
		}
	v[0].events += ev;
	v[0].pages += pg;
	if (bpf_map_update_elem(fd, key, v, BPF_ANY))
		e = -errno;
	free(v);
	return e;
}

/* Forget the alloc counters of the ids of @kind in the sorted @ids[@n]:
 * their hash entries and slots, moved under retired keys. Returns the
 * number of entries forgotten. */
static int alloc_forget(const struct nl_bpf *b, int kind, const uint64_t *ids, int n)
{
	int fd = bpf_map__fd(b->alloc->maps.alloc_stats), nk = 0, cap = 0, done = 0;
	struct nl_alloc_key *keys = NULL, k, next, rk;
	struct nl_alloc_val *v = calloc((size_t)b->nr_cpus, sizeof(*v));
	size_t ns = (size_t)b->nr_cpus * b->alloc_slots_per_cpu;
	void *prev = NULL;
	uint64_t ev, pg;

	if (!v)
		return 0;
	/* the keys first: deleting while walking would restart the walk */
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		k = next;
		prev = &k;
		if (!key_in_set(&k, kind, ids, n))
			continue;
		if (nk == cap) {
			void *p = realloc(keys, (size_t)(cap = cap ? cap * 2 : 64) * sizeof(*keys));

			if (!p)
				break;
			keys = p;
		}
		keys[nk++] = k;
	}
	for (int i = 0; i < nk; i++) {
		if (bpf_map_lookup_elem(fd, &keys[i], v))
			continue;
		ev = pg = 0;
		for (int c = 0; c < b->nr_cpus; c++) {
			ev += v[c].events;
			pg += v[c].pages;
		}
		if (retired_key(&keys[i], kind, &rk))
			hash_add(fd, &rk, ev, pg, b->nr_cpus);
		done += !bpf_map_delete_elem(fd, &keys[i]);
	}
	for (size_t i = 0; i < ns; i++) {
		struct nl_alloc_slot *s = &b->alloc_slots[i];

		if (!slot_read(s, &k, &ev, &pg) || !key_in_set(&k, kind, ids, n))
			continue;
		if (retired_key(&k, kind, &rk))
			hash_add(fd, &rk, ev, pg, b->nr_cpus);
		/* free it: pages first, events (the free mark) last */
		__atomic_store_n(&s->val.pages, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&s->val.events, 0, __ATOMIC_RELEASE);
		done++;
	}
	free(keys);
	free(v);
	return done;
}

int nl_maps_forget(const struct nl_bpf *b, int kind, uint64_t *ids, int n)
{
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
	if (b->alloc)
		deleted += alloc_forget(b, kind, ids, n);
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
