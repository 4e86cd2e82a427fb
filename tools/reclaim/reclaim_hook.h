/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The limit hook's steps: when a managed memcg enters limit reclaim, the
 * BPF program draws a victim node there and the agent reclaims from it at
 * once, after the kernel's own run ended (so the step's figures are its
 * own), and records how long after the event the step started. The
 * passes ahead of the limit are reclaim_tick.h.
 */
#ifndef NL_RECLAIM_HOOK_H
#define NL_RECLAIM_HOOK_H

#include <stdbool.h>
#include <stdint.h>
#include "reclaim_agent.h"

/* Whether a hook step's numa_stat deltas may hold the kernel's pages:
 * @ran_over (a kernel limit-reclaim run of the memcg was in flight at
 * either end of the step, or ended within it) sets *@ov_end_s to @end_s;
 * a step starting (@start_s, s) within NL_RA_FLUSH_LAG_S of the last
 * such end also counts, and *@lag_ms says how long after it started
 * (else -1). Returns true when the step is not the step's alone. */
bool nl_hook_overlap(double *ov_end_s, bool ran_over, double start_s, double end_s, double *lag_ms);

/*
 * One step on node @nid, which the BPF lottery drew when @c entered limit
 * reclaim (draw @draw_id; @events limit events coalesced into this step,
 * the oldest at @first_ts_ns CLOCK_MONOTONIC ns, whose wait until the step
 * starts is the latency recorded). The step starts once the kernel's own
 * limit-reclaim runs of the memcg ended (at most 20 ms later), so its
 * numa_stat deltas are its own. Bounded by the step size and the rate
 * limit; sized by the gap from usage down to low (at least --step, at most
 * --pass-steps steps), since the memcg is at its limit. Returns pages freed
 * (>= 0), or -ENOENT when the cgroup went.
 */
long nl_hook_step(struct nl_ra *a, struct nl_ra_cg *c, int nid, uint32_t draw_id,
		  uint64_t first_ts_ns, uint32_t events);

/* Percentiles @p (0..100) of the recorded hook-to-step latencies, in
 * microseconds; -1 when none was recorded. */
double nl_hook_latency_us(const struct nl_ra *a, double p);

#endif
