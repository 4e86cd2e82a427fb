/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The agent's tick for one managed cgroup: read its figures and refresh
 * its weights, check the watermarks, the refault guard and the PSI
 * back-off, and when usage is above high run one bounded pass of steps
 * (reclaim_step.h) on the nodes the lottery draws; then decide whether
 * the agent stands by for the cgroup (reclaim_standby.h). The limit
 * hook's steps are reclaim_hook.h.
 */
#ifndef NL_RECLAIM_TICK_H
#define NL_RECLAIM_TICK_H

#include <stdbool.h>
#include "reclaim_agent.h"

/* One tick for @c at @now_s (nl_agent_now seconds): refresh, watermark
 * check, and if active one bounded pass; then whether the agent stands by
 * for @c (its hook quiet, and while it stays so, a tick reads only
 * memory.current until a full look is due). Returns true when a full pass
 * ended with usage still above low (the caller re-queues at once). */
bool nl_tick(struct nl_ra *a, struct nl_ra_cg *c, double now_s);

#endif
