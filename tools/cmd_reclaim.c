// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * `numalens reclaim`: background reclaim for chosen cgroups, from the
 * victim node a BPF lottery draws (docs/reclaim.md). This file is the
 * command: its options, the start-up banner and --status. The agent
 * itself lives in tools/reclaim/: its loop reclaim_loop.c, the cgroups it
 * matches reclaim_match.c, its state reclaim_agent.c, its state published
 * for top/export by reclaim_pub.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "agent_files.h"
#include "cli.h"
#include "topology.h"
#include "cgroup.h"
#include "names.h"
#include "optcompat.h"
#include "reclaim_agent.h"
#include "reclaim_damos.h"
#include "reclaim_jsonl.h"
#include "reclaim_loop.h"
#include "reclaim_match.h"
#include "reclaim_pub.h"
#include "reclaim_read.h"
#include "reclaim_report.h"
#include "reclaim_wait.h"

enum { OPT_HIGH = 2000, OPT_LOW, OPT_STEP, OPT_PASS, OPT_RATE, OPT_BACKEND, OPT_VICTIM,
       OPT_ANON, OPT_MODE, OPT_BAL, OPT_PRESSURE, OPT_DRY, OPT_STATUS, OPT_CG_HIER, OPT_COLD,
       OPT_DURATION, OPT_OLD_INTERVAL };

struct rc_args {
	struct nl_ra_cfg cfg;
	struct nl_match m;	/* the CGROUP arguments */
	double interval, duration;
	const char *d_arg;	/* -d's value, read at the end (optcompat.h) */
	bool delay_given;	/* --delay, or the old -i/--interval */
	bool duration_given;	/* --duration */
	bool json;		/* -j: JSON Lines on stdout */
	bool status;
	bool low_given;		/* --low on the command line (else its default) */
	int cg_mode;
	bool libbpf_log;
	const char *btf;	/* --btf */
};

