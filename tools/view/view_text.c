// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Batch text output. Unlike the TUI it prints exact figures with fixed
 * decimals and no K/M suffixes, so successive dumps diff cleanly and tests
 * (ours and numatop-style -d comparisons) can match numbers.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "names.h"
#include "view_agent.h"
#include "view_fmt.h"
#include "view_optin.h"
#include "view_text.h"
#include "vmscan_figs.h"

#define MIB (1024.0 * 1024.0)

static void fmt_time(char *buf, size_t sz, uint64_t ns)
{
	time_t t = (time_t)(ns / 1000000000ull);
	struct tm tm;

	/* UTC: batch output is compared across hosts and time zones */
	if (!gmtime_r(&t, &tm)) {
		snprintf(buf, sz, "?");
		return;
	}
	size_t n = strftime(buf, sz, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, sz - n, ".%03uZ", (unsigned)(ns % 1000000000ull / 1000000));
}

static void print_header(FILE *out, const struct nl_snapshot *s)
{
	char ts[64];

	fmt_time(ts, sizeof(ts), s->timestamp_ns);
	fprintf(out, "numalens top  seq %llu  %s  interval %.3f s  kernel %s  page %ld B\n",
		(unsigned long long)s->seq, ts, s->interval_ns / 1e9,
		s->kernel[0] ? s->kernel : "?", s->page_size);
	fprintf(out, "sources: sched=%s alloc=%s alloc_class=%s alloc_sample=1/%u migrate=%s "
		"numa_balancing=%s vm_numa_stat=%s cgroup=%s (%s)\n",
		s->src.sched ? "yes" : "no", s->src.alloc ? "yes" : "no",
		s->src.alloc_class ? "yes" : "no",
		s->src.alloc_sample_period ? s->src.alloc_sample_period : 1,
		s->src.migrate ? "yes" : "no",
		s->src.numa_balancing ? "on" : "off", s->src.vm_numa_stat ? "on" : "off",
		s->src.cgroup_mode == NL_CG_V1_MEMORY ? "v1-memory" : "v2",
		s->src.cgroup_root[0] ? s->src.cgroup_root : "?");
	fprintf(out, "missing: %s\n", s->src.missing[0] ? s->src.missing : "nothing");
	if (!nl_fmt_locality_source_ok(s))
		fprintf(out, "locality: unavailable in this session (needs kernel.numa_balancing "
			"on and the sched program); shown as \"unavail\", not 0\n");
	else if (s->src.sched_ext)
		fprintf(out, "locality: a sched_ext scheduler runs; its tasks take no NUMA hinting "
			"faults, so a row's locality is shown only when its fault counters moved "
			"this interval (else \"n/a\")\n");

	fprintf(out, "self: drops");
	for (int i = 0; i < NL_NR_DROPS; i++)
		fprintf(out, " %s=%llu", nl_snapshot_drop_name(i), (unsigned long long)s->self.drops[i]);
	/* not losses: entries of exited processes and removed cgroups freed
	 * from the BPF maps once read, which the drops above would count */
	fprintf(out, "; freed after exit (normal): procs_evicted=%llu cgroups_evicted=%llu\n",
		(unsigned long long)s->self.procs_evicted,
		(unsigned long long)s->self.cgroups_evicted);
	if (s->in_child_pidns) {
		const struct nl_figs *f = &s->other_pidns;

		fprintf(out, "other pid namespaces: CPU%% %.1f  LCL/s %.1f  RMT/s %.1f  (tasks numalens' "
			"pid namespace cannot see: summed here, not listed)\n", f->cpu_pct,
			nl_fmt_rate(f->alloc.pages_local, s->interval_ns),
			nl_fmt_rate(f->alloc.pages_remote, s->interval_ns));
	}
}

/* RCLM/s: pages freed per second by reclaim of every context (vmscan);
 * "-" without the vmscan program (@d NULL). */
static void print_reclaim(FILE *out, const struct nl_snapshot *s, const struct nl_vs_page_figs *d,
			  const struct nl_vs_page_figs *t)
{
	struct nl_vs_summary sum;

	if (!d) {
		fprintf(out, " %10s", "-");
		return;
	}
	nl_vmscan_figs_summarize(d, t, &sum);
	fprintf(out, " %10.1f", nl_fmt_rate(sum.freed, s->interval_ns));
}

