// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* reclaim_refault.h: see there. */
#include "reclaim_refault.h"

uint64_t nl_refault_cost(uint64_t d_anon, uint64_t d_file, uint64_t d_maj, bool anon_in)
{
	uint64_t file_maj = d_maj > d_anon ? d_maj - d_anon : 0;

	return (anon_in ? d_anon : 0) + (d_file < file_maj ? d_file : file_maj);
}

bool nl_refault_guard_update(struct nl_refault_guard *g, double now_s, uint64_t refaults,
			     uint64_t freed)
{
	if (!g->have) {
		g->have = true;
		g->win_s = now_s;
		g->ref0 = refaults;
		g->freed0 = freed;
		g->backoff_s = 2.0;
		return false;
	}
	if (now_s - g->win_s >= 1.0) {
		uint64_t dr = refaults > g->ref0 ? refaults - g->ref0 : 0;
		uint64_t df = freed > g->freed0 ? freed - g->freed0 : 0;

		if (df > 0 && dr * 2 > df) {
			g->until_s = now_s + g->backoff_s;
			g->trips++;
			g->backoff_s = g->backoff_s * 2 > 30.0 ? 30.0 : g->backoff_s * 2;
		} else if (df > 0 && now_s >= g->until_s) {
			g->backoff_s = 2.0;
		}
		g->win_s = now_s;
		g->ref0 = refaults;
		g->freed0 = freed;
	}
	return now_s < g->until_s;
}
