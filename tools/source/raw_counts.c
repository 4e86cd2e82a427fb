// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* One interval's raw counts from the BPF side; see raw_counts.h. */
#include <string.h>
#include "maps.h"
#include "raw_counts.h"
#include "vmscan_read.h"

int nl_raw_counts_read(const struct nl_bpf *b, const char *cling_pin_dir, struct nl_raw_counts *r)
{
	int e = nl_maps_read(b, &r->tgids, &r->cgroups, r->nodes);

	if (e)
		return e;
	nl_bpf_drops(b, r->drops);
	r->exits = b->exit_names;
	nl_cling_stats_free(&r->cling);
	/* scx_cling is another process: its pinned maps, when it runs */
	r->cling_running = !nl_cling_stats_read(cling_pin_dir ? cling_pin_dir : CLING_PIN_DIR, &r->cling);
	return 0;
}

int nl_raw_counts_read_vmscan(const struct nl_bpf *b, struct nl_raw_counts *r)
{
	return nl_vmscan_read(b, &r->vs);
}

void nl_raw_counts_take_cling(struct nl_raw_counts *r, bool *running, struct nl_cling_stats *out)
{
	*running = r->cling_running;
	*out = r->cling;
	r->cling_running = false;
	memset(&r->cling, 0, sizeof(r->cling));
}

static int reread_tgid(void *ctx, uint64_t tgid, struct nl_counts *c)
{
	return nl_maps_reread_id(ctx, NL_KIND_TGID, tgid, c);
}

static int forget(void *ctx, int kind, uint64_t *ids, int n)
{
	int done = nl_maps_forget(ctx, kind, ids, n);

	/* a removed cgroup's reclaim entries go too; the vmscan fold retires
	 * it next */
	if (kind == NL_KIND_CGROUP)
		nl_vmscan_read_forget(ctx, ids, n);
	return done;
}

static int cgroup_ancestors(void *ctx, uint64_t id, uint64_t *anc, int max)
{
	return nl_maps_cgroup_ancestors(ctx, id, anc, max);
}

void nl_raw_counts_ops_bpf(const struct nl_bpf *b, struct nl_raw_counts_ops *ops)
{
	*ops = (struct nl_raw_counts_ops){
		.ctx = (void *)b,
		.reread_tgid = reread_tgid,
		.forget = forget,
		.cgroup_ancestors = cgroup_ancestors,
	};
}

void nl_raw_counts_free(struct nl_raw_counts *r)
{
	nl_counts_free(&r->tgids);
	nl_counts_free(&r->cgroups);
	nl_vmscan_raw_free(&r->vs);
	nl_cling_stats_free(&r->cling);
	memset(r, 0, sizeof(*r));
}
