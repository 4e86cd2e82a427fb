/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * One reclaim step of the agent on one node: the backend in use frees
 * pages of the memcg there (falling back to the next backend the probe
 * allowed when the kernel refuses one), and memory.numa_stat before and
 * after says what the step freed, on which node. Shared by the passes of
 * a tick (reclaim_tick.h) and the limit hook's steps (reclaim_hook.h).
 */
#ifndef NL_RECLAIM_STEP_H
#define NL_RECLAIM_STEP_H

#include <stdbool.h>
#include <stdint.h>
#include "reclaim_agent.h"

/*
 * One step of at most @bytes on node @nid for @c. Returns pages freed
 * (>= 0), or -ENOENT when the cgroup went. @tag starts its log line (the
 * hook's draw, or ""); *@on_out (may be NULL) gets the pages freed on
 * @nid. @chain: a pass step, whose per-node deltas start at the tick's
 * last memory.numa_stat read (c->ns: the refresh's, or the previous
 * step's after) rather than at a read of their own; what the kernel freed
 * in the short gap in between (a usage read and a draw, the start of a
 * tick's reads for the first step) counts as the step's. A hook step
 * reads afresh: its start waited for the kernel's own limit reclaim to
 * end, and its deltas must not take that run in. A node whose step freed
 * nothing loses its tickets until its figures change (c->dry).
 */
long nl_step(struct nl_ra *a, struct nl_ra_cg *c, int nid, uint64_t bytes, const char *tag,
	     uint64_t *on_out, bool chain);

#endif
