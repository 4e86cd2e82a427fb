// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The agent's waits and the limit hook's draws (reclaim_wait.h). */
#include <errno.h>
#include <stdio.h>
#include <time.h>
#include <cjson/cJSON.h>
#include "reclaim_hook.h"
#include "reclaim_jsonl.h"
#include "reclaim_wait.h"

/* The ring buffer the draws come on, and the stop flag (one agent per
 * process: nl_wait_init). */
static struct nl_lot_bpf *hook_lot;
static volatile sig_atomic_t *stop_flag;

static bool stopped(void)
{
	return stop_flag && *stop_flag;
}

/* Limit-path draws waiting for their step, one entry per managed cgroup:
 * draws that arrive together are answered by one step on the newest draw. */
static struct hook_pending {
	bool has;
	int nid;
	uint32_t draw_id, events;
	uint64_t first_ts_ns;
} pending[NL_RA_MAX_CG];

/* A limit-path decision from BPF: the drawn node is queued for a step at
 * once (after the poll returns); a "no victim" is said once per change. */
static void on_limit_event(void *ctx, const struct nl_lot_event *e)
{
	struct nl_ra *ra = ctx;

	for (int i = 0; i < ra->nr_cg; i++) {
		struct nl_ra_cg *c = &ra->cg[i];
		struct hook_pending *h = &pending[i];

		if (c->id != e->cgroup_id || c->gone)
			continue;
		/* the hook sends drawn nodes only ("no victim" is counted in
		 * BPF); kept for an older object's records */
		if (e->reason != NL_LOT_OK) {
			nl_agent_novictim(ra, c, e->reason, "limit reclaim left to the kernel");
			return;
		}
		if ((ra->cfg.verbose || ra->cfg.dry_run) && ra->cfg.log && ra->cfg.json) {
			struct timespec t;
			cJSON *o = cJSON_CreateObject();

			clock_gettime(CLOCK_MONOTONIC, &t);
			if (o) {
				cJSON_AddNumberToObject(o, "node", e->nid);
				cJSON_AddNumberToObject(o, "draw", e->draw_id);
				cJSON_AddNumberToObject(o, "age_us", ((double)t.tv_sec * 1e9 + (double)t.tv_nsec -
								      (double)e->ts_ns) / 1e3);
			}
			nl_jsonl_emit(ra->cfg.log, "limit_draw", ra->cfg.dry_run, c->label, o);
		} else if ((ra->cfg.verbose || ra->cfg.dry_run) && ra->cfg.log) {
			struct timespec t;
			char ts[40];

			nl_jsonl_iso_time(ts, sizeof(ts));
			clock_gettime(CLOCK_MONOTONIC, &t);
			fprintf(ra->cfg.log, "%s %s limit reclaim: BPF lottery drew node %u (draw %u, %.0f us ago)\n",
				ts, c->label, e->nid, e->draw_id,
				((double)t.tv_sec * 1e9 + (double)t.tv_nsec - (double)e->ts_ns) / 1e3);
		}
		if (!h->has)
			h->first_ts_ns = e->ts_ns, h->events = 0;
		h->has = true;
		h->nid = (int)e->nid;
		h->draw_id = e->draw_id;
		h->events++;
		return;
	}
}

/* Run the steps of the draws queued by on_limit_event(). */
static void run_hook_steps(struct nl_ra *ra)
{
	for (int i = 0; i < ra->nr_cg && !stopped(); i++) {
		struct hook_pending *h = &pending[i];

		if (!h->has)
			continue;
		h->has = false;
		nl_hook_step(ra, &ra->cg[i], h->nid, h->draw_id, h->first_ts_ns, h->events);
	}
}

/* How often usage is looked at between intervals while a cgroup is near
 * its high watermark (one memory.current read per cgroup). */
#define WATCH_MS 50

/* Between two steps of a pass: the draws that arrived meanwhile, at once
 * (nested passes cannot happen: a hook step is one step). */
static void hook_between_steps(struct nl_ra *ra)
{
	if (hook_lot && nl_lot_poll(hook_lot, 0, on_limit_event, ra) > 0)
		run_hook_steps(ra);
}

void nl_wait_init(struct nl_ra *ra, struct nl_lot_bpf *lot, volatile sig_atomic_t *stop)
{
	hook_lot = lot;
	stop_flag = stop;
	ra->between_steps = hook_between_steps;
}

void nl_wait(struct nl_ra *ra, double d)
{
	double end = nl_agent_now() + d;
	/* near high: look at usage every WATCH_MS and tick as soon as it is
	 * over (background reclaim ahead of the limit, not a second later) */
	bool watch = nl_agent_watch(ra);

	while (!stopped()) {
		double left = end - nl_agent_now();
		int ms = left > 0 ? (int)(left * 1000.0 + 0.5) : 0, n;

		if (watch && ms > WATCH_MS)
			ms = WATCH_MS;

		n = nl_lot_poll(hook_lot, ms, on_limit_event, ra);
		ra->cost.polls++;
		if (n > 0)
			ra->cost.records += (uint64_t)n;
		if (n < 0 && n != -EINTR) {
			struct timespec ts;

			if (left <= 0)
				break;
			ts.tv_sec = (time_t)left;
			ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
			nanosleep(&ts, NULL);
			break;
		}
		run_hook_steps(ra);
		if (nl_agent_now() >= end || (watch && nl_agent_over_high(ra)))
			break;
	}
}

