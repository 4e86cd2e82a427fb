/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The families about numalens itself: build and sources, sampling, its
 * snapshots, BPF drops and run times, evictions, cgroups left out.
 */
#ifndef NL_VIEW_PROM_SELF_H
#define NL_VIEW_PROM_SELF_H

#include "snapshot.h"
#include "strbuf.h"
#include "view_prom_select.h"

/* Build info, sources, sample period, page size and the snapshot clock. */
void nl_prom_self_info(struct nl_buf *b, const struct nl_snapshot *s, const struct nl_prom_opts *o);

/* Drops, evictions, other pid namespaces and BPF program stats. */
void nl_prom_self_render(struct nl_buf *b, const struct nl_snapshot *s);

/* Cgroups in the snapshot, exported (@exported) and left out (@omitted). */
void nl_prom_self_cardinality(struct nl_buf *b, const struct nl_snapshot *s, int exported, int omitted);

#endif /* NL_VIEW_PROM_SELF_H */
