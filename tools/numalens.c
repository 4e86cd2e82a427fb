// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * numalens: NUMA locality made visible, without a PMU.
 * The one CLI; each subcommand is a cmd_* function. `top` loads the BPF
 * objects (loader.c), builds one snapshot per interval (collect.c) and
 * hands it to a view (ncurses, text or JSON).
 */
#include <argp.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cgroup.h"
#include "collect.h"
#include "loader.h"
#include "view_json.h"
#include "view_sort.h"
#include "view_text.h"
#include "view_tui.h"

#define NL_VERSION "0.1.0"

static volatile sig_atomic_t stop_req;

static void on_signal(int sig)
{
	(void)sig;
	stop_req = 1;
}

/* ---- top ---------------------------------------------------------------- */

enum { OPT_CG_HIER = 1000, OPT_NO_CLASS };

struct top_args {
	double delay;
	long count;		/* 0 = until interrupted */
	bool batch, json, force_tui, verbose, no_class;
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
	"Sort keys (-s, or keys 1-9 on screen): remote (1), local (2), ratio (3), "
	"locality (4, worst first), cpu (5, default), runtime (6), rss (7), "
	"migrations (8), pid (9).\n\n"
	"Locality is 'unavail' when it cannot be measured here (kernel.numa_balancing "
	"is 0, or the sched program is missing) and 'n/a' for a row with no NUMA "
	"hinting faults in the interval: never shown as 0.\n\n"
	"Exit status: 0 ok, 1 runtime failure, 2 bad usage, 3 not root (needs "
	"CAP_BPF and CAP_PERFMON), 4 kernel lacks BTF, tracefs or every tracepoint.\n\n"
	"Examples:\n"
	"  numalens top                      full-screen view, 1 s refresh\n"
	"  numalens top --batch -n 2 -d 1    two text snapshots, one second apart\n"
	"  numalens top --json -n 5 -p 1234  five JSON objects for pid 1234\n"
	"  numalens top -c /system.slice -s remote";

static const struct argp_option top_opts[] = {
	{ "delay", 'd', "SECONDS", 0, "Interval between snapshots (default 1; 0.1 to 3600)", 0 },
	{ "count", 'n', "COUNT", 0, "Stop after COUNT snapshots (default: until q or Ctrl-C)", 0 },
	{ "pid", 'p', "PID", 0, "Show only this process (cgroups are still all shown)", 0 },
	{ "cgroup", 'c', "PATH", 0, "Show only processes and cgroups at or below cgroup PATH "
				     "(relative to the hierarchy, e.g. /system.slice)", 0 },
	{ "sort", 's', "KEY", 0, "Sort rows by KEY (see below)", 0 },
	{ "top", 't', "N", 0, "Show at most N process and cgroup rows", 0 },
	{ "batch", 'b', NULL, 0, "Plain-text snapshots instead of the full-screen view", 1 },
	{ "json", 'j', NULL, 0, "One JSON object per interval (JSON Lines)", 1 },
	{ "cgroup-hierarchy", OPT_CG_HIER, "auto|v2|v1-memory", 0,
	  "Which cgroup tree to key cgroups by. auto: cgroup v2 when it has the memory "
	  "controller, else the v1 memory hierarchy (hybrid hosts)", 2 },
	{ "no-class", OPT_NO_CLASS, NULL, 0,
	  "Do not split user pages into anon/file/shmem (skips the LRU tracepoint)", 2 },
	{ "verbose", 'v', NULL, 0, "Show libbpf's log on stderr", 2 },
	{ 0 }
};

static const char *const sort_names[NL_NR_SORT_KEYS] = {
	[NL_SORT_REMOTE_RATE] = "remote", [NL_SORT_LOCAL_RATE] = "local",
	[NL_SORT_REMOTE_RATIO] = "ratio", [NL_SORT_LOCALITY] = "locality",
	[NL_SORT_CPU] = "cpu", [NL_SORT_RUNTIME] = "runtime", [NL_SORT_RSS] = "rss",
	[NL_SORT_MIGRATIONS] = "migrations", [NL_SORT_PID] = "pid",
};

static long parse_long(const char *s, long lo, long hi, const char *what, struct argp_state *st)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		argp_failure(st, NL_EXIT_USAGE, 0, "%s must be a whole number from %ld to %ld, not '%s'",
			     what, lo, hi, s);
	return v;
}

