// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* One reclaim step on one node (reclaim_step.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include "reclaim_step.h"

/* What a step's backend call did: the backend that ran, its result, the
 * bytes it asked the kernel for and its note (why a step came up short). */
struct step_run {
	int k, e;
	uint64_t asked;
	char err[256];
};

/* Next backend after @k in order of preference that the probe allowed,
 * or -1. */
static int next_backend(struct nl_ra *a, int k)
{
	int i = 0;

	while (i < NL_RB_NR && nl_rb_order[i] != k)
		i++;
	for (i++; i < NL_RB_NR; i++)
		if (a->probe.ok[nl_rb_order[i]])
			return nl_rb_order[i];
	return -1;
}

/* Backend @r->k frees up to @bytes for @t; its wall time counts as the
 * agent's reclaim time of @c. */
static void run_one(struct nl_ra_cg *c, const struct nl_rb_target *t, uint64_t bytes, struct step_run *r)
{
	double t0 = nl_agent_now();

	r->e = nl_rb_reclaim(r->k, t, bytes, &r->asked, r->err, sizeof(r->err));
	c->agent_s += nl_agent_now() - t0;
}

/* The step's reclaim through the backend in use, or through the next one
 * when the kernel refuses it (then, unless the refusal was only "no task
 * there", the next one stays in use). Returns 0 to go on, -ENOENT when
 * the cgroup went, 1 when no backend is left to try (nothing freed). */
static int run_backend(struct nl_ra *a, struct nl_ra_cg *c, const struct nl_rb_target *t, uint64_t bytes,
		       struct step_run *r)
{
	int nk;

	r->k = a->backend;
	run_one(c, t, bytes, r);
	if (r->e == -ENOENT) {
		nl_agent_log(a, c, "cgroup disappeared mid-pass: dropped");
		return -ENOENT;
	}
	if (r->e != -ESRCH && r->e != -EOPNOTSUPP && r->e != -EPERM && r->e != -EINVAL)
		return 0;
	nk = next_backend(a, r->k);
	nl_agent_log(a, c, "backend %s: %s%s%s", nl_rb_name(r->k), r->err,
		     nk >= 0 ? "; this step falls back to " : "", nk >= 0 ? nl_rb_name(nk) : "");
	if (r->e != -ESRCH && nk >= 0) {
		/* refused by the kernel: stop using it */
		a->backend = nk;
		nl_agent_log(a, c, "backend in use is now %s%s", nl_rb_name(nk),
			     nk == NL_RB_MEMCG ? " (memcg-wide, the last resort: not node-targeted)" : "");
	}
	if (nk < 0)
		return 1;
	r->err[0] = '\0';	/* said above; what follows is the fallback's */
	r->k = nk;
	run_one(c, t, bytes, r);
	return r->e == -ENOENT ? -ENOENT : 0;
}

/* Pages that left each node between @before and @after, counted to
 * backend @k; *@on gets those of node @nid. Returns the total. */
static uint64_t count_freed(struct nl_ra_cg *c, int k, int nid, const struct nl_rcg_numa *before,
			    const struct nl_rcg_numa *after, uint64_t *on)
{
	uint64_t freed = 0;

	*on = 0;
	for (int i = 0; i < NL_MAX_NODES; i++) {
		uint64_t b = nl_rcg_numa_node_pages(before, i), f = nl_rcg_numa_node_pages(after, i);

		if (b > f) {
			c->pages[k][i] += b - f;
			freed += b - f;
			if (i == nid)
				*on += b - f;
		}
	}
	return freed;
}

/* DAMOS can start yet free nothing (e.g. pages its regions never
 * qualify): after 3 such steps in a row, use the next backend. */
static void damos_watch(struct nl_ra *a, struct nl_ra_cg *c, int k, uint64_t freed)
{
	if (k != NL_RB_DAMOS || a->backend != NL_RB_DAMOS)
		return;
	a->damos_zero = freed ? 0 : a->damos_zero + 1;
	if (a->damos_zero >= 3 && next_backend(a, k) >= 0) {
		a->backend = next_backend(a, k);
		nl_agent_log(a, c, "backend damos freed nothing in 3 steps: backend in use is now %s",
			     nl_rb_name(a->backend));
	}
}

