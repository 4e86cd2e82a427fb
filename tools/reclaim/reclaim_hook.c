// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The limit hook's steps (reclaim_hook.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "reclaim_hook.h"
#include "reclaim_step.h"

/* The kernel's own limit reclaim of the memcg as the BPF program counts
 * it: runs in flight, pages their ended runs freed (@k0 at the start of
 * the step), and how many 1 ms waits the step took for them to end.
 * @track: the counts could be read. */
struct kwatch {
	bool track;
	int64_t inflight;
	uint64_t k0;
	int waited;
};

bool nl_hook_overlap(double *ov_end_s, bool ran_over, double start_s, double end_s, double *lag_ms)
{
	*lag_ms = -1;
	/* only a kernel run's overlap starts the window: a step inside it
	 * overlapped no run of its own */
	if (ran_over) {
		*ov_end_s = end_s;
		return true;
	}
	if (*ov_end_s > 0 && start_s - *ov_end_s < NL_RA_FLUSH_LAG_S) {
		*lag_ms = (start_s - *ov_end_s) * 1e3;
		return true;
	}
	return false;
}

/* The event fires as the kernel starts its own limit reclaim: wait (at
 * most 20 ms) for that run to end, so the step's numa_stat deltas are the
 * step's, not the kernel's. */
static void wait_kernel(struct nl_ra *a, struct nl_ra_cg *c, struct kwatch *kw)
{
	kw->inflight = 0;
	kw->k0 = 0;
	kw->waited = 0;
	kw->track = a->lot && !nl_lot_limit_state(a->lot, c->id, &kw->inflight, &kw->k0);
	for (; kw->track && kw->inflight > 0 && kw->waited < 20; kw->waited++) {
		struct timespec ms = { 0, 1000000 };

		nanosleep(&ms, NULL);
		if (nl_lot_limit_state(a->lot, c->id, &kw->inflight, &kw->k0))
			kw->track = false;
	}
}

/* Bytes for a hook step of @c. The memcg is at its limit: one --step
 * buys room for one step of allocation, and the next limit hit follows at
 * once. Take it down to low instead (the gap, at most one pass of steps),
 * as a pass would; it frees from the drawn node what the backend finds
 * there. */
static uint64_t hook_bytes(struct nl_ra *a, struct nl_ra_cg *c, uint64_t step_max)
{
	uint64_t usage, gap, cap;

	if (c->rguard_on || c->wm_bad || !c->wm.high || nl_rcg_usage(c->dir, a->cfg.v1, &usage) ||
	    usage <= c->wm.low)
		return step_max;
	gap = usage - c->wm.low;
	cap = step_max * (a->cfg.pass_steps ? a->cfg.pass_steps : 1);
	return gap < step_max ? step_max : gap > cap ? cap : gap;
}

/* Count the step (started at @t0_step, freed @freed pages, @on on the
 * drawn node) as clean or overlapped. A kernel run in flight at either
 * end of the step, or one that ended within it, put its own pages into
 * the step's numa_stat deltas: such a step's node share is not the step's
 * alone. Nor is one that started within NL_RA_FLUSH_LAG_S of an
 * overlapped step's end: the statistics of that run's last pages can wait
 * for a later flush (a load run saw a step 32 ms after one hold 512 of
 * the kernel's pages from another node). */
static void count_overlap(struct nl_ra *a, struct nl_ra_cg *c, struct kwatch *kw, double t0_step,
			  uint32_t draw_id, long freed, uint64_t on)
{
	bool ran_over = !kw->track || kw->inflight > 0, overlap;
	double lag_ms = -1;
	uint64_t k1 = 0, k0 = kw->k0;

	if (kw->track && (nl_lot_limit_state(a->lot, c->id, &kw->inflight, &k1) || kw->inflight > 0 || k1 != k0))
		ran_over = true;
	overlap = nl_hook_overlap(&c->hook_ov_end_s, ran_over, t0_step, nl_agent_now(), &lag_ms);
	if (k1 > k0)
		c->hook_overlap_pages += k1 - k0;
	if (!overlap) {
		c->hook_clean_steps++;
		c->hook_clean_pages += (uint64_t)freed;
		c->hook_clean_on_pages += on;
	} else if (a->cfg.verbose && lag_ms >= 0) {
		nl_agent_log(a, c, "hook draw=%u overlapped the statistics of a kernel limit reclaim that ended "
			     "%.0f ms before it (not yet all flushed): its deltas are not its alone", draw_id, lag_ms);
	} else if (a->cfg.verbose) {
		nl_agent_log(a, c, "hook draw=%u overlapped the kernel's own limit reclaim (%" PRIu64
			     " pages by runs that ended meanwhile): its deltas are not its alone",
			     draw_id, k1 > k0 ? k1 - k0 : 0);
	}
}

