/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The agent's PSI back-off, free of I/O so it can be unit-tested: while a
 * cgroup's memory stall time (memory.pressure "some") grows faster than
 * --pressure per second, reclaim pauses, since its own evictions may be
 * what the workload is waiting on (senpai-like).
 */
#ifndef NL_RECLAIM_PSI_H
#define NL_RECLAIM_PSI_H

#include <stdbool.h>
#include <stdint.h>

/* PSI back-off state. */
struct nl_psi {
	double thresh_us_s;	/* stall microseconds per second that trigger it */
	double backoff_s;	/* current pause length, doubles up to max_s */
	double min_s, max_s;
	double until_s;		/* paused until this time */
	double last_s;
	uint64_t last_us;
	bool have;
	uint64_t backoffs;	/* times it paused */
};

/* @thresh_us_s stall us per second; pauses from @min_s doubling to @max_s. */
void nl_psi_init(struct nl_psi *p, double thresh_us_s, double min_s, double max_s);

/* Feed the memory.pressure "some" total @total_us at @now_s. Returns true
 * while reclaim must pause. A quiet interval resets the pause length. */
bool nl_psi_update(struct nl_psi *p, double now_s, uint64_t total_us);

#endif