/* A node that freed nothing loses its tickets until its figures change
 * (nl_agent_refresh); dry-run and fallback steps included. @e is the
 * backend's result: lru_gen waiting for its next aging is "not yet", not
 * "cannot". */
static void mark_dry(struct nl_ra_cg *c, int nid, const struct nl_rcg_numa *after, uint64_t freed, int e)
{
	struct nl_lot_in fin;

	if (nid < 0 || nid >= NL_MAX_NODES)
		return;
	fin = c->in;
	for (int i = 0; i < NL_MAX_NODES; i++) {
		fin.n[i].inactive_anon = after->inactive_anon[i];
		fin.n[i].active_anon = after->active_anon[i];
		fin.n[i].inactive_file = after->inactive_file[i];
		fin.n[i].active_file = after->active_file[i];
		fin.n[i].file_mapped = after->file_mapped[i];
	}
	if (freed) {
		c->dry[nid] = 0;
	} else if (e != -EINPROGRESS) {
		c->dry[nid] = 1 + nl_lot_node_figure(&fin, (uint32_t)nid);
		c->dry_at[nid] = nl_agent_now();
	}
}

/* The step's lines: with -v the step itself; without, once, a backend's
 * note on why a step came up short (e.g. dirty file pages); and once that
 * anon pages cannot go for want of swap. */
static void step_log(struct nl_ra *a, struct nl_ra_cg *c, const struct step_run *r, const char *tag,
		     int nid, uint64_t freed, uint64_t on, const struct nl_rcg_numa *before)
{
	bool note = r->err[0] && r->e != -EAGAIN;

	if (a->cfg.verbose)
		nl_agent_log(a, c, "%sstep node=%d backend=%s asked=%" PRIu64 "KiB freed=%" PRIu64
			     " pages (%" PRIu64 " on node %d)%s%s", tag, nid, nl_rb_name(r->k), r->asked / 1024,
			     freed, on, nid, note ? ": " : "", note ? r->err : "");
	if (!a->cfg.verbose && !r->e && r->err[0] && !c->skip_told && (c->skip_told = true))
		nl_agent_log(a, c, "%s", r->err);
	if (!c->in.swap_ok && freed == 0 && r->k != NL_RB_MEMCG && !c->noswap_told &&
	    (before->inactive_anon[nid] || before->active_anon[nid]) && (c->noswap_told = true))
		nl_agent_log(a, c, "no swap (system or memory.swap.max): the anon pages on node %d cannot "
			     "be paged out", nid);
}

long nl_step(struct nl_ra *a, struct nl_ra_cg *c, int nid, uint64_t bytes, const char *tag,
	     uint64_t *on_out, bool chain)
{
	struct nl_rcg_numa before, after;
	/* The step frees the types the weights counted: with the anon rule
	 * leaving anon out (plenty of page cache), lru_gen evicts page cache
	 * only (swappiness 0) and madvise skips anon VMAs. Evicted anon comes
	 * back one major fault per page from swap, page cache in readahead
	 * batches, so evicting anon beside ample cache costs the workload
	 * many more faults for the same pages. */
	struct nl_rb_target t = { c->dir, c->rel, a->cfg.v1, nid, c->in.swap_ok && c->w.anon_in,
				  c->in.swappiness, a->cfg.cold_ms };
	struct step_run r = { .asked = 0 };
	uint64_t freed, on;
	int e;

	if (chain && c->ns_ok) {
		before = c->ns;
	} else {
		c->numa_reads++;
		if (nl_rcg_numa_stat(c->dir, a->cfg.v1, &before))
			return -ENOENT;
	}
	e = run_backend(a, c, &t, bytes, &r);
	if (e)
		return e < 0 ? e : 0;
	c->numa_reads++;
	if (nl_rcg_numa_stat(c->dir, a->cfg.v1, &after)) {
		c->ns_ok = false;
		return -ENOENT;
	}
	c->ns = after;
	c->ns_ok = true;
	freed = count_freed(c, r.k, nid, &before, &after, &on);
	damos_watch(a, c, r.k, freed);
	mark_dry(c, nid, &after, freed, r.e);
	c->target_pages += on;
	c->offnode_pages += freed - on;
	c->freed_all += freed;
	c->steps++;
	if (on_out)
		*on_out = on;
	step_log(a, c, &r, tag, nid, freed, on, &before);
	return (long)freed;
}
