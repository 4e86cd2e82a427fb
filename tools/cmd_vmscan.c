// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * `numalens vmscan`: the seed's memory.vmscan_stat per cgroup from the
 * vmscan tracepoints, with its derived ratios, printed every
 * interval as totals since the command started.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "cli.h"
#include "view_vmscan.h"

enum { OPT_CG_HIER = 1000, OPT_ALL };

struct vs_args {
	double delay;
	long count;
	bool json, verbose;
	const char *btf;	/* --btf */
	int cg_mode;
	struct nl_vs_view_opts view;
};

static const char vs_doc[] =
	"Report page reclaim per cgroup the way the memcg NUMA-scanning patches' "
	"memory.vmscan_stat did: pages scanned, rotated (activated) and freed, "
	"anon and file, and the time spent reclaiming, by context (limit = memcg "
	"reclaim at memory.max/high, direct = global direct reclaim, kswapd, "
	"proactive = memory.reclaim, node reclaim, MADV_PAGEOUT), with the "
	"per-node breakdown (N0=... N1=...) and the derived ratios: freed/scanned, "
	"rotated/scanned, ns per scanned and per freed page, anon share of "
	"scanning, reclaim time share. Figures are totals since the command "
	"started, printed every interval; cgroups are hierarchical (a parent "
	"includes its descendants, removed ones too).\v"
	"Fields are named as in that memory.vmscan_stat: scanned_pages_by_limit, "
	"scanned_anon_pages_by_limit, ..., freed_file_pages_by_limit, "
	"elapsed_ns_by_limit, and the same _by_direct, _by_kswapd, _by_proactive. "
	"Extra fields: refill_* (the active-list part of scanned, memory.stat "
	"pgrefill), pageout_* (MADV_PAGEOUT/DAMON pages, no anon/file split), "
	"episodes, throttled. Under MGLRU \"rotated\" is the pages the eviction "
	"pass found referenced and moved to a younger generation; see docs/vmscan.md.\n\n"
	"On kernels whose reclaim tracepoints do not name the memcg (before 7.x), "
	"limit reclaim is charged to the cgroup of the task that reclaims.\n\n"
	"Exit status: 0 ok, 1 runtime failure, 2 bad usage, 3 lacks CAP_BPF or CAP_PERFMON (root has both), 4 kernel "
	"lacks BTF or tracefs.\n\n"
	"Examples:\n"
	"  numalens vmscan                     one report after 5 s\n"
	"  numalens vmscan -c /app -d 10 -n 6  a report every 10 s for a minute\n"
	"  numalens vmscan --json -n 3         JSON Lines (docs/json.md)";

static const struct argp_option vs_opts[] = {
	{ "cgroup", 'c', "PATH", 0, "Show only cgroup PATH and its descendants (relative to the "
				     "hierarchy, e.g. /system.slice)", 0 },
	{ "delay", 'd', "SECONDS", 0, "Interval between reports (default 5; 0.1 to 3600)", 0 },
	{ "count", 'n', "COUNT", 0, "Stop after COUNT reports (default 1; 0 = until Ctrl-C)", 0 },
	{ "json", 'j', NULL, 0, "One JSON object per report (JSON Lines)", 0 },
	{ "all", OPT_ALL, NULL, 0, "Also show cgroups and contexts without any reclaim", 0 },
	{ "cgroup-hierarchy", OPT_CG_HIER, "auto|v2|v1-memory", 0,
	  "Which cgroup tree to key cgroups by (as for numalens top)", 1 },
	{ "verbose", 'v', NULL, 0, "Show libbpf's log on stderr", 1 },
	{ "btf", NL_CLI_OPT_BTF, "PATH", 0, NL_CLI_BTF_DOC, 1 },
	{ 0 }
};

static error_t vs_parse(int key, char *arg, struct argp_state *st)
{
	struct vs_args *a = st->input;

	switch (key) {
	case 'c':
		nl_cli_check_cgroup_path(arg, "-c", st);
		a->view.cgroup = arg;
		break;
	case 'd':
		a->delay = nl_cli_parse_seconds(arg, 0.1, 3600, "-d", st);
		break;
	case 'n':
		a->count = nl_cli_parse_long(arg, 0, 1000000000L, "-n", st);
		break;
	case 'j':
		a->json = true;
		break;
	case OPT_ALL:
		a->view.all = true;
		break;
	case OPT_CG_HIER:
		a->cg_mode = nl_cli_parse_cg_mode(arg, st);
		break;
	case NL_CLI_OPT_BTF:
		a->btf = arg;
		break;
	case 'v':
		a->verbose = true;
		break;
	case ARGP_KEY_ARG:
		argp_failure(st, NL_EXIT_USAGE, 0, "unexpected argument '%s'", nl_cli_shown(arg));
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

int nl_cmd_vmscan(int argc, char **argv)
{
	static const struct argp argp = { vs_opts, vs_parse, NULL, vs_doc, NULL, NULL, NULL };
	struct vs_args a = { .delay = 5, .count = 1, .cg_mode = -1 };
	struct nl_cli_session s;
	struct nl_cli_open_opts oo;
	struct nl_snapshot snap = {};
	struct timespec next;
	int rc;

	argp_parse(&argp, argc, argv, 0, NULL, &a);
	oo = (struct nl_cli_open_opts){ .btf = a.btf, .cg_mode = a.cg_mode, .cgroup = a.view.cgroup,
					.track_class = false, .verbose = a.verbose,
					.prog = "numalens vmscan",
					/* its figures come from the reclaim tracepoints
					 * alone: the sched_switch, page-allocator and
					 * migration programs would cost every context
					 * switch and allocation for nothing */
					.vmscan_only = true };
	nl_cli_install_signals();	/* before the load: a signal during it exits 0 */
	rc = nl_cli_open(&s, &oo);
	if (rc)
		return rc;
	if (!s.bpf.have_vmscan) {
		fprintf(stderr, "numalens vmscan: the reclaim tracepoints could not be used: %s\n",
			s.bpf.missing);
		nl_cli_close(&s);
		return NL_EXIT_KERNEL;
	}
	/* nothing else is printed before the first report: say that it counts */
	fprintf(stderr, "numalens vmscan: attached to the reclaim tracepoints; first report in %g s\n",
		a.delay);
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (long i = 0; !a.count || i < a.count; i++) {
		int e;

		nl_cli_add_seconds(&next, a.delay);
		nl_cli_sleep_until(&next);
		e = nl_collect_snapshot(s.col, &snap);
		if (e) {
			fprintf(stderr, "numalens vmscan: reading the BPF maps failed: %s\n", strerror(-e));
			rc = NL_EXIT_FAIL;
			break;
		}
		a.view.wall_ns += snap.interval_ns;
		e = a.json ? nl_vmscan_json_write(stdout, &snap, &a.view)
			   : nl_vmscan_text_write(stdout, &snap, &a.view);
		if (e) {	/* a closed pipe ends the run quietly */
			if (e != -EPIPE)
				fprintf(stderr, "numalens vmscan: writing the report failed: %s\n", strerror(-e));
			rc = e == -EPIPE ? NL_EXIT_OK : NL_EXIT_FAIL;
			break;
		}
		if (nl_stop_req)	/* Ctrl-C: the report above is the last */
			break;
	}
	nl_snapshot_free(&snap);
	nl_cli_close(&s);
	return rc;
}
