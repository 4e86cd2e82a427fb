// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The command line of `numalens export` (export_opts.h). */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "export_opts.h"
#include "optcompat.h"

enum {
	OPT_CG_HIER = 1000, OPT_NO_CLASS, OPT_DEPTH, OPT_PATTERN, OPT_MAX_CG, OPT_TOP_PROCS,
	OPT_GRACE, OPT_MAX_CONNS, OPT_SYNTH, OPT_RECLAIM_HIST, OPT_SELF_COST, OPT_OLD_INTERVAL,
	OPT_MAX_PER_ADDR, OPT_HEADER_TIMEOUT, OPT_ALLOC_SAMPLE, OPT_EXACT, OPT_WEB_LISTEN, OPT_WEB_CONFIG,
};

static const char export_doc[] =
	"Serve numalens' NUMA locality figures as Prometheus metrics: the same snapshot "
	"`numalens top` shows (on-CPU time per node, NUMA-fault locality as a histogram, "
	"local and remote page allocations per node and class, migrations, reclaim per "
	"cgroup and node as `numalens vmscan` counts it, the kernel's numastat per node, "
	"and numalens' own cost).\v"
	"Endpoints: /metrics (Prometheus text format 0.0.4; gzip when the scraper asks), "
	"/healthz (200 while snapshots are fresh, else 503), / (links, version, kernel, "
	"sources).\n\n"
	"The default port 10072 is outside the exporter ports we know to be taken in "
	"Prometheus' default port allocations; ADDR is a numeric IPv4/IPv6 address or "
	"localhost, and an empty ADDR (':10072') listens on every address, as exporters do "
	"so that a central Prometheus can scrape them.\n\n"
	"Cardinality: only the root cgroup '/' (the host total) is exported unless "
	"--cgroup-depth or --cgroup-pattern opt more in; --max-cgroups caps the label values "
	"(numalens_cgroups_omitted counts the rest); per-process series are off unless "
	"--top-procs K. Series of a removed cgroup stay --cgroup-grace seconds (so the "
	"last counts get scraped) and then go; its counts stay in its parents.\n\n"
	"Locality (numalens_cgroup_fault_locality_ratio) is a histogram whose observations "
	"are CPU-seconds: histogram_quantile(0.5, ...) is the locality of the median "
	"CPU-second. It stays empty while kernel.numa_balancing is 0 "
	"(numalens_source_available{source=\"numa_balancing\"} says so).\n\n"
	"Reclaim: numalens_cgroup_reclaim_{scanned,rotated,freed}_bytes_total by context "
	"(limit, direct, proactive; kswapd on '/' only) and lru (anon, file, unknown = "
	"MADV_PAGEOUT/DAMON), in bytes (pages x numalens_page_size_bytes); "
	"numalens_cgroup_reclaim_seconds_total and the episode histogram "
	"numalens_cgroup_reclaim_duration_seconds by context (for '/' only unless "
	"--cgroup-reclaim-histograms); numalens_node_reclaim_* per node. They add 30 series "
	"per exported cgroup (78 with --cgroup-reclaim-histograms): opt cgroups in with care. "
	"While scx_cling runs, numalens_scx_cling_* carry its statistics; cgroups managed by "
	"numalens reclaim get numalens_reclaim_agent_*.\n\n"
	"TLS and authentication: --web.config.file takes the YAML file Prometheus exporters "
	"share (check it with 'promtool check web-config FILE'): tls_server_config (cert_file, "
	"key_file, client_auth_type, client_ca_file, min_version/max_version TLS12 or TLS13) "
	"and basic_auth_users (USER: bcrypt hash, e.g. from 'htpasswd -nBC 10 USER'). With "
	"users, every path answers 401 without one, /healthz included.\n\n"
	"Exit status: 0 after SIGINT/SIGTERM, 1 runtime failure, 2 bad usage, a refused web "
	"configuration file or an address that cannot be bound (port in use, not an address of this host), 3 lacks CAP_BPF or CAP_PERFMON (root has both), 4 "
	"kernel lacks BTF, tracefs or every tracepoint.\n\n"
	"Examples:\n"
	"  numalens export                 on :10072, root cgroup only\n"
	"  numalens export --listen 127.0.0.1:10072 --cgroup-depth 1\n"
	"  numalens export --web.config.file /etc/numalens/web.yml   HTTPS, users\n"
	"  numalens export --cgroup-pattern '/system.slice/*' --top-procs 10\n"
	"  numalens export -j -d 15         start-up facts as JSON, a snapshot every 15 s\n"
	"  curl -s localhost:10072/metrics | promtool check metrics";

