// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* reclaim_rate.h: see there. */
#include "reclaim_rate.h"

void nl_rate_init(struct nl_rate *r, double rate_bytes_s, double now_s)
{
	r->rate = rate_bytes_s;
	r->tokens = rate_bytes_s;
	r->last_s = now_s;
}

uint64_t nl_rate_take(struct nl_rate *r, double now_s, uint64_t want)
{
	double dt = now_s - r->last_s;
	uint64_t got;

	if (r->rate <= 0)
		return want;
	if (dt > 0) {
		r->tokens += dt * r->rate;
		if (r->tokens > r->rate)
			r->tokens = r->rate;	/* one second of burst */
		r->last_s = now_s;
	}
	if (r->tokens < 1)
		return 0;
	got = (double)want <= r->tokens ? want : (uint64_t)r->tokens;
	r->tokens -= (double)got;
	return got;
}

void nl_rate_refund(struct nl_rate *r, uint64_t bytes)
{
	if (r->rate <= 0)
		return;
	r->tokens += (double)bytes;
	if (r->tokens > r->rate)
		r->tokens = r->rate;
}
