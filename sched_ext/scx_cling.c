// SPDX-License-Identifier: GPL-2.0
/*
 * scx_cling loader: attaches the scx_cling sched_ext scheduler, keeps the
 * NUMA groups' resident memory (memory.numa_stat) fresh in the gmem map
 * about once a second, pins the statistics maps for other readers
 * (sched_ext/scx_cling.h), prints --stats, and detaches cleanly on
 * SIGINT/SIGTERM or after --duration. When the kernel ends the scheduler
 * asking for a restart (SCX_ECODE_ACT_RESTART in the exit code, as after a
 * CPU hotplug event with --restart-on-hotplug), it attaches its loaded
 * object again by itself (a fresh copy with --reload-on-restart),
 * rate-limited. `scx_cling --help` explains.
 *
 * Exit: 0 detached on request; 1 runtime failure (including the kernel
 * ejecting the scheduler without asking for a restart: kind, reason and
 * message are printed, or another scheduler being attached); 2 bad usage
 * (also: more NUMA nodes than scx_cling supports); 3 lacks CAP_SYS_ADMIN; 4 kernel
 * without sched_ext or without its per-node idle tracking (before 6.15).
 */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <stdarg.h>
#include "scx_cling.h"
#include "cling_loader.h"
#include "loader.h"
#include "optcompat.h"
#include "version.h"

#define STR_(x) #x
#define STR(x) STR_(x)
#define CLING_MAX_NODES_STR STR(CLING_MAX_NODES)

/* The kernel creates struct_ops maps (a sched_ext scheduler is one) only
 * for CAP_SYS_ADMIN, which also passes its CAP_BPF and CAP_PERFMON checks:
 * that one capability is what scx_cling needs, whatever the uid. */
static bool has_sys_admin(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2] = {};

	if (syscall(SYS_capget, &h, d))
		return false;
	return d[CAP_SYS_ADMIN / 32].effective & (1u << (CAP_SYS_ADMIN % 32));
}

struct cling_opts cling_opt = {
	.degree = CLING_DEGREE_DEFAULT, .decay_ms = CLING_DECAY_MS_DEFAULT,
	.wait_us = CLING_WAIT_BOUND_US_DEFAULT, .steal_us = CLING_STEAL_US_DEFAULT,
	.cg_root = "/sys/fs/cgroup", .pin_dir = CLING_PIN_DIR,
};


const char *argp_program_version = "scx_cling " NL_VERSION;
static const char doc[] =
"scx_cling -- a sched_ext scheduler that keeps tasks on their NUMA home node "
"(\"NUMA cling\") and treats chosen cgroups as NUMA groups.\n\n"
"Each node has its own vtime-ordered queue. A task's home node is its NUMA "
"group's home (the node holding most of the cgroup's resident memory, from "
"memory.numa_stat, refreshed every second; a group holding less than 4 MiB "
"has none), or otherwise the node most of its "
"own page allocations came from. A waking group task stays on its home node "
"(an idle CPU there, else the home queue) instead of following its waker. An "
"idle CPU of another node takes a queued task only after it has waited "
"--steal-after-us.\n\n"
"Attempt and failure: an attempt is one placement of a group task on its home "
"node (an idle CPU there, or the home queue); a queued attempt fails when the "
"task does not start on a home CPU within --wait-bound-us while another node "
"had capacity to spare (an idle CPU it may use and nothing queued), or when "
"another node's CPU took it. A failed task does not "
"cling at its next "
"placement. Failures and "
"attempts weigh 1024 each and are halved every --decay-ms; a node whose "
"failure ratio (failure*100/(total+1)) exceeds --cling-degree, with at least "
"one recent failure, and which is the group's busiest node, is busy: no cling "
"to it, and the group's next-best node becomes its home until decay clears "
"it. A group with no home left (all its memory on busy nodes) does not wait "
"for its node, but its waking tasks still take an idle CPU there first.\n\n"
"CPU hotplug: the scheduler follows CPUs going offline and online. A node "
"without online CPUs (memory-only or CXL nodes, or one whose CPUs are "
"offline) is never a home: its groups are homed on the nearest node with "
"CPUs (SLIT distance; ties: more CPUs). A task whose allowed CPUs (cpuset, "
"taskset) include none of its home node clings nowhere for that placement "
"(counted as home_ignored). If the kernel ends the scheduler asking for a "
"restart, scx_cling attaches its already loaded (verified) BPF object again "
"within 2 s (sooner unless restarts come in a burst) and says so on stderr. "
"Tables for "
"up to " CLING_MAX_NODES_STR " NUMA nodes (more: exit 2).\n\n"
"Statistics are pinned under /sys/fs/bpf/scx_cling/ while it runs (read by "
"`numalens export` and `scx_cling --monitor`).\n\n"
"Exit status: 0 detached on request, 1 runtime failure (or ejected by the "
"kernel without a restart request: its reason is printed), 2 bad usage or "
"more NUMA nodes than supported, 3 lacks CAP_SYS_ADMIN, 4 kernel without sched_ext (or "
"without its per-node idle tracking, SCX_OPS_BUILTIN_IDLE_PER_NODE: Linux "
"6.15 and later).\v"
"Examples:\n"
"  scx_cling --group /db1 --group '/jobs/*' --delay 2\n"
"  scx_cling --all --cling-degree 30\n"
"  scx_cling --monitor            (another shell: watch a running scx_cling)\n"
"  scx_cling -m -j -d 5           (the same as JSON Lines, every 5 s)";

