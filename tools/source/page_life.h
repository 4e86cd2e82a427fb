/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The opt-in page lifetime program (bpf/page_life.bpf.c): load, attach to
 * kmem:mm_page_alloc and kmem:mm_page_free, read its histograms. Kept
 * apart from loader.c: it is loaded only when asked for.
 */
#ifndef NL_PAGE_LIFE_H
#define NL_PAGE_LIFE_H

#include <stddef.h>
#include <stdint.h>
#include "page_life_types.h"

struct nl_life_prog;

/* Monotonic counts since attach, summed over CPUs. */
struct nl_page_life_counts {
	uint64_t hist[NL_LIFE_NR_HISTS][NL_LIFE_BUCKETS];	/* frees per log2(ns) bucket */
	uint64_t sum_ns[NL_LIFE_NR_HISTS];			/* their summed lifetime, ns */
	uint64_t stats[NL_LIFE_NR_STATS];			/* enum nl_life_stat */
	/* both programs' run count and run time (ns), 0 unless the kernel
	 * counts BPF run times (top --self-cost, kernel.bpf_stats_enabled) */
	uint64_t prog_runs, prog_run_ns;
};

/* nl_page_life_open - load and attach, timing one allocation in
 * @sample_every (>= 1). *@out is NULL on error and @why (a phrase for the
 * user) is set. Returns 0, -ENOENT when the kernel lacks BTF or one of
 * the two tp_btf tracepoints, -EINVAL for a page layout numalens cannot
 * read, or the negative errno of the load or attach. */
int nl_page_life_open(struct nl_life_prog **out, uint32_t sample_every, char *why, size_t whylen);

/* nl_page_life_read - the counts so far into @out. Returns 0 or a
 * negative errno of a map read. */
int nl_page_life_read(const struct nl_life_prog *p, struct nl_page_life_counts *out);

/* nl_page_life_close - detach and free; NULL is fine. */
void nl_page_life_close(struct nl_life_prog *p);

#endif
