// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * `numalens top`: builds one snapshot per interval (collect.c) and hands it
 * to a view (ncurses, text or JSON).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "procfs.h"
#include "view_json.h"
#include "view_sort.h"
#include "view_text.h"
#include "view_tui.h"

enum { OPT_CG_HIER = 1000, OPT_NO_CLASS, OPT_NO_LEGEND, OPT_ACTIVE, OPT_SELF_COST, OPT_RSS_PROCS,
       OPT_ALLOC_LAT, OPT_ALLOC_STACKS, OPT_PAGE_LIFE, OPT_ALERT_REMOTE, OPT_ALERT_LOCALITY,
       OPT_ALLOC_SAMPLE, OPT_EXACT };

struct top_args {
	double delay;
	long count;		/* 0 = until interrupted */
	bool batch, json, force_tui, verbose, no_class, no_legend, active, self_cost;
	int rss_procs;		/* --rss-procs; 0 = the default (64), -1 = none by rank */
	const char *btf;	/* --btf */
	long alloc_lat;		/* --alloc-latency: 1 call in N, 0 = off */
	long alloc_stacks;	/* --alloc-stacks: 1 remote/miss allocation in N, 0 = off */
	long page_life;		/* --page-lifetime: 1 page in N, 0 = off */
	uint32_t alloc_sample;	/* --alloc-sample / --exact: 0 = auto */
	int cg_mode;		/* -1 = auto */
	struct nl_view_opts view;
};

static const char top_doc[] =
	"Show NUMA locality live, per process, cgroup and node, like numatop but "
	"without a PMU: on-CPU time per node, local and remote page allocations "
	"(kmem:mm_page_alloc), NUMA-balancing fault locality weighted by CPU time, "
	"and NUMA moves and page migrations, all from BPF tracepoints; beside them "
	"the kernel's own numastat, numa_maps and memory.numa_stat.\v"
	"Views: full-screen (default on a terminal; press ? for keys), plain text "
	"(--batch, and whenever stdout is not a terminal) or JSON Lines (--json, one "
	"object per interval; schema in docs/json.md).\n\n"
	"The full screen draws pictures: a meter per node (CPU busy, memory used; "
	"'m' hides them), the last minute of each cgroup's remote share and "
	"locality as sparklines, and in a row's detail where it runs against where "
	"its memory sits, with the node distances. Colour marks what passes the "
	"--alert-* thresholds (and a '!' after the figure); NO_COLOR=1 or a terminal "
	"without colours gives bold instead, and TERM=dumb the plain text view.\n\n"
	"Sort keys (-s, or keys 1-9 on screen): remote (1), local (2), ratio (3), "
	"locality (4, worst first), cpu (5, default), runtime (6), rss (7), "
	"migrations (8), pid (9).\n\n"
	"Locality is 'unavail' when it cannot be measured here (kernel.numa_balancing "
	"is 0, or the sched program is missing) and 'n/a' for a row with no NUMA "
	"hinting faults in the interval (also, while a sched_ext scheduler runs, a row "
	"whose fault counters did not move: ext tasks take no hinting faults): never "
	"shown as 0.\n\n"
	"Exit status: 0 ok, 1 runtime failure, 2 bad usage, 3 lacks CAP_BPF or "
	"CAP_PERFMON (root has both), 4 kernel lacks BTF, tracefs or every tracepoint.\n\n"
	"Examples:\n"
	"  numalens top                      full-screen view, 1 s refresh\n"
	"  numalens top --batch -n 2 -d 1    two text snapshots, one second apart\n"
	"  numalens top --json -n 5 -p 1234  five JSON objects for pid 1234\n"
	"  numalens top -c /system.slice -s remote";

