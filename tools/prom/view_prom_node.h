/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The node families of `numalens export`: sysfs numastat and meminfo, the
 * node's CPUs, the BPF program's preferred-node and per-zone counts.
 */
#ifndef NL_VIEW_PROM_NODE_H
#define NL_VIEW_PROM_NODE_H

#include "snapshot.h"
#include "strbuf.h"

/* The node families: numastat, memory, CPUs, busy share, and the BPF
 * preferred-node and per-zone counts when the allocation program runs. */
void nl_prom_node_render(struct nl_buf *b, const struct nl_snapshot *s);

#endif /* NL_VIEW_PROM_NODE_H */