static void print_nodes(FILE *out, const struct nl_snapshot *s)
{
	fprintf(out, "\nNODES%s\n",
		s->src.vm_numa_stat ? "" : "  (vm.numa_stat is off: numastat not comparable)");
	fprintf(out, "%4s %-12s %6s %10s %10s %10s %10s %10s %10s %10s %10s %10s %10s %10s %10s %10s %10s\n",
		"NODE", "CPUS", "CPU%", "MEM_USED", "MEM_FREE", "NUMA_HIT", "NUMA_MISS",
		"NUMA_FOREIGN", "INTERLEAVE", "LOCAL_NODE", "BPF_LOCAL", "OTHER_NODE",
		"BPF_OTHER", "BPF_FROM_RMT", "BPF_PAGES", "UNATTRIB", "RCLM/s");
	for (int i = 0; i < s->nr_nodes; i++) {
		const struct nl_node *n = &s->nodes[i];
		const struct nl_numastat *ns = &n->numastat;

		char busy[16] = "-";	/* no online CPU: no figure */

		if (isfinite(n->cpu_busy_pct))
			snprintf(busy, sizeof(busy), "%.1f", n->cpu_busy_pct);
		fprintf(out, "%4d %-12s %6s %10.1f %10.1f %10llu %10llu %12llu %10llu %10llu "
			"%10llu %10llu %10llu %12llu %10llu %10llu",
			n->nid, n->cpulist[0] ? n->cpulist : "-", busy,
			n->mem_used_bytes / MIB, n->mem_free_bytes / MIB,
			(unsigned long long)ns->numa_hit, (unsigned long long)ns->numa_miss,
			(unsigned long long)ns->numa_foreign, (unsigned long long)ns->interleave_hit,
			(unsigned long long)ns->local_node, (unsigned long long)n->bpf_events_local,
			(unsigned long long)ns->other_node, (unsigned long long)n->bpf_events_other,
			(unsigned long long)n->bpf_events_from_remote,
			(unsigned long long)n->bpf_pages,
			(unsigned long long)n->numastat_unattributed);
		print_reclaim(out, s, s->src.vmscan ? n->vmscan : NULL, n->vmscan_total);
		fputc('\n', out);
	}
}

/* The columns a process and a cgroup share, after the name columns. */
static void print_figs_head(FILE *out, const struct nl_snapshot *s)
{
	char col[32];

	fprintf(out, " %7s", "CPU%");
	for (int i = 0; i < s->nr_nodes; i++) {
		snprintf(col, sizeof(col), "RUN%%N%d", s->nodes[i].nid);
		fprintf(out, " %7s", col);
	}
}

static void print_figs_run(FILE *out, const struct nl_snapshot *s, const struct nl_figs *f)
{
	fprintf(out, " %7.1f", f->cpu_pct);
	for (int i = 0; i < s->nr_nodes; i++) {
		int nid = s->nodes[i].nid;

		if (nid < 0 || nid >= NL_MAX_NODES || !f->run_ns)
			fprintf(out, " %7s", "-");
		else
			fprintf(out, " %7.1f", nl_fmt_pct(f->run_ns_by_node[nid], f->run_ns));
	}
}

static void print_alloc_loc(FILE *out, const struct nl_snapshot *s, const struct nl_figs *f)
{
	char loc[16];
	double ratio;

	fprintf(out, " %10.1f %10.1f", nl_fmt_rate(f->alloc.pages_local, s->interval_ns),
		nl_fmt_rate(f->alloc.pages_remote, s->interval_ns));
	if (nl_fmt_remote_ratio(&f->alloc, &ratio))
		fprintf(out, " %6.1f", ratio * 100);
	else
		fprintf(out, " %6s", "n/a");
	fprintf(out, " %8s", nl_fmt_locality(loc, sizeof(loc), &f->loc, nl_fmt_locality_source_ok(s)));
}

static void print_mig(FILE *out, const struct nl_figs *f)
{
	fprintf(out, " %7llu %6llu", (unsigned long long)nl_fmt_migrated_pages(f),
		(unsigned long long)(f->mig.move_numa + f->mig.swap_numa));
}