static const char rc_doc[] =
	"Keep cgroups below a high watermark by reclaiming in the background, from "
	"the NUMA node a lottery picks: each node of a memcg gets a weight from its "
	"reclaimable pages (memory.numa_stat), swappiness, swap availability and "
	"recent scan/rotate figures (as the kernel patches that proposed NUMA-aware memcg reclaim had them, with "
	"their defects fixed), weights become tickets, and a BPF program draws the "
	"victim node with bpf_get_prandom_u32(), both when a memcg hits its limit "
	"(mm_vmscan_memcg_reclaim_begin) and for the agent's own passes.\v"
	"CGROUP is a path under the cgroup mount (/bench/a) or a glob pattern "
	"('/bench/*', quoted): only '*' and '?' make a pattern (then '[...]' is a "
	"set); anything else is a plain path, taken as written, that must exist. "
	"Only matching cgroups are ever touched; patterns are "
	"matched again every interval, so a pattern may match nothing yet (the agent "
	"waits for its cgroups). An existing cgroup of the "
	"very name given is taken as written; in a pattern a backslash quotes the next "
	"character, so systemd's \\x2d is written \\\\x2d there. The root cgroup (/, "
	"the whole host) is never a target, and a cgroup another running agent "
	"manages is refused, naming that agent's pid.\n\n"
	"When usage rises above --high the agent reclaims in steps of --step pages "
	"from the drawn node until usage is at or below --low (hysteresis). A pass "
	"is at most --pass-steps steps and is then re-queued; it stops after three "
	"steps without progress, and pauses while the cgroup's memory.pressure "
	"(PSI 'some') grows faster than --pressure microseconds per second. Near "
	"--high, usage is read every 50 ms, so a pass starts as soon as it is "
	"crossed. A step frees only the page types the weights count (page cache "
	"only while there is plenty of it). When evicted pages come back as faults "
	"the cgroup waits on (anon refaults while it evicts anon, page cache refaults "
	"up to the major faults; memory.stat) at more than half the rate the agent "
	"frees them, it stops reclaiming (ahead of the limit and on limit events) "
	"for 2 s, doubling up to 30 s. With lru_gen, page cache read with read(2) "
	"is left to the kernel: a node's page cache counts only when at least half "
	"of it is mapped.\n\n"
	"Backends, probed at start in this order (the one in use is printed): "
	"lru_gen (MGLRU's proactive reclaim in /sys/kernel/debug/lru_gen: ages the "
	"memcg's LRU on the drawn node and evicts only its oldest generations, "
	"pages not touched across two agings at least --cold-ms apart; debugfs is "
	"mounted if it is not), damos (DAMON "
	"paddr scheme over the node's physical range, memcg filter, pageout of "
	"regions not accessed for 1 s, with a size quota), madvise (process_madvise(MADV_PAGEOUT) on the cgroup's pages "
	"on that node, found with move_pages, that stayed idle since the previous "
	"step (page_idle bitmap); without page_idle it cannot tell hot pages from "
	"cold and comes last), memcg (memory.reclaim: memcg-wide, "
	"the last resort, not node-targeted). A backend the kernel refuses is "
	"dropped for the next one.\n\n"
	"When a managed cgroup enters limit reclaim, the node the BPF program "
	"draws there is reclaimed from at once: the ring buffer wakes the agent, "
	"which reclaims from that node down to --low (at least one step; logged "
	"with -v as 'hook draw=ID ...', "
	"counted in the status 'hook:' line; the latency from the event to the "
	"step, p50/p99, is printed at exit).\n\n"
	"When the agent cannot help a cgroup (no node holds pages its backend "
	"would free, what it evicts comes back, or its passes free nothing), it "
	"stands by: the hook only counts that cgroup's limit events, it is looked "
	"at again when its usage or swap use moves or every 5 s, and with every cgroup "
	"standing by the reclaim tracepoint programs are paused (as while no cgroup has an "
	"eligible node) and the published state is written only with those looks (status line 'standby:'; what the agent itself "
	"costs, by part of its loop: 'agent_cost:').\n\n"
	"Agent reclaim is counted apart from direct-reclaim stalls. Every interval "
	"the agent publishes its state in " NL_RECLAIM_RUN_DIR "/PID.json (and "
	"PID.status), one pair per agent, replaced atomically: `numalens top` shows "
	"it in the cgroup view (AGT/s column, RECLAIM AGENTS section, \"reclaim_agent\" "
	"in --json) and `numalens export` serves it as the numalens_reclaim_* "
	"metrics.\n\n"
	"Weights: the scanned/rotated figures come from the reclaim tracepoints "
	"(as `numalens vmscan` counts them: every context's LRU scans, the agent's "
	"own pageouts excluded), decayed by half each interval; a node with fewer "
	"than 32 recent scanned pages of a type uses the cold-start prior.\n\n"
	"Status: --status prints, per cgroup, the numa_stat line of those patches "
	"'scan_weight=W N0=w0 N1=w1 ...', the ticket intervals, the balance "
	"classification, and the block every running agent managing it "
	"published (scan source, draws, pages, passes).\n\n"
	"Exit status: 0 ok, 1 runtime failure, 2 bad usage (a cgroup path that does not exist, bad "
	"watermark), 3 lacks CAP_BPF or CAP_PERFMON (CAP_SYS_ADMIN also passes), 4 kernel lacks BPF/BTF or every backend (the madvise backend also needs CAP_SYS_NICE, CAP_SYS_PTRACE and CAP_SYS_ADMIN; lru_gen needs CAP_SYS_ADMIN only to mount debugfs).\n\n"
	"Examples:\n"
	"  numalens reclaim --high 80% --low 70% /bench/a\n"
	"  numalens reclaim --dry-run --duration 10 '/jobs/*'\n"
	"  numalens reclaim --json --delay 5 /bench/a   (JSON Lines, docs/json.md)\n"
	"  numalens reclaim --backend madvise --rate-limit 64 /bench/a\n"
	"  numalens reclaim --status /bench/a";

