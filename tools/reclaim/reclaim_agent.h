/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The background reclaim agent over the victim-node lottery
 * (docs/reclaim.md): for each managed cgroup it refreshes node
 * weights and the BPF ticket table every interval, and when usage crosses
 * the high watermark runs bounded passes of bounded steps, each reclaiming
 * from the drawn node through a backend, until usage is at or below low.
 * All counters here are the agent's own: they never mix with the
 * kernel's direct-reclaim stall figures. This file holds the agent's state
 * and its managed cgroups with their weights; the rest of the agent:
 * reclaim_tick.h (a tick and its pass), reclaim_step.h (one step),
 * reclaim_hook.h (steps on limit-path draws), reclaim_wait.h and
 * reclaim_loop.h (its run loop), reclaim_match.h (which cgroups).
 */
#ifndef NL_RECLAIM_AGENT_H
#define NL_RECLAIM_AGENT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "reclaim_backend.h"
#include "reclaim_cg.h"
#include "reclaim_lot.h"
#include "reclaim_psi.h"
#include "reclaim_rate.h"
#include "reclaim_refault.h"
#include "reclaim_scan.h"
#include "reclaim_standby.h"
#include "reclaim_wm.h"

#define NL_RA_MAX_CG NL_LOT_MAX_CG
/* Hook-to-step latencies kept for the percentiles (the most recent). */
#define NL_RA_LAT_MAX 4096
/* The longest a node whose step freed nothing goes without tickets, s. */
#define NL_RA_DRY_MAX_S 5.0
/* How long after an overlapped hook step (s) the kernel run's last pages
 * may still be missing from memory.numa_stat (they wait for a flush; the
 * memcg statistics are flushed at reads once enough updates are pending,
 * and every 2 s in any case): a hook step starting within it does not
 * count as the step's alone. */
#define NL_RA_FLUSH_LAG_S 1.0

enum nl_ra_victim {
	NL_VICTIM_LOTTERY = 0,	/* drawn in BPF by weight */
	NL_VICTIM_RR = 1,	/* round-robin over eligible nodes (the pre-2011 rule) */
};

/* Settings of one agent run. */
struct nl_ra_cfg {
	struct nl_wm_spec high, low;
	uint32_t step_pages;	/* pages per step (default 32 = SWAP_CLUSTER_MAX) */
	uint32_t pass_steps;	/* steps per pass before re-queueing (default 128) */
	double rate_mib_s;	/* 0 = unlimited */
	double psi_us_s;	/* PSI stall us per second that pauses; 0 = off */
	int backend;		/* enum nl_rb_kind, or -1 = best probed */
	int victim;		/* enum nl_ra_victim */
	uint32_t anon_rule;	/* enum nl_lot_anon_rule */
	uint32_t draw_mode;	/* enum nl_lot_mode */
	uint32_t bal_lo, bal_hi;/* balanced window, percent of the mean weight */
	uint32_t cold_ms;	/* lru_gen: shortest time between agings (0 = default) */
	bool dry_run;
	bool v1;		/* cgroup hierarchy is the v1 memory controller */
	const char *root;	/* cgroup mount point */
	FILE *log;		/* decisions, one line each */
	bool json;		/* log as JSON Lines (reclaim_jsonl.h), not text */
	bool verbose;
};