enum { O_DECAY = 1000, O_WAIT, O_STEAL, O_TASKS, O_CGROOT, O_READY, O_PINDIR,
       O_RESTART, O_BTF, O_RELOAD, O_DEGREE, O_DURATION, O_OLD_STATS };

static const struct argp_option options[] = {
	{ "group", 'g', "PATH", 0, "Make the cgroup at PATH (cgroup v2 path such as /db1, or a "
	  "glob such as '/jobs/*') a NUMA group; repeatable. Re-matched every second.", 0 },
	{ "all", 'a', NULL, 0, "Make every cgroup except the root a NUMA group", 0 },
	{ "cling-degree", O_DEGREE, "PCT", 0, "Failure ratio (0..100, percent) above which a node is "
	  "busy for a group (default 20; 100 = never busy)", 0 },
	{ "decay-ms", O_DECAY, "MS", 0, "Halve the failure statistics every MS ms (10..600000, "
	  "default 6000: a tenth of NUMA balancing's 60 s longest scan period)", 0 },
	{ "wait-bound-us", O_WAIT, "US", 0, "A task queued on its home node longer than US "
	  "microseconds while another node has an idle CPU is a failure (100..1000000, "
	  "default 5000)", 0 },
	{ "steal-after-us", O_STEAL, "US", 0, "An idle CPU of another node may run a task "
	  "queued for US microseconds (100..1000000, default 40000: two slices)", 0 },
	{ "delay", 'd', "SECONDS", 0, "Print per-node and per-group statistics every SECONDS "
	  "(0.1..86400; with --monitor default 1). In this release -d alone must be told from the "
	  "old -d (the cling degree): see docs/options.md", 1 },
	{ "monitor", 'm', NULL, 0, "Do not load: print the statistics of the scx_cling already "
	  "running, every --delay SECONDS", 1 },
	{ "tasks", O_TASKS, NULL, 0, "With --delay/--monitor, also list each task's home node", 1 },
	{ "json", 'j', NULL, 0, "With --delay/--monitor, print each block as one JSON line", 1 },
	{ "restart-on-hotplug", O_RESTART, NULL, 0, "Do not follow CPU hotplug in the scheduler: "
	  "let the kernel end it on every CPU online/offline event and re-attach (how "
	  "schedulers without hotplug support behave; for measuring that cost)", 1 },
	{ "reload-on-restart", O_RELOAD, NULL, 0, "When the kernel asks for a restart, load a "
	  "fresh copy of the BPF object (verifying it again) instead of attaching the loaded "
	  "one again; slower, for comparison", 1 },
	{ "duration", O_DURATION, "SECONDS", 0, "Detach after SECONDS (default: run until SIGINT/SIGTERM)", 1 },
	{ "ready-file", O_READY, "PATH", 0, "Write \"attached\" to PATH once the kernel reports the "
	  "scheduler enabled", 1 },
	{ "cgroup-root", O_CGROOT, "DIR", 0, "cgroup v2 mount point (default /sys/fs/cgroup)", 1 },
	{ "pin-dir", O_PINDIR, "DIR", 0, "Where to pin the statistics maps (default "
	  CLING_PIN_DIR ")", 1 },
	{ "verbose", 'v', NULL, 0, "Show libbpf's log, and after loading the instructions the "
	  "verifier processed per program (its budget is 1,000,000)", 1 },
	{ "btf", O_BTF, "PATH", 0, "Refused: a sched_ext scheduler needs the kernel's own BTF "
	  "(" NL_KERNEL_BTF "), which a BTF file cannot stand in for", 1 },
	/* the spellings before -d/--delay and --duration, for one release */
	{ "stats", O_OLD_STATS, "SECONDS", OPTION_HIDDEN, NULL, 1 },
	{ NULL, 's', "SECONDS", OPTION_HIDDEN, NULL, 1 },
	{ NULL, 't', "SECONDS", OPTION_HIDDEN, NULL, 1 },
	{ 0 }
};