static const struct argp_option rc_opts[] = {
	{ "high", OPT_HIGH, "SIZE|PCT", 0, "High watermark: bytes (K/M/G suffixes) or percent of memory.max (default 75%)", 0 },
	{ "low", OPT_LOW, "SIZE|PCT", 0, "Reclaim down to this (default 70%); must be below --high", 0 },
	{ "delay", 'd', "SECONDS", 0, "Check usage and refresh weights every SECONDS (default 1; 0.05 to "
	  "3600). In this release -d alone must be told from the old -d (the run time, now --duration): "
	  "see docs/options.md", 0 },
	{ "duration", OPT_DURATION, "SECONDS", 0, "Stop after this long (default: until Ctrl-C)", 0 },
	{ "json", 'j', NULL, 0, "Decisions, steps, the state every interval and the summary as JSON Lines "
				"on stdout (docs/json.md); with --status, one JSON object", 0 },
	/* the spellings before -d/--delay, for one release */
	{ "interval", OPT_OLD_INTERVAL, "SECONDS", OPTION_HIDDEN, NULL, 0 },
	{ NULL, 'i', "SECONDS", OPTION_HIDDEN, NULL, 0 },
	{ "dry-run", OPT_DRY, NULL, 0, "Log every decision, reclaim nothing", 0 },
	{ "status", OPT_STATUS, NULL, 0, "Print weights, tickets and draws, then exit", 0 },
	{ "step", OPT_STEP, "PAGES", 0, "Pages per step (default 32, SWAP_CLUSTER_MAX)", 1 },
	{ "pass-steps", OPT_PASS, "N", 0, "Steps per pass before re-queueing (default 128)", 1 },
	{ "rate-limit", OPT_RATE, "MiB/s", 0, "Reclaim at most this fast over all cgroups (default: no limit)", 1 },
	{ "pressure", OPT_PRESSURE, "US", 0, "Back off while PSI memory stall grows faster than US microseconds per second (default 10000; 0 = never)", 1 },
	{ "backend", OPT_BACKEND, "NAME", 0, "auto (default), lru_gen, damos, madvise or memcg", 2 },
	{ "cold-ms", OPT_COLD, "MS", 0, "lru_gen: pages untouched this long are cold; the shortest time between two agings (default 1000)", 2 },
	{ "victim", OPT_VICTIM, "RULE", 0, "lottery (default) or round-robin (the pre-2011 rule, for comparison)", 2 },
	{ "anon-rule", OPT_ANON, "RULE", 0, "intent (default: count inactive anon only when file is small) or code (those patches' inverted test)", 2 },
	{ "draw-mode", OPT_MODE, "MODE", 0, "half-open (default) or kernel2011 (rand & 0xffff, closed intervals, misses; W/(n+1) balance)", 2 },
	{ "balance", OPT_BAL, "LO,HI", 0, "Balanced window, percent of the average weight (default 80,120)", 2 },
	{ "cgroup-hierarchy", OPT_CG_HIER, "H", 0, "auto (default), v2 or v1-memory", 3 },
	{ "verbose", 'v', NULL, 0, "Log every step (twice: libbpf's log too)", 3 },
	{ "btf", NL_CLI_OPT_BTF, "PATH", 0, NL_CLI_BTF_DOC, 3 },
	{ 0 }
};

