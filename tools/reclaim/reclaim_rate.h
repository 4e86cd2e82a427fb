/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The agent's --rate-limit, free of I/O so it can be unit-tested: a token
 * bucket over all cgroups, so a burst of passes cannot exceed the MiB/s
 * the user allows for the agent's own reclaim.
 */
#ifndef NL_RECLAIM_RATE_H
#define NL_RECLAIM_RATE_H

#include <stdbool.h>
#include <stdint.h>

/* Token bucket: @rate bytes/s, at most one second of burst. rate 0 =
 * unlimited. */
struct nl_rate {
	double rate, tokens, last_s;
};

/* Start the bucket full at time @now_s (seconds, monotonic). */
void nl_rate_init(struct nl_rate *r, double rate_bytes_s, double now_s);

/* Bytes that may be reclaimed now, at most @want (consumed). */
uint64_t nl_rate_take(struct nl_rate *r, double now_s, uint64_t want);

/* Give back bytes taken but not used. */
void nl_rate_refund(struct nl_rate *r, uint64_t bytes);

#endif