static const struct argp_option top_opts[] = {
	{ "delay", 'd', "SECONDS", 0, "Interval between snapshots (default 1; 0.1 to 3600)", 0 },
	{ "count", 'n', "COUNT", 0, "Stop after COUNT snapshots (default: until q or Ctrl-C)", 0 },
	{ "pid", 'p', "PID", 0, "Show only this process; the batch view shows its cgroup and their ancestors, JSON all cgroups", 0 },
	{ "cgroup", 'c', "PATH", 0, "Show only processes and cgroups at or below cgroup PATH "
				     "(relative to the hierarchy, e.g. /system.slice)", 0 },
	{ "sort", 's', "KEY", 0, "Sort rows by KEY (see below)", 0 },
	{ "top", 't', "N", 0, "Show at most N process and cgroup rows", 0 },
	{ "batch", 'b', NULL, 0, "Plain-text snapshots instead of the full-screen view", 1 },
	{ "json", 'j', NULL, 0, "One JSON object per interval (JSON Lines)", 1 },
	{ "active", OPT_ACTIVE, NULL, 0, "List only processes that ran or allocated since numalens "
	  "started (default: every process with resident memory, idle ones with zero figures)", 0 },
	{ "no-legend", OPT_NO_LEGEND, NULL, 0, "With --batch, leave out the legend of the columns "
	  "(printed once, before the first snapshot)", 1 },
	{ "alert-remote", OPT_ALERT_REMOTE, "PCT", 0, "Full screen: mark RMT% at or above PCT (0-100, "
	  "default 25) with '!', in red (bold without colour)", 1 },
	{ "alert-locality", OPT_ALERT_LOCALITY, "PCT", 0, "Full screen: mark LOCALITY at or below PCT "
	  "(0-100, default 50) the same way", 1 },
	{ "version", 'V', NULL, 0, "Print the version and exit", 2 },
	{ "cgroup-hierarchy", OPT_CG_HIER, "auto|v2|v1-memory", 0,
	  "Which cgroup tree to key cgroups by. auto: cgroup v2 when it has the memory "
	  "controller, else the v1 memory hierarchy (hybrid hosts)", 2 },
	{ "rss-procs", OPT_RSS_PROCS, "N", 0,
	  "Read RSS per node (numa_maps, costly for big processes) for the N busiest and the N "
	  "largest processes each interval (default 64; 0 for none); -p, the detail window and a "
	  "name filter always get theirs", 2 },
	{ "no-class", OPT_NO_CLASS, NULL, 0,
	  "Do not split user pages into anon/file/shmem (skips the LRU tracepoint)", 2 },
	{ "self-cost", OPT_SELF_COST, NULL, 0,
	  "Turn on the kernel's BPF run-time stats while running, for numalens' own "
	  "per-program run counts and times (JSON self.progs); every BPF program on "
	  "the host then runs slightly slower", 2 },
	{ "alloc-sample", OPT_ALLOC_SAMPLE, "N|auto", 0, NL_CLI_ALLOC_SAMPLE_DOC, 2 },
	{ "exact", OPT_EXACT, NULL, 0,
	  "Count every page allocation (--alloc-sample 1): exact figures at any rate, at the full "
	  "cost per allocation", 2 },
	{ "alloc-latency", OPT_ALLOC_LAT, "N", OPTION_ARG_OPTIONAL,
	  "Also time page-allocator calls, one in N (default 64), entry to exit, in log2 "
	  "histograms by placement (local, remote, failed) and class (JSON alloc_latency, "
	  "node view). Off by default: every allocator call then pays two BPF trampolines", 2 },
	{ "alloc-stacks", OPT_ALLOC_STACKS, "N", OPTION_ARG_OPTIONAL,
	  "Also attribute allocations that land off the CPU's node (remote) or off the "
	  "preferred node (miss) to their kernel stacks, one in N of them (default 1), with "
	  "gfp flags, class and order: the top sites since start (JSON alloc_stacks, text "
	  "ALLOC STACKS, node view). Off by default: every allocation then runs one more BPF program", 2 },
	{ "page-lifetime", OPT_PAGE_LIFE, "N", OPTION_ARG_OPTIONAL,
	  "Also time pages from allocation to free, one in N allocations (default 64), in "
	  "log2 histograms by placement (local, remote) and class (kernel, reclaimable, "
	  "movable, thp) (JSON page_lifetime, text PAGE LIFETIME, node view); at most 65536 "
	  "timed pages in flight, samples past that are counted as not kept. Off by default: every "
	  "allocation and every free then runs one more BPF program", 2 },
	{ "verbose", 'v', NULL, 0, "Show libbpf's log on stderr", 2 },
	{ "btf", NL_CLI_OPT_BTF, "PATH", 0, NL_CLI_BTF_DOC, 2 },
	{ 0 }
};