/* num: parse @s as a number in [lo, hi] for option @name, or argp_error. */
static double num(struct argp_state *st, const char *name, const char *s, double lo, double hi,
		  bool integer)
{
	char *end;
	double v;

	errno = 0;
	v = integer ? (double)strtoll(s, &end, 10) : strtod(s, &end);
	/* decimal only, as numalens reads numbers: strtod would take 0x10 */
	if (errno || end == s || *end || v != v || v < lo || v > hi || strpbrk(s, "xX"))
		argp_failure(st, EX_USAGE, 0, "--%s: '%s' is not %s in %.10g..%.10g", name, s,
			   integer ? "an integer" : "a number", lo, hi);
	return v;
}

/* -d was the cling degree and is now the statistics interval (top's -d).
 * A value with a fraction or above 100 can only be an interval, and 0
 * only a degree; for the rest the command line decides (the old -s, the
 * old --monitor SECONDS or --delay itself give the interval, so -d is the
 * degree; the new --monitor switch, where a degree does nothing, or
 * --cling-degree leaves it the interval), or it is refused:
 * read as the interval, an old "-d 50" would run the scheduler with the
 * default degree while its user believes it runs with 50. */
static void resolve_d(struct argp_state *st)
{
	const char *v = cling_opt.d_arg;

	switch (nl_opt_reuse_pick(nl_opt_fits_seconds(v, 0.1, 86400), nl_opt_fits_int(v, 0, CLING_DEGREE_MAX),
				  cling_opt.delay_given || cling_opt.monitor_old,
				  (cling_opt.monitor && !cling_opt.monitor_old) || cling_opt.degree_given)) {
	case NL_OPT_OLD:
		nl_opt_renamed(stderr, "scx_cling", "-d as the cling degree", "--cling-degree");
		cling_opt.degree = (long)num(st, "cling-degree", v, 0, CLING_DEGREE_MAX, true);
		break;
	case NL_OPT_NEW:
		if (cling_opt.delay_given)
			argp_failure(st, EX_USAGE, 0, "-d %s and --delay both given: keep one", v);
		cling_opt.stats_s = num(st, "delay", v, 0.1, 86400, false);
		cling_opt.delay_given = true;
		break;
	case NL_OPT_AMBIGUOUS:
		argp_failure(st, EX_USAGE, 0, "-d %s: -d was the cling degree and is now the statistics interval: "
			   "write --cling-degree %s, or --delay %s to print the statistics every %s s",
			   v, v, v, v);
		break;
	}
}

/* parse_interval: the options of time (-d/--delay, --monitor,
 * --duration) with the older spellings each still takes for one
 * release (-s/--stats, -t, --monitor SECONDS). */
static void parse_interval(int key, char *arg, struct argp_state *st)
{
	switch (key) {
	case 'd':
		if (nl_opt_was_long(st, arg)) {
			cling_opt.stats_s = num(st, "delay", arg, 0.1, 86400, false);
			cling_opt.delay_given = true;
		} else {
			cling_opt.d_arg = arg;	/* old or new meaning: decided at the end */
		}
		break;
	case 's':
	case O_OLD_STATS:
		nl_opt_renamed(stderr, "scx_cling", key == 's' ? "-s" : "--stats", "-d/--delay");
		cling_opt.stats_s = num(st, "delay", arg, 0.1, 86400, false);
		cling_opt.delay_given = true;
		break;
	case 'm':
		cling_opt.monitor = true;
		/* the old "--monitor SECONDS": scx_cling takes no operands, so a
		 * number right after it can only be that interval */
		if (st->next < st->argc && nl_opt_fits_seconds(st->argv[st->next], 0, 1e12))
			cling_opt.monitor_old = st->argv[st->next++];
		if (cling_opt.monitor_old)
			nl_opt_renamed(stderr, "scx_cling", "--monitor SECONDS", "--monitor --delay SECONDS");
		break;
	case 't':
	case O_DURATION:
		if (key == 't')
			nl_opt_renamed(stderr, "scx_cling", "-t", "--duration");
		cling_opt.duration_s = num(st, "duration", arg, 0.1, 1e9, false);
		break;
	}
}

/* parse_end: what needs the whole command line: -d's meaning, the
 * monitor interval, options that exclude each other. */