/* fit - the cleaned @s in exactly @cols columns (@cols >= 2) into @out
 * (@len bytes, at least 4 * @cols + 1): padded on the right when it fits,
 * else its head and a "~" that says it was cut, as in the full-screen view;
 * a longer name never pushes the columns after it out of line. */
static char *fit(char *out, size_t len, const char *s, int cols)
{
	int used;
	size_t n;

	if (nl_name_text_cols(s) <= cols)
		return nl_name_text_pad(out, len, s, cols, true);
	n = nl_name_text_head(s, cols - 1, &used);
	snprintf(out, len, "%.*s~%*s", (int)n, s, cols - 1 - used, "");
	return out;
}

/* Filter text as the user typed it (-c, the name filter), cleaned by the
 * name rule like every name printed: a cgroup's name may hold escape
 * sequences, which must not reach the terminal. Valid until the next call. */
static const char *shown_typed(const char *typed)
{
	static char buf[1024];

	nl_name_clean(buf, sizeof(buf), typed, strlen(typed), 0, NULL);
	return buf;
}

/* Why a pid filter shows no row: the process lies outside the -c cgroup,
 * or it is not in the snapshot at all. */
static void print_pid_hint(FILE *out, const struct nl_snapshot *s, const struct nl_filter *f)
{
	for (int i = 0; i < s->nr_procs; i++) {
		const struct nl_proc *p = &s->procs[i];

		if (p->pid != f->pid)
			continue;
		if (f->cgroup[0])
			fprintf(out, " (pid %d is in cgroup %s, not under %s: -p and -c must both match)",
				(int)f->pid, p->cgroup_path[0] ? p->cgroup_path : "?", shown_typed(f->cgroup));
		return;
	}
	/* -p of a live thread id was turned into its process id at start */
	fprintf(out, " (pid %d is not in this snapshot: it has exited)", (int)f->pid);
}

static int print_procs(FILE *out, const struct nl_snapshot *s, const struct nl_view_opts *o)
{
	int *idx = malloc((s->nr_procs ? s->nr_procs : 1) * sizeof(*idx));
	char col[32], cell[NL_NAME_MAX];

	if (!idx)
		return -ENOMEM;
	int n = nl_sort_procs(s, o->sort, &o->filter, idx);
	if (n < 0) {
		free(idx);
		return n;
	}
	int shown = o->top_n > 0 && o->top_n < n ? o->top_n : n;

	fprintf(out, "\nPROCESSES  %d of %d shown, sorted by %s", shown, s->nr_procs,
		nl_sort_key_name(o->sort));
	if (o->filter.pid > 0)
		fprintf(out, ", pid %d", (int)o->filter.pid);
	if (o->filter.cgroup[0])
		fprintf(out, ", cgroup %s", shown_typed(o->filter.cgroup));
	if (o->filter.comm[0])
		fprintf(out, ", name contains %s", shown_typed(o->filter.comm));
	if (!n && o->filter.pid > 0)
		print_pid_hint(out, s, &o->filter);
	fprintf(out, "\n");

	fprintf(out, "%7s %-15s", "PID", "COMM");
	print_figs_head(out, s);
	for (int i = 0; i < s->nr_nodes; i++) {
		snprintf(col, sizeof(col), "RSS_N%d", s->nodes[i].nid);
		fprintf(out, " %8s", col);
	}
	fprintf(out, " %10s %10s %6s %8s %7s %6s  %s\n", "LCL/s", "RMT/s", "RMT%", "LOCALITY",
		"MIGR", "MOVES", "CGROUP");
	for (int k = 0; k < shown; k++) {
		const struct nl_proc *p = &s->procs[idx[k]];

		fprintf(out, "%7d %s", (int)p->pid, fit(cell, sizeof(cell), p->comm, 15));
		print_figs_run(out, s, &p->f);
		for (int i = 0; i < s->nr_nodes; i++) {
			int nid = s->nodes[i].nid;

			if (!p->rss_known || nid < 0 || nid >= NL_MAX_NODES)
				fprintf(out, " %8s", "-");
			else
				fprintf(out, " %8.1f",
					p->rss_pages_by_node[nid] * (double)s->page_size / MIB);
		}
		print_alloc_loc(out, s, &p->f);
		print_mig(out, &p->f);
		fprintf(out, "  %s%s\n", p->cgroup_path[0] ? p->cgroup_path : "?",
			p->alive ? "" : " (exited)");
	}
	free(idx);
	return 0;
}