static const char *const sort_names[NL_NR_SORT_KEYS] = {
	[NL_SORT_REMOTE_RATE] = "remote", [NL_SORT_LOCAL_RATE] = "local",
	[NL_SORT_REMOTE_RATIO] = "ratio", [NL_SORT_LOCALITY] = "locality",
	[NL_SORT_CPU] = "cpu", [NL_SORT_RUNTIME] = "runtime", [NL_SORT_RSS] = "rss",
	[NL_SORT_MIGRATIONS] = "migrations", [NL_SORT_PID] = "pid",
};

/* -p: a pid filter. */
static void parse_pid(struct top_args *a, const char *arg, struct argp_state *st)
{
	long pid = nl_cli_parse_long(arg, 1, 4194304, "-p", st);
	char buf[32], keep[sizeof(a->view.filter.cgroup)];

	/* the parser replaces the whole filter: keep a -c given before */
	memcpy(keep, a->view.filter.cgroup, sizeof(keep));
	snprintf(buf, sizeof(buf), "%ld", pid);
	nl_sort_filter_parse(&a->view.filter, buf);
	memcpy(a->view.filter.cgroup, keep, sizeof(keep));
}

/* -c: a cgroup filter, keeping a -p given before. */
static void parse_cgroup(struct top_args *a, char *arg, struct argp_state *st)
{
	pid_t keep;

	nl_cli_check_cgroup_path(arg, "-c", st);
	keep = a->view.filter.pid;
	if (nl_sort_filter_parse(&a->view.filter, arg))
		argp_failure(st, NL_EXIT_USAGE, 0, "-c: cgroup path too long");
	a->view.filter.pid = keep;
}

/* -s: a sort key by name. */
static void parse_sort(struct top_args *a, const char *arg, struct argp_state *st)
{
	int k = -1;

	for (int i = 0; i < NL_NR_SORT_KEYS; i++)
		if (sort_names[i] && !strcmp(arg, sort_names[i]))
			k = i;
	if (k < 0)
		argp_failure(st, NL_EXIT_USAGE, 0,
			     "unknown sort key '%s': use remote, local, ratio, locality, cpu, runtime, rss, migrations or pid",
			     nl_cli_shown(arg));
	a->view.sort = (enum nl_sort_key)k;
}

/* The options of what is collected (the sources and opt-ins), apart from
 * those of what is shown. */