static void parse_end(struct argp_state *st)
{
	if (cling_opt.d_arg)
		resolve_d(st);
	if (cling_opt.monitor) {
		if (cling_opt.monitor_old && cling_opt.delay_given)
			argp_failure(st, EX_USAGE, 0, "--monitor %s and --delay both give the interval: keep --delay",
				   cling_opt.monitor_old);
		cling_opt.monitor_s = cling_opt.monitor_old ? num(st, "delay", cling_opt.monitor_old, 0.1, 86400, false)
			      : cling_opt.stats_s ? cling_opt.stats_s : 1;
	}
	if (cling_opt.all && cling_opt.nr_patterns)
		argp_failure(st, EX_USAGE, 0, "--all and --group exclude each other");
	if (cling_opt.monitor_s && (cling_opt.all || cling_opt.nr_patterns || cling_opt.duration_s))
		argp_failure(st, EX_USAGE, 0, "--monitor only reads a running scx_cling: drop --all/--group/--duration");
}

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
	switch (key) {
	case 'g':
		if (cling_opt.nr_patterns >= CLING_MAX_PATTERNS)
			argp_failure(st, EX_USAGE, 0, "at most %d --group options", CLING_MAX_PATTERNS);
		if (arg[0] != '/')
			argp_failure(st, EX_USAGE, 0, "--group '%s': give a cgroup v2 path starting with '/'", arg);
		cling_opt.patterns[cling_opt.nr_patterns++] = arg;
		break;
	case 'a': cling_opt.all = true; break;
	case O_DEGREE:
		cling_opt.degree = (long)num(st, "cling-degree", arg, 0, CLING_DEGREE_MAX, true);
		cling_opt.degree_given = true;
		break;
	case O_DECAY: cling_opt.decay_ms = (long)num(st, "decay-ms", arg, 10, 600000, true); break;
	case O_WAIT: cling_opt.wait_us = (long)num(st, "wait-bound-us", arg, 100, 1000000, true); break;
	case O_STEAL: cling_opt.steal_us = (long)num(st, "steal-after-us", arg, 100, 1000000, true); break;
	case O_TASKS: cling_opt.tasks = true; break;
	case 'j': cling_opt.json = true; break;
	case O_RESTART: cling_opt.restart_on_hotplug = true; break;
	case O_RELOAD: cling_opt.reload = true; break;
	case O_READY: cling_opt.ready_file = arg; break;
	case O_CGROOT: cling_opt.cg_root = arg; break;
	case O_PINDIR: cling_opt.pin_dir = arg; break;
	case 'v': cling_opt.verbose = true; break;
	case O_BTF:
		/* struct_ops maps and their programs are matched against the
		 * running kernel's BTF ids (sched_ext_ops), which only the
		 * kernel's own BTF has: a custom file could relocate CO-RE
		 * reads but never attach the scheduler */
		argp_failure(st, EX_USAGE, 0, "--btf %s: scx_cling cannot use a BTF file: sched_ext attaches "
			   "through the kernel's own BTF (" NL_KERNEL_BTF ")", arg);
		break;
	case 'd':
	case 's':
	case O_OLD_STATS:
	case 'm':
	case 't':
	case O_DURATION:
		parse_interval(key, arg, st);
		break;
	case ARGP_KEY_ARG:
		argp_failure(st, EX_USAGE, 0, "unexpected argument '%s'", arg);
		break;
	case ARGP_KEY_END:
		parse_end(st);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp argp = { options, parse_opt, NULL, doc, NULL, NULL, NULL };

/* libbpf's log (warnings included) only behind --verbose. */
static int libbpf_log(enum libbpf_print_level lvl, const char *fmt, va_list ap)
{
	if (!cling_opt.verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

/* True when the running kernel's sched_ext has per-node idle tracking
 * (SCX_OPS_BUILTIN_IDLE_PER_NODE and the *_node kfuncs scx_cling calls,
 * Linux 6.15 and later), told by its BTF naming the kfunc. */
static bool kernel_has_idle_per_node(void)
{
	struct btf *vm = btf__load_vmlinux_btf();
	bool ok;

	if (!vm)
		return true;	/* cannot tell: let the load say what is missing */
	ok = btf__find_by_name_kind(vm, "scx_bpf_pick_idle_cpu_node", BTF_KIND_FUNC) > 0;
	btf__free(vm);
	return ok;
}

/* Restarts closer together than this wait for it; the gap doubles while
 * copies keep ending within RESTART_STABLE_S of their attach, up to
 * RESTART_MAX_GAP_S, so a storm of hotplug events cannot spin the loader. */
#define RESTART_MIN_GAP_S 0.1
#define RESTART_MAX_GAP_S 1.6
#define RESTART_STABLE_S 5.0

/* check_machine: what scx_cling needs before loading anything: no more
 * nodes than its tables, sched_ext, CAP_SYS_ADMIN, the kernel's BTF with
 * per-node idle tracking, and no other scheduler attached. EX_OK, or the
 * exit status after saying what to do. */
static int check_machine(void)
{
	char st[128], ops[128], berr[256];

	cling_run.nodes = cling_sys_possible_nodes();
	if (cling_run.nodes > CLING_MAX_NODES) {
		cling_report_error("this machine has %d possible NUMA nodes; scx_cling supports at most %d",
				   cling_run.nodes, CLING_MAX_NODES);
		return EX_USAGE;
	}
	if (access(SCX_DIR "/state", R_OK)) {
		cling_report_error("this kernel has no sched_ext (%s/state missing: CONFIG_SCHED_CLASS_EXT "
				   "is off); run scx_cling on a kernel built with sched_ext", SCX_DIR);
		return EX_KERNEL;
	}
	if (!has_sys_admin()) {
		cling_report_error("loading a sched_ext scheduler needs CAP_SYS_ADMIN (struct_ops maps), which this process lacks: run it as root");
		return EX_PRIV;
	}
	/* the same BTF check and message as numalens' commands */
	if (nl_bpf_btf_check(NULL, NULL, berr, sizeof(berr))) {
		cling_report_error("%s", berr);
		return EX_KERNEL;
	}
	if (!kernel_has_idle_per_node()) {
		cling_report_error("this kernel's sched_ext has no per-node idle tracking "
				   "(SCX_OPS_BUILTIN_IDLE_PER_NODE, Linux 6.15 and later), which scx_cling "
				   "uses to pick CPUs by node: run it on a newer kernel");
		return EX_KERNEL;
	}
	if (strcmp(cling_sys_read_word(SCX_DIR "/state", st, sizeof(st)), "disabled")) {
		cling_report_error("another sched_ext scheduler is attached (state=%s, ops=%s): stop it first",
				   st, cling_sys_read_word(SCX_DIR "/root/ops", ops, sizeof(ops))[0] ? ops : "?");
		return EX_FAIL;
	}
	return EX_OK;
}

/* run_loop: attach and run the scheduler; when the kernel ends it asking
 * for a restart, attach it again, rate-limited. Returns the exit status. */
static int run_loop(void)
{
	double gap = RESTART_MIN_GAP_S, attached_at;
	uint64_t exit_ns = 0;
	bool restart;
	int rc;

	for (;;) {
		attached_at = cling_sys_now_s();
		rc = cling_run_once(&restart, &exit_ns, cling_run.restarts ? exit_ns : 0);
		if (!restart || cling_run_stop)
			break;
		/* Rate limit: a copy that ended soon after its attach doubles
		 * the wait before the next one. */
		if (cling_sys_now_s() - attached_at < RESTART_STABLE_S)
			gap = gap * 2 > RESTART_MAX_GAP_S ? RESTART_MAX_GAP_S : gap * 2;
		else
			gap = RESTART_MIN_GAP_S;
		while (!cling_run_stop && cling_sys_now_s() < attached_at + gap)
			usleep(10000);
		if (cling_run_stop)
			break;
		if (!exit_ns)
			exit_ns = cling_sys_mono_ns();
		cling_run.restarts++;
	}
	return rc;
}

int main(int argc, char **argv)
{
	int rc;

	argp_err_exit_status = EX_USAGE;
	/* getopt names the program by argv[0] as typed ("build/scx_cling:")
	 * while argp's own messages say "scx_cling:": one name for both */
	if (argc > 0)
		argv[0] = (char *)"scx_cling";
	/* the old "--monitor=SECONDS" and "-mSECONDS": --monitor takes no
	 * value now, the interval is --delay's */
	cling_opt.monitor_old = nl_opt_take_attached(argc, argv, "monitor", 'm');
	if (argp_parse(&argp, argc, argv, 0, NULL, NULL))
		return EX_USAGE;
	libbpf_set_print(libbpf_log);
	if (cling_opt.monitor_s)
		return cling_report_monitor();
	rc = check_machine();
	if (rc != EX_OK)
		return rc;
	cling_run_begin();
	rc = run_loop();
	if (rc == EX_OK)
		printf("scx_cling: detached\n");
	return rc;
}