static const struct argp_option export_opts[] = {
	{ "web.listen-address", OPT_WEB_LISTEN, "ADDR:PORT", 0, "Address to serve on (default "
	  NL_EXPORT_DEFAULT_LISTEN ", every address); [V6]:PORT for IPv6. Repeatable, up to 8", 0 },
	{ "listen", 'l', "ADDR:PORT", 0, "The same as --web.listen-address", 0 },
	{ "web.config.file", OPT_WEB_CONFIG, "FILE", 0, "Web configuration (YAML, as Prometheus exporters "
	  "take it): TLS, client certificates and basic-auth users with bcrypt hashes; checked before "
	  "anything is bound", 0 },
	{ "delay", 'd', "SECONDS", 0, "Snapshot interval: how fresh scrapes are (default 5; 0.2 to 3600). "
				       "Keep it at or below the scrape interval", 0 },
	{ "json", 'j', NULL, 0, "Print the start-up facts (address, interval, programs attached, cgroup "
				"hierarchy, ...) as one JSON object on stdout, then serve", 0 },
	/* the spellings before -d/--delay, for one release */
	{ "interval", OPT_OLD_INTERVAL, "SECONDS", OPTION_HIDDEN, NULL, 0 },
	{ NULL, 'i', "SECONDS", OPTION_HIDDEN, NULL, 0 },
	{ "cgroup-depth", OPT_DEPTH, "N", 0, "Export cgroups down to depth N (0 = root only, the default; "
					     "-1 = none but --cgroup-pattern matches)", 1 },
	{ "cgroup-pattern", OPT_PATTERN, "GLOB", 0, "Also export cgroups whose path matches GLOB (fnmatch; '*' "
						    "matches '/' too). Repeatable, up to 32", 1 },
	{ "max-cgroups", OPT_MAX_CG, "N", 0, "At most N cgroup label values, parents first (default 1000; 0 = no cap)", 1 },
	{ "top-procs", OPT_TOP_PROCS, "K", 0, "Per-process series for the K busiest processes of each interval "
					      "(default 0: none)", 1 },
	{ "cgroup-reclaim-histograms", OPT_RECLAIM_HIST, NULL, 0, "Reclaim-episode histograms for every exported "
	  "cgroup, not only the root (48 series per cgroup)", 1 },
	{ "cgroup-grace", OPT_GRACE, "SECONDS", 0, "Keep a removed cgroup's series this long (default 60)", 1 },
	{ "cgroup-hierarchy", OPT_CG_HIER, "auto|v2|v1-memory", 0,
	  "Which cgroup tree to key cgroups by (auto: v2 when it has the memory controller, else v1 memory)", 1 },
	{ "no-class", OPT_NO_CLASS, NULL, 0, "Do not split user pages into anon/file/shmem", 1 },
	{ "alloc-sample", OPT_ALLOC_SAMPLE, "N|auto", 0, NL_CLI_ALLOC_SAMPLE_DOC, 1 },
	{ "exact", OPT_EXACT, NULL, 0, "Count every page allocation (--alloc-sample 1)", 1 },
	{ "self-cost", OPT_SELF_COST, NULL, 0, "Turn on the kernel's BPF run-time stats while running, so "
	  "numalens_bpf_program_run_time_seconds_total advances; every BPF program on the host then runs "
	  "slightly slower", 1 },
	{ "max-connections", OPT_MAX_CONNS, "N", 0, "Concurrent HTTP connections (default 128)", 2 },
	{ "max-connections-per-address", OPT_MAX_PER_ADDR, "N", 0, "Of them from one client address "
	  "(default half of --max-connections)", 2 },
	{ "header-timeout", OPT_HEADER_TIMEOUT, "SECONDS", 0, "Close a connection that has not sent a "
	  "complete request this long after connecting or after its last response (default 5)", 2 },
	{ "verbose", 'v', NULL, 0, "libbpf's and libmicrohttpd's messages on stderr", 2 },
	{ "btf", NL_CLI_OPT_BTF, "PATH", 0, NL_CLI_BTF_DOC, 2 },
	{ "synthetic", OPT_SYNTH, "CGROUPSxNODES", OPTION_HIDDEN, "Serve a synthetic snapshot, no BPF (bench, tests)", 2 },
	{ 0 }
};

/* The options of the HTTP server: where it listens, its web configuration
 * and its connection limits. */