static error_t top_parse_collect(int key, char *arg, struct argp_state *st)
{
	struct top_args *a = st->input;

	switch (key) {
	case OPT_CG_HIER:
		a->cg_mode = nl_cli_parse_cg_mode(arg, st);
		break;
	case OPT_NO_CLASS:
		a->no_class = true;
		break;
	case OPT_RSS_PROCS:
		a->rss_procs = (int)nl_cli_parse_long(arg, 0, 100000, "--rss-procs", st);
		if (!a->rss_procs)	/* the collector's 0 is its default */
			a->rss_procs = -1;
		break;
	case OPT_SELF_COST:
		a->self_cost = true;
		break;
	case OPT_ALLOC_SAMPLE:
		a->alloc_sample = nl_cli_parse_alloc_sample(arg, st);
		break;
	case OPT_EXACT:
		a->alloc_sample = 1;
		break;
	case OPT_ALLOC_LAT:
		a->alloc_lat = arg ? nl_cli_parse_long(arg, 1, 1000000, "--alloc-latency", st) : 64;
		break;
	case OPT_ALLOC_STACKS:
		a->alloc_stacks = arg ? nl_cli_parse_long(arg, 1, 1000000, "--alloc-stacks", st) : 1;
		break;
	case OPT_PAGE_LIFE:
		a->page_life = arg ? nl_cli_parse_long(arg, 1, 1000000, "--page-lifetime", st) : 64;
		break;
	case NL_CLI_OPT_BTF:
		a->btf = arg;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static error_t top_parse(int key, char *arg, struct argp_state *st)
{
	struct top_args *a = st->input;

	switch (key) {
	case 'd':
		a->delay = nl_cli_parse_seconds(arg, 0.1, 3600, "-d", st);
		break;
	case 'n':
		a->count = nl_cli_parse_long(arg, 1, 1000000000L, "-n", st);
		break;
	case 'p':
		parse_pid(a, arg, st);
		break;
	case 'c':
		parse_cgroup(a, arg, st);
		break;
	case 's':
		parse_sort(a, arg, st);
		break;
	case 't':
		a->view.top_n = (int)nl_cli_parse_long(arg, 1, 1000000, "-t", st);
		break;
	case 'b':
		a->batch = true;
		break;
	case 'j':
		a->json = true;
		break;
	case OPT_ACTIVE:
		a->active = true;
		break;
	case OPT_NO_LEGEND:
		a->no_legend = true;
		break;
	case OPT_ALERT_REMOTE:
		a->view.alert_remote_pct = (int)nl_cli_parse_long(arg, 0, 100, "--alert-remote", st);
		break;
	case OPT_ALERT_LOCALITY:
		a->view.alert_locality_pct = (int)nl_cli_parse_long(arg, 0, 100, "--alert-locality", st);
		break;
	case 'V':
		printf("numalens %s\n", NL_VERSION);
		exit(0);
	case 'v':
		a->verbose = true;
		break;
	case ARGP_KEY_ARG:
		argp_failure(st, NL_EXIT_USAGE, 0, "unexpected argument '%s'", nl_cli_shown(arg));
		break;
	default:
		return top_parse_collect(key, arg, st);
	}
	return 0;
}

/* One line on stderr for each opt-in view the kernel cannot serve, once:
 * the rest of top runs without it. */
static void warn_unavailable(const struct nl_snapshot *s)
{
	if (s->alloc_lat.enabled && !s->alloc_lat.available)
		fprintf(stderr, "numalens top: --alloc-latency unavailable: %s\n", s->alloc_lat.unavailable);
	if (s->alloc_stacks.enabled && !s->alloc_stacks.available)
		fprintf(stderr, "numalens top: --alloc-stacks unavailable: %s\n",
			s->alloc_stacks.unavailable);
	if (s->page_life.enabled && !s->page_life.available)
		fprintf(stderr, "numalens top: --page-lifetime unavailable: %s\n", s->page_life.unavailable);
}

static int run_stream(struct nl_collector *col, const struct top_args *a)
{
	struct nl_snapshot s = {};
	struct timespec next;
	int rc = NL_EXIT_OK;

	if (!a->json && !a->no_legend && nl_text_write_legend(stdout, sysconf(_SC_PAGESIZE)) == -EPIPE)
		return NL_EXIT_OK;
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (long i = 0; !nl_stop_req && (!a->count || i < a->count); i++) {
		int e;

		nl_cli_add_seconds(&next, a->delay);
		nl_cli_sleep_until(&next);
		if (nl_stop_req && i > 0)
			break;
		e = nl_collect_snapshot(col, &s);
		if (e) {
			fprintf(stderr, "numalens top: reading the BPF maps failed: %s\n", strerror(-e));
			rc = NL_EXIT_FAIL;
			break;
		}
		if (i == 0)
			warn_unavailable(&s);
		e = a->json ? nl_json_write(stdout, &s, &a->view) : nl_text_write(stdout, &s, &a->view);
		if (e) {	/* a closed pipe ends the run quietly */
			rc = e == -EPIPE ? NL_EXIT_OK : NL_EXIT_FAIL;
			if (e != -EPIPE)
				fprintf(stderr, "numalens top: writing the snapshot failed: %s\n", strerror(-e));
			break;
		}
	}
	nl_snapshot_free(&s);
	return rc;
}

static int run_tui(struct nl_collector *col, const struct top_args *a)
{
	struct nl_snapshot s = {};
	struct nl_tui *tui = nl_tui_open(&a->view);
	struct timespec next, now;
	long shown = 0;
	int rc = NL_EXIT_OK;

	if (!tui) {
		fprintf(stderr, "numalens top: cannot start the full-screen view (%s, TERM=%s): use --batch\n",
			strerror(errno), getenv("TERM") ? getenv("TERM") : "unset");
		return NL_EXIT_FAIL;
	}
	nl_tui_set_stop_flag(tui, &nl_stop_req);
	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!nl_stop_req) {
		enum nl_tui_action act = NL_TUI_NONE;

		nl_cli_add_seconds(&next, a->delay);
		/* wait out the interval, handling keys as they come */
		for (;;) {
			long ms;

			clock_gettime(CLOCK_MONOTONIC, &now);
			ms = (next.tv_sec - now.tv_sec) * 1000 + (next.tv_nsec - now.tv_nsec) / 1000000;
			if (ms <= 0)
				break;
			act = nl_tui_poll_key(tui, (int)ms);
			if (act != NL_TUI_NONE)
				break;
		}
		if (act == NL_TUI_QUIT || nl_stop_req)
			break;
		/* a refresh key, or late: the next interval counts from now */
		if (act == NL_TUI_REFRESH)
			clock_gettime(CLOCK_MONOTONIC, &next);
		else
			nl_cli_rebase(&next);
		{
			pid_t fp;
			const char *fc;

			nl_tui_focus(tui, &fp, &fc);
			nl_collect_focus(col, fp, fc);
		}
		if (nl_collect_snapshot(col, &s)) {
			rc = NL_EXIT_FAIL;
			break;
		}
		nl_tui_render(tui, &s);
		if (a->count && ++shown >= a->count)
			break;
	}
	nl_tui_close(tui);
	nl_snapshot_free(&s);
	if (rc)
		fprintf(stderr, "numalens top: reading the BPF maps failed\n");
	return rc;
}

int nl_cmd_top(int argc, char **argv)
{
	static const struct argp argp = { top_opts, top_parse, NULL, top_doc, NULL, NULL, NULL };
	struct top_args a = { .delay = 1, .cg_mode = -1 };
	struct nl_cli_session s;
	struct nl_cli_open_opts oo;
	int rc;

	nl_view_opts_default(&a.view);
	argp_parse(&argp, argc, argv, 0, NULL, &a);
	if (a.batch && a.json) {
		fprintf(stderr, "numalens top: --batch and --json exclude each other (see 'numalens top --help')\n");
		return NL_EXIT_USAGE;
	}
	if (!a.batch && !a.json && !isatty(STDOUT_FILENO))
		a.batch = true;
	if (!a.batch && !a.json && !nl_tui_term_usable()) {
		/* a terminal that cannot place the cursor would show garbage */
		fprintf(stderr, "numalens top: TERM=%s cannot address the cursor: printing text snapshots (--batch) instead\n",
			getenv("TERM") && *getenv("TERM") ? getenv("TERM") : "(unset)");
		a.batch = true;
	}
	if (a.view.sort == NL_SORT_RSS && a.rss_procs < 0)
		fprintf(stderr, "numalens top: -s rss with --rss-procs 0 reads no process's RSS by rank: "
			"every RSS shows '-' except -p's, the detail window's and a name filter's\n");
	if (a.no_legend && !a.batch && !a.json)
		fprintf(stderr, "numalens top: --no-legend applies to --batch only: the full-screen view has its legend under '?'\n");
	if (a.view.filter.pid && kill(a.view.filter.pid, 0) && errno == ESRCH) {
		fprintf(stderr, "numalens top: no process with pid %d: check it with ps\n", (int)a.view.filter.pid);
		return NL_EXIT_USAGE;
	}
	if (a.view.filter.pid) {
		pid_t tgid;

		/* per-process figures are keyed by tgid: a thread id would
		 * match nothing and show a row of zeros */
		if (!nl_proc_tgid("/proc", a.view.filter.pid, &tgid) && tgid != a.view.filter.pid) {
			fprintf(stderr, "numalens top: -p %d is a thread of process %d: showing the process\n",
				(int)a.view.filter.pid, (int)tgid);
			a.view.filter.pid = tgid;
		}
	}
	oo = (struct nl_cli_open_opts){ .btf = a.btf, .cg_mode = a.cg_mode, .cgroup = a.view.filter.cgroup,
					.track_class = !a.no_class, .verbose = a.verbose,
					.prog = "numalens top", .watch_pid = a.view.filter.pid,
					.all_procs = !a.active, .self_cost = a.self_cost,
					.rss_max_procs = a.rss_procs,
					.alloc_latency_sample = (uint32_t)a.alloc_lat,
					.alloc_stacks_sample = (uint32_t)a.alloc_stacks,
					.page_life_sample = (uint32_t)a.page_life,
					.alloc_sample = a.alloc_sample };
	/* before the BPF load, so a signal during it still ends in exit 0 */
	nl_cli_install_signals();
	rc = nl_cli_open(&s, &oo);
	if (rc)
		return rc;
	if (s.bpf.missing[0] && (a.batch || a.json))
		fprintf(stderr, "numalens top: running without: %s\n", s.bpf.missing);

	rc = (a.batch || a.json) ? run_stream(s.col, &a) : run_tui(s.col, &a);
	nl_cli_close(&s);
	return rc;
}
