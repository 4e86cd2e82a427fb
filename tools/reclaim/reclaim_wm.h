/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The agent's control rules, free of I/O so they can be unit-tested:
 * high/low watermarks with hysteresis (spec/seed_reclaim.md R17), bounded
 * step sizes (R16), a MiB/s rate limit (token bucket) and the PSI back-off
 * (senpai-like: stall time per second over a threshold pauses reclaim).
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

/* R17 hysteresis: start when @usage crosses above high, stop at or below
 * low. Returns the new w->active. */
bool nl_wm_update(struct nl_wm *w, uint64_t usage);

/* R16: bytes for one step, min(@step_max, usage - low); 0 when usage is at
 * or below low. */
uint64_t nl_wm_step_bytes(const struct nl_wm *w, uint64_t usage, uint64_t step_max);

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

/* Refault guard: pages the agent evicts that come back were not cold.
 * Over each window of at least one second, when the memcg's refaults
 * exceed half the pages the agent freed in it, the agent stops reclaiming
 * ahead of the limit and answers no limit event (the kernel's own limit
 * reclaim takes what a charge needs) for a back-off that
 * starts at 2 s and doubles up to 30 s while it keeps happening; a window
 * in which the agent freed pages that mostly stayed out resets it. */
struct nl_refault_guard {
	double win_s;		/* start of the current window */
	uint64_t ref0, freed0;	/* refaults and agent pages at its start */
	double until_s;		/* paused until this time */
	double backoff_s;
	bool have;
	uint64_t trips;		/* times it paused */
};

/* Refaults the workload waited on, out of deltas over one tick (pages,
 * faults): the anon refaults @d_anon when the agent evicts anon
 * (@anon_in; each one is a swap-in fault), plus the file refaults
 * @d_file up to the major faults @d_maj left after the anon ones (page
 * cache that came back through a fault that waited for I/O). Page cache
 * read back by read(2) or brought in ahead by readahead costs no fault
 * and does not count: evicting it ahead of the limit is what the kernel
 * would do at the limit anyway. */
uint64_t nl_refault_cost(uint64_t d_anon, uint64_t d_file, uint64_t d_maj, bool anon_in);

/* Feed the memcg's refault total @refaults and the agent's freed-pages
 * total @freed at @now_s (seconds, monotonic), at most once per window
 * counted. Returns true while the agent must not reclaim ahead. */
bool nl_refault_guard_update(struct nl_refault_guard *g, double now_s, uint64_t refaults,
			     uint64_t freed);

#endif
