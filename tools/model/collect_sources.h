/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * collect_sources: what a snapshot says about where its figures come from
 * (s->src: which programs run, the sysctls that change what they count,
 * what is missing and why) and about numalens itself (s->self: drops,
 * evictions, numa_maps reads, the programs' run time). A part of the
 * collector (collect.c orders the steps) with no state of its own.
 */
#ifndef NL_COLLECT_SOURCES_H
#define NL_COLLECT_SOURCES_H

#include <stdint.h>
#include "collect_opts.h"
#include "collect_procs.h"
#include "loader.h"
#include "snapshot.h"

/*
 * nl_collect_sources_fill - s->src from the loaded objects @b and the
 * sysctls and sched_ext state under @o's roots; tells @b whether NUMA
 * balancing and a sched_ext scheduler run now (they change what it bins).
 */
void nl_collect_sources_fill(struct nl_bpf *b, const struct nl_collect_opts *o, struct nl_snapshot *s);

/*
 * nl_collect_sources_fill_self - s->self: @b's drop counters and program
 * run times, the process part's counts @ps and @cgroups_evicted (removed
 * cgroups forgotten since open).
 */
void nl_collect_sources_fill_self(const struct nl_bpf *b, const struct nl_collect_procs_stats *ps,
				  uint64_t cgroups_evicted, struct nl_snapshot *s);

#endif