/* One cgroup's row, its name indented by depth in a column @namew wide. */
static void print_cgroup_row(FILE *out, const struct nl_snapshot *s, const struct nl_cgroup *c,
			     int namew)
{
	char col[32], bar[16], name[600], cell[4 * 64 + 1];
	int depth = c->depth < 0 ? 0 : c->depth > 30 ? 30 : c->depth;
	char rn[NL_UNIT_NAME_MAX];

	/* a pod, container or service by its short form (cgident.h) */
	snprintf(name, sizeof(name), "%*s%s%s", 2 * depth, "",
		 nl_fmt_cgroup_row_name(c, rn, sizeof(rn)), c->removed ? " (removed)" : "");
	/* padded by columns (a name's UTF-8 characters are one byte or
	 * more), cut with "~" past the column's 64 */
	fprintf(out, "%s", fit(cell, sizeof(cell), name, namew));
	print_figs_run(out, s, &c->f);
	print_alloc_loc(out, s, &c->f);
	fprintf(out, " |%s|", nl_fmt_locbar(bar, sizeof(bar), &c->f.loc,
					    nl_fmt_locality_source_ok(s)));
	for (int i = 0; i < s->nr_nodes; i++) {
		int nid = s->nodes[i].nid;

		if (nid < 0 || nid >= NL_MAX_NODES)
			fprintf(out, " %11s", "-");
		else
			fprintf(out, " %11.1f", c->f.run_ns_by_node[nid] / 1e6);
	}
	if (c->numa_stat_known)
		fprintf(out, " %9.1f",
			(nl_fmt_sum_nodes(c->anon_bytes_by_node, NL_MAX_NODES) +
			 nl_fmt_sum_nodes(c->file_bytes_by_node, NL_MAX_NODES)) / MIB);
	else
		fprintf(out, " %9s", "-");
	print_mig(out, &c->f);
	const struct nl_vmscan_figs *vs = nl_vmscan_figs_cgroup(s, c);

	print_reclaim(out, s, vs ? vs->pages : NULL, vs ? vs->pages_total : NULL);
	nl_agent_fmt_rate(col, sizeof(col), s, c, false);
	fprintf(out, " %8s\n", col);
}

static int print_cgroups(FILE *out, const struct nl_snapshot *s, const struct nl_view_opts *o)
{
	int *idx = malloc((s->nr_cgroups ? s->nr_cgroups : 1) * sizeof(*idx));
	char col[32];
	int namew = 24;
	static struct nl_filter f;	/* 5 KiB: not on the stack */

	if (!idx)
		return -ENOMEM;
	/* -p alone: the process's own cgroup and its ancestors, not the
	 * whole tree. Once the process has exited (and left the snapshot) its
	 * cgroups stay the ones the model last saw it in; a pid never seen
	 * shows none ("\n" is under no cgroup) */
	f = o->filter;
	if (f.pid > 0 && !f.cgroup[0]) {
		f.chain_of = nl_snapshot_proc_cgroup(s, f.pid);
		if (!f.chain_of)
			f.chain_of = s->focus.pid == f.pid && s->focus.cgroup[0] ? s->focus.cgroup : "\n";
	}
	int n = nl_sort_cgroups(s, o->sort, &f, true, idx);
	if (n < 0) {
		free(idx);
		return n;
	}
	int shown = o->top_n > 0 && o->top_n < n ? o->top_n : n;
	for (int k = 0; k < shown; k++) {
		const struct nl_cgroup *c = &s->cgroups[idx[k]];
		char rn[NL_UNIT_NAME_MAX];
		int w = 2 * c->depth + nl_name_text_cols(nl_fmt_cgroup_row_name(c, rn, sizeof(rn)));

		if (w > namew)
			namew = w < 64 ? w : 64;
	}

	fprintf(out, "\nCGROUPS  %d of %d shown, tree (own tasks + descendants), siblings sorted by %s\n",
		shown, s->nr_cgroups, nl_sort_key_name(o->sort));
	fprintf(out, "%-*s", namew, "CGROUP");
	print_figs_head(out, s);
	fprintf(out, " %10s %10s %6s %8s %-10s", "LCL/s", "RMT/s", "RMT%", "LOCALITY", "LOCBAR");
	for (int i = 0; i < s->nr_nodes; i++) {
		snprintf(col, sizeof(col), "EXEC_MS_N%d", s->nodes[i].nid);
		fprintf(out, " %11s", col);
	}
	fprintf(out, " %9s %7s %6s %10s %8s\n", "MEM", "MIGR", "MOVES", "RCLM/s", "AGT/s");
	for (int k = 0; k < shown; k++)
		print_cgroup_row(out, s, &s->cgroups[idx[k]], namew);
	free(idx);
	nl_agent_text_section(out, s, &o->filter);
	return 0;
}

