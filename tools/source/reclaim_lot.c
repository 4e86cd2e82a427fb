// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Loading and driving bpf/lottery.bpf.c (see reclaim_lot.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "reclaim_lot.h"
#include "topology.h"
#include "loader.h"
#include "lottery.skel.h"

struct nl_lot_bpf {
	struct nl_lottery *skel;
	struct nl_lot_slot *slots;	/* mmap of lot_tables */
	size_t map_len;
	struct ring_buffer *rb;
	void (*fn)(void *, const struct nl_lot_event *);
	void *fn_ctx;
	int nr_cpus;
	int nr_nodes;		/* node slots of lot_draws per (slot, source) */
};

static bool lot_verbose;

static int lot_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (!lot_verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

/* Draw counters for the possible nodes only (see NL_LOT_DRAW_IDX). */
static void size_draws(struct nl_lot_bpf *l)
{
	l->skel->rodata->lot_nr_nodes = (uint32_t)l->nr_nodes;
	bpf_map__set_max_entries(l->skel->maps.lot_draws,
				 NL_LOT_MAX_CG * NL_LOT_NR_SOURCES * (uint32_t)l->nr_nodes);
}

/* Open the lottery object for @cg_mode into l->skel, its limit-path
 * programs loaded only with @limit. False when it cannot be opened. */
static bool open_skel(struct nl_lot_bpf *l, const struct bpf_object_open_opts *oo, int cg_mode, bool limit)
{
	l->skel = nl_lottery__open_opts(oo);
	if (!l->skel)
		return false;
	l->skel->rodata->nl_cgroup_mode = (uint32_t)cg_mode;
	l->skel->rodata->lot_agent_tgid = (uint32_t)getpid();
	size_draws(l);
	if (!limit) {
		bpf_program__set_autoload(l->skel->progs.lot_limit_begin, false);
		bpf_program__set_autoload(l->skel->progs.lot_limit_end, false);
	}
	return true;
}

/* Load l->skel. The limit-path tracepoints may be missing or refused:
 * then it is loaded again without them (*@attach_limit cleared), keeping
 * the agent's own draws. Returns 0, or an exit code with @err (l->skel
 * NULL when it could not be reopened). */
static int load_skel(struct nl_lot_bpf *l, const struct bpf_object_open_opts *oo, int cg_mode,
		     bool *attach_limit, char *err, size_t errlen)
{
	int e = nl_lottery__load(l->skel);

	if (e && *attach_limit) {
		nl_lottery__destroy(l->skel);
		if (!open_skel(l, oo, cg_mode, false)) {
			l->skel = NULL;
			snprintf(err, errlen, "cannot reopen the lottery BPF object");
			return NL_EXIT_KERNEL;
		}
		*attach_limit = false;
		e = nl_lottery__load(l->skel);
	}
	if (e) {
		snprintf(err, errlen, "the kernel refused the lottery BPF program (%s); --verbose shows libbpf's log",
			 strerror(-e));
		return NL_EXIT_KERNEL;
	}
	return 0;
}

/* Attach the limit-path programs; *@have_limit says whether the draw on
 * limit reclaim is there. */
static void attach_limit_progs(struct nl_lot_bpf *l, bool *have_limit)
{
	l->skel->links.lot_limit_begin = bpf_program__attach(l->skel->progs.lot_limit_begin);
	*have_limit = l->skel->links.lot_limit_begin != NULL;
	/* without the end hook the agent cannot wait for the kernel's
	 * runs: it then steps at once (nl_lot_limit_state: -ENOENT) */
	l->skel->links.lot_limit_end = bpf_program__attach(l->skel->progs.lot_limit_end);
}

/* The ticket tables, mapped into l->slots. 0, or an exit code with @err. */
static int map_tables(struct nl_lot_bpf *l, char *err, size_t errlen)
{
	l->map_len = bpf_map__value_size(l->skel->maps.lot_tables) * (size_t)NL_LOT_MAX_CG;
	l->map_len = (l->map_len + 4095) & ~(size_t)4095;
	l->slots = mmap(NULL, l->map_len, PROT_READ | PROT_WRITE, MAP_SHARED,
			bpf_map__fd(l->skel->maps.lot_tables), 0);
	if (l->slots == MAP_FAILED) {
		l->slots = NULL;
		snprintf(err, errlen, "cannot mmap the ticket tables: %s", strerror(errno));
		return NL_EXIT_KERNEL;
	}
	return 0;
}

int nl_lot_open(struct nl_lot_bpf **out, int cg_mode, bool attach_limit, bool verbose,
		const char *btf_path, int min_nodes, bool *have_limit, char *err, size_t errlen)
{
	struct nl_lot_bpf *l = calloc(1, sizeof(*l));
	LIBBPF_OPTS(bpf_object_open_opts, oo, .btf_custom_path = btf_path);
	int e;

	*out = NULL;
	*have_limit = false;
	if (!l) {
		snprintf(err, errlen, "out of memory");
		return NL_EXIT_FAIL;
	}
	if (nl_bpf_caps_missing()) {
		free(l);
		snprintf(err, errlen, "loading the lottery BPF program needs %s, which this process lacks: run it as root or grant it",
			 nl_bpf_caps_missing());
		return NL_EXIT_PRIV;
	}
	lot_verbose = verbose;
	libbpf_set_print(lot_print);
	/* the same BTF check and message as the other commands */
	e = nl_bpf_btf_check(btf_path, NULL, err, errlen);
	if (e) {
		free(l);
		return e;
	}
	l->nr_cpus = libbpf_num_possible_cpus();
	l->nr_nodes = nl_topo_node_possible("/sys");
	if (l->nr_nodes > 0 && l->nr_nodes < min_nodes)
		l->nr_nodes = min_nodes;
	if (l->nr_nodes < 1 || l->nr_nodes > NL_LOT_MAX_NODES) {
		/* the command has refused more nodes than that already */
		snprintf(err, errlen, "cannot read the possible NUMA nodes from /sys/devices/system/node");
		free(l);
		return NL_EXIT_FAIL;
	}
	if (!open_skel(l, &oo, cg_mode, attach_limit)) {
		snprintf(err, errlen, "cannot open the lottery BPF object: %s", strerror(errno));
		free(l);
		return NL_EXIT_KERNEL;
	}
	e = load_skel(l, &oo, cg_mode, &attach_limit, err, errlen);
	if (e && !l->skel)
		free(l);
	else if (e)
		nl_lot_close(l);
	if (e)
		return e;
	if (attach_limit)
		attach_limit_progs(l, have_limit);
	e = map_tables(l, err, errlen);
	if (e) {
		nl_lot_close(l);
		return e;
	}
	*out = l;
	return NL_EXIT_OK;
}

static int slot_of(struct nl_lot_bpf *l, uint64_t cgid)
{
	uint32_t s;

	if (bpf_map_lookup_elem(bpf_map__fd(l->skel->maps.lot_index), &cgid, &s))
		return -ENOENT;
	return s < NL_LOT_MAX_CG ? (int)s : -ENOENT;
}

int nl_lot_manage(struct nl_lot_bpf *l, uint64_t cgid)
{
	int s = slot_of(l, cgid);

	if (s >= 0)
		return s;
	for (uint32_t i = 0; i < NL_LOT_MAX_CG; i++) {
		if (l->slots[i].cgroup_id)
			continue;
		/* An empty table first: draws before the first publication
		 * say "no eligible node", never pick one. */
		memset(&l->slots[i], 0, sizeof(l->slots[i]));
		l->slots[i].cgroup_id = cgid;
		if (bpf_map_update_elem(bpf_map__fd(l->skel->maps.lot_index), &cgid, &i, BPF_NOEXIST))
			return -errno;
		return (int)i;
	}
	return -ENOSPC;
}

int nl_lot_unmanage(struct nl_lot_bpf *l, uint64_t cgid)
{
	int s = slot_of(l, cgid);
	struct nl_lot_novictim *zero;
	uint32_t k;

	if (s < 0)
		return s;
	bpf_map_delete_elem(bpf_map__fd(l->skel->maps.lot_index), &cgid);
	memset(&l->slots[s], 0, sizeof(l->slots[s]));
	zero = calloc((size_t)l->nr_cpus, sizeof(*zero));
	if (zero) {
		k = (uint32_t)s;
		bpf_map_update_elem(bpf_map__fd(l->skel->maps.lot_counts), &k, zero, BPF_ANY);
		/* zero has nr_cpus * sizeof(struct nl_lot_novictim) >= nr_cpus u64s */
		for (int src = 0; src < NL_LOT_NR_SOURCES; src++)
			for (int n = 0; n < l->nr_nodes; n++) {
				k = NL_LOT_DRAW_IDX(s, src, n, l->nr_nodes);
				bpf_map_update_elem(bpf_map__fd(l->skel->maps.lot_draws), &k, zero, BPF_ANY);
			}
		free(zero);
	}
	{
		struct nl_lot_limit_state st = { 0 };

		k = (uint32_t)s;
		bpf_map_update_elem(bpf_map__fd(l->skel->maps.lot_limit_state), &k, &st, BPF_ANY);
	}
	return 0;
}

int nl_lot_set_table(struct nl_lot_bpf *l, uint64_t cgid, const struct nl_lot_table *t)
{
	int s = slot_of(l, cgid);

	if (s < 0)
		return s;
	nl_lot_publish(&l->slots[s], t);
	return 0;
}

int nl_lot_get_table(struct nl_lot_bpf *l, uint64_t cgid, struct nl_lot_table *t)
{
	int s = slot_of(l, cgid);

	if (s < 0)
		return s;
	return nl_lot_read_slot(&l->slots[s], t);
}

int nl_lot_draw(struct nl_lot_bpf *l, uint64_t cgid, uint32_t *reason)
{
	struct nl_lot_run_ctx c = { .cgroup_id = cgid };
	LIBBPF_OPTS(bpf_test_run_opts, o, .ctx_in = &c, .ctx_size_in = sizeof(c));

	if (bpf_prog_test_run_opts(bpf_program__fd(l->skel->progs.lot_draw), &o))
		return -errno;
	*reason = c.reason;
	return c.reason == NL_LOT_OK ? (int)c.nid : -1;
}

int nl_lot_read_counts(struct nl_lot_bpf *l, uint64_t cgid, struct nl_lot_counts *c)
{
	int s = slot_of(l, cgid);
	struct nl_lot_novictim *per;
	uint64_t *d;
	uint32_t k;
	int e = 0;

	memset(c, 0, sizeof(*c));
	if (s < 0)
		return s;
	per = calloc((size_t)l->nr_cpus, sizeof(*per));
	d = calloc((size_t)l->nr_cpus, sizeof(*d));
	if (!per || !d) {
		e = -ENOMEM;
		goto out;
	}
	k = (uint32_t)s;
	if (bpf_map_lookup_elem(bpf_map__fd(l->skel->maps.lot_counts), &k, per)) {
		e = -errno;
		goto out;
	}
	for (int cpu = 0; cpu < l->nr_cpus; cpu++)
		for (int src = 0; src < NL_LOT_NR_SOURCES; src++)
			for (int r = 0; r < NL_LOT_NR_REASONS; r++)
				c->novictim[src][r] += per[cpu].n[src][r];
	for (int src = 0; src < NL_LOT_NR_SOURCES; src++)
		for (int n = 0; n < l->nr_nodes; n++) {
			k = NL_LOT_DRAW_IDX(s, src, n, l->nr_nodes);
			if (bpf_map_lookup_elem(bpf_map__fd(l->skel->maps.lot_draws), &k, d)) {
				e = -errno;
				goto out;
			}
			for (int cpu = 0; cpu < l->nr_cpus; cpu++)
				c->draws[src][n] += d[cpu];
		}
out:
	free(per);
	free(d);
	return e;
}

uint64_t nl_lot_lost(struct nl_lot_bpf *l)
{
	uint64_t *per = calloc((size_t)l->nr_cpus, sizeof(uint64_t)), sum = 0;
	uint32_t k = 0;

	if (!per)
		return 0;
	if (!bpf_map_lookup_elem(bpf_map__fd(l->skel->maps.lot_lost), &k, per))
		for (int i = 0; i < l->nr_cpus; i++)
			sum += per[i];
	free(per);
	return sum;
}

static int rb_cb(void *ctx, void *data, size_t len)
{
	struct nl_lot_bpf *l = ctx;

	if (len >= sizeof(struct nl_lot_event) && l->fn)
		l->fn(l->fn_ctx, data);
	return 0;
}

int nl_lot_poll(struct nl_lot_bpf *l, int timeout_ms,
		void (*fn)(void *ctx, const struct nl_lot_event *e), void *ctx)
{
	if (!l->rb) {
		l->rb = ring_buffer__new(bpf_map__fd(l->skel->maps.lot_events), rb_cb, l, NULL);
		if (!l->rb)
			return -errno;
	}
	l->fn = fn;
	l->fn_ctx = ctx;
	return ring_buffer__poll(l->rb, timeout_ms);
}

void nl_lot_close(struct nl_lot_bpf *l)
{
	if (!l)
		return;
	if (l->rb)
		ring_buffer__free(l->rb);
	if (l->slots)
		munmap(l->slots, l->map_len);
	nl_lottery__destroy(l->skel);
	free(l);
}

int nl_lot_limit_state(struct nl_lot_bpf *l, uint64_t cgid, int64_t *inflight, uint64_t *reclaimed)
{
	struct nl_lot_limit_state st;
	int s = slot_of(l, cgid);
	uint32_t k;

	if (s < 0 || !l->skel->links.lot_limit_end)
		return -ENOENT;
	k = (uint32_t)s;
	if (bpf_map_lookup_elem(bpf_map__fd(l->skel->maps.lot_limit_state), &k, &st))
		return -errno;
	*inflight = st.inflight;
	*reclaimed = st.reclaimed;
	return 0;
}

int nl_lot_set_quiet(struct nl_lot_bpf *l, uint64_t cgid, bool on)
{
	int s = slot_of(l, cgid);

	if (s < 0)
		return s;
	__atomic_store_n(&l->slots[s].quiet, on ? 1u : 0u, __ATOMIC_RELEASE);
	return 0;
}

int nl_lot_quiet_events(struct nl_lot_bpf *l, uint64_t cgid, uint64_t *n)
{
	struct nl_lot_limit_state st;
	int s = slot_of(l, cgid);
	uint32_t k;

	*n = 0;
	if (s < 0)
		return s;
	k = (uint32_t)s;
	if (bpf_map_lookup_elem(bpf_map__fd(l->skel->maps.lot_limit_state), &k, &st))
		return -errno;
	*n = st.quiet_events;
	return 0;
}
