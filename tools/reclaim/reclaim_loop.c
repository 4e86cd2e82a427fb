// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The agent's run loop (reclaim_loop.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "reclaim_hook.h"
#include "reclaim_jsonl.h"
#include "reclaim_loop.h"
#include "reclaim_pub.h"
#include "reclaim_read.h"
#include "reclaim_report.h"
#include "reclaim_tick.h"
#include "reclaim_wait.h"

/* What the loop carries from one turn to the next: the thread CPU time
 * at the last charge (ns), the full looks at the last publish, and what
 * was already said. */
struct loop_state {
	uint64_t t, looks_pub;
	bool pub_told, idle_told;
};

/* Charge this thread's CPU time since @t0 to @part; returns the time now. */
static uint64_t cost_to(struct nl_ra *ra, enum nl_ra_part part, uint64_t t0)
{
	uint64_t t = nl_agent_cpu_ns();

	ra->cost.cpu_ns[part] += t > t0 ? t - t0 : 0;
	return t;
}

/* Full looks taken at the managed cgroups so far. */
static uint64_t full_looks(const struct nl_ra *ra)
{
	uint64_t n = 0;

	for (int i = 0; i < ra->nr_cg; i++)
		n += ra->cg[i].full_ticks;
	return n;
}

/* The log could not be written (its reader went away: `reclaim -j | head
 * -1`; SIGPIPE is ignored, so the write fails with EPIPE): the agent stops
 * as on SIGTERM, as top and vmscan do, rather than reclaim unwatched. */
static bool log_reader_gone(const struct nl_ra *ra)
{
	return ferror(stdout) || (ra->cfg.log && ferror(ra->cfg.log));
}

/* Every cgroup stands by (@idle), or none has an eligible node (@quiet
 * then too): nobody needs the scanned/rotated figures (they scale only
 * eligible nodes' pages), and the reclaim tracepoint programs would run
 * in each of the workload's reclaim batches for nothing (their time
 * counts in its memory stall). Pausing them is a flag, so it can follow
 * eligibility tick by tick. */
static void pause_tracepoints(struct nl_ra *ra, const struct nl_loop_opts *o, struct loop_state *st,
			      bool idle, bool quiet)
{
	int e;

	if (!ra->scan)
		return;
	if (quiet != nl_sampler_paused(o->sampler)) {
		e = nl_sampler_pause(o->sampler, quiet);
		ra->cost.attaches++;
		if (e && ra->cfg.json) {
			char m[200];

			snprintf(m, sizeof(m), "reclaim tracepoint programs could not all be resumed: %s",
				 strerror(-e));
			nl_jsonl_msg(stdout, "note", ra->cfg.dry_run, NULL, m);
		} else if (e) {
			printf("reclaim tracepoint programs could not all be resumed: %s\n", strerror(-e));
		}
		st->t = cost_to(ra, NL_RA_PART_PAUSE, st->t);
	}
	if (idle == st->idle_told)
		return;
	if (ra->cfg.json) {
		cJSON *j = cJSON_CreateObject();

		if (j)
			cJSON_AddBoolToObject(j, "paused", idle);
		nl_jsonl_emit(stdout, "tracepoints", ra->cfg.dry_run, NULL, j);
	} else {
		printf("%s\n", idle ? "every managed cgroup stands by: reclaim tracepoint programs paused"
		       : "acting again: reclaim tracepoint programs resumed");
		fflush(stdout);
	}
	st->idle_told = idle;
}

/* Standing by (@idle), what the agent would publish changes only with a
 * full look (its counters stand still): written with those, at least
 * every NL_SB_FULL_EVERY_S, not every interval (each write cost 5-20 ms
 * of a TCG guest's CPU). */
static void publish(struct nl_ra *ra, const struct nl_loop_opts *o, struct loop_state *st, bool idle)
{
	uint64_t looks = full_looks(ra);
	int e;

	if (idle && looks == st->looks_pub && ra->cost.publishes)
		return;
	st->looks_pub = looks;
	ra->cost.publishes++;
	ra->cost.publishes_standing_by += idle;
	if ((e = nl_pub_write(ra, NULL)) && !st->pub_told) {
		fprintf(stderr, "%s: cannot publish the agent's state in " NL_RECLAIM_RUN_DIR
			" (%s): top/export and --status will not see it\n", o->prog, strerror(-e));
		st->pub_told = true;
	}
	if (ra->cfg.json) {	/* the periodic state: what was published */
		cJSON *j = cJSON_CreateObject();

		if (j)
			cJSON_AddItemToObject(j, "state", nl_pub_state_obj(ra));
		nl_jsonl_emit(stdout, "state", ra->cfg.dry_run, NULL, j);
	}
	st->t = cost_to(ra, NL_RA_PART_PUBLISH, st->t);
}

