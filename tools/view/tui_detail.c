// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The detail window: one process or cgroup broken down by node (where it
 * runs against where its memory sits, allocations, locality, migrations),
 * and the scrolling of it and of the help text.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "view_fmt.h"
#include "tui_detail.h"
#include "tui_draw.h"
#include "tui_state.h"

void nl_tui_detail_add(struct nl_tui_lines *L, const char *fmt, ...)
{
	va_list ap;

	if (L->n == L->cap) {
		int cap = L->cap ? 2 * L->cap : 64;
		char (*l)[256] = realloc(L->l, (size_t)cap * sizeof(*l));

		if (!l)
			return;
		L->l = l;
		L->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(L->l[L->n++], sizeof(L->l[0]), fmt, ap);
	va_end(ap);
}

/* The placement picture of a process (@p) or cgroup (@c): its CPU time
 * per node this interval against its resident memory per node (numa_maps,
 * or memory.numa_stat for a cgroup) and this interval's allocations, with
 * the SLIT (tui_pics.h). */
static void detail_place(struct nl_tui *t, struct nl_tui_lines *L, const struct nl_figs *f,
			 const struct nl_proc *p, const struct nl_cgroup *c)
{
	const struct nl_snapshot *s = &t->snap;
	struct nl_pic_place pp = { 0 };
	double cpu[NL_MAX_NODES], mem[NL_MAX_NODES], al[NL_MAX_NODES], w[NL_MAX_NODES];
	double msum = 0, asum = 0;
	int pos[NL_PIC_MAX_NODES], nr = s->nr_nodes < NL_MAX_NODES ? s->nr_nodes : NL_MAX_NODES;
	char out[NL_PIC_MAX_NODES + 8][256];

	for (int i = 0; i < nr; i++) {
		int nid = s->nodes[i].nid;
		bool ok = nid >= 0 && nid < NL_MAX_NODES;

		cpu[i] = f->run_ns && ok ? (double)f->run_ns_by_node[nid] / (double)f->run_ns : NAN;
		if (p && p->rss_known && ok)
			mem[i] = (double)p->rss_pages_by_node[nid];
		else if (c && c->numa_stat_known && ok)
			mem[i] = (double)(c->anon_bytes_by_node[nid] + c->file_bytes_by_node[nid]);
		else
			mem[i] = NAN;
		al[i] = ok ? (double)f->alloc.pages_by_node[nid] : 0;
		msum += isnan(mem[i]) ? 0 : mem[i];
		asum += al[i];
	}
	for (int i = 0; i < nr; i++) {
		mem[i] = msum > 0 ? mem[i] / msum : NAN;
		al[i] = asum > 0 ? al[i] / asum : NAN;
		w[i] = (isnan(cpu[i]) ? 0 : cpu[i]) + (isnan(mem[i]) ? 0 : mem[i]);
	}
	pp.nr_nodes = nr;
	pp.n = nl_pic_pick_nodes(w, nr, pos);
	for (int i = 0; i < pp.n; i++) {
		pp.nid[i] = s->nodes[pos[i]].nid;
		pp.cpu[i] = cpu[pos[i]];
		pp.mem[i] = mem[pos[i]];
		pp.alloc[i] = al[pos[i]];
	}
	for (int i = 0; i < pp.n; i++)
		for (int j = 0; j < pp.n; j++)
			pp.dist[i][j] = pp.nid[j] >= 0 && pp.nid[j] < NL_MAX_NODES ?
					s->nodes[pos[i]].distance[pp.nid[j]] : 0;
	int n = nl_pic_place_lines(out, (int)(sizeof(out) / sizeof(out[0])), &pp, nl_tui_draw_utf8());

	for (int i = 0; i < n; i++)
		nl_tui_detail_add(L, "%s", out[i]);
	nl_tui_detail_add(L, "");
}

/* Per node: the share of run time, the memory (RSS of a process,
 * memory.numa_stat of a cgroup) and this interval's allocations. */
static void detail_nodes(const struct nl_snapshot *s, struct nl_tui_lines *L, const struct nl_figs *f,
			 const struct nl_proc *p, const struct nl_cgroup *c)
{
	const struct nl_alloc_figs *a = &f->alloc;

	nl_tui_detail_add(L, "%4s %7s %10s %10s %12s %12s", "NODE", "RUN%", "RUN_ms",
	     p ? "RSS_MiB" : "MEM_MiB", "ALLOC_pages", "ALLOC_pg/s");
	for (int i = 0; i < s->nr_nodes; i++) {
		int nid = s->nodes[i].nid;
		char mem[24] = "-";

		if (nid < 0 || nid >= NL_MAX_NODES)
			continue;
		if (p && p->rss_known)
			snprintf(mem, sizeof(mem), "%.1f",
				 p->rss_pages_by_node[nid] * (double)s->page_size / MIB);
		else if (c && c->numa_stat_known)
			snprintf(mem, sizeof(mem), "%.1f",
				 (c->anon_bytes_by_node[nid] + c->file_bytes_by_node[nid]) / MIB);
		nl_tui_detail_add(L, "%4d %7.1f %10.1f %10s %12llu %12.1f", nid,
		     nl_fmt_pct(f->run_ns_by_node[nid], f->run_ns), f->run_ns_by_node[nid] / 1e6, mem,
		     (unsigned long long)a->pages_by_node[nid],
		     nl_fmt_rate(a->pages_by_node[nid], s->interval_ns));
	}
}

/* The allocations: local and remote, by class, since start, and against
 * the preferred node. */
static void detail_alloc(struct nl_tui_lines *L, const struct nl_alloc_figs *a)
{
	char num[16];
	double r;

	if (nl_fmt_remote_ratio(a, &r))
		snprintf(num, sizeof(num), "%.1f%%", r * 100);
	else
		snprintf(num, sizeof(num), "n/a");
	nl_tui_detail_add(L, "Allocations (pages; events = allocator calls): local %llu  remote %llu  remote %s"
	     "  events local %llu remote %llu  failed %llu",
	     (unsigned long long)a->pages_local, (unsigned long long)a->pages_remote, num,
	     (unsigned long long)a->events_local, (unsigned long long)a->events_remote,
	     (unsigned long long)a->fail_events);
	nl_tui_detail_add(L, "  by class: kernel %llu  reclaimable %llu  movable %llu  (anon %llu  file %llu"
	     "  shmem %llu  unclassified %llu)",
	     (unsigned long long)a->pages_by_class[NL_CLASS_KERNEL],
	     (unsigned long long)a->pages_by_class[NL_CLASS_RECLAIMABLE],
	     (unsigned long long)a->pages_by_class[NL_CLASS_MOVABLE],
	     (unsigned long long)a->pages_by_class[NL_CLASS_ANON],
	     (unsigned long long)a->pages_by_class[NL_CLASS_FILE],
	     (unsigned long long)a->pages_by_class[NL_CLASS_SHMEM],
	     (unsigned long long)a->pages_unclassified);
	nl_tui_detail_add(L, "  since start: local %llu  remote %llu pages",
	     (unsigned long long)a->pages_local_total, (unsigned long long)a->pages_remote_total);
	nl_tui_detail_add(L, "  against the preferred node (events): hit %llu  miss %llu;"
	     "  since start hit %llu  miss %llu",
	     (unsigned long long)a->events_hit, (unsigned long long)a->events_miss,
	     (unsigned long long)a->events_hit_total, (unsigned long long)a->events_miss_total);
}

/* The NUMA-fault locality: its mean and, when measured, a bar per bucket. */
static void detail_locality(const struct nl_snapshot *s, struct nl_tui_lines *L, const struct nl_figs *f)
{
	char loc[16], bar[64];
	uint64_t locsum = 0;

	nl_tui_detail_add(L, "NUMA-fault locality (CPU time per bucket this interval): mean %s",
	     nl_fmt_locality(loc, sizeof(loc), &f->loc, nl_fmt_locality_source_ok(s)));
	for (int b = 0; b < NL_LOC_BUCKETS; b++)
		locsum += f->loc.bucket_ns[b];
	if (f->loc.available && locsum) {
		int w = COLS - 36;

		if (w > 40)
			w = 40;
		if (w < 4)
			w = 4;
		for (int b = 0; b < NL_LOC_BUCKETS; b++)
			nl_tui_detail_add(L, "  %-10s |%s| %5.1f%% %9.1f ms", nl_fmt_bucket_label(b),
			     nl_fmt_hbar(bar, w, (double)f->loc.bucket_ns[b] / locsum),
			     nl_fmt_pct(f->loc.bucket_ns[b], locsum), f->loc.bucket_ns[b] / 1e6);
	}
	/* with NUMA balancing off every slice is "no-fault": say nothing then */
	if (nl_fmt_locality_source_ok(s))
		nl_tui_detail_add(L, "  no-fault run time %.1f ms", f->loc.nofault_ns / 1e6);
}

/* Task moves and page migrations, this interval and since start. */
static void detail_migrations(struct nl_tui_lines *L, const struct nl_migrate_figs *m)
{
	nl_tui_detail_add(L, "Migrations: task moves %llu  swaps %llu  failed moves %llu;"
	     " pages migrated %llu  failed %llu (NUMA misplaced %llu / %llu)",
	     (unsigned long long)m->move_numa, (unsigned long long)m->swap_numa,
	     (unsigned long long)m->stick_numa, (unsigned long long)m->pages_ok,
	     (unsigned long long)m->pages_fail, (unsigned long long)m->numa_misplaced_ok,
	     (unsigned long long)m->numa_misplaced_fail);
	nl_tui_detail_add(L, "  since start: moves %llu  swaps %llu  pages %llu  failed %llu",
	     (unsigned long long)m->move_numa_total, (unsigned long long)m->swap_numa_total,
	     (unsigned long long)m->pages_ok_total, (unsigned long long)m->pages_fail_total);
}

/* The figures of a process (@p) or cgroup (@c), whose figures are @f. */
static void detail_figs(struct nl_tui *t, struct nl_tui_lines *L, const struct nl_figs *f,
			const struct nl_proc *p, const struct nl_cgroup *c)
{
	nl_tui_detail_add(L, "CPU %.1f%%  run %.3f s this interval, %.3f s since start", f->cpu_pct,
	     f->run_ns / 1e9, f->run_ns_total / 1e9);
	nl_tui_detail_add(L, "");
	detail_place(t, L, f, p, c);
	detail_nodes(&t->snap, L, f, p, c);
	nl_tui_detail_add(L, "");
	detail_alloc(L, &f->alloc);
	nl_tui_detail_add(L, "");
	detail_locality(&t->snap, L, f);
	nl_tui_detail_add(L, "");
	detail_migrations(L, &f->mig);
}

void nl_tui_detail_build(struct nl_tui *t, struct nl_tui_lines *L)
{
	const struct nl_snapshot *s = &t->snap;

	if (!t->detail_is_cg) {
		for (int i = 0; i < s->nr_procs; i++) {
			const struct nl_proc *p = &s->procs[i];

			if (p->pid != t->detail_pid)
				continue;
			nl_tui_detail_add(L, "PROCESS %d %s  cgroup %s%s", (int)p->pid, p->comm, p->cgroup_path,
			     p->alive ? "" : "  (exited)");
			if (p->rss_known && p->mempolicy.task[0])
				nl_tui_detail_add(L, "Memory policy %s%s%s", p->mempolicy.task,
				     p->mempolicy.vma[0] ? "; a mapping sets " : "", p->mempolicy.vma);
			else
				nl_tui_detail_add(L, "Memory policy -  (numa_maps not read)");
			detail_figs(t, L, &p->f, p, NULL);
			return;
		}
		nl_tui_detail_add(L, "process %d is gone (exited and evicted); b goes back", (int)t->detail_pid);
		return;
	}
	for (int i = 0; i < s->nr_cgroups; i++) {
		const struct nl_cgroup *c = &s->cgroups[i];

		if (c->id != t->detail_cg)
			continue;
		nl_tui_detail_add(L, "CGROUP %s  id %llu%s  (own tasks + descendants)", c->path,
		     (unsigned long long)c->id, c->removed ? "  (removed)" : "");
		/* the whole ids the tree's short form stands for */
		if (c->ident.pod_uid[0])
			nl_tui_detail_add(L, "Pod uid %s", c->ident.pod_uid);
		if (c->ident.container_id[0])
			nl_tui_detail_add(L, "Container %s%s%s", nl_cgident_ctr_runtime_name(c->ident.runtime) ?: "",
			     nl_cgident_ctr_runtime_name(c->ident.runtime) ? "://" : "", c->ident.container_id);
		if (c->ident.unit[0])
			nl_tui_detail_add(L, "Systemd unit %s", c->ident.unit);
		detail_figs(t, L, &c->f, NULL, c);
		return;
	}
	nl_tui_detail_add(L, "cgroup %llu is gone; b goes back", (unsigned long long)t->detail_cg);
}

void nl_tui_detail_draw(struct nl_tui *t, struct nl_tui_lines *L)
{
	int h = LINES - (HEAD_LINES(t) - 1) - 1;

	if (t->text_top > L->n - h)
		t->text_top = L->n - h;
	if (t->text_top < 0)
		t->text_top = 0;
	for (int i = 0; i < h; i++) {
		int k = t->text_top + i;

		nl_tui_draw_line(HEAD_LINES(t) - 1 + i, k == 0 ? A_BOLD : 0, "%s",
				 k < L->n ? L->l[k] : "");
	}
}
