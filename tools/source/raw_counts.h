/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * raw_counts: what one interval's reads of the BPF side hand to the model,
 * in one struct. The map readers (maps.c), the vmscan reader
 * (vmscan_read.c) and the scx_cling stats reader (cling_stats.c) fill it;
 * the collector's parts (tools/model/collect_*.c) fold it into a snapshot
 * and never see a map. The few things the model must still ask of the BPF
 * side while it folds (a dead process's last counts, forgetting ids) go
 * through struct nl_raw_counts_ops, so a unit test can feed the model
 * fixtures with no BPF object at all.
 */
#ifndef NL_RAW_COUNTS_H
#define NL_RAW_COUNTS_H

#include <stdbool.h>
#include <stdint.h>
#include "cling_stats.h"
#include "counts.h"
#include "exit_names.h"
#include "loader.h"
#include "nl_types.h"
#include "vmscan_raw.h"

/*
 * One interval's raw counters, as BPF and scx_cling count them (events,
 * pages, ns; monotonic since attach). Zero it before the first read.
 */
struct nl_raw_counts {
	struct nl_counts_table tgids;		/* by process (tgid) */
	struct nl_counts_table cgroups;		/* by cgroup id: each cgroup's own */
	struct nl_node_counts nodes[NL_MAX_NODES];	/* by page node */
	unsigned long long drops[NL_NR_DROPS];	/* totals since start, enum nl_drop */
	/* names of exited processes (borrowed from the loader; NULL: none) */
	struct nl_exit_names *exits;
	/* reclaim, by cgroup id; read after the cgroup step (see
	 * nl_raw_counts_read_vmscan), empty without the vmscan program */
	struct nl_vs_raw vs;
	/* scx_cling's statistics when it runs; owned here until a snapshot
	 * takes them (nl_raw_counts_take_cling) */
	bool cling_running;
	struct nl_cling_stats cling;
};

/*
 * What the model asks of the BPF side while it folds an interval. Any
 * member may be NULL (a unit test's fixture): that step is skipped.
 */
struct nl_raw_counts_ops {
	void *ctx;
	/* Read the run-time and migration counters of process @tgid again
	 * into @c, keeping each counter's larger value: a process found dead
	 * ran on after the interval's read. 0 or -errno. */
	int (*reread_tgid)(void *ctx, uint64_t tgid, struct nl_counts *c);
	/* Forget the @n ids @ids of @kind (NL_KIND_TGID, NL_KIND_CGROUP) in
	 * every map; may sort @ids. Returns the entries deleted. */
	int (*forget)(void *ctx, int kind, uint64_t *ids, int n);
	/* The ancestors of cgroup @id as BPF recorded them, nearest first,
	 * at most @max. Returns how many, or -ENOENT. */
	int (*cgroup_ancestors)(void *ctx, uint64_t id, uint64_t *anc, int max);
};

/*
 * nl_raw_counts_read - the stats maps of @b (maps.c: per process, per
 * cgroup, per node), its drop counters, and scx_cling's pinned maps under
 * @cling_pin_dir (NULL: CLING_PIN_DIR) into @r. @r->tgids and @r->cgroups
 * are cleared first, @r->cling is freed and read again. The vmscan maps are
 * not read here. Returns 0 or -errno from the stats maps (-ENOMEM); a
 * scx_cling that is not running only clears @r->cling_running.
 */
int nl_raw_counts_read(const struct nl_bpf *b, const char *cling_pin_dir, struct nl_raw_counts *r);

/*
 * nl_raw_counts_read_vmscan - the vmscan maps of @b into @r->vs (cleared
 * first). A step of its own: the collector reads them after its cgroup
 * step has deleted the entries of removed cgroups, so they are not folded
 * again. Returns 0 (also without the vmscan program) or -ENOMEM.
 */
int nl_raw_counts_read_vmscan(const struct nl_bpf *b, struct nl_raw_counts *r);

/*
 * nl_raw_counts_take_cling - move @r's scx_cling statistics into @running
 * and @out (which must hold nothing to free), leaving @r without them.
 */
void nl_raw_counts_take_cling(struct nl_raw_counts *r, bool *running, struct nl_cling_stats *out);

/* nl_raw_counts_ops_bpf - @ops answered from the maps of @b. */
void nl_raw_counts_ops_bpf(const struct nl_bpf *b, struct nl_raw_counts_ops *ops);

/* nl_raw_counts_free - free what @r holds and zero it (not @r->exits,
 * which is borrowed). Safe on a zeroed struct. */
void nl_raw_counts_free(struct nl_raw_counts *r);

#endif