/* The part of a full tick after the cgroups' ticks: the tracepoint
 * programs paused or resumed, the figures fed, the state published. */
static void after_ticks(struct nl_ra *ra, const struct nl_loop_opts *o, struct loop_state *st)
{
	bool idle = nl_agent_all_standby(ra), quiet = idle || !nl_agent_any_eligible(ra);

	pause_tracepoints(ra, o, st, idle, quiet);
	/* after the ticks, so the collector's time never delays a table: the
	 * weights use figures one interval old. Not while paused: a snapshot
	 * cost 15-70 ms of a TCG guest's CPU (the next one spans the gap) */
	if (!quiet) {
		nl_sampler_feed(o->sampler, ra);
		st->t = cost_to(ra, NL_RA_PART_FEED, st->t);
	}
	publish(ra, o, st, idle);
}

void nl_loop_run(struct nl_ra *ra, const struct nl_loop_opts *o)
{
	struct loop_state st = { .t = nl_agent_cpu_ns() };
	double t_end = o->duration > 0 ? nl_agent_now() + o->duration : 0, next = nl_agent_now();
	bool full = true;

	while (!*o->stop && !log_reader_gone(ra) && (!t_end || nl_agent_now() < t_end)) {
		bool again = false;
		double now = nl_agent_now(), d;

		ra->cost.loops++;
		/* a tick the usage watch brought forward only reclaims: the
		 * matching, the scan figures and the published state keep to
		 * the interval */
		if (full) {
			nl_match_all(ra, o->match, o->root, true);
			st.t = cost_to(ra, NL_RA_PART_MATCH, st.t);
		}
		for (int i = 0; i < ra->nr_cg && !*o->stop; i++)
			again |= nl_tick(ra, &ra->cg[i], now);
		st.t = cost_to(ra, NL_RA_PART_TICK, st.t);
		if (full) {
			after_ticks(ra, o, &st);
			next += o->interval;
			if (next <= nl_agent_now())
				next = nl_agent_now();
		}
		/* a re-queued pass goes on at once, after the draws waiting */
		d = again ? 0 : next - nl_agent_now();
		if (t_end && nl_agent_now() + d > t_end)
			d = t_end - nl_agent_now();
		nl_wait(ra, d > 0 ? d : 0);
		st.t = cost_to(ra, NL_RA_PART_WAIT, st.t);
		full = nl_agent_now() >= next - 0.001;
	}
}

void nl_loop_summary(struct nl_ra *ra)
{
	if (ra->cfg.json) {
		cJSON *o = cJSON_CreateObject();

		if (o) {
			cJSON_AddItemToObject(o, "agent_cost", nl_report_cost_obj(ra));
			cJSON_AddNumberToObject(o, "hook_steps", (double)ra->nr_lat);
			if (ra->nr_lat) {
				cJSON_AddNumberToObject(o, "hook_latency_us_p50", nl_hook_latency_us(ra, 50));
				cJSON_AddNumberToObject(o, "hook_latency_us_p99", nl_hook_latency_us(ra, 99));
			}
			cJSON_AddItemToObject(o, "state", nl_pub_state_obj(ra));
		}
		nl_jsonl_emit(stdout, "end", ra->cfg.dry_run, NULL, o);
		return;
	}
	nl_report_cost_print(ra, stdout);
	if (ra->nr_lat)
		printf("hook-driven steps: %" PRIu64 ", latency from the limit-reclaim event to the step: "
		       "p50 %.0f us, p99 %.0f us\n", ra->nr_lat, nl_hook_latency_us(ra, 50),
		       nl_hook_latency_us(ra, 99));
	for (int i = 0; i < ra->nr_cg; i++)
		if (!ra->cg[i].gone)
			nl_report_status(ra, &ra->cg[i], stdout);
}
