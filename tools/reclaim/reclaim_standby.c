// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Standing by for a memcg the agent cannot help (reclaim_standby.h). */
#include <stdio.h>
#include <string.h>
#include "reclaim_standby.h"

uint32_t nl_sb_why(uint64_t eligible, bool guard_on, bool stuck, bool wm_bad)
{
	return (eligible ? 0 : NL_SB_NO_NODE) | (guard_on ? NL_SB_COMES_BACK : 0) |
	       (stuck ? NL_SB_NO_PROGRESS : 0) | (wm_bad ? NL_SB_NO_WATERMARKS : 0);
}

uint32_t nl_sb_observe(struct nl_standby *s, uint64_t eligible, bool guard_on, bool stuck, bool wm_bad)
{
	s->nonode_ticks = eligible ? 0 : s->nonode_ticks + 1;
	s->stuck_ticks = stuck ? s->stuck_ticks + 1 : 0;
	return nl_sb_why(s->nonode_ticks >= NL_SB_TICKS ? 0 : ~0ull, guard_on, s->stuck_ticks >= NL_SB_TICKS, wm_bad);
}

int nl_sb_update(struct nl_standby *s, uint32_t why, double now_s, uint64_t usage, uint64_t swap)
{
	bool was = s->on;

	s->looks += was;
	s->looks_early += was && now_s - s->full_s < NL_SB_FULL_EVERY_S - NL_SB_SLACK_S;
	s->full_s = now_s;
	s->usage_at_full = usage;
	s->swap_at_full = swap;
	s->why = why;
	s->on = why != 0;
	if (s->on == was)
		return 0;
	if (s->on) {
		s->since_s = now_s;
		s->enters++;
		return 1;
	}
	s->total_s += now_s - s->since_s;
	return -1;
}

/* |a - b| */
static uint64_t moved(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

bool nl_sb_full_due(const struct nl_standby *s, double now_s, uint64_t usage, uint64_t swap, uint64_t ref)
{
	uint64_t lim = ref ? ref / NL_SB_MOVE_DIV : 1u << 20;

	return !s->on || now_s - s->full_s >= NL_SB_FULL_EVERY_S - NL_SB_SLACK_S || moved(usage, s->usage_at_full) > lim ||
	       moved(swap, s->swap_at_full) > lim;
}

double nl_sb_seconds(const struct nl_standby *s, double now_s)
{
	return s->total_s + (s->on ? now_s - s->since_s : 0);
}

const char *nl_sb_why_str(uint32_t why, char *buf, unsigned long len)
{
	static const char *const txt[] = {
		"no node holds pages the backend would free",
		"the pages it evicts come back",
		"its last pass freed nothing",
		"the watermarks do not resolve for its limit",
	};
	size_t n = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned i = 0; i < sizeof(txt) / sizeof(txt[0]); i++)
		if (why & (1u << i) && n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", txt[i]);
	return buf;
}
