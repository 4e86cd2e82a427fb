/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The scanned/rotated input of the agent's weights: a collector over the
 * vmscan programs only (the agent runs for days; the sched_switch and
 * page-alloc programs of a full session would cost every context switch
 * and allocation for figures it never reads). Each interval its snapshot
 * feeds the weights' store (reclaim_feed.h, reclaim_scan.h). Without the
 * reclaim tracepoints the weights keep the cold-start prior, said once.
 */
#ifndef NL_RECLAIM_SAMPLER_H
#define NL_RECLAIM_SAMPLER_H

#include <stdbool.h>
#include "collect.h"
#include "loader.h"
#include "reclaim_agent.h"

/* The agent's vmscan-only session: BPF objects, collector, last snapshot. */
struct nl_sampler {
	struct nl_bpf bpf;
	struct nl_collector *col;
	struct nl_snapshot snap;
};

/* Load the vmscan programs for cgroup hierarchy @cg_mode (enum
 * nl_cgroup_mode) mounted at @root and open the collector; on success
 * ra->scan gets the store and ra->scan_from "vmscan", else the reason is
 * on stderr (load errors) and a note on stdout, and ra->scan stays NULL
 * ("prior"). @verbose: libbpf's log; @btf: --btf or NULL. */
void nl_sampler_open(struct nl_sampler *s, struct nl_ra *ra, int cg_mode, const char *root, bool verbose,
		     const char *btf);

/* One interval of reclaim figures into ra->scan (nothing without it);
 * the cgroups that went are forgotten there. */
void nl_sampler_feed(struct nl_sampler *s, struct nl_ra *ra);

/* Pause (@pause true) or resume the reclaim tracepoint programs: a flag
 * the programs test, so it can follow the cgroups tick by tick. 0 or
 * -errno. */
int nl_sampler_pause(struct nl_sampler *s, bool pause);

/* True while the programs are paused. */
bool nl_sampler_paused(const struct nl_sampler *s);

/* Close what nl_sampler_open() opened and free ra->scan. */
void nl_sampler_close(struct nl_sampler *s, struct nl_ra *ra);

#endif