/* The legend: what every column and marker of the snapshots means. Printed
 * once, before the first snapshot, not with every one (a batch log would
 * repeat it each interval). */
int nl_text_write_legend(FILE *out, long page_size)
{
	if (!out)
		return -EINVAL;
	fprintf(out,
		"LEGEND (once per run; --no-legend drops it)\n"
		" NODES: CPU%% = busy share of the node's CPUs; MEM_USED MEM_FREE in MiB;\n"
		"  NUMA_HIT .. OTHER_NODE = sysfs numastat deltas (allocator calls), with the BPF\n"
		"  mm_page_alloc event counts beside them (BPF_LOCAL, BPF_OTHER, BPF_FROM_RMT, BPF_PAGES);\n"
		"  UNATTRIB = numastat calls the tracepoint did not see (bulk allocator);\n"
		"  RCLM/s = pages freed by reclaim per second (numalens vmscan has the detail)\n"
		" PROCESSES and CGROUPS:\n"
		"  CPU%% = on-CPU time / interval (100 = one CPU); RUN%%Nn = share of that time on node n;\n"
		"  LCL/s RMT/s = allocated pages/s (page = %ld B) on the allocating CPU's node / on another node;\n"
		"  RMT%% = remote share of those pages; LOCALITY = CPU-time-weighted NUMA-fault locality mean\n"
		"  (\"n/a\": no hinting faults, \"unavail\": not measurable here); MIGR = pages migrated ok+failed;\n"
		"  MOVES = NUMA task moves + swaps\n"
		" PROCESSES: RSS_Nn = resident MiB on node n (numa_maps; \"-\" when unreadable);\n"
		"  \"(exited)\" after the cgroup: the process ended during the interval (its last figures);\n"
		"  CGROUP \"?\": it ended before its cgroup could be read (it lived less than one interval;\n"
		"  its cgroup's row counts it all the same); \"~\" ends a name cut to fit its column\n"
		" CGROUPS: LOCBAR = share of bucketed time per locality bucket, 0-12.5%% left .. 87.5-100%% right,\n"
		"  glyphs \" .:-=+*#@\" = none .. all; EXEC_MS_Nn = on-CPU ms on node n this interval;\n"
		"  MEM = memory.numa_stat anon+file MiB (\"-\" when unknown); RCLM/s = pages freed by\n"
		"  reclaim of the cgroup's subtree per second, all contexts; \"(removed)\": cgroup deleted;\n"
		"  AGT/s = pages a numalens reclaim agent freed in it per second (\"-\" none, \"dry\" dry run)\n",
		page_size);
	errno = 0;
	if (fflush(out) || ferror(out))
		return errno ? -errno : -EIO;
	return 0;
}

int nl_text_write(FILE *out, const struct nl_snapshot *s, const struct nl_view_opts *o)
{
	struct nl_view_opts def;
	int err;

	if (!out || !s)
		return -EINVAL;
	if (!o) {
		nl_view_opts_default(&def);
		o = &def;
	}
	print_header(out, s);
	print_nodes(out, s);
	err = print_procs(out, s, o);
	if (!err)
		err = print_cgroups(out, s, o);
	nl_optin_write(out, s);
	fprintf(out, "\n");
	/* errno of the flush itself, not a stale one from earlier calls */
	errno = 0;
	if (fflush(out) || ferror(out))
		return err ? err : (errno ? -errno : -EIO);
	return err;
}