static int pick_name(const char *s, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

/* -d was the run time and is now the interval (top's -d). Both take
 * seconds, so a value alone rarely tells: the rest of the command line
 * does (the old -i, or --delay itself, leaves -d the run time; --duration
 * or --status leaves it the interval); else the command is refused,
 * since reading an old "-d 10" as the interval would leave an agent
 * running that was meant to stop after 10 s. */
static void resolve_d(struct rc_args *a, struct argp_state *st)
{
	const char *v = a->d_arg;

	if (a->delay_given && a->duration_given)	/* neither meaning is left for it */
		argp_failure(st, NL_EXIT_USAGE, 0, "-d %s: --delay and --duration are both given: drop -d",
			     nl_cli_shown(v));
	switch (nl_opt_reuse_pick(nl_opt_fits_seconds(v, 0.05, 3600), nl_opt_fits_seconds(v, 0.05, 1e9),
				  a->delay_given, a->duration_given || a->status)) {
	case NL_OPT_OLD:
		nl_opt_renamed(stderr, "numalens reclaim", "-d as the run time", "--duration");
		if (a->duration_given)
			argp_failure(st, NL_EXIT_USAGE, 0, "-d %s (the old run time) and --duration both given: "
				     "keep --duration", nl_cli_shown(v));
		a->duration = nl_cli_parse_seconds(v, 0.05, 1e9, "--duration", st);
		break;
	case NL_OPT_NEW:
		if (a->delay_given)
			argp_failure(st, NL_EXIT_USAGE, 0, "-d %s and --delay both given: keep one",
				     nl_cli_shown(v));
		a->interval = nl_cli_parse_seconds(v, 0.05, 3600, "-d/--delay", st);
		break;
	case NL_OPT_AMBIGUOUS:
		argp_failure(st, NL_EXIT_USAGE, 0, "-d %s: -d was the run time and is now the interval: "
			     "write --duration %s to stop after %s s, or --delay %s to check every %s s",
			     nl_cli_shown(v), nl_cli_shown(v), nl_cli_shown(v), nl_cli_shown(v), nl_cli_shown(v));
		break;
	}
}

/* The options that tune the agent's passes and draws (argp groups 1 and
 * 2 of --help): into a->cfg. ARGP_ERR_UNKNOWN for any other key. */
static error_t rc_parse_tuning(struct rc_args *a, int key, char *arg, struct argp_state *st)
{
	static const char *const backends[] = { "damos", "madvise", "memcg", "lru_gen", "auto" };
	static const char *const victims[] = { "lottery", "round-robin" };
	static const char *const anon[] = { "intent", "code" };
	static const char *const modes[] = { "half-open", "kernel2011" };
	int k;

	switch (key) {
	case OPT_STEP:
		a->cfg.step_pages = (uint32_t)nl_cli_parse_long(arg, 1, 1 << 20, "--step", st);
		break;
	case OPT_PASS:
		a->cfg.pass_steps = (uint32_t)nl_cli_parse_long(arg, 1, 1 << 20, "--pass-steps", st);
		break;
	case OPT_RATE: {
		char *end;
		double v = strtod(arg, &end);

		/* strtod's hex and exponent forms are refused as typos */
		if (end == arg || *end || strpbrk(arg, "xXpPeEnN") || !(v >= 0.01 && v <= 1e6))
			argp_failure(st, NL_EXIT_USAGE, 0, "--rate-limit: MiB/s from 0.01 to 1000000, not '%s'", nl_cli_shown(arg));
		a->cfg.rate_mib_s = v;
		break;
	}
	case OPT_PRESSURE:
		a->cfg.psi_us_s = (double)nl_cli_parse_long(arg, 0, 1000000, "--pressure", st);
		break;
	case OPT_BACKEND:
		if ((k = pick_name(arg, backends, 5)) < 0)
			argp_failure(st, NL_EXIT_USAGE, 0, "--backend: auto, lru_gen, damos, madvise or memcg, not '%s'", nl_cli_shown(arg));
		a->cfg.backend = k == 4 ? -1 : k;
		break;
	case OPT_COLD:
		a->cfg.cold_ms = (uint32_t)nl_cli_parse_long(arg, 10, 3600000, "--cold-ms", st);
		break;
	case OPT_VICTIM:
		if ((k = pick_name(arg, victims, 2)) < 0)
			argp_failure(st, NL_EXIT_USAGE, 0, "--victim: lottery or round-robin, not '%s'", nl_cli_shown(arg));
		a->cfg.victim = k;
		break;
	case OPT_ANON:
		if ((k = pick_name(arg, anon, 2)) < 0)
			argp_failure(st, NL_EXIT_USAGE, 0, "--anon-rule: intent or code, not '%s'", nl_cli_shown(arg));
		a->cfg.anon_rule = (uint32_t)k;
		break;
	case OPT_MODE:
		if ((k = pick_name(arg, modes, 2)) < 0)
			argp_failure(st, NL_EXIT_USAGE, 0, "--draw-mode: half-open or kernel2011, not '%s'", nl_cli_shown(arg));
		a->cfg.draw_mode = (uint32_t)k;
		break;
	case OPT_BAL: {
		unsigned lo, hi;
		char c;

		if (sscanf(arg, "%u,%u%c", &lo, &hi, &c) != 2 || lo >= hi || hi > 1000)
			argp_failure(st, NL_EXIT_USAGE, 0, "--balance: LO,HI percents with LO < HI <= 1000, not '%s'", nl_cli_shown(arg));
		a->cfg.bal_lo = lo;
		a->cfg.bal_hi = hi;
		break;
	}
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static error_t rc_parse(int key, char *arg, struct argp_state *st)
{
	struct rc_args *a = st->input;

	switch (key) {
	case OPT_HIGH:
	case OPT_LOW:
		a->low_given |= key == OPT_LOW;
		if (nl_wm_parse(arg, key == OPT_HIGH ? &a->cfg.high : &a->cfg.low))
			argp_failure(st, NL_EXIT_USAGE, 0, "--%s: '%s' is neither a size (512M, 1G) nor a percent from 0.01%% to 100%% (decimal, no hex or exponent)",
				     key == OPT_HIGH ? "high" : "low", nl_cli_shown(arg));
		break;
	case 'i':
	case OPT_OLD_INTERVAL:
		nl_opt_renamed(stderr, "numalens reclaim", key == 'i' ? "-i" : "--interval", "-d/--delay");
		a->interval = nl_cli_parse_seconds(arg, 0.05, 3600, "-d/--delay", st);
		a->delay_given = true;
		break;
	case 'd':
		if (nl_opt_was_long(st, arg)) {
			a->interval = nl_cli_parse_seconds(arg, 0.05, 3600, "-d/--delay", st);
			a->delay_given = true;
		} else {
			a->d_arg = arg;	/* old or new meaning: decided at the end */
		}
		break;
	case OPT_DURATION:
		a->duration = nl_cli_parse_seconds(arg, 0.05, 1e9, "--duration", st);
		a->duration_given = true;
		break;
	case 'j': a->json = true; break;
	case OPT_DRY: a->cfg.dry_run = true; break;
	case OPT_STATUS: a->status = true; break;
	case OPT_CG_HIER: a->cg_mode = nl_cli_parse_cg_mode(arg, st); break;
	case NL_CLI_OPT_BTF:
		a->btf = arg;
		break;
	case 'v':
		a->libbpf_log = a->cfg.verbose;
		a->cfg.verbose = true;
		break;
	case ARGP_KEY_ARG:
		nl_cli_check_cgroup_path(arg, "a cgroup argument", st);
		if (a->m.npat == NL_MATCH_MAX)
			argp_failure(st, NL_EXIT_USAGE, 0, "at most %d cgroup paths or patterns", NL_MATCH_MAX);
		a->m.pat[a->m.npat++] = arg;
		break;
	case ARGP_KEY_END:
		if (a->d_arg)
			resolve_d(a, st);
		if (!a->m.npat)
			argp_failure(st, NL_EXIT_USAGE, 0, "give at least one cgroup path or pattern (see --help)");
		/* same units: checkable now (bytes against percent waits for memory.max) */
		if (a->cfg.high.pct == a->cfg.low.pct &&
		    (a->cfg.high.pct ? a->cfg.low.pct_val >= a->cfg.high.pct_val
				     : a->cfg.low.bytes >= a->cfg.high.bytes))
			argp_failure(st, NL_EXIT_USAGE, 0, "--low%s must be below --high (hysteresis)%s",
				     a->low_given ? "" : " (default 70%)",
				     a->low_given ? "" : ": give --low too");
		break;
	default:
		return rc_parse_tuning(a, key, arg, st);
	}
	return 0;
}

/* Print the blocks of cgroup ids @ids[@n] from every running agent's
 * status file (reclaim_read.h: one per agent, dead pids skipped). */
static void print_agent_status(const uint64_t *ids, int n)
{
	struct nl_agent_file *f = NULL;
	int nf = nl_agent_files_read(NL_RECLAIM_RUN_DIR, "status", &f), shown = 0;

	for (int i = 0; i < nf; i++) {
		bool on = false;

		for (char *line = f[i].text, *end; line && *line; line = end) {
			char *p = strstr(line, " id=");
			uint64_t id;

			end = strchr(line, '\n');
			end = end ? end + 1 : line + strlen(line);
			if (!strncmp(line, "cgroup ", 7) && p && p < end && sscanf(p, " id=%" SCNu64, &id) == 1) {
				on = false;
				for (int k = 0; k < n; k++)
					on |= ids[k] == id;
				if (on)
					printf("\nrunning agent (pid %d):\n", f[i].pid), shown++;
			}
			if (on)
				fwrite(line, 1, (size_t)(end - line), stdout);
		}
	}
	nl_agent_files_free(f, nf);
	if (!shown)
		printf("\nno running agent manages %s (" NL_RECLAIM_RUN_DIR ")\n", n == 1 ? "it" : "them");
}

/* The defaults a bare `numalens reclaim CGROUP` runs with. */
static void rc_defaults(struct rc_args *a)
{
	a->interval = 1.0;
	a->cg_mode = -1;
	a->cfg.backend = -1;
	a->cfg.step_pages = 32;
	a->cfg.pass_steps = 128;
	a->cfg.psi_us_s = 10000;
	a->cfg.bal_lo = 80;
	a->cfg.bal_hi = 120;
	nl_wm_parse("75%", &a->cfg.high);
	nl_wm_parse("70%", &a->cfg.low);
}

/* The cgroup hierarchy to work in, into @mode and @root. Returns 0, or an
 * exit code after saying why on stderr. */
static int pick_hierarchy(const struct rc_args *a, const char *prog, enum nl_cgroup_mode *mode,
			  char *root, size_t len)
{
	if (a->cg_mode < 0) {
		if (nl_mount_detect("/proc/self/mounts", mode, root, len)) {
			fprintf(stderr, "%s: no cgroup hierarchy is mounted\n", prog);
			return NL_EXIT_FAIL;
		}
		return nl_cli_cgroup_root_check(prog, root);
	}
	*mode = (enum nl_cgroup_mode)a->cg_mode;
	if (nl_mount_find("/proc/self/mounts", *mode, root, len)) {
		fprintf(stderr, "%s: no %s hierarchy is mounted: use --cgroup-hierarchy=auto\n",
			prog, *mode == NL_CG_V2 ? "cgroup v2" : "v1 memory");
		return NL_EXIT_USAGE;
	}
	return nl_cli_cgroup_root_check(prog, root);
}

/* --status: what this command computes now for each cgroup, then the
 * running agents' published state. */
static void show_status(struct nl_ra *ra)
{
	uint64_t ids[NL_RA_MAX_CG];

	printf("computed now by this command (its own --high/--low; not a running agent):\n");
	for (int i = 0; i < ra->nr_cg; i++) {
		struct nl_ra_cg *c = &ra->cg[i];

		nl_rcg_limit(c->dir, ra->cfg.v1, &c->limit);
		nl_rcg_usage(c->dir, ra->cfg.v1, &c->usage);
		nl_rcg_events_max(c->dir, ra->cfg.v1, &c->events_max);
		c->events_max0 = c->events_max;
		c->wm_bad = nl_wm_resolve(&ra->cfg.high, &ra->cfg.low, c->limit, &c->wm) != 0;
		/* the state an agent started now would take: reclaiming at or
		 * above high (else "idle" above high reads as a contradiction) */
		if (!c->wm_bad)
			nl_wm_update(&c->wm, c->usage);
		nl_agent_refresh(ra, c);
		nl_report_status(ra, c, stdout);
		ids[i] = c->id;
	}
	print_agent_status(ids, ra->nr_cg);
}

/* --status --json: one object, {"computed": what this command computes
 * now (the PID.json document of reclaim_read.h, for its own --high/--low),
 * "agents": [each running agent's published document, its cgroups cut
 * to the ones asked about]}. */
static void show_status_json(struct nl_ra *ra)
{
	cJSON *o = cJSON_CreateObject(), *agents;
	struct nl_agent_file *f = NULL;
	int nf;
	char *out;

	if (!o)
		return;
	for (int i = 0; i < ra->nr_cg; i++) {
		struct nl_ra_cg *c = &ra->cg[i];

		nl_rcg_limit(c->dir, ra->cfg.v1, &c->limit);
		nl_rcg_usage(c->dir, ra->cfg.v1, &c->usage);
		c->wm_bad = nl_wm_resolve(&ra->cfg.high, &ra->cfg.low, c->limit, &c->wm) != 0;
		if (!c->wm_bad)	/* as the text: the state an agent started now would take */
			nl_wm_update(&c->wm, c->usage);
		nl_agent_refresh(ra, c);
	}
	cJSON_AddItemToObject(o, "computed", nl_pub_state_obj(ra));
	agents = cJSON_AddArrayToObject(o, "agents");
	nf = nl_agent_files_read(NL_RECLAIM_RUN_DIR, "json", &f);
	for (int i = 0; agents && i < nf; i++) {
		cJSON *doc = cJSON_Parse(f[i].text), *cgs = cJSON_GetObjectItem(doc, "cgroups"), *c, *next;
		int kept = 0;

		for (c = cgs ? cgs->child : NULL; c; c = next) {
			cJSON *id = cJSON_GetObjectItem(c, "id");
			bool on = false;

			next = c->next;
			for (int k = 0; id && k < ra->nr_cg; k++)
				on |= (double)ra->cg[k].id == id->valuedouble;
			if (on)
				kept++;
			else
				cJSON_Delete(cJSON_DetachItemViaPointer(cgs, c));
		}
		if (kept)
			cJSON_AddItemToArray(agents, doc);
		else
			cJSON_Delete(doc);
	}
	nl_agent_files_free(f, nf);
	out = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	if (out)
		printf("%s\n", out);
	free(out);
}

/* The start-up lines: hierarchy, backend, victim rule, hook, what is missing. */
static void print_banner(const struct nl_ra *ra, const struct rc_args *a, const char *root,
			 bool have_limit)
{
	if (a->json) {
		cJSON *o = cJSON_CreateObject(), *un;

		if (o) {
			cJSON_AddNumberToObject(o, "pid", (double)getpid());
			cJSON_AddStringToObject(o, "cgroup_mode", a->cfg.v1 ? "v1-memory" : "v2");
			cJSON_AddStringToObject(o, "cgroup_root", root);
			cJSON_AddStringToObject(o, "backend", nl_rb_name(ra->backend));
			cJSON_AddStringToObject(o, "victim", a->cfg.victim == NL_VICTIM_RR ? "round-robin" : "lottery");
			cJSON_AddBoolToObject(o, "limit_hook", have_limit);
			cJSON_AddNumberToObject(o, "interval_seconds", a->interval);
			cJSON_AddNumberToObject(o, "duration_seconds", a->duration);
			un = cJSON_AddObjectToObject(o, "backends_unavailable");
			for (int k = 0; un && k < NL_RB_NR; k++)
				if (!ra->probe.ok[k])
					cJSON_AddStringToObject(un, nl_rb_name(k), ra->probe.why[k]);
			if (nl_damos_cleaned())
				cJSON_AddStringToObject(o, "damos_cleaned", nl_damos_cleaned());
		}
		nl_jsonl_emit(stdout, "start", a->cfg.dry_run, NULL, o);
		return;
	}
	printf("numalens reclaim: %s hierarchy at %s; backend %s%s; victim %s; limit-reclaim hook %s%s\n",
	       a->cfg.v1 ? "v1 memory" : "cgroup v2", root, nl_rb_name(ra->backend),
	       ra->backend == NL_RB_MEMCG ? " (memcg-wide, the last resort: not node-targeted)" : "",
	       a->cfg.victim == NL_VICTIM_RR ? "round-robin" : "BPF lottery",
	       have_limit ? "attached" : "not available",
	       a->cfg.dry_run ? "; dry run: nothing is reclaimed" : "");
	for (int k = 0; k < NL_RB_NR; k++)
		if (!ra->probe.ok[k])
			printf("  backend %s unavailable: %s\n", nl_rb_name(k), ra->probe.why[k]);
	if (nl_damos_cleaned())
		printf("  %s\n", nl_damos_cleaned());
}

/* Parse and check the command line and pick the cgroup hierarchy into
 * @mode and @root. Returns 0, or the exit code after saying why. */
static int rc_setup(struct rc_args *a, int argc, char **argv, enum nl_cgroup_mode *mode, char *root,
		    size_t len)
{
	struct argp argp = { rc_opts, rc_parse, "CGROUP...", rc_doc, NULL, NULL, NULL };
	char err[512] = "";
	int rc;

	rc_defaults(a);
	if (argp_parse(&argp, argc, argv, 0, NULL, a))
		return NL_EXIT_USAGE;
	if (a->status && a->cfg.dry_run) {
		/* said rather than ignored: the user may think --status acts otherwise */
		fprintf(stderr, "%s: --status reclaims nothing anyway: leave out --dry-run\n", argv[0]);
		return NL_EXIT_USAGE;
	}
	if (nl_topo_node_limit_check("/sys", err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", argv[0], err);
		return NL_EXIT_USAGE;
	}
	rc = pick_hierarchy(a, argv[0], mode, root, len);
	if (rc)
		return rc;
	a->cfg.v1 = *mode == NL_CG_V1_MEMORY;
	a->cfg.root = root;
	a->cfg.log = a->status ? NULL : stdout;
	a->cfg.json = a->json;
	a->m.status = a->status;
	/* before the BPF load: a SIGTERM while it runs (~20 ms) ends the
	 * agent cleanly at its first loop check instead of killing it */
	if (!a->status)
		nl_cli_install_signals();
	return 0;
}

/* The agent's run, once its cgroups passed the checks: banner, tables,
 * the loop (reclaim_loop.h) and the summary. @wait_new: nothing matched
 * yet, said first. */
static void rc_run(struct nl_ra *ra, struct rc_args *a, struct nl_lot_bpf *lot, enum nl_cgroup_mode mode,
		   const char *root, bool have_limit, const char *prog, bool wait_new)
{
	static struct nl_sampler sampler;
	struct nl_loop_opts lo = { .interval = a->interval, .duration = a->duration, .root = root,
				   .prog = prog, .match = &a->m, .sampler = &sampler, .stop = &nl_stop_req };

	if (wait_new)
		fprintf(stderr, "%s: no cgroup under %s matches %s%s yet: waiting for one "
			"(patterns are matched again every %g s)\n", prog, root, nl_cli_shown(a->m.pat[0]),
			a->m.npat > 1 ? " (or the others)" : "", a->interval);
	print_banner(ra, a, root, have_limit);
	nl_match_all(ra, &a->m, root, true);
	/* tables in BPF before the slower collector start: the limit hook
	 * draws from them at once */
	for (int i = 0; i < ra->nr_cg; i++)
		nl_agent_refresh(ra, &ra->cg[i]);
	nl_sampler_open(&sampler, ra, (int)mode, root, a->libbpf_log, a->btf);
	nl_wait_init(ra, lot, &nl_stop_req);
	fflush(stdout);
	nl_loop_run(ra, &lo);
	nl_loop_summary(ra);
	nl_pub_remove(NULL);
	nl_sampler_close(&sampler, ra);
}

int nl_cmd_reclaim(int argc, char **argv)
{
	struct rc_args a = { 0 };
	static struct nl_ra ra;
	struct nl_lot_bpf *lot = NULL;
	enum nl_cgroup_mode mode = NL_CG_V2;
	char root[512] = "", rootdir[600], err[512] = "";
	bool have_limit = false, wait_new;
	int rc, found;

	rc = rc_setup(&a, argc, argv, &mode, root, sizeof(root));
	if (rc)
		return rc;
	rc = nl_lot_open(&lot, mode, !a.status, a.libbpf_log, a.btf, 0, &have_limit, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "%s: %s\n", argv[0], err);
		return rc;
	}
	if (nl_agent_init(&ra, &a.cfg, lot, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", argv[0], err);
		nl_lot_close(lot);
		return NL_EXIT_KERNEL;
	}
	snprintf(rootdir, sizeof(rootdir), "%s/", root);
	if (nl_cgroup_id_of(rootdir, &a.m.root_id))
		a.m.root_id = 0;
	found = nl_match_all(&ra, &a.m, root, false);
	/* A pattern names cgroups that may come later (a job's cgroup made
	 * after the agent starts); a plain path that is missing is a typo. */
	wait_new = !found && !a.status && nl_match_has_pattern(&a.m);
	if (a.m.root_pat) {
		fprintf(stderr, "%s: %s %s the root cgroup, the whole host: the agent manages cgroups "
			"below it (e.g. /bench/a)\n", argv[0], nl_cli_shown(a.m.root_pat),
			nl_match_is_pattern(a.m.root_pat) ? "matches" : "is");
		rc = NL_EXIT_USAGE;
	} else if (!found && !wait_new) {
		fprintf(stderr, "%s: no cgroup under %s matches %s%s: paths are relative to that mount\n",
			argv[0], root, nl_cli_shown(a.m.pat[0]), a.m.npat > 1 ? " (or the others)" : "");
		rc = NL_EXIT_USAGE;
	} else if (a.status) {
		if (a.json)
			show_status_json(&ra);
		else
			show_status(&ra);
		rc = NL_EXIT_OK;
	} else if (!(rc = nl_match_check_watermarks(&ra, argv[0])) &&
		   !(rc = nl_match_check_owners(&ra, (int)mode, argv[0]))) {
		rc_run(&ra, &a, lot, mode, root, have_limit, argv[0], wait_new);
	}
	nl_rb_cleanup();
	nl_lot_close(lot);
	return rc;
}
