/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The opt-in allocation latency program (bpf/alloc_lat.bpf.c): load,
 * attach to the page allocator's core function, read its histograms.
 * Kept apart from loader.c: it is loaded only when asked for, and a
 * kernel without the hook costs the other figures nothing.
 */
#ifndef NL_ALLOC_LAT_H
#define NL_ALLOC_LAT_H

#include <stddef.h>
#include <stdint.h>
#include "alloc_lat_types.h"

struct nl_lat_prog;

/* Monotonic counts since attach, summed over CPUs. */
struct nl_alloc_lat_counts {
	uint64_t hist[NL_LAT_NR_HISTS][NL_LAT_BUCKETS];	/* calls per log2(ns) bucket */
	uint64_t sum_ns[NL_LAT_NR_HISTS];		/* their summed duration, ns */
	uint64_t stats[NL_LAT_NR_STATS];		/* enum nl_lat_stat */
	/* both programs' run count and run time (ns), 0 unless the kernel
	 * counts BPF run times (top --self-cost, kernel.bpf_stats_enabled) */
	uint64_t prog_runs, prog_run_ns;
};

/* nl_alloc_lat_open - load and attach, timing one allocator call in
 * @sample_every (>= 1). *@out is NULL on error, and @why (a phrase for
 * the user: which hook the kernel lacks, or what the load said) is set.
 * Returns 0, -ENOENT when the kernel has no allocator function to hook
 * (or no BTF), -EINVAL for a page layout numalens cannot read, or the
 * negative errno of the load or attach. */
int nl_alloc_lat_open(struct nl_lat_prog **out, uint32_t sample_every, char *why, size_t whylen);

/* nl_alloc_lat_hook - the kernel function it times. */
const char *nl_alloc_lat_hook(const struct nl_lat_prog *l);

/* nl_alloc_lat_read - the counts so far into @out. Returns 0 or a
 * negative errno of a map read. */
int nl_alloc_lat_read(const struct nl_lat_prog *l, struct nl_alloc_lat_counts *out);

/* nl_alloc_lat_close - detach and free; NULL is fine. */
void nl_alloc_lat_close(struct nl_lat_prog *l);

#endif
