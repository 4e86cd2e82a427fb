/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The watermarks of the agent, free of I/O so they can be unit-tested:
 * high/low with hysteresis (a pass starts above high and goes on until
 * usage is at or below low, so the agent does not flap at one line) and
 * bounded step sizes (one step frees at most --step pages). The other
 * rules of when to reclaim live beside it: reclaim_rate.h, reclaim_psi.h,
 * reclaim_refault.h.
 */
#ifndef NL_RECLAIM_WM_H
#define NL_RECLAIM_WM_H

#include <stdbool.h>
#include <stdint.h>

/* A watermark as given on the command line: bytes, or percent of
 * memory.max. */
struct nl_wm_spec {
	bool pct;
	double pct_val;		/* (0, 100] */
	uint64_t bytes;
};

/* Parse "75%", "512M", "1G", "4096" (K/M/G/T are powers of 1024): a
 * decimal (no hex, no exponent), percent in [0.01, 100], bytes >= 1.
 * 0 or -EINVAL. */
int nl_wm_parse(const char *s, struct nl_wm_spec *out);

/* Watermarks of one cgroup and whether its agent is running. */
struct nl_wm {
	uint64_t high, low;	/* bytes, low < high */
	bool active;
};

/* Resolve @hi/@lo against @limit (bytes; UINT64_MAX = no limit) into @w.
 * -EINVAL when a percent meets no limit (@w untouched); -ERANGE when
 * low >= high (@w holds the resolved pair, for the message). */
int nl_wm_resolve(const struct nl_wm_spec *hi, const struct nl_wm_spec *lo, uint64_t limit,
		  struct nl_wm *w);

/* Hysteresis: start when @usage crosses above high, stop at or below
 * low. Returns the new w->active. */
bool nl_wm_update(struct nl_wm *w, uint64_t usage);

/* Bytes for one step, min(@step_max, usage - low); 0 when usage is at
 * or below low. */
uint64_t nl_wm_step_bytes(const struct nl_wm *w, uint64_t usage, uint64_t step_max);

#endif
