/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Derived figures and cell formatting shared by the text and TUI views, so
 * that both print the same number for the same snapshot.
 */
#ifndef NL_VIEW_FMT_H
#define NL_VIEW_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "snapshot.h"

/* Width of a locality bar: one glyph per bucket. */
#define NL_LOCBAR_WIDTH NL_LOC_BUCKETS

/* @delta per second over @interval_ns; 0 when the interval is 0. */
double nl_fmt_rate(uint64_t delta, uint64_t interval_ns);

/* pages_remote / (pages_local + pages_remote) in [0,1] into *@out.
 * Returns false (and leaves *@out alone) when there were no allocations. */
bool nl_fmt_remote_ratio(const struct nl_alloc_figs *a, double *out);

/* Share of @part in @whole as a percentage; 0 when @whole is 0. */
double nl_fmt_pct(uint64_t part, uint64_t whole);

/* Sum of the first @nr_nodes entries of @v. */
uint64_t nl_fmt_sum_nodes(const uint64_t *v, int nr_nodes);

/* Resident pages of @p over all nodes; false when numa_maps was unreadable. */
bool nl_fmt_proc_rss_pages(const struct nl_proc *p, int nr_nodes, uint64_t *out);

/* Pages migrated (succeeded + failed) over the interval: the MIGR figure. */
uint64_t nl_fmt_migrated_pages(const struct nl_figs *f);

/* Whether locality can be measured at all in this session (NUMA balancing
 * on, sched program attached): decides "unavail" versus "n/a". */
bool nl_fmt_locality_source_ok(const struct nl_snapshot *s);

/* Why a row's locality is unavailable in @s, as a short token for JSON:
 * "no_sched_program", "numa_balancing_off", "sched_ext" (a sched_ext
 * scheduler runs: its tasks take no NUMA hinting faults, and a row is
 * binned only when its fault counters moved), or "no_faults" (nothing
 * binned this interval). */
const char *nl_fmt_locality_why(const struct nl_snapshot *s);

/*
 * The locality mean of @l as "90.6%" into @buf. When @l is not available:
 * "unavail" if the session cannot measure locality (@source_ok false),
 * "n/a" if it can but this row had no NUMA-hinting faults. Returns @buf.
 */
const char *nl_fmt_locality(char *buf, size_t sz, const struct nl_locality *l,
			    bool source_ok);

/*
 * The 8-bucket locality bar of @l into @buf (room for 9 bytes): glyph b is
 * bucket b's share of the bucketed time on the scale " .:-=+*#@" (space =
 * none, '@' = all; any non-zero share shows at least '.'), lowest locality
 * left. Unavailable rows get "unavail " or "n/a     " (same width).
 * Returns @buf.
 */
const char *nl_fmt_locbar(char *buf, size_t sz, const struct nl_locality *l,
			  bool source_ok);

/* A horizontal bar of @frac (clamped to [0,1]) of @width '#' chars padded
 * with spaces, NUL-terminated; @buf needs @width + 1 bytes. Returns @buf. */
const char *nl_fmt_hbar(char *buf, int width, double frac);

/* A count or rate compactly in at most 6 chars: "999", "9999", "12.3K",
 * "4.5M", "1.2G". Negative or NaN prints "-". Returns @buf. */
const char *nl_fmt_num(char *buf, size_t sz, double v);

/* Last component of a cgroup path ("/a/b" -> "b"); "/" stays "/". */
const char *nl_fmt_cgroup_name(const char *path);

/* The name of cgroup @c in a row of the cgroup tree (top, batch text):
 * the short form of the pod, container or service it is
 * ("pod:1a2b3c4d", "pod:1a2b3c4d/ctr:0123456789ab", "nginx.service";
 * cgident.h) written to @buf (@sz bytes), else its last path component
 * (the whole path for the root). Returns @buf or a part of c->path. */
const char *nl_fmt_cgroup_row_name(const struct nl_cgroup *c, char *buf, size_t sz);

/* Human name of locality bucket @b ("0-12.5%", ..., "87.5-100%"). */
const char *nl_fmt_bucket_label(int b);

/* Name of enum nl_alloc_class @c as used in JSON ("kernel", ...). */
const char *nl_fmt_class_name(int c);

#endif /* NL_VIEW_FMT_H */
