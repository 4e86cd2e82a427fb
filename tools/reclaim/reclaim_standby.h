/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Standing by: when the agent cannot help a memcg (no node holds pages
 * its backend would free, the pages it evicts come back, or its last
 * pass freed nothing), it gets out of the way: the limit hook only counts
 * the memcg's limit events (no draw, no wakeup), the vmscan programs are
 * paused (they return at once) once every managed memcg stands by, and the memcg's figures
 * are read again only when its usage or its swap use moved, or
 * NL_SB_FULL_EVERY_S passed. An agent that acts on nothing otherwise
 * still costs a busy workload its wakeups and reads (measured: more PSI
 * stall and hot refaults than no agent on a load it freed nothing from).
 */
#ifndef NL_RECLAIM_STANDBY_H
#define NL_RECLAIM_STANDBY_H

#include <stdbool.h>
#include <stdint.h>

/* Longest time between two full looks (numa_stat, memory.stat, weights)
 * at a memcg the agent stands by for, seconds. A full look cost 10-45 ms
 * of agent CPU in a TCG guest (two memcg statistics flushes among ten
 * reads), and the published state, written after each, another 5-20 ms:
 * at every 2 s and every second, a third of what the agent spent while
 * it stood by (docs/reclaim.md). What would let it act again shows
 * sooner in the moves below. */
#define NL_SB_FULL_EVERY_S 5.0
/* Ticks come every --delay from the loop's own clock, a little early
 * or late: a look due at 5 s is taken at the tick 4.99 s after the last,
 * not at the next one. */
#define NL_SB_SLACK_S 0.1
/* A move of usage, or of swap use, by more than 1/NL_SB_MOVE_DIV of the
 * reference (high watermark, else the limit) since the last full look
 * brings the next one forward: a memcg that fills or empties may have
 * changed its mix, and one whose swap use grows has anon beyond its
 * limit, which the agent can page out ahead of it (at its limit, usage
 * stands still while anon takes the place of page cache). */
#define NL_SB_MOVE_DIV 8

/* Full ticks in a row that found no eligible node, or whose pass stopped
 * without progress, before the agent counts a memcg as one it cannot help
 * (a single look can catch a passing state). */
#define NL_SB_TICKS 3

/* Why the agent cannot help a memcg now (bits; 0: it can). */
enum nl_sb_why {
	NL_SB_NO_NODE = 1,	/* no node holds pages the backend would free */
	NL_SB_COMES_BACK = 2,	/* the refault guard: what it evicts comes back */
	NL_SB_NO_PROGRESS = 4,	/* its last pass freed nothing (one that freed
				 * some pages, then stopped short, helped) */
	NL_SB_NO_WATERMARKS = 8,/* the watermarks do not resolve for its limit */
};

/* Standby state of one memcg. */
struct nl_standby {
	bool on;
	uint32_t why;		/* enum nl_sb_why bits while on */
	double since_s;		/* monotonic seconds it went on */
	double full_s;		/* last full look */
	uint64_t usage_at_full;	/* bytes, at the last full look */
	uint64_t swap_at_full;	/* swap use, bytes, at the last full look (0 when unknown) */
	uint64_t enters;	/* times it went on */
	uint64_t skipped;	/* ticks that read only memory.current (and swap use) */
	uint64_t looks;		/* full looks taken while on */
	uint64_t looks_early;	/* of which before NL_SB_FULL_EVERY_S (less
				 * NL_SB_SLACK_S) passed: a move, or the refault
				 * guard's every tick */
	double total_s;		/* time on, ended spells */
	uint32_t nonode_ticks;	/* full ticks in a row with no eligible node */
	uint32_t stuck_ticks;	/* full ticks in a row that ended stuck */
};

/* The bits of enum nl_sb_why that hold, from the memcg's state after a
 * full tick: @eligible (the weights' eligible-node mask), @guard_on,
 * @stuck (last pass stopped without progress and freed nothing), @wm_bad. */
uint32_t nl_sb_why(uint64_t eligible, bool guard_on, bool stuck, bool wm_bad);

/* The reasons that hold after a full tick, with the streak rule: no
 * eligible node (@eligible 0) and a pass that stopped without progress
 * (@stuck) count only once they held for NL_SB_TICKS full ticks in a row
 * (counted in @s); the refault guard (@guard_on) and unresolvable
 * watermarks (@wm_bad) at once. */
uint32_t nl_sb_observe(struct nl_standby *s, uint64_t eligible, bool guard_on, bool stuck, bool wm_bad);

/* After a full look at @now_s (usage @usage bytes, swap use @swap bytes,
 * 0 when unknown): on when @why != 0; a look taken while on is counted.
 * Returns 1 when it went on, -1 when it went off, 0 unchanged. */
int nl_sb_update(struct nl_standby *s, uint32_t why, double now_s, uint64_t usage, uint64_t swap);

/* While on: true when the next tick must be a full look: usage @usage or
 * swap use @swap (bytes; 0 when unknown) moved by more than
 * @ref / NL_SB_MOVE_DIV bytes since the last one (@ref: the high
 * watermark or the limit; 0: any move of 1 MiB), or NL_SB_FULL_EVERY_S
 * (less NL_SB_SLACK_S) passed. Always true while off. */
bool nl_sb_full_due(const struct nl_standby *s, double now_s, uint64_t usage, uint64_t swap, uint64_t ref);

/* Seconds spent on so far (ended spells plus the current one). */
double nl_sb_seconds(const struct nl_standby *s, double now_s);

/* "no node holds pages the backend frees, ..." for the log: the reasons
 * in @why, comma-separated, into @buf. Returns @buf. */
const char *nl_sb_why_str(uint32_t why, char *buf, unsigned long len);

#endif