static error_t export_parse_web(int key, char *arg, struct argp_state *st)
{
	struct nl_export_args *a = st->input;

	switch (key) {
	case 'l':
	case OPT_WEB_LISTEN:
		if (a->nr_listen == NL_EXPORT_MAX_LISTEN)
			argp_failure(st, NL_EXIT_USAGE, 0, "at most %d listen addresses", NL_EXPORT_MAX_LISTEN);
		a->listen[a->nr_listen++] = arg;
		break;
	case OPT_WEB_CONFIG:
		a->web_config = arg;
		break;
	case OPT_MAX_CONNS:
		a->max_conns = (unsigned)nl_cli_parse_long(arg, 4, 65536, "--max-connections", st);
		break;
	case OPT_MAX_PER_ADDR:
		a->max_per_addr = (unsigned)nl_cli_parse_long(arg, 1, 65536, "--max-connections-per-address", st);
		break;
	case OPT_HEADER_TIMEOUT:
		a->header_timeout = nl_cli_parse_seconds(arg, 0.5, 3600, "--header-timeout", st);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* The options of which series are exported (cgroups, processes, reclaim
 * histograms) and how long a removed cgroup stays. */
static error_t export_parse_series(int key, char *arg, struct argp_state *st)
{
	struct nl_export_args *a = st->input;

	switch (key) {
	case OPT_DEPTH:
		a->po.cgroup_depth = (int)nl_cli_parse_long(arg, -1, 64, "--cgroup-depth", st);
		break;
	case OPT_PATTERN:
		if (a->po.nr_cgroup_patterns >= NL_EXPORT_MAX_PATTERNS)
			argp_failure(st, NL_EXIT_USAGE, 0, "at most %d --cgroup-pattern options", NL_EXPORT_MAX_PATTERNS);
		if (arg[0] != '/' && arg[0] != '*')
			argp_failure(st, NL_EXIT_USAGE, 0,
				     "--cgroup-pattern matches paths from the hierarchy root, e.g. '/system.slice/*', not '%s'",
				     nl_cli_shown(arg));
		a->patterns[a->po.nr_cgroup_patterns++] = arg;
		break;
	case OPT_MAX_CG:
		a->po.max_cgroups = (int)nl_cli_parse_long(arg, 0, 1000000, "--max-cgroups", st);
		break;
	case OPT_TOP_PROCS:
		a->po.top_procs = (int)nl_cli_parse_long(arg, 0, 10000, "--top-procs", st);
		break;
	case OPT_RECLAIM_HIST:
		a->po.cgroup_reclaim_histograms = true;
		break;
	case OPT_GRACE:
		a->grace = nl_cli_parse_seconds(arg, 0, 86400, "--cgroup-grace", st);
		break;
	default:
		return export_parse_web(key, arg, st);
	}
	return 0;
}

static error_t export_parse(int key, char *arg, struct argp_state *st)
{
	struct nl_export_args *a = st->input;

	switch (key) {
	case 'i':
	case OPT_OLD_INTERVAL:
		nl_opt_renamed(stderr, "numalens export", key == 'i' ? "-i" : "--interval", "-d/--delay");
		/* fall through */
	case 'd':
		a->interval = nl_cli_parse_seconds(arg, 0.2, 3600, "-d/--delay", st);
		break;
	case 'j':
		a->json = true;
		break;
	case OPT_CG_HIER:
		a->cg_mode = nl_cli_parse_cg_mode(arg, st);
		break;
	case OPT_ALLOC_SAMPLE:
		a->alloc_sample = nl_cli_parse_alloc_sample(arg, st);
		break;
	case OPT_EXACT:
		a->alloc_sample = 1;
		break;
	case OPT_NO_CLASS:
		a->no_class = true;
		break;
	case OPT_SELF_COST:
		a->self_cost = true;
		break;
	case NL_CLI_OPT_BTF:
		a->btf = arg;
		break;
	case 'v':
		a->verbose = true;
		break;
	case OPT_SYNTH:
		if (sscanf(arg, "%dx%d", &a->synth_cgroups, &a->synth_nodes) != 2 || a->synth_cgroups < 1 ||
		    a->synth_cgroups > 1000000 || a->synth_nodes < 1 || a->synth_nodes > NL_MAX_NODES)
			argp_failure(st, NL_EXIT_USAGE, 0, "--synthetic takes CGROUPSxNODES, e.g. 2000x4, not '%s'", nl_cli_shown(arg));
		break;
	case ARGP_KEY_ARG:
		argp_failure(st, NL_EXIT_USAGE, 0, "unexpected argument '%s'", nl_cli_shown(arg));
		break;
	default:
		return export_parse_series(key, arg, st);
	}
	return 0;
}

void nl_export_opts_parse(int argc, char **argv, struct nl_export_args *a)
{
	static const struct argp argp = { export_opts, export_parse, NULL, export_doc, NULL, NULL, NULL };

	*a = (struct nl_export_args){ .interval = 5, .grace = 60, .cg_mode = -1 };
	nl_prom_opts_default(&a->po);
	argp_parse(&argp, argc, argv, 0, NULL, a);
	if (!a->nr_listen)
		a->listen[a->nr_listen++] = NL_EXPORT_DEFAULT_LISTEN;
}