static error_t top_parse(int key, char *arg, struct argp_state *st)
{
	struct top_args *a = st->input;
	char *end;

	switch (key) {
	case 'd':
		errno = 0;
		a->delay = strtod(arg, &end);
		/* written so that NaN fails too */
		if (errno || end == arg || *end || !(a->delay >= 0.1 && a->delay <= 3600))
			argp_failure(st, NL_EXIT_USAGE, 0,
				     "-d takes seconds from 0.1 to 3600, not '%s'", arg);
		break;
	case 'n':
		a->count = parse_long(arg, 1, 1000000000L, "-n", st);
		break;
	case 'p': {
		long pid = parse_long(arg, 1, 4194304, "-p", st);
		char buf[32];

		snprintf(buf, sizeof(buf), "%ld", pid);
		nl_filter_parse(&a->view.filter, buf);
		break;
	}
	case 'c':
		if (arg[0] != '/')
			argp_failure(st, NL_EXIT_USAGE, 0,
				     "-c takes a cgroup path starting with '/', e.g. /system.slice, not '%s'", arg);
		{
			pid_t keep = a->view.filter.pid;

			if (nl_filter_parse(&a->view.filter, arg))
				argp_failure(st, NL_EXIT_USAGE, 0, "-c: cgroup path too long");
			a->view.filter.pid = keep;
		}
		break;
	case 's': {
		int k = -1;

		for (int i = 0; i < NL_NR_SORT_KEYS; i++)
			if (sort_names[i] && !strcmp(arg, sort_names[i]))
				k = i;
		if (k < 0)
			argp_failure(st, NL_EXIT_USAGE, 0,
				     "unknown sort key '%s': use remote, local, ratio, locality, cpu, runtime, rss, migrations or pid", arg);
		a->view.sort = (enum nl_sort_key)k;
		break;
	}
	case 't':
		a->view.top_n = (int)parse_long(arg, 1, 1000000, "-t", st);
		break;
	case 'b':
		a->batch = true;
		break;
	case 'j':
		a->json = true;
		break;
	case OPT_CG_HIER:
		if (!strcmp(arg, "auto"))
			a->cg_mode = -1;
		else if (!strcmp(arg, "v2"))
			a->cg_mode = NL_CG_V2;
		else if (!strcmp(arg, "v1-memory"))
			a->cg_mode = NL_CG_V1_MEMORY;
		else
			argp_failure(st, NL_EXIT_USAGE, 0,
				     "--cgroup-hierarchy takes auto, v2 or v1-memory, not '%s'", arg);
		break;
	case OPT_NO_CLASS:
		a->no_class = true;
		break;
	case 'v':
		a->verbose = true;
		break;
	case ARGP_KEY_ARG:
		argp_failure(st, NL_EXIT_USAGE, 0, "unexpected argument '%s'", arg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* Sleep until @deadline (CLOCK_MONOTONIC) or a signal. */
static void sleep_until(const struct timespec *deadline)
{
	while (!stop_req && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, deadline, NULL) == EINTR)
		;
}

static void add_seconds(struct timespec *t, double s)
{
	long ns = (long)(s * 1e9);

	t->tv_sec += ns / 1000000000L;
	t->tv_nsec += ns % 1000000000L;
	if (t->tv_nsec >= 1000000000L) {
		t->tv_sec++;
		t->tv_nsec -= 1000000000L;
	}
}

static int run_stream(struct nl_collector *col, const struct top_args *a)
{
	struct nl_snapshot s = {};
	struct timespec next;
	int rc = NL_EXIT_OK;

	clock_gettime(CLOCK_MONOTONIC, &next);
	for (long i = 0; !stop_req && (!a->count || i < a->count); i++) {
		int e;

		add_seconds(&next, a->delay);
		sleep_until(&next);
		if (stop_req && i > 0)
			break;
		e = nl_collect_snapshot(col, &s);
		if (e) {
			fprintf(stderr, "numalens: reading the BPF maps failed: %s\n", strerror(-e));
			rc = NL_EXIT_FAIL;
			break;
		}
		e = a->json ? nl_json_write(stdout, &s, &a->view) : nl_text_write(stdout, &s, &a->view);
		if (e) {	/* a closed pipe ends the run quietly */
			rc = e == -EPIPE ? NL_EXIT_OK : NL_EXIT_FAIL;
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
		fprintf(stderr, "numalens: cannot start the full-screen view (%s, TERM=%s): use --batch\n",
			strerror(errno), getenv("TERM") ? getenv("TERM") : "unset");
		return NL_EXIT_FAIL;
	}
	nl_tui_set_stop_flag(tui, &stop_req);
	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!stop_req) {
		enum nl_tui_action act = NL_TUI_NONE;

		add_seconds(&next, a->delay);
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
		if (act == NL_TUI_QUIT || stop_req)
			break;
		if (act == NL_TUI_REFRESH)
			clock_gettime(CLOCK_MONOTONIC, &next);
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
		fprintf(stderr, "numalens: reading the BPF maps failed\n");
	return rc;
}

/* Mount point of the hierarchy @mode names (cgroup2, or the v1 memory
 * controller), for --cgroup-hierarchy. 0 or -ENOENT. */
static int find_cgroup_mount(int mode, char *out, size_t len)
{
	FILE *f = fopen("/proc/self/mounts", "r");
	char dev[256], dir[512], type[64], opts[1024];
	int e = -ENOENT;

	if (!f)
		return -errno;
	while (fscanf(f, "%255s %511s %63s %1023s %*d %*d", dev, dir, type, opts) == 4) {
		bool hit = mode == NL_CG_V2 ? !strcmp(type, "cgroup2")
					    : !strcmp(type, "cgroup") && strstr(opts, "memory");
		if (hit) {
			snprintf(out, len, "%s", dir);
			e = 0;
			break;
		}
	}
	fclose(f);
	return e;
}

static int cmd_top(int argc, char **argv)
{
	static const struct argp argp = { top_opts, top_parse, NULL, top_doc, NULL, NULL, NULL };
	struct top_args a = { .delay = 1, .cg_mode = -1 };
	struct nl_bpf_opts bo = {};
	struct nl_collect_opts co = { .sysfs_root = "/sys", .procfs_root = "/proc" };
	struct nl_collector *col = NULL;
	struct nl_bpf b;
	enum nl_cgroup_mode mode = NL_CG_V2;
	char root[512] = "", err[512] = "";
	int rc, e;

	nl_view_opts_default(&a.view);
	argp_parse(&argp, argc, argv, 0, NULL, &a);
	if (a.batch && a.json) {
		fprintf(stderr, "numalens top: --batch and --json exclude each other (see 'numalens top --help')\n");
		return NL_EXIT_USAGE;
	}
	if (!a.batch && !a.json && !isatty(STDOUT_FILENO))
		a.batch = true;

	e = nl_cgroup_detect("/proc/self/mounts", &mode, root, sizeof(root));
	if (e) {
		fprintf(stderr, "numalens: no cgroup hierarchy is mounted: cgroup figures are off\n");
		mode = NL_CG_V2;
	}
	if (a.cg_mode >= 0 && a.cg_mode != (int)mode) {
		/* the user's choice: find that hierarchy's mount */
		e = find_cgroup_mount(a.cg_mode, root, sizeof(root));
		if (e) {
			fprintf(stderr, "numalens: no %s cgroup hierarchy is mounted: use --cgroup-hierarchy=auto\n",
				a.cg_mode == NL_CG_V2 ? "cgroup v2" : "v1 memory");
			return NL_EXIT_USAGE;
		}
		mode = (enum nl_cgroup_mode)a.cg_mode;
	}
	if (a.view.filter.pid && kill(a.view.filter.pid, 0) && errno == ESRCH) {
		fprintf(stderr, "numalens: no process with pid %d: check it with ps\n", (int)a.view.filter.pid);
		return NL_EXIT_USAGE;
	}
	if (a.view.filter.cgroup[0] && root[0]) {
		char full[1024];

		snprintf(full, sizeof(full), "%s%s", root, a.view.filter.cgroup);
		if (access(full, F_OK)) {
			fprintf(stderr, "numalens: no cgroup %s under %s: paths are relative to that mount\n",
				a.view.filter.cgroup, root);
			return NL_EXIT_USAGE;
		}
	}
	bo.cgroup_mode = mode;
	bo.track_class = !a.no_class;
	bo.verbose = a.verbose;
	rc = nl_bpf_open(&b, &bo, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "numalens: %s\n", err);
		return rc;
	}
	co.cgroup_mode = mode;
	co.cgroup_root = root;
	e = nl_collect_open(&col, &b, &co, err, sizeof(err));
	if (e) {
		fprintf(stderr, "numalens: %s\n", err);
		nl_bpf_close(&b);
		return NL_EXIT_FAIL;
	}
	if (b.missing[0] && (a.batch || a.json))
		fprintf(stderr, "numalens: running without: %s\n", b.missing);

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, SIG_IGN);
	rc = (a.batch || a.json) ? run_stream(col, &a) : run_tui(col, &a);
	nl_collect_close(col);
	nl_bpf_close(&b);
	return rc;
}

/* ---- main --------------------------------------------------------------- */

static const struct {
	const char *name;
	int (*fn)(int, char **);
	const char *help;
} cmds[] = {
	{ "top", cmd_top, "live NUMA locality per process, cgroup and node (numatop-like)" },
};

static void usage(FILE *f)
{
	fprintf(f, "Usage: numalens COMMAND [OPTION...]\n"
		   "NUMA locality made visible from BPF tracepoints, without a PMU.\n\n"
		   "Commands:\n");
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  %-8s %s\n", cmds[i].name, cmds[i].help);
	fprintf(f, "\n'numalens COMMAND --help' describes a command's options.\n"
		   "Needs root (CAP_BPF, CAP_PERFMON) and a kernel with BTF.\n");
}

int main(int argc, char **argv)
{
	argp_err_exit_status = NL_EXIT_USAGE;
	if (argc < 2) {
		usage(stderr);
		return NL_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("numalens %s\n", NL_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name)) {
			char prog[64];

			snprintf(prog, sizeof(prog), "numalens %s", cmds[i].name);
			argv[1] = prog;
			return cmds[i].fn(argc - 1, argv + 1);
		}
	fprintf(stderr, "numalens: unknown command '%s' (see 'numalens --help')\n", argv[1]);
	return NL_EXIT_USAGE;
}
