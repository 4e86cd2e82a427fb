/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The agent's run loop: every --delay it matches the cgroup arguments
 * again, ticks each managed cgroup (reclaim_tick.h), pauses the reclaim
 * tracepoint programs while nobody needs their figures, feeds the weights
 * (reclaim_sampler.h) and publishes its state (reclaim_pub.h); in between
 * it waits for the limit hook's draws (reclaim_wait.h). It runs until a
 * signal, the end of --duration, or the log's reader going away.
 */
#ifndef NL_RECLAIM_LOOP_H
#define NL_RECLAIM_LOOP_H

#include <signal.h>
#include "reclaim_agent.h"
#include "reclaim_match.h"
#include "reclaim_sampler.h"

/* What the loop runs with. */
struct nl_loop_opts {
	double interval;		/* s between full ticks (--delay) */
	double duration;		/* s to run (--duration); 0: until stopped */
	const char *root;		/* the cgroup mount the arguments are under */
	const char *prog;		/* names the command in stderr lines */
	struct nl_match *match;		/* the cgroup arguments, matched every interval */
	struct nl_sampler *sampler;	/* the scanned/rotated figures */
	volatile sig_atomic_t *stop;	/* set by a signal: the loop ends */
};

/* Run the agent @ra until *o->stop, the run time or a failed log write
 * ends it. nl_wait_init() must have been called. */
void nl_loop_run(struct nl_ra *ra, const struct nl_loop_opts *o);

/* The end-of-run lines (text or the JSON "end" line): what the agent cost,
 * the hook's latency and each cgroup's final status. */
void nl_loop_summary(struct nl_ra *ra);

#endif