/* One managed cgroup. */
struct nl_ra_cg {
	char rel[1024];		/* path under root, "/a/b" */
	char label[1100];	/* rel as logs, status and JSON show it: valid
				 * UTF-8, no control bytes (names.h), "#<id>"
				 * appended when cleaning changed it */
	char dir[4096];		/* absolute */
	uint64_t id;
	bool gone;
	bool wm_bad;		/* watermarks cannot be resolved (reported once) */
	struct nl_wm wm;
	uint64_t limit, usage, events_max, events_max0;
	struct nl_lot_in in;
	struct nl_lot_weights w;
	struct nl_lot_weights w_prior;	/* the same inputs with the cold-start prior on
					 * every node: what the scan history changed */
	struct nl_lot_table t;
	bool have_scan;		/* the scanned/rotated source answered */
	struct nl_scan_node scan[NL_MAX_NODES];	/* its recent values, for --status */
	int rr_next;		/* round-robin cursor */
	/* per node: 0, or 1 + its figure when its last step freed nothing
	 * (nl_lot_drop_dry: no tickets until the figure moves) */
	u64 dry[NL_MAX_NODES];
	/* when each dry mark was set (nl_agent_now, s): a mark lasts at most
	 * NL_RA_DRY_MAX_S, since at the limit a node's figures can stay
	 * within the slack while the kernel turns its pages over */
	double dry_at[NL_MAX_NODES];
	uint64_t dry_mask;	/* nodes left out at the last refresh */
	struct nl_psi psi;
	bool psi_ok;
	/* the pages the agent evicts come back: no reclaim ahead of the
	 * limit while it says so (reclaim_wm.h) */
	struct nl_refault_guard rguard;
	bool rguard_on;
	uint64_t freed_all;	/* pages freed by all steps, for the guard */
	/* memory.stat refault figures at the last tick, and the refaults
	 * the workload waited on since the agent started (nl_refault_cost) */
	uint64_t rf_anon, rf_file, rf_maj, rf_cost;
	bool rf_have;
	uint64_t hook_guarded;	/* limit events left to the kernel by the guard */
	bool stuck;		/* last pass stopped short: 3 steps in a row freed nothing */
	/* last pass stopped on no progress without freeing a page: what
	 * standing by for "its last pass freed nothing" counts. A pass that
	 * freed pages and then stopped short (lru_gen had no more pages old
	 * across two agings yet) helped: under dd | tail every pass ended
	 * so, and counting those stood the agent by while the memcg hit its
	 * limit (-49% limit hits instead of -70..-79%) */
	bool pass_dry;
	struct nl_standby sb;	/* the agent cannot help it now: out of its way */
	bool noswap_told;	/* "no swap for anon" logged */
	bool skip_told;		/* a backend's "skipped ..." note logged (without -v) */
	/* the agent's own accounting, apart from direct-reclaim stalls */
	uint64_t passes, steps, no_progress_stops;
	uint64_t pages[NL_RB_NR][NL_MAX_NODES];	/* freed, by backend and node */
	uint64_t target_pages, offnode_pages;	/* freed on / off the drawn node */
	uint64_t novictim[NL_LOT_NR_REASONS];
	uint32_t novictim_said;	/* reason + 1 last logged; 0 after a draw */
	double dry_said_s;	/* when the last dry-run decision line was logged */
	uint64_t dry_unsaid;	/* dry-run decisions since, not logged */
	/* steps run on the hook's draws (limit reclaim of this memcg) */
	uint64_t hook_events, hook_steps, hook_pages, hook_on_pages;
	uint64_t hook_overlap_pages;	/* the kernel's limit reclaim during hook steps */
	/* hook steps no kernel limit-reclaim run overlapped: their deltas
	 * are theirs alone */
	uint64_t hook_clean_steps, hook_clean_pages, hook_clean_on_pages;
	/* when the last overlapped hook step ended (nl_agent_now, s; 0: none).
	 * The kernel's pages of that run can reach memory.numa_stat only
	 * at a later flush, so a step that starts soon after it may carry
	 * them in its deltas: it counts as overlapped too. */
	double hook_ov_end_s;
	uint32_t last_draw_id;	/* the draw the last hook step acted on */
	int last_draw_nid;
	uint64_t draws_rr[NL_MAX_NODES];
	/* The last memory.numa_stat read of this tick (the refresh's or the
	 * last step's): the next step of the pass measures from it instead
	 * of reading the file again before it acts. Each read flushes the
	 * memcg statistics; the reads were about half of the agent's own CPU
	 * outside its reclaim writes (docs/reclaim.md). Hook steps read
	 * afresh. */
	struct nl_rcg_numa ns;
	bool ns_ok;		/* ns is this tick's */
	uint64_t numa_reads;	/* memory.numa_stat reads, for the agent's cost */
	uint64_t full_ticks;	/* ticks that read its figures and weights afresh */
	double over_high_s, agent_s;
	double last_s;
};

/* Parts of the agent's loop its own CPU time is told apart by. */
enum nl_ra_part {
	NL_RA_PART_TICK,	/* the cgroups' ticks (reads, weights, passes) */
	NL_RA_PART_FEED,	/* the scanned/rotated figures (collector snapshot) */
	NL_RA_PART_PUBLISH,	/* the published state (JSON, status) */
	NL_RA_PART_MATCH,	/* matching the cgroup patterns */
	NL_RA_PART_PAUSE,	/* pausing/resuming the reclaim tracepoint programs */
	NL_RA_PART_WAIT,	/* waiting: ring buffer polls, usage watch, hook steps */
	NL_RA_PART_NR,
};

/* What the agent's own loop costs (status line "agent_cost:"): how often
 * it ran and woke, and its thread CPU time (CLOCK_THREAD_CPUTIME_ID) by
 * part, nanoseconds. */
struct nl_ra_cost {
	uint64_t loops;		/* turns of the loop (ticks, full or not) */
	uint64_t polls;		/* ring buffer polls that returned */
	uint64_t records;	/* limit-path records they brought */
	uint64_t publishes;	/* published states */
	uint64_t publishes_standing_by;	/* of which with every cgroup standing by */
	uint64_t attaches;	/* tracepoint programs paused or resumed */
	uint64_t cpu_ns[NL_RA_PART_NR];
};

