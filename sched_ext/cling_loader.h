/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the parts of the scx_cling loader share: the parsed options, the
 * facts of one loader run, the exit statuses, and each part's entry
 * points. The parts, by concern:
 *   scx_cling.c     options, checks before loading, the restart loop
 *   cling_run.c     one attach of the scheduler: load, attach, monitor,
 *                   detach, and the pins other readers use
 *   cling_groups.c  the memory-home refresh: NUMA groups' resident pages
 *                   from memory.numa_stat into the gmem map
 *   cling_report.c  what the user sees: --delay/--monitor statistics,
 *                   errors, the exit reason
 *   cling_sys.c     sysfs and clock reads the others need
 * The BPF side's contract is scx_cling.h.
 */
#ifndef CLING_LOADER_H
#define CLING_LOADER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cling.h"	/* CLING_MAX_NODES; scx_cling.h would loop back to scx_cling.c */

struct scx_cling;
struct nl_cling_stats;

#define SCX_DIR "/sys/kernel/sched_ext"
#define NODE_DIR "/sys/devices/system/node"
/* Most --group patterns. */
#define CLING_MAX_PATTERNS 64

/* Exit statuses (scx_cling --help lists them). */
enum { EX_OK = 0, EX_FAIL = 1, EX_USAGE = 2, EX_PRIV = 3, EX_KERNEL = 4 };

/* struct cling_opts - the command line, parsed (scx_cling.c). Units as
 * the options: ms, us, seconds. */
struct cling_opts {
	const char *patterns[CLING_MAX_PATTERNS];
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
};
extern struct cling_opts cling_opt;

/* struct cling_run_state - shared by every attach of one loader run.
 * @nodes:        possible NUMA nodes scheduled
 * @dist:         SLIT distances (cling_sys_read_distances)
 * @loader_start: this loader's start time, clock ticks since boot
 * @restarts:     re-attaches after the kernel asked for a restart
 * @start:        CLOCK_MONOTONIC seconds at the start (for --duration) */
struct cling_run_state {
	int nodes;
	uint8_t dist[CLING_MAX_NODES][CLING_MAX_NODES];
	uint64_t loader_start;
	uint32_t restarts;
	double start;
};
extern struct cling_run_state cling_run;

/* Set by SIGINT/SIGTERM (cling_run_catch_signals): stop and detach. */
extern volatile sig_atomic_t cling_run_stop;

/* cling_run.c */
/* cling_run_begin - before the first attach: the SLIT distances, this
 * loader's start time, the clock for --duration, and SIGINT/SIGTERM
 * setting cling_run_stop. */
void cling_run_begin(void);
/* cling_run_catch_signals - make SIGINT and SIGTERM set cling_run_stop. */
void cling_run_catch_signals(void);
/* cling_run_once - load (or reuse), attach and run one copy of the
 * scheduler until a stop request, --duration or the kernel ending it.
 * *@restart is set when the kernel asked for a restart; *@exit_ns is
 * when the copy left (CLOCK_MONOTONIC ns, from ops.exit); @prev_exit_ns
 * (0 on the first run) is the previous copy's exit. Returns the exit
 * status. */
int cling_run_once(bool *restart, uint64_t *exit_ns, uint64_t prev_exit_ns);

/* cling_groups.c */
/* cling_groups_attach - the scheduler copy @skel whose gmem and groups
 * maps the refresh writes, with @nodes nodes. */
void cling_groups_attach(struct scx_cling *skel, int nodes);
/* cling_groups_refresh - write every matching cgroup's resident pages
 * into gmem; drop cgroups that no longer match or exist from gmem and
 * from the groups map. Errors reading one cgroup skip it. */
void cling_groups_refresh(void);

/* cling_report.c */
/* cling_report_error - "scx_cling: error: <message>" on stderr. */
void cling_report_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* cling_report_stats - one statistics block (text, or JSON with --json);
 * @tasks_fd: the task_homes map for --tasks, or -1. */
void cling_report_stats(const struct nl_cling_stats *s, int tasks_fd);
/* cling_report_monitor - --monitor: print a running scx_cling's pinned
 * statistics every interval until SIGINT/SIGTERM. Returns the exit
 * status. */
int cling_report_monitor(void);
/* cling_report_exit - say why the scheduler left when the kernel ejected
 * it (@requested: the loader detached it). Returns the exit status. */
int cling_report_exit(struct scx_cling *skel, bool requested);
/* cling_report_verifier - --verbose: instructions the verifier processed
 * per program and the load time @load_ms (ms). */
void cling_report_verifier(struct scx_cling *skel, double load_ms);

/* cling_sys.c */
/* cling_sys_read_word - first line of @path into @buf (no newline); ""
 * if unreadable. Returns @buf. */
const char *cling_sys_read_word(const char *path, char *buf, size_t len);
/* cling_sys_now_s - CLOCK_MONOTONIC in seconds. */
double cling_sys_now_s(void);
/* cling_sys_mono_ns - CLOCK_MONOTONIC in ns (what bpf_ktime_get_ns()
 * reads). */
uint64_t cling_sys_mono_ns(void);
/* cling_sys_wait_state - poll sched_ext's state until it reads @want;
 * 0, or -1 after @secs seconds. */
int cling_sys_wait_state(const char *want, double secs);
/* cling_sys_possible_nodes - node ids the machine can ever have (highest
 * possible node + 1); 1 without NUMA in sysfs. */
int cling_sys_possible_nodes(void);
/* cling_sys_read_distances - @d[n][m] = SLIT distance from node n to m
 * for n, m < @nodes; CLING_FAR_DISTANCE where unknown. */
void cling_sys_read_distances(uint8_t d[CLING_MAX_NODES][CLING_MAX_NODES], int nodes);

#endif /* CLING_LOADER_H */