long nl_hook_step(struct nl_ra *a, struct nl_ra_cg *c, int nid, uint32_t draw_id,
		  uint64_t first_ts_ns, uint32_t events)
{
	uint64_t step_max = (uint64_t)a->cfg.step_pages * (uint64_t)a->psz, got, on = 0;
	struct kwatch kw;
	struct timespec t;
	double lat_us, t0_step;
	char tag[96];
	long freed;

	if (c->gone)
		return -ENOENT;
	wait_kernel(a, c, &kw);
	clock_gettime(CLOCK_MONOTONIC, &t);
	lat_us = ((double)t.tv_sec * 1e9 + (double)t.tv_nsec - (double)first_ts_ns) / 1e3;
	c->hook_events += events;
	c->novictim_said = 0;
	/* The refault guard is on: what the agent evicts comes back, so a
	 * step on top of the kernel's own limit reclaim (which takes only what
	 * the charge needs) would evict working set; the kernel handles it. */
	if (c->rguard_on && !a->cfg.dry_run) {
		c->hook_guarded++;
		return 0;
	}
	got = nl_rate_take(&a->rate, nl_agent_now(), hook_bytes(a, c, step_max));
	if (!got) {
		if (a->cfg.verbose)
			nl_agent_log(a, c, "hook draw=%u node=%d: rate limit %.1f MiB/s reached, no step",
				     draw_id, nid, a->cfg.rate_mib_s);
		return 0;
	}
	a->lat_us[a->nr_lat++ % NL_RA_LAT_MAX] = lat_us < 0 ? 0 : lat_us;
	snprintf(tag, sizeof(tag), "hook draw=%u events=%u latency_us=%.0f waited_ms=%d ", draw_id, events,
		 lat_us, kw.waited);
	c->last_draw_id = draw_id;
	c->last_draw_nid = nid;
	if (a->cfg.dry_run) {
		nl_agent_log(a, c, "%swould reclaim %" PRIu64 " KiB from node %d via %s", tag, got / 1024, nid,
			     nl_rb_name(a->backend));
		c->hook_steps++;
		return 0;
	}
	t0_step = nl_agent_now();
	freed = nl_step(a, c, nid, got, tag, &on, false);
	if (freed == -ENOENT) {
		c->gone = true;
		return -ENOENT;
	}
	count_overlap(a, c, &kw, t0_step, draw_id, freed, on);
	if ((uint64_t)freed * (uint64_t)a->psz < got)
		nl_rate_refund(&a->rate, got - (uint64_t)freed * (uint64_t)a->psz);
	c->hook_steps++;
	c->hook_pages += (uint64_t)freed;
	c->hook_on_pages += on;
	return freed;
}

static int cmp_dbl(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

double nl_hook_latency_us(const struct nl_ra *a, double p)
{
	uint64_t n = a->nr_lat < NL_RA_LAT_MAX ? a->nr_lat : NL_RA_LAT_MAX;
	static double v[NL_RA_LAT_MAX];
	size_t k;

	if (!n)
		return -1;
	memcpy(v, a->lat_us, sizeof(v[0]) * n);
	qsort(v, n, sizeof(v[0]), cmp_dbl);
	/* nearest rank */
	k = (size_t)(p / 100.0 * (double)n + 0.999999);
	if (k < 1)
		k = 1;
	return v[k > n ? n - 1 : k - 1];
}
