/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Shared pieces of the numalens subcommands: the stop flag set by
 * SIGINT/SIGTERM, option parsing helpers that fail with one clear line,
 * interval timing, and the "load BPF + open the collector" sequence that
 * every command reading the snapshot model goes through.
 */
#ifndef NL_CLI_H
#define NL_CLI_H

#include <argp.h>
#include <signal.h>
#include <stdbool.h>
#include <time.h>
#include "collect.h"
#include "loader.h"

#include "version.h"

/* Set to 1 by SIGINT/SIGTERM once nl_cli_install_signals() ran. */
extern volatile sig_atomic_t nl_stop_req;

/* Route SIGINT/SIGTERM to nl_stop_req; ignore SIGPIPE (writes see EPIPE). */
void nl_cli_install_signals(void);

/* Parse a whole number in [lo, hi] for option @what; on bad input
 * argp_failure() exits with NL_EXIT_USAGE and a one-line message. */
long nl_cli_parse_long(const char *s, long lo, long hi, const char *what, struct argp_state *st);

/* Parse seconds (a decimal) in [lo, hi] for option @what; NaN is refused.
 * Exits like nl_cli_parse_long() on bad input. */
double nl_cli_parse_seconds(const char *s, double lo, double hi, const char *what,
			    struct argp_state *st);

/* Exits with NL_EXIT_USAGE (via argp_failure) unless @s is a cgroup path
 * relative to the mount: starting with '/', no "." or ".." component.
 * Normalizes @s in place: repeated slashes collapsed, no trailing slash
 * ("//a/b/" -> "/a/b"). @what names the option in the message (e.g. "-c"). */
void nl_cli_check_cgroup_path(char *s, const char *what, struct argp_state *st);

/* nl_cli_shown - @s as an error message may echo it: cleaned by the name
 * rule (names.h: no escape sequence reaches the terminal, invalid UTF-8
 * becomes U+FFFD) and cut to about 500 bytes. Returns one of four static
 * buffers used in turn, so one message can show up to four arguments. */
const char *nl_cli_shown(const char *s);

/* --alloc-sample's help text, shared by top and export. */
#define NL_CLI_ALLOC_SAMPLE_DOC \
	"Count page allocations by process and cgroup from one in N, each standing for N " \
	"(those figures become estimates; JSON and export give N and the error; node and zone " \
	"totals stay exact), 1 for every " \
	"one, or auto (the default): every one while the host makes fewer than 20,000 " \
	"allocations a second, sampled above that so the cost stays flat"

/* Parse --alloc-sample's value: "auto" (0) or a whole number 1..65536.
 * Exits like nl_cli_parse_long() on bad input. */
uint32_t nl_cli_parse_alloc_sample(const char *s, struct argp_state *st);

/* Parse --cgroup-hierarchy's value: auto (-1), v2 or v1-memory.
 * Exits like nl_cli_parse_long() on bad input. */
int nl_cli_parse_cg_mode(const char *s, struct argp_state *st);

/* Advance @t (CLOCK_MONOTONIC) by @s seconds. */
void nl_cli_add_seconds(struct timespec *t, double s);

/* Sleep until @deadline (CLOCK_MONOTONIC, absolute) or until nl_stop_req.
 * When it wakes late, or the deadline had passed already (the interval ran
 * late: a loaded host, a stopped process), @deadline becomes the time it
 * woke: the next interval, @deadline plus the delay, is then a full delay
 * long, never shortened to catch up (short intervals after a long one made
 * the rates noisy). */
void nl_cli_sleep_until(struct timespec *deadline);

/* nl_cli_rebase - @deadline becomes the current CLOCK_MONOTONIC time if
 * that is later (the rule of nl_cli_sleep_until, for loops that wait
 * otherwise). */
void nl_cli_rebase(struct timespec *deadline);

/* --btf, the same option in every command that loads BPF: its key and help. */
#define NL_CLI_OPT_BTF 3000
#define NL_CLI_BTF_DOC "BTF of the running kernel for CO-RE (libbpf's btf_custom_path), " \
	"for kernels without " NL_KERNEL_BTF "; programs that attach to the kernel's own BTF " \
	"(tp_btf) still need the kernel's"

/* Options of nl_cli_open(). */
struct nl_cli_open_opts {
	const char *btf;	/* --btf PATH, NULL: the kernel's own BTF */
	int cg_mode;		/* -1 auto, else enum nl_cgroup_mode */
	const char *cgroup;	/* optional cgroup path that must exist ("" / NULL: none) */
	bool track_class;	/* split user pages into anon/file/shmem */
	bool verbose;		/* libbpf log on stderr */
	const char *prog;	/* "numalens top", for messages */
	int cgroup_grace;	/* intervals a removed cgroup stays in snapshots; 0 = 1 */
	bool vmscan_only;	/* load only the reclaim figures (nl_bpf_opts) */
	int watch_pid;		/* > 0: always in the snapshots (nl_collect_opts) */
	bool all_procs;		/* idle processes with resident memory too (nl_collect_opts) */
	bool self_cost;		/* hold BPF run-time stats (nl_bpf_opts) */
	int rss_max_procs;	/* numa_maps reads per interval (nl_collect_opts) */
	uint32_t alloc_latency_sample;	/* > 0: allocation latency, 1 call in N (nl_collect_opts) */
	uint32_t alloc_stacks_sample;	/* > 0: miss/remote stacks, 1 in N (nl_collect_opts) */
	uint32_t page_life_sample;	/* > 0: page lifetime, 1 page in N (nl_collect_opts) */
	uint32_t alloc_sample;		/* allocations counted in full: 1 every one, N one in N,
					 * 0 automatic (nl_collect_opts) */
};

/* The BPF objects and the collector a command reads snapshots from. */
struct nl_cli_session {
	struct nl_bpf bpf;
	struct nl_collector *col;
	enum nl_cgroup_mode mode;
	char root[512];		/* mount point of the chosen cgroup hierarchy, "" if none */
};

/* Pick the cgroup hierarchy, check @o->cgroup exists under it, load and
 * attach the BPF programs and open the collector (which takes the baseline
 * snapshot). Prints a one-line error itself. Returns NL_EXIT_OK or the
 * enum nl_exit code to exit with. */
int nl_cli_open(struct nl_cli_session *s, const struct nl_cli_open_opts *o);

/* Close what nl_cli_open() opened. */
void nl_cli_close(struct nl_cli_session *s);

/* The subcommands: each takes argv with argv[0] = "numalens CMD" and
 * returns an enum nl_exit code. */
int nl_cmd_top(int argc, char **argv);
int nl_cmd_export(int argc, char **argv);
int nl_cmd_vmscan(int argc, char **argv);
int nl_cmd_reclaim(int argc, char **argv);

/*
 * nl_cli_cgroup_root_check - refuse a cgroup mount @root that is not its
 * hierarchy's top (a container's own cgroup namespace mount, which shows
 * only the container's subtree): labels from it would not be the host's.
 * Returns 0, or NL_EXIT_USAGE after one line on stderr naming the mount
 * that is missing.
 */
int nl_cli_cgroup_root_check(const char *prog, const char *root);

#endif
