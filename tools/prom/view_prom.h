/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Prometheus text exposition (format 0.0.4) of one snapshot: the view
 * behind `numalens export`. A pure function of the snapshot and the
 * options; it reads nothing else. The metric list, units and the
 * worst-case series count are in README.md ("numalens export").
 *
 * Conventions (prometheus.io writing_exporters):
 * numalens_ prefix, base units (seconds, bytes), _total on counters only,
 * remote allocations and migration failures as their own counters rather
 * than a local/remote or ok/fail label.
 *
 * The families live by group: the rows exported and the options that pick
 * them (view_prom_select), the per-row families (view_prom_figs), the node
 * families (view_prom_node), numalens' own (view_prom_self), and reclaim,
 * the reclaim agent and scx_cling in files of their own; view_prom.c sets
 * their order.
 */
#ifndef NL_VIEW_PROM_H
#define NL_VIEW_PROM_H

#include <stdbool.h>
#include "snapshot.h"
#include "prom_write.h"
#include "view_prom_figs.h"
#include "view_prom_select.h"

/* Content-Type of what nl_prom_render() writes. */
#define NL_PROM_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

/*
 * Append the exposition of @s to @b: node counters (sysfs numastat),
 * per-cgroup and (optionally) per-process figures, self metrics.
 * Every family is one contiguous # HELP/# TYPE group. A @b with a drain
 * is drained at line ends (nl_buf_drain_point), so the whole text need
 * never be held. Returns 0, -EINVAL on NULL args, or -ENOMEM or the
 * drain's -errno (b->err).
 */
int nl_prom_render(struct nl_buf *b, const struct nl_snapshot *s, const struct nl_prom_opts *o);

/* Append the numalens_scrape_duration_seconds gauge (@ns: time spent
 * rendering the text it ends), the last family of a scrape. */
void nl_prom_render_scrape_duration(struct nl_buf *b, uint64_t ns);

#endif