struct nl_ra {
	uint64_t adds;		/* entries nl_agent_add() created (new or reused) */
	struct nl_ra_cfg cfg;
	struct nl_lot_bpf *lot;
	struct nl_rb_probe probe;
	int backend;		/* in use */
	struct nl_rate rate;
	int nr_cg;
	struct nl_ra_cg cg[NL_RA_MAX_CG];
	long psz;
	/* recent scanned/rotated per memcg x node, fed each interval from
	 * the snapshot's vmscan figures (reclaim_feed.h); NULL when the
	 * reclaim tracepoints are unavailable: then the cold-start prior applies */
	struct nl_scan_src *scan;
	const char *scan_from;	/* "vmscan" (fed by reclaim_feed.h) or "prior" */
	int damos_zero;		/* consecutive DAMOS steps that freed nothing */
	/* called between the steps of a pass, so that limit-path draws
	 * arriving meanwhile get their step without waiting for the pass
	 * to end (reclaim_wait.c: a non-blocking ring buffer poll) */
	void (*between_steps)(struct nl_ra *a);
	/* hook-to-step latency, microseconds, ring of the last NL_RA_LAT_MAX */
	double lat_us[NL_RA_LAT_MAX];
	uint64_t nr_lat;
	bool mglru;		/* multi-gen LRU on (weights count all generations) */
	struct nl_ra_cost cost;
};

/* This thread's CPU time so far, nanoseconds (0 when unreadable). */
uint64_t nl_agent_cpu_ns(void);

/* True when the multi-gen LRU is on (/sys/kernel/mm/lru_gen/enabled bit 0);
 * re-read every refresh since it can be switched at run time. */
bool nl_agent_mglru(void);

/* Probe backends and choose one (cfg->backend or the first that works:
 * lru_gen, damos, madvise, memcg). 0, or -EOPNOTSUPP with @err when none can run. */
int nl_agent_init(struct nl_ra *a, const struct nl_ra_cfg *cfg, struct nl_lot_bpf *lot,
	       char *err, size_t errlen);

/* Add cgroup @rel (existing directory under cfg->root). Returns its index,
 * the existing one, -ENOSPC or -errno. When all NL_RA_MAX_CG entries are in
 * use, the entry of a cgroup that went is reused. a->adds counts entries
 * created. */
int nl_agent_add(struct nl_ra *a, const char *rel);

/* Refresh weights/tickets of @c and publish them (from the agent,
 * never from a tracepoint). 0 or -ENOENT (cgroup gone). */
int nl_agent_refresh(struct nl_ra *a, struct nl_ra_cg *c);

/* True when a managed cgroup that is still there had an eligible node at
 * its last refresh: only then do the scanned/rotated figures change a
 * weight (they scale an eligible node's pages; which nodes are eligible
 * does not depend on them). */
bool nl_agent_any_eligible(const struct nl_ra *a);

/* True when every managed cgroup that is still there stands by (none
 * managed: false): the scanned/rotated figures are needed by nobody. */
bool nl_agent_all_standby(const struct nl_ra *a);

/* True when a managed cgroup is close enough to its high watermark to be
 * watched between intervals (its usage at the last tick was above half of
 * low): a workload can grow from low past high well within one
 * --delay. */
bool nl_agent_watch(const struct nl_ra *a);

/* True when a managed cgroup's usage now (memory.current, one read each)
 * is above its high watermark: the caller ticks at once instead of
 * waiting for the interval, so reclaim starts ahead of the limit. */
bool nl_agent_over_high(struct nl_ra *a);

/* Log one decision line about @c (NULL: the agent) to cfg.log, printf
 * style: text with a time stamp and the cgroup's label, or a "decision"
 * JSON line with --json (reclaim_jsonl.h). Nothing without a log. */
void nl_agent_log(struct nl_ra *a, const struct nl_ra_cg *c, const char *fmt, ...);

/* True when node @i's "freed nothing" mark of @c is at least
 * NL_RA_DRY_MAX_S old (@now_s: nl_agent_now() seconds): the node is tried
 * again, so a node that only looked dry (its pages busy for a moment) is
 * out of the draw for a few seconds, not until its figures change. */
bool nl_agent_dry_mark_old(const struct nl_ra_cg *c, int i, double now_s);

/* Say "no victim node" for @c with @reason, once per change of reason
 * (a successful draw resets it). */
void nl_agent_novictim(struct nl_ra *a, struct nl_ra_cg *c, uint32_t reason, const char *where);

/* Monotonic seconds. */
double nl_agent_now(void);

#endif
