// SPDX-License-Identifier: GPL-2.0
/*
 * scx_cling loader: attaches the scx_cling sched_ext scheduler, keeps the
 * NUMA groups' resident memory (memory.numa_stat) fresh in the gmem map
 * about once a second, pins the statistics maps for other readers
 * (bpf/include/cling_maps.h), prints --stats, and detaches cleanly on
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
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "cling_stats.h"
#include "loader.h"
#include "optcompat.h"
#include "version.h"
#include "topology.h"
#include "scx_cling.skel.h"

#define SCX_DIR "/sys/kernel/sched_ext"
#define NODE_DIR "/sys/devices/system/node"
#define STR_(x) #x
#define STR(x) STR_(x)
#define CLING_MAX_NODES_STR STR(CLING_MAX_NODES)
#define BPF_FS_MAGIC_ 0xcafe4a11
#define MAX_PATTERNS 64

enum { EX_OK = 0, EX_FAIL = 1, EX_USAGE = 2, EX_PRIV = 3, EX_KERNEL = 4 };


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

static struct {
	const char *patterns[MAX_PATTERNS];
	int nr_patterns;
	bool all;
	long degree;
	long decay_ms;
	long wait_us;
	long steal_us;
	double stats_s;
	double monitor_s;
	double duration_s;
	bool monitor;		/* -m: read a running scx_cling, load nothing */
	const char *d_arg;	/* -d's value, read at the end (optcompat.h) */
	const char *monitor_old;	/* the old --monitor SECONDS' value */
	bool delay_given;	/* --delay, or the old -s/--stats */
	bool degree_given;	/* --cling-degree */
	bool tasks;
	bool verbose;
	bool json;
	bool restart_on_hotplug;
	bool reload;		/* --reload-on-restart */
	const char *cg_root;
	const char *ready_file;
	const char *pin_dir;
} opt = {
	.degree = CLING_DEGREE_DEFAULT, .decay_ms = 6000, .wait_us = 5000, .steal_us = 40000,
	.cg_root = "/sys/fs/cgroup", .pin_dir = CLING_PIN_DIR,
};

