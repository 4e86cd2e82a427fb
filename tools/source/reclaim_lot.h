/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * User-space side of the BPF victim-node lottery (bpf/lottery.bpf.c): load
 * it, give managed memcgs a ticket-table slot, publish tables (double-buffered, so a draw never sees half a table), draw
 * through the BPF program with BPF_PROG_RUN, read counts and the decisions
 * of the limit-reclaim hook. Errors are negative errno values.
 */
#ifndef NL_RECLAIM_LOT_H
#define NL_RECLAIM_LOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lottery.h"

struct nl_lot_bpf;

/*
 * Load the lottery object with @cg_mode (enum nl_cgroup_mode) and, if
 * @attach_limit, attach the mm_vmscan_memcg_reclaim_begin hook (missing
 * tracepoint: *@*have_limit = false, not an error). libbpf's log goes to
 * stderr only when @verbose. @btf_path: --btf (NULL: the kernel's BTF),
 * checked by nl_bpf_btf_check(). Draws are counted per node for the possible
 * nodes (/sys/devices/system/node/possible), or for @min_nodes when that is
 * more (a test drawing over a table of more nodes than its host has; 0 for
 * real use). Returns 0 or an enum nl_exit code with a one-line message in
 * @err.
 */
int nl_lot_open(struct nl_lot_bpf **out, int cg_mode, bool attach_limit, bool verbose,
		const char *btf_path, int min_nodes, bool *have_limit, char *err, size_t errlen);

/* Give memcg @cgid (kernfs id) a slot. Returns the slot, the existing one
 * if already managed, or -ENOSPC when NL_LOT_MAX_CG are in use. */
int nl_lot_manage(struct nl_lot_bpf *l, uint64_t cgid);

/* Give up @cgid's slot (its memcg went): the BPF side no longer finds a
 * table for it, and its counters are zeroed for the slot's next user.
 * 0 or -ENOENT. */
int nl_lot_unmanage(struct nl_lot_bpf *l, uint64_t cgid);

/* Publish @t for @cgid (must be managed). 0 or -ENOENT. */
int nl_lot_set_table(struct nl_lot_bpf *l, uint64_t cgid, const struct nl_lot_table *t);

/* Read back @cgid's current table. 0, -ENOENT or -EAGAIN. */
int nl_lot_get_table(struct nl_lot_bpf *l, uint64_t cgid, struct nl_lot_table *t);

/* One draw for @cgid through the BPF program (BPF_PROG_RUN). Returns the
 * nid (>= 0), or -1 with *@reason != NL_LOT_OK; -errno if the run failed. */
int nl_lot_draw(struct nl_lot_bpf *l, uint64_t cgid, uint32_t *reason);

/* Sum over CPUs of @cgid's counters into @c. 0 or -ENOENT. */
int nl_lot_read_counts(struct nl_lot_bpf *l, uint64_t cgid, struct nl_lot_counts *c);

/* Limit-path decisions lost to a full ring buffer. */
uint64_t nl_lot_lost(struct nl_lot_bpf *l);

/* Call @fn for every pending limit-path decision, waiting up to
 * @timeout_ms for the first. Returns the number handled or -errno. */
int nl_lot_poll(struct nl_lot_bpf *l, int timeout_ms,
		void (*fn)(void *ctx, const struct nl_lot_event *e), void *ctx);

/* The kernel's limit reclaim of @cgid: runs in flight (<= 0: none) and
 * pages reclaimed so far. 0, or -ENOENT (not managed, or no end hook). */
int nl_lot_limit_state(struct nl_lot_bpf *l, uint64_t cgid, int64_t *inflight, uint64_t *reclaimed);

/* Stand by for @cgid (@on) or act again: while its slot is quiet the
 * limit hook only counts the memcg's limit events (no draw, no record, no
 * wakeup). 0 or -ENOENT. */
int nl_lot_set_quiet(struct nl_lot_bpf *l, uint64_t cgid, bool on);

/* Limit events of @cgid the hook only counted because its slot was quiet,
 * into *@n. 0 or -ENOENT / -errno. */
int nl_lot_quiet_events(struct nl_lot_bpf *l, uint64_t cgid, uint64_t *n);

/* Detach and free; NULL is fine. */
void nl_lot_close(struct nl_lot_bpf *l);

#endif