static volatile sig_atomic_t stop_req;
static void on_signal(int s) { (void)s; stop_req = 1; }

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
	const char *v = opt.d_arg;

	switch (nl_opt_reuse_pick(nl_opt_fits_seconds(v, 0.1, 86400), nl_opt_fits_int(v, 0, CLING_DEGREE_MAX),
				  opt.delay_given || opt.monitor_old,
				  (opt.monitor && !opt.monitor_old) || opt.degree_given)) {
	case NL_OPT_OLD:
		nl_opt_renamed(stderr, "scx_cling", "-d as the cling degree", "--cling-degree");
		opt.degree = (long)num(st, "cling-degree", v, 0, CLING_DEGREE_MAX, true);
		break;
	case NL_OPT_NEW:
		if (opt.delay_given)
			argp_failure(st, EX_USAGE, 0, "-d %s and --delay both given: keep one", v);
		opt.stats_s = num(st, "delay", v, 0.1, 86400, false);
		opt.delay_given = true;
		break;
	case NL_OPT_AMBIGUOUS:
		argp_failure(st, EX_USAGE, 0, "-d %s: -d was the cling degree and is now the statistics interval: "
			   "write --cling-degree %s, or --delay %s to print the statistics every %s s",
			   v, v, v, v);
		break;
	}
}

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
	switch (key) {
	case 'g':
		if (opt.nr_patterns >= MAX_PATTERNS)
			argp_failure(st, EX_USAGE, 0, "at most %d --group options", MAX_PATTERNS);
		if (arg[0] != '/')
			argp_failure(st, EX_USAGE, 0, "--group '%s': give a cgroup v2 path starting with '/'", arg);
		opt.patterns[opt.nr_patterns++] = arg;
		break;
	case 'a': opt.all = true; break;
	case O_DEGREE:
		opt.degree = (long)num(st, "cling-degree", arg, 0, CLING_DEGREE_MAX, true);
		opt.degree_given = true;
		break;
	case 'd':
		if (nl_opt_was_long(st, arg)) {
			opt.stats_s = num(st, "delay", arg, 0.1, 86400, false);
			opt.delay_given = true;
		} else {
			opt.d_arg = arg;	/* old or new meaning: decided at the end */
		}
		break;
	case O_DECAY: opt.decay_ms = (long)num(st, "decay-ms", arg, 10, 600000, true); break;
	case O_WAIT: opt.wait_us = (long)num(st, "wait-bound-us", arg, 100, 1000000, true); break;
	case O_STEAL: opt.steal_us = (long)num(st, "steal-after-us", arg, 100, 1000000, true); break;
	case 's':
	case O_OLD_STATS:
		nl_opt_renamed(stderr, "scx_cling", key == 's' ? "-s" : "--stats", "-d/--delay");
		opt.stats_s = num(st, "delay", arg, 0.1, 86400, false);
		opt.delay_given = true;
		break;
	case 'm':
		opt.monitor = true;
		/* the old "--monitor SECONDS": scx_cling takes no operands, so a
		 * number right after it can only be that interval */
		if (st->next < st->argc && nl_opt_fits_seconds(st->argv[st->next], 0, 1e12))
			opt.monitor_old = st->argv[st->next++];
		if (opt.monitor_old)
			nl_opt_renamed(stderr, "scx_cling", "--monitor SECONDS", "--monitor --delay SECONDS");
		break;
	case 't':
	case O_DURATION:
		if (key == 't')
			nl_opt_renamed(stderr, "scx_cling", "-t", "--duration");
		opt.duration_s = num(st, "duration", arg, 0.1, 1e9, false);
		break;
	case O_TASKS: opt.tasks = true; break;
	case 'j': opt.json = true; break;
	case O_RESTART: opt.restart_on_hotplug = true; break;
	case O_RELOAD: opt.reload = true; break;
	case O_READY: opt.ready_file = arg; break;
	case O_CGROOT: opt.cg_root = arg; break;
	case O_PINDIR: opt.pin_dir = arg; break;
	case 'v': opt.verbose = true; break;
	case O_BTF:
		/* struct_ops maps and their programs are matched against the
		 * running kernel's BTF ids (sched_ext_ops), which only the
		 * kernel's own BTF has: a custom file could relocate CO-RE
		 * reads but never attach the scheduler */
		argp_failure(st, EX_USAGE, 0, "--btf %s: scx_cling cannot use a BTF file: sched_ext attaches "
			   "through the kernel's own BTF (" NL_KERNEL_BTF ")", arg);
		break;
	case ARGP_KEY_ARG:
		argp_failure(st, EX_USAGE, 0, "unexpected argument '%s'", arg);
		break;
	case ARGP_KEY_END:
		if (opt.d_arg)
			resolve_d(st);
		if (opt.monitor) {
			if (opt.monitor_old && opt.delay_given)
				argp_failure(st, EX_USAGE, 0, "--monitor %s and --delay both give the interval: keep --delay",
					   opt.monitor_old);
			opt.monitor_s = opt.monitor_old ? num(st, "delay", opt.monitor_old, 0.1, 86400, false)
				      : opt.stats_s ? opt.stats_s : 1;
		}
		if (opt.all && opt.nr_patterns)
			argp_failure(st, EX_USAGE, 0, "--all and --group exclude each other");
		if (opt.monitor_s && (opt.all || opt.nr_patterns || opt.duration_s))
			argp_failure(st, EX_USAGE, 0, "--monitor only reads a running scx_cling: drop --all/--group/--duration");
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
	if (!opt.verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static void die_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void die_msg(const char *fmt, ...)
{
	va_list ap;

	fputs("scx_cling: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* read_word: first line of @path into @buf (no newline); "" if unreadable. */
static const char *read_word(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = 0;
	if (f) {
		if (fgets(buf, (int)len, f))
			buf[strcspn(buf, "\n")] = 0;
		fclose(f);
	}
	return buf;
}

/* now_s: CLOCK_MONOTONIC in seconds. */
static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* wait_state: poll sched_ext/state until it reads @want; 0, or -1 after @secs. */
static int wait_state(const char *want, double secs)
{
	char st[64];

	for (double end = now_s() + secs; now_s() < end; usleep(10000))
		if (!strcmp(read_word(SCX_DIR "/state", st, sizeof(st)), want))
			return 0;
	return -1;
}

/* --- NUMA groups: match cgroups, read memory.numa_stat -------------------- */

struct scan {
	struct scx_cling *skel;
	size_t root_len;
	uint64_t seen[CLING_MAX_GROUPS];
	int nr_seen;
	int nodes;
	long page;
};
static struct scan scan;

/* matches: is the cgroup at @rel ("/a/b") a NUMA group (--all / --group)? */
static bool matches(const char *rel)
{
	if (opt.all)
		return strcmp(rel, "/") != 0;
	for (int i = 0; i < opt.nr_patterns; i++)
		if (!strcmp(opt.patterns[i], rel) || !fnmatch(opt.patterns[i], rel, FNM_PATHNAME))
			return true;
	return false;
}

/*
 * numa_stat_pages - resident pages per node of the cgroup at @dir: anon +
 * file of its cgroup v2 memory.numa_stat ("anon N0=<bytes> N1=..."), in
 * pages, for nodes below @nr_nodes (others are left 0). Read here rather
 * than through the numalens tables so that every node scx_cling supports
 * counts. Returns 0 or -errno (-ENODATA: no anon/file line).
 */
static int numa_stat_pages(const char *dir, uint64_t *pages, int nr_nodes, long page)
{
	char p[PATH_MAX], *line = NULL;
	size_t cap = 0;
	bool seen = false;
	FILE *f;

	snprintf(p, sizeof(p), "%s/memory.numa_stat", dir);
	f = fopen(p, "re");
	if (!f)
		return -errno;
	memset(pages, 0, sizeof(uint64_t) * CLING_MAX_NODES);
	while (getline(&line, &cap, f) > 0) {
		char *save = NULL, *tok = strtok_r(line, " \n", &save);

		if (!tok || (strcmp(tok, "anon") && strcmp(tok, "file")))
			continue;
		seen = true;
		while ((tok = strtok_r(NULL, " \n", &save))) {
			unsigned long long nid, bytes;

			if (sscanf(tok, "N%llu=%llu", &nid, &bytes) == 2 && nid < (unsigned)nr_nodes &&
			    nid < CLING_MAX_NODES)
				pages[nid] += bytes / (uint64_t)page;
		}
	}
	free(line);
	fclose(f);
	return seen ? 0 : -ENODATA;
}

/* A NUMA group with less resident memory than this (bytes) gets no home:
 * memory that a CPU cache holds has no locality to gain, and the kernel's
 * cling needs a preferred node that a task taking next to no NUMA faults
 * never gets. On the costed bench's cpuonly load a CPU-bound group clung
 * to the node of its few dozen stack pages, behind the group living there. */
#define CLING_GROUP_MIN_BYTES (4ull << 20)

/* scan_one: nftw callback; writes a matching cgroup's pages into gmem,
 * keyed by its inode number (= the kernfs cgroup id BPF reads). */
static int scan_one(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	const char *rel = path + scan.root_len;
	struct cling_group_mem m;

	if (type != FTW_D)
		return 0;
	if (!*rel)
		rel = "/";
	if (!matches(rel) || scan.nr_seen >= CLING_MAX_GROUPS)
		return 0;
	if (numa_stat_pages(path, m.pages, scan.nodes, scan.page))
		return 0; /* gone meanwhile, or no memory controller: not a group yet */
	uint64_t id = (uint64_t)sb->st_ino, sum = 0;

	for (int i = 0; i < scan.nodes && i < CLING_MAX_NODES; i++)
		sum += m.pages[i];
	m.no_home = sum * (uint64_t)scan.page < CLING_GROUP_MIN_BYTES;
	m.pad = 0;

	scan.seen[scan.nr_seen++] = id;
	bpf_map__update_elem(scan.skel->maps.gmem, &id, sizeof(id), &m, sizeof(m), BPF_ANY);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* prune: delete from @map (keys: cgroup ids) every key not in scan.seen
 * (sorted). Keys are collected first: deleting while walking the hash
 * would restart the walk. */
static void prune(struct bpf_map *map)
{
	static uint64_t dead[CLING_MAX_GROUPS];
	uint64_t key, next, *prev = NULL;
	int nd = 0;

	while (nd < CLING_MAX_GROUPS && !bpf_map__get_next_key(map, prev, &next, sizeof(next))) {
		key = next;
		prev = &key;
		if (!bsearch(&key, scan.seen, (size_t)scan.nr_seen, sizeof(key), cmp_u64))
			dead[nd++] = key;
	}
	for (int i = 0; i < nd; i++)
		bpf_map__delete_elem(map, &dead[i], sizeof(dead[i]), 0);
}

/* refresh_groups: write every matching cgroup's pages into gmem, drop the
 * entries of cgroups that no longer match or exist from gmem and from the
 * scheduler's groups map (GRP-4: their tasks stop clinging at their next
 * placement; the groups map would otherwise fill up with dead cgroups). */
static void refresh_groups(void)
{
	if (!opt.all && !opt.nr_patterns)
		return;
	scan.nr_seen = 0;
	scan.root_len = strlen(opt.cg_root);
	nftw(opt.cg_root, scan_one, 16, FTW_PHYS | FTW_MOUNT);
	qsort(scan.seen, (size_t)scan.nr_seen, sizeof(scan.seen[0]), cmp_u64);
	prune(scan.skel->maps.gmem);
	prune(scan.skel->maps.groups);
}

/* --- statistics output ---------------------------------------------------- */

/* cg_path: the cgroup path of inode @id under the cgroup root, or "#id". */
struct cg_find { uint64_t id; char path[PATH_MAX]; };
static struct cg_find cg_find;
static int find_one(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	if (type == FTW_D && (uint64_t)sb->st_ino == cg_find.id) {
		const char *rel = path + strlen(opt.cg_root);
		snprintf(cg_find.path, sizeof(cg_find.path), "%s", *rel ? rel : "/");
		return 1;
	}
	return 0;
}
static const char *cg_path(uint64_t id)
{
	cg_find.id = id;
	snprintf(cg_find.path, sizeof(cg_find.path), "#%llu", (unsigned long long)id);
	nftw(opt.cg_root, find_one, 16, FTW_PHYS | FTW_MOUNT);
	return cg_find.path;
}

/* json_str: @v as a JSON string (quotes and control bytes escaped). */
static void json_str(const char *v)
{
	putchar('"');
	for (const unsigned char *c = (const unsigned char *)v; *c; c++) {
		if (*c == '"' || *c == '\\')
			printf("\\%c", *c);
		else if (*c < 0x20 || *c >= 0x7f)
			printf("\\u%04x", *c);
		else
			putchar(*c);
	}
	putchar('"');
}

/* print_tasks: the task_homes map (fd), one line per task (or, with
 * --json, a "tasks" array member; the caller opened it). */
static void print_tasks(int fd)
{
	uint32_t key, next, *prev = NULL;
	struct cling_task_home th;
	bool first = true;

	if (!opt.json)
		printf("%-8s %5s %8s  %s\n", "tid", "home", "mem_home", "group");
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &th))
			continue;
		if (!opt.json) {
			printf("%-8u %5d %8d  %s\n", key, th.home, th.mem_home,
			       th.cgid ? cg_path(th.cgid) : "-");
			continue;
		}
		printf("%s{\"tid\":%u,\"home\":%d,\"mem_home\":%d,\"group\":", first ? "" : ",",
		       key, th.home, th.mem_home);
		if (th.cgid)
			json_str(cg_path(th.cgid));
		else
			fputs("null", stdout);
		putchar('}');
		first = false;
	}
}

/* print_json: one block as one JSON line (keys as in the text format). */
static void print_json(const struct nl_cling_stats *s, int tasks_fd)
{
	uint32_t nr = s->info.nr_nodes < CLING_MAX_NODES ? s->info.nr_nodes : CLING_MAX_NODES;

	printf("{\"time\":%lld,\"degree\":%u,\"decay_ms\":%u,\"wait_bound_us\":%llu,"
	       "\"steal_after_us\":%llu,\"restarts\":%u,\"hotplug_events\":%llu,\"nodes\":[",
	       (long long)time(NULL), s->info.degree, s->info.decay_ms,
	       (unsigned long long)(s->info.wait_bound_ns / 1000),
	       (unsigned long long)(s->info.steal_ns / 1000), s->info.restarts,
	       (unsigned long long)s->info.hotplug_events);
	for (uint32_t n = 0; n < nr; n++) {
		const struct nl_cling_node *o = &s->node[n];

		printf("%s{\"node\":%u,\"cpus\":%u,\"queued\":%llu,\"local\":%llu,\"remote\":%llu,"
		       "\"cling\":%llu,\"attempts\":%llu,\"failures\":%llu,\"busy\":%u,\"homes\":%u,"
		       "\"home_ignored\":%llu}", n ? "," : "", n, s->info.node_cpus[n],
		       (unsigned long long)o->queued, (unsigned long long)o->local,
		       (unsigned long long)o->remote, (unsigned long long)o->cling_hits,
		       (unsigned long long)o->attempts, (unsigned long long)o->failures,
		       o->busy_groups, o->home_groups, (unsigned long long)o->home_ignored);
	}
	fputs("],\"groups\":[", stdout);
	for (int i = 0; i < s->nr_groups; i++) {
		const struct nl_cling_group *g = &s->groups[i];

		printf("%s{\"group\":", i ? "," : "");
		json_str(cg_path(g->cgid));
		printf(",\"home\":%d,\"busiest\":%d,\"nodes\":[", g->home, g->busiest);
		for (uint32_t n = 0; n < nr; n++)
			printf("%s{\"pages\":%llu,\"fail\":%llu,\"total\":%llu,\"ratio\":%u,\"busy\":%s}",
			       n ? "," : "", (unsigned long long)g->pages[n],
			       (unsigned long long)g->failure[n], (unsigned long long)g->total[n],
			       g->ratio[n], g->busy[n] ? "true" : "false");
		fputs("]}", stdout);
	}
	putchar(']');
	if (tasks_fd >= 0) {
		fputs(",\"tasks\":[", stdout);
		print_tasks(tasks_fd);
		putchar(']');
	}
	puts("}");
	fflush(stdout);
}

/* print_stats: one block per call (format documented in README.md). */
static void print_stats(const struct nl_cling_stats *s, int tasks_fd)
{
	time_t t = time(NULL);
	char ts[32];

	if (opt.json) {
		print_json(s, tasks_fd);
		return;
	}
	strftime(ts, sizeof(ts), "%H:%M:%S", localtime(&t));
	printf("scx_cling %s degree=%u decay_ms=%u wait_bound_us=%llu steal_after_us=%llu "
	       "restarts=%u hotplug=%llu groups=%d\n",
	       ts, s->info.degree, s->info.decay_ms,
	       (unsigned long long)(s->info.wait_bound_ns / 1000),
	       (unsigned long long)(s->info.steal_ns / 1000), s->info.restarts,
	       (unsigned long long)s->info.hotplug_events, s->nr_groups);
	printf("%-4s %6s %10s %10s %8s %10s %9s %8s %5s %5s %4s %8s\n", "node", "queued", "local",
	       "remote", "cling", "attempts", "failures", "ratio%", "busy", "homes", "cpus",
	       "ignored");
	for (uint32_t n = 0; n < s->info.nr_nodes && n < CLING_MAX_NODES; n++) {
		const struct nl_cling_node *o = &s->node[n];
		unsigned r = o->attempts ? (unsigned)(o->failures * 100 / o->attempts) : 0;

		printf("%-4u %6llu %10llu %10llu %8llu %10llu %9llu %8u %5u %5u %4u %8llu\n", n,
		       (unsigned long long)o->queued, (unsigned long long)o->local,
		       (unsigned long long)o->remote, (unsigned long long)o->cling_hits,
		       (unsigned long long)o->attempts, (unsigned long long)o->failures, r,
		       o->busy_groups, o->home_groups, s->info.node_cpus[n],
		       (unsigned long long)o->home_ignored);
	}
	for (int i = 0; i < s->nr_groups; i++) {
		const struct nl_cling_group *g = &s->groups[i];

		printf("group %s home=%d busiest=%d", cg_path(g->cgid), g->home, g->busiest);
		for (uint32_t n = 0; n < s->info.nr_nodes && n < CLING_MAX_NODES; n++)
			printf(" n%u[pages=%llu fail=%llu total=%llu ratio=%u%s]", n,
			       (unsigned long long)g->pages[n], (unsigned long long)g->failure[n],
			       (unsigned long long)g->total[n], g->ratio[n], g->busy[n] ? " BUSY" : "");
		putchar('\n');
	}
	if (tasks_fd >= 0)
		print_tasks(tasks_fd);
	fflush(stdout);
}

/* --- main ------------------------------------------------------------------ */

/* monitor: --monitor; print a running scx_cling's pinned statistics every
 * --monitor seconds until SIGINT/SIGTERM. Returns the exit status. */
static int monitor(void)
{
	int tasks_fd = -1;

	if (opt.tasks) {
		char p[PATH_MAX];
		snprintf(p, sizeof(p), "%s/task_homes", opt.pin_dir);
		tasks_fd = bpf_obj_get(p);
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	while (!stop_req) {
		struct nl_cling_stats s;
		int e = nl_cling_stats_read(opt.pin_dir, &s);

		if (e == -ENOENT) {
			die_msg("scx_cling is not running (no live pins in %s)", opt.pin_dir);
			return EX_FAIL;
		}
		if (e) {
			die_msg("reading %s: %s", opt.pin_dir, strerror(-e));
			return e == -EPERM || e == -EACCES ? EX_PRIV : EX_FAIL;
		}
		print_stats(&s, tasks_fd);
		nl_cling_stats_free(&s);
		usleep((useconds_t)(opt.monitor_s * 1e6));
	}
	return EX_OK;
}

/* is_bpffs: is @p on a bpf filesystem? */
static bool is_bpffs(const char *p)
{
	struct statfs fs;

	return !statfs(p, &fs) && fs.f_type == BPF_FS_MAGIC_;
}

static const char *pin_names[] = { "info", "nodes", "groups", "gmem", "task_homes" };

static struct bpf_map *map_by_name(struct scx_cling *skel, const char *n)
{
	return bpf_object__find_map_by_name(skel->obj, n);
}

/* unpin_all: remove the pins and the pin directory. */
static void unpin_all(struct scx_cling *skel)
{
	for (size_t i = 0; i < sizeof(pin_names) / sizeof(*pin_names); i++) {
		char p[PATH_MAX];
		snprintf(p, sizeof(p), "%s/%s", opt.pin_dir, pin_names[i]);
		bpf_map__unpin(map_by_name(skel, pin_names[i]), p);
	}
	rmdir(opt.pin_dir);
}

/* pin_all: pin the stats maps; a failure is a warning (no export then). */
static void pin_all(struct scx_cling *skel)
{
	char parent[PATH_MAX], *slash;

	snprintf(parent, sizeof(parent), "%s", opt.pin_dir);
	slash = strrchr(parent, '/');
	if (slash && slash != parent)
		*slash = 0;
	if (!is_bpffs(parent))
		mount("bpf", parent, "bpf", 0, NULL);
	mkdir(opt.pin_dir, 0700);
	for (size_t i = 0; i < sizeof(pin_names) / sizeof(*pin_names); i++) {
		char p[PATH_MAX];
		snprintf(p, sizeof(p), "%s/%s", opt.pin_dir, pin_names[i]);
		unlink(p); /* a stale pin of a loader that died */
		if (bpf_map__pin(map_by_name(skel, pin_names[i]), p)) {
			fprintf(stderr, "scx_cling: warning: cannot pin %s (%s): numalens export "
				"will not see scx_cling\n", p, strerror(errno));
			return;
		}
	}
}

/* setup_pfn_table: load the pfn -> node table (tools/core/topology.c) for
 * the page-allocation tracepoint. 0 or a negative errno. */
static int setup_pfn_table(struct scx_cling *skel)
{
	static struct nl_pfn_table t;
	uint32_t zero = 0;
	int n = nl_pfn_ranges_build(t.r, NL_MAX_PFN_RANGES, "/sys", "/proc/zoneinfo");

	if (n < 0)
		return n;
	t.n = (uint32_t)n;
	return bpf_map__update_elem(skel->maps.pfn_table, &zero, sizeof(zero), &t, sizeof(t), 0);
}

/* SCX_ECODE_ACT_RESTART (the kernel's enum scx_exit_code): the exit code
 * bit by which the kernel, or a scheduler, asks its loader to start it
 * again (CPU hotplug, a hotplug race during attach). */
#define ECODE_ACT_RESTART (1ULL << 48)

/* report_exit: print why the scheduler left; returns the exit status. */
static int report_exit(struct scx_cling *skel, bool requested)
{
	const struct cling_exit_info *ei = &skel->bss->exit_info;

	/* SCX_EXIT_NONE 0, DONE 1, UNREG* 64..66 are orderly; >= 1024 errors. */
	if (ei->kind >= 1024 || (!requested && ei->kind)) {
		fprintf(stderr, "scx_cling: the kernel ejected the scheduler: kind=%d exit_code=%lld "
			"reason=\"%s\" msg=\"%s\"\n", ei->kind, (long long)ei->exit_code,
			ei->reason, ei->msg);
		return EX_FAIL;
	}
	return EX_OK;
}

/* parse_max_id: the largest number in a sysfs list such as "0-3,8" or
 * "0"; -1 when @s holds none. */
static int parse_max_id(const char *s)
{
	long v, max = -1;
	char *end;

	while (*s) {
		if (*s < '0' || *s > '9') {
			s++;
			continue;
		}
		v = strtol(s, &end, 10);
		if (v > max)
			max = v > INT_MAX ? INT_MAX : v;
		s = end;
	}
	return (int)max;
}

/* in_list: is @id in the sysfs list @s ("0-3,8")? */
static bool in_list(const char *s, int id)
{
	while (*s) {
		char *end;
		long lo = strtol(s, &end, 10), hi = lo;

		if (end == s)
			return false;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		if (id >= lo && id <= hi)
			return true;
		s = *end == ',' ? end + 1 : end;
		if (*s == '\n')
			break;
	}
	return false;
}

/* possible_nodes: node ids the machine can ever have (highest possible
 * node + 1), so that nodes coming online later are covered; 1 without
 * NUMA in sysfs. */
static int possible_nodes(void)
{
	char buf[4096];
	int max = parse_max_id(read_word(NODE_DIR "/possible", buf, sizeof(buf)));

	if (max < 0)
		max = parse_max_id(read_word(NODE_DIR "/online", buf, sizeof(buf)));
	return max < 0 ? 1 : max + 1;
}

/* read_distances: @d[n][m] = SLIT distance from node n to m, from
 * NODE_DIR/nodeN/distance (one value per online node, in node order);
 * CLING_FAR_DISTANCE where unknown, CLING_LOCAL_DISTANCE on the diagonal. */
static void read_distances(uint8_t d[CLING_MAX_NODES][CLING_MAX_NODES], int nodes)
{
	char online[4096], p[PATH_MAX];

	read_word(NODE_DIR "/online", online, sizeof(online));
	for (int n = 0; n < nodes; n++) {
		FILE *f;
		int m = 0, v;

		for (int k = 0; k < CLING_MAX_NODES; k++)
			d[n][k] = k == n ? CLING_LOCAL_DISTANCE : CLING_FAR_DISTANCE;
		snprintf(p, sizeof(p), NODE_DIR "/node%d/distance", n);
		f = fopen(p, "re");
		if (!f)
			continue;
		while (fscanf(f, "%d", &v) == 1) {
			while (m < nodes && !in_list(online, m))
				m++;
			if (m >= nodes)
				break;
			d[n][m++] = v < 0 ? 0 : v > CLING_FAR_DISTANCE ? CLING_FAR_DISTANCE : (uint8_t)v;
		}
		fclose(f);
	}
}

/* Shared by every attach of one loader run. */
static struct {
	int nodes;
	uint8_t dist[CLING_MAX_NODES][CLING_MAX_NODES];
	uint64_t loader_start;
	uint32_t restarts;
	double start;
} run;

/* write_info: the info map from the options and the scheduler's own
 * counts (online CPUs per node, hotplug events). */
static void write_info(struct scx_cling *skel)
{
	struct cling_info info = {
		.loader_pid = (uint32_t)getpid(), .nr_nodes = (uint32_t)run.nodes,
		.degree = (uint32_t)opt.degree, .decay_ms = (uint32_t)opt.decay_ms,
		.wait_bound_ns = (uint64_t)opt.wait_us * 1000,
		.steal_ns = (uint64_t)opt.steal_us * 1000,
		.loader_start = run.loader_start,
		.hotplug_events = skel->bss->hotplug_events,
		.restarts = run.restarts,
	};
	uint32_t zero = 0;

	memcpy(info.node_cpus, skel->bss->node_cpus, sizeof(info.node_cpus));
	bpf_map__update_elem(skel->maps.info, &zero, sizeof(zero), &info, sizeof(info), 0);
}

/* mono_ns: CLOCK_MONOTONIC in ns (what bpf_ktime_get_ns() reads). */
static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* --verbose: what the verifier did for each program (instructions it
 * processed, out of its 1,000,000 budget) and the load time, so the
 * headroom at this machine's node count shows. */
static void report_verifier(struct scx_cling *skel, double load_ms)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, skel->obj) {
		struct bpf_prog_info info = {};
		uint32_t len = sizeof(info);
		int fd = bpf_program__fd(prog);

		if (fd < 0 || bpf_prog_get_info_by_fd(fd, &info, &len))
			continue;
		fprintf(stderr, "scx_cling: verifier: %s %u insns processed (%d nodes)\n",
			bpf_program__name(prog), info.verified_insns, run.nodes);
	}
	fprintf(stderr, "scx_cling: verifier: object loaded in %.0f ms\n", load_ms);
}

/*
 * run_once - load, attach and run one copy of the scheduler until a stop
 * request, --duration, or the kernel ending it. *@restart is set when the
 * kernel asked for a restart (the caller then runs it again); *@exit_ns is
 * when the scheduler left (CLOCK_MONOTONIC ns, from ops.exit). @prev_exit_ns
 * (0 on the first run) is the previous copy's exit, to report the time
 * spent without scx_cling. Returns the exit status.
 */
/* The loaded (verified) object of a copy the kernel ended asking for a
 * restart: the next run_once attaches it again instead of loading anew,
 * which was nearly all of a restart's time without scx_cling. */
static struct scx_cling *kept;

static int run_once(bool *restart, uint64_t *exit_ns, uint64_t prev_exit_ns)
{
	struct scx_cling *skel;
	struct bpf_link *link;
	char st[128], ops[128];
	int rc = EX_OK, e;
	bool reused = false;
	double load_ms = 0;

	*restart = false;
	if (kept) {
		skel = kept;
		kept = NULL;
		reused = true;
		/* the loader polls these for the end of this copy */
		memset(&skel->bss->exit_info, 0, sizeof(skel->bss->exit_info));
		skel->bss->exit_ns = 0;
		skel->bss->timer_err = 0;
		goto loaded;
	}
	skel = scx_cling__open();
	if (!skel) {
		die_msg("opening the BPF object: %s", strerror(errno));
		return EX_FAIL;
	}
	skel->rodata->nr_nodes = (uint32_t)run.nodes;
	skel->rodata->degree = (uint32_t)opt.degree;
	skel->rodata->wait_bound_ns = (uint64_t)opt.wait_us * 1000;
	skel->rodata->steal_ns = (uint64_t)opt.steal_us * 1000;
	skel->rodata->decay_ns = (uint64_t)opt.decay_ms * 1000000;
	if (opt.restart_on_hotplug) {
		/* Without these ops the kernel ends the scheduler on every CPU
		 * online/offline event, asking for a restart. */
		skel->struct_ops.cling_ops->cpu_online = NULL;
		skel->struct_ops.cling_ops->cpu_offline = NULL;
	}
	bpf_map__set_max_entries(skel->maps.nodes, (uint32_t)run.nodes);
	double t_load = now_s();
	if (scx_cling__load(skel)) {
		e = errno;
		die_msg("loading the BPF scheduler failed: %s (--verbose shows the verifier log)",
			strerror(e));
		scx_cling__destroy(skel);
		return e == EPERM || e == EACCES ? EX_PRIV : EX_FAIL;
	}
	load_ms = (now_s() - t_load) * 1e3;
	if (opt.verbose)
		report_verifier(skel, load_ms);
loaded:

	memcpy(skel->bss->dist, run.dist, sizeof(run.dist));
	if ((e = setup_pfn_table(skel)))
		fprintf(stderr, "scx_cling: warning: no pfn -> node table (%s): tasks' own memory "
			"homes stay unknown\n", strerror(e < 0 ? -e : e));
	write_info(skel);
	scan.skel = skel;
	scan.nodes = run.nodes;
	scan.page = sysconf(_SC_PAGESIZE);
	refresh_groups();

	if (scx_cling__attach(skel)) {
		e = errno;
		if (reused && e != EBUSY && e != EEXIST) {
			/* the kernel would not take the old object again: load
			 * a fresh copy */
			fprintf(stderr, "scx_cling: attaching the loaded object again failed (%s): "
				"loading it anew\n", strerror(e));
			scx_cling__destroy(skel);
			return run_once(restart, exit_ns, prev_exit_ns);
		}
		if (e == EBUSY || e == EEXIST)
			die_msg("another sched_ext scheduler got attached first (%s): stop it first",
				read_word(SCX_DIR "/root/ops", ops, sizeof(ops)));
		else
			die_msg("attaching the scheduler failed: %s", strerror(e));
		scx_cling__destroy(skel);
		return EX_FAIL;
	}
	link = skel->links.cling_ops;
	if (wait_state("enabled", 10) && !skel->bss->exit_info.kind) {
		die_msg("the kernel did not report the scheduler enabled within 10 s (state=%s)",
			read_word(SCX_DIR "/state", st, sizeof(st)));
		rc = EX_FAIL;
		goto out;
	}
	pin_all(skel);
	write_info(skel);
	if (!prev_exit_ns) {
		printf("scx_cling: attached (%d nodes, degree %ld, decay %ld ms, wait bound %ld us, %s)\n",
		       run.nodes, opt.degree, opt.decay_ms, opt.wait_us,
		       opt.all ? "all cgroups are NUMA groups" : opt.nr_patterns ?
		       "NUMA groups by --group" : "no NUMA groups");
		fflush(stdout);
	} else if (!skel->bss->exit_info.kind) {
		if (reused)
			fprintf(stderr, "scx_cling: re-attached (restart %u), %.0f ms without "
				"scx_cling (the loaded BPF object attached again, no load)\n",
				run.restarts, (double)(mono_ns() - prev_exit_ns) / 1e6);
		else
			fprintf(stderr, "scx_cling: re-attached (restart %u), %.0f ms without "
				"scx_cling (%.0f ms of it loading the BPF object)\n", run.restarts,
				(double)(mono_ns() - prev_exit_ns) / 1e6, load_ms);
	}
	if (opt.ready_file) {
		FILE *f = fopen(opt.ready_file, "w");
		if (f) {
			fputs("attached\n", f);
			fclose(f);
		}
	}

	double next_refresh = now_s() + 1, next_stats = now_s() + opt.stats_s;
	int tasks_fd = opt.tasks ? bpf_map__fd(skel->maps.task_homes) : -1;

	while (!stop_req && !skel->bss->exit_info.kind) {
		double t = now_s();

		if (opt.duration_s && t - run.start >= opt.duration_s)
			break;
		if (t >= next_refresh) {
			refresh_groups();
			write_info(skel);
			next_refresh = t + 1;
		}
		if (opt.stats_s && t >= next_stats) {
			struct nl_cling_stats s;
			write_info(skel);
			if (!nl_cling_stats_read_fds(bpf_map__fd(skel->maps.info),
						     bpf_map__fd(skel->maps.nodes),
						     bpf_map__fd(skel->maps.groups),
						     bpf_map__fd(skel->maps.gmem), &s)) {
				print_stats(&s, tasks_fd);
				nl_cling_stats_free(&s);
			}
			next_stats = t + opt.stats_s;
		}
		usleep(20000);
	}
out:;
	bool requested = !skel->bss->exit_info.kind;
	/* Destroying the struct_ops link detaches; the maps stay readable. */
	bpf_link__destroy(link);
	skel->links.cling_ops = NULL;
	if (wait_state("disabled", 10)) {
		die_msg("the kernel did not report the scheduler disabled within 10 s");
		rc = EX_FAIL;
	}
	unpin_all(skel);
	*exit_ns = skel->bss->exit_ns;
	if (rc == EX_OK && !requested && !stop_req &&
	    ((unsigned long long)skel->bss->exit_info.exit_code & ECODE_ACT_RESTART)) {
		const struct cling_exit_info *ei = &skel->bss->exit_info;

		fprintf(stderr, "scx_cling: the kernel ended the scheduler and asked for a restart "
			"(reason=\"%s\" msg=\"%s\"): attaching again\n", ei->reason, ei->msg);
		*restart = true;
	} else if (rc == EX_OK) {
		rc = report_exit(skel, requested);
	}
	if (*restart && !opt.reload)
		kept = skel;
	else
		scx_cling__destroy(skel);
	return rc;
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

int main(int argc, char **argv)
{
	char st[128], ops[128];
	double gap = RESTART_MIN_GAP_S, attached_at;
	uint64_t exit_ns = 0;
	bool restart;
	int rc;

	argp_err_exit_status = EX_USAGE;
	/* getopt names the program by argv[0] as typed ("build/scx_cling:")
	 * while argp's own messages say "scx_cling:": one name for both */
	if (argc > 0)
		argv[0] = (char *)"scx_cling";
	/* the old "--monitor=SECONDS" and "-mSECONDS": --monitor takes no
	 * value now, the interval is --delay's */
	opt.monitor_old = nl_opt_take_attached(argc, argv, "monitor", 'm');
	if (argp_parse(&argp, argc, argv, 0, NULL, NULL))
		return EX_USAGE;
	libbpf_set_print(libbpf_log);
	if (opt.monitor_s)
		return monitor();

	run.nodes = possible_nodes();
	if (run.nodes > CLING_MAX_NODES) {
		die_msg("this machine has %d possible NUMA nodes; scx_cling supports at most %d",
			run.nodes, CLING_MAX_NODES);
		return EX_USAGE;
	}
	if (access(SCX_DIR "/state", R_OK)) {
		die_msg("this kernel has no sched_ext (%s/state missing: CONFIG_SCHED_CLASS_EXT "
			"is off); run scx_cling on a kernel built with sched_ext", SCX_DIR);
		return EX_KERNEL;
	}
	if (!has_sys_admin()) {
		die_msg("loading a sched_ext scheduler needs CAP_SYS_ADMIN (struct_ops maps), which this process lacks: run it as root");
		return EX_PRIV;
	}
	/* the same BTF check and message as numalens' commands */
	char berr[256];

	if (nl_btf_check(NULL, NULL, berr, sizeof(berr))) {
		die_msg("%s", berr);
		return EX_KERNEL;
	}
	if (!kernel_has_idle_per_node()) {
		die_msg("this kernel's sched_ext has no per-node idle tracking "
			"(SCX_OPS_BUILTIN_IDLE_PER_NODE, Linux 6.15 and later), which scx_cling "
			"uses to pick CPUs by node: run it on a newer kernel");
		return EX_KERNEL;
	}
	if (strcmp(read_word(SCX_DIR "/state", st, sizeof(st)), "disabled")) {
		die_msg("another sched_ext scheduler is attached (state=%s, ops=%s): stop it first",
			st, read_word(SCX_DIR "/root/ops", ops, sizeof(ops))[0] ? ops : "?");
		return EX_FAIL;
	}
	read_distances(run.dist, run.nodes);
	run.loader_start = nl_cling_loader_start((uint32_t)getpid());
	run.start = now_s();

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	for (;;) {
		attached_at = now_s();
		rc = run_once(&restart, &exit_ns, run.restarts ? exit_ns : 0);
		if (!restart || stop_req)
			break;
		/* Rate limit: a copy that ended soon after its attach doubles
		 * the wait before the next one. */
		if (now_s() - attached_at < RESTART_STABLE_S)
			gap = gap * 2 > RESTART_MAX_GAP_S ? RESTART_MAX_GAP_S : gap * 2;
		else
			gap = RESTART_MIN_GAP_S;
		while (!stop_req && now_s() < attached_at + gap)
			usleep(10000);
		if (stop_req)
			break;
		if (!exit_ns)
			exit_ns = mono_ns();
		run.restarts++;
	}
	if (rc == EX_OK)
		printf("scx_cling: detached\n");
	return rc;
}
