// SPDX-License-Identifier: GPL-2.0
/*
 * One attach of the scx_cling scheduler, in three steps: attach (load a
 * fresh copy, or take the one the kernel ended asking for a restart, fill
 * in what the BPF side needs and attach it), monitor (refresh the groups'
 * memory and the info map, print --delay statistics, until a stop
 * request, --duration, or the kernel ending it), and detach (destroy the
 * link, wait for the kernel, remove the pins, decide between restart and
 * exit). The statistics maps are pinned for other readers meanwhile.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <scx/common.h>
#include "cling_loader.h"
#include "cling_stats.h"
#include "topology.h"
#include "scx_cling.skel.h"

#define BPF_FS_MAGIC_ 0xcafe4a11

/* is_bpffs: is @p on a bpf filesystem? */
static bool is_bpffs(const char *p)
{
	struct statfs fs;

	return !statfs(p, &fs) && fs.f_type == BPF_FS_MAGIC_;
}

static const char *pin_names[] = CLING_PIN_NAMES;

static struct bpf_map *map_by_name(struct scx_cling *skel, const char *n)
{
	return bpf_object__find_map_by_name(skel->obj, n);
}

/* unpin_all: remove the pins and the pin directory. */
static void unpin_all(struct scx_cling *skel)
{
	for (size_t i = 0; i < sizeof(pin_names) / sizeof(*pin_names); i++) {
		char p[PATH_MAX];
		snprintf(p, sizeof(p), "%s/%s", cling_opt.pin_dir, pin_names[i]);
		bpf_map__unpin(map_by_name(skel, pin_names[i]), p);
	}
	rmdir(cling_opt.pin_dir);
}

/* pin_all: pin the stats maps; a failure is a warning (no export then). */
static void pin_all(struct scx_cling *skel)
{
	char parent[PATH_MAX], *slash;

	snprintf(parent, sizeof(parent), "%s", cling_opt.pin_dir);
	slash = strrchr(parent, '/');
	if (slash && slash != parent)
		*slash = 0;
	if (!is_bpffs(parent))
		mount("bpf", parent, "bpf", 0, NULL);
	mkdir(cling_opt.pin_dir, 0700);
	for (size_t i = 0; i < sizeof(pin_names) / sizeof(*pin_names); i++) {
		char p[PATH_MAX];
		snprintf(p, sizeof(p), "%s/%s", cling_opt.pin_dir, pin_names[i]);
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

struct cling_run_state cling_run;
volatile sig_atomic_t cling_run_stop;

static void on_signal(int s)
{
	(void)s;
	cling_run_stop = 1;
}

void cling_run_catch_signals(void)
{
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
}

void cling_run_begin(void)
{
	cling_sys_read_distances(cling_run.dist, cling_run.nodes);
	cling_run.loader_start = nl_cling_loader_start((uint32_t)getpid());
	cling_run.start = cling_sys_now_s();
	cling_run_catch_signals();
}

/* write_info: the info map from the options and the scheduler's own
 * counts (online CPUs per node, hotplug events). */
static void write_info(struct scx_cling *skel)
{
	struct cling_info info = {
		.loader_pid = (uint32_t)getpid(), .nr_nodes = (uint32_t)cling_run.nodes,
		.degree = (uint32_t)cling_opt.degree, .decay_ms = (uint32_t)cling_opt.decay_ms,
		.wait_bound_ns = (uint64_t)cling_opt.wait_us * 1000,
		.steal_ns = (uint64_t)cling_opt.steal_us * 1000,
		.loader_start = cling_run.loader_start,
		.hotplug_events = skel->bss->hotplug_events,
		.restarts = cling_run.restarts,
	};
	uint32_t zero = 0;

	memcpy(info.node_cpus, skel->bss->node_cpus, sizeof(info.node_cpus));
	bpf_map__update_elem(skel->maps.info, &zero, sizeof(zero), &info, sizeof(info), 0);
}

/* The loaded (verified) object of a copy the kernel ended asking for a
 * restart: the next cling_run_once attaches it again instead of loading
 * anew, which was nearly all of a restart's time without scx_cling. */
static struct scx_cling *kept;

/* struct copy - one attached copy of the scheduler.
 * @reused:  the kept object attached again, not a fresh load
 * @load_ms: time spent loading it, ms (0 when reused) */
struct copy {
	struct scx_cling *skel;
	struct bpf_link *link;
	bool reused;
	double load_ms;
};

/* load_fresh: open a new copy, set its read-only data from the options
 * and load it. NULL after saying why, *@rc then the exit status. */
static struct scx_cling *load_fresh(double *load_ms, int *rc)
{
	struct scx_cling *skel = SCX_OPS_OPEN(cling_ops, scx_cling);
	double t_load;
	int e;

	if (!skel) {
		cling_report_error("opening the BPF object: %s", strerror(errno));
		*rc = EX_FAIL;
		return NULL;
	}
	skel->rodata->nr_nodes = (uint32_t)cling_run.nodes;
	skel->rodata->degree = (uint32_t)cling_opt.degree;
	skel->rodata->wait_bound_ns = (uint64_t)cling_opt.wait_us * 1000;
	skel->rodata->steal_ns = (uint64_t)cling_opt.steal_us * 1000;
	skel->rodata->decay_ns = (uint64_t)cling_opt.decay_ms * 1000000;
	if (cling_opt.restart_on_hotplug) {
		/* Without these ops the kernel ends the scheduler on every CPU
		 * online/offline event, asking for a restart. */
		skel->struct_ops.cling_ops->cpu_online = NULL;
		skel->struct_ops.cling_ops->cpu_offline = NULL;
	}
	bpf_map__set_max_entries(skel->maps.nodes, (uint32_t)cling_run.nodes);
	t_load = cling_sys_now_s();
	if (SCX_OPS_LOAD(skel, cling_ops, scx_cling, exit_info)) {
		e = errno;
		cling_report_error("loading the BPF scheduler failed: %s (--verbose shows the verifier log)",
				   strerror(e));
		scx_cling__destroy(skel);
		*rc = e == EPERM || e == EACCES ? EX_PRIV : EX_FAIL;
		return NULL;
	}
	*load_ms = (cling_sys_now_s() - t_load) * 1e3;
	if (cling_opt.verbose)
		cling_report_verifier(skel, *load_ms);
	return skel;
}

/* take_kept: the kept object, its end-of-copy marks cleared (the loader
 * polls them for the end of this copy). */
static struct scx_cling *take_kept(void)
{
	struct scx_cling *skel = kept;

	kept = NULL;
	UEI_RESET(skel, exit_info);
	skel->bss->exit_ns = 0;
	skel->bss->timer_err = 0;
	return skel;
}

/* prepare: what the BPF side reads from the loader, before the attach. */
static void prepare(struct scx_cling *skel)
{
	int e;

	memcpy(skel->bss->dist, cling_run.dist, sizeof(cling_run.dist));
	if ((e = setup_pfn_table(skel)))
		fprintf(stderr, "scx_cling: warning: no pfn -> node table (%s): tasks' own memory "
			"homes stay unknown\n", strerror(e < 0 ? -e : e));
	write_info(skel);
	cling_groups_attach(skel, cling_run.nodes);
	cling_groups_refresh();
}

/* attach_copy: the first step: load a copy (or take the kept one) and
 * attach it. EX_OK with @c filled in, else the exit status, said why. */
static int attach_copy(struct copy *c)
{
	char ops[128];
	int rc = EX_OK, e;

	c->reused = kept != NULL;
	c->load_ms = 0;
	c->skel = c->reused ? take_kept() : load_fresh(&c->load_ms, &rc);
	if (!c->skel)
		return rc;
	prepare(c->skel);
	c->link = SCX_OPS_ATTACH(c->skel, cling_ops, scx_cling);
	if (c->link)
		return EX_OK;
	e = errno;
	if (c->reused && e != EBUSY && e != EEXIST) {
		/* the kernel would not take the old object again: load a
		 * fresh copy */
		fprintf(stderr, "scx_cling: attaching the loaded object again failed (%s): "
			"loading it anew\n", strerror(e));
		scx_cling__destroy(c->skel);
		return attach_copy(c);
	}
	if (e == EBUSY || e == EEXIST)
		cling_report_error("another sched_ext scheduler got attached first (%s): stop it first",
				   cling_sys_read_word(SCX_DIR "/root/ops", ops, sizeof(ops)));
	else
		cling_report_error("attaching the scheduler failed: %s", strerror(e));
	scx_cling__destroy(c->skel);
	return EX_FAIL;
}

/* announce: say the copy is attached (the first time on stdout, a
 * re-attach on stderr with the time without scx_cling since
 * @prev_exit_ns), and write --ready-file. */
static void announce(const struct copy *c, uint64_t prev_exit_ns)
{
	struct scx_cling *skel = c->skel;

	if (!prev_exit_ns) {
		printf("scx_cling: attached (%d nodes, degree %ld, decay %ld ms, wait bound %ld us, %s)\n",
		       cling_run.nodes, cling_opt.degree, cling_opt.decay_ms, cling_opt.wait_us,
		       cling_opt.all ? "all cgroups are NUMA groups" : cling_opt.nr_patterns ?
		       "NUMA groups by --group" : "no NUMA groups");
		fflush(stdout);
	} else if (!UEI_EXITED(skel, exit_info)) {
		if (c->reused)
			fprintf(stderr, "scx_cling: re-attached (restart %u), %.0f ms without "
				"scx_cling (the loaded BPF object attached again, no load)\n",
				cling_run.restarts, (double)(cling_sys_mono_ns() - prev_exit_ns) / 1e6);
		else
			fprintf(stderr, "scx_cling: re-attached (restart %u), %.0f ms without "
				"scx_cling (%.0f ms of it loading the BPF object)\n", cling_run.restarts,
				(double)(cling_sys_mono_ns() - prev_exit_ns) / 1e6, c->load_ms);
	}
	if (cling_opt.ready_file) {
		FILE *f = fopen(cling_opt.ready_file, "w");
		if (f) {
			fputs("attached\n", f);
			fclose(f);
		}
	}
}

/* print_block: one --delay statistics block from the maps' fds. */
static void print_block(struct scx_cling *skel, int tasks_fd)
{
	struct nl_cling_stats s;

	write_info(skel);
	if (!nl_cling_stats_read_fds(bpf_map__fd(skel->maps.info), bpf_map__fd(skel->maps.nodes),
				     bpf_map__fd(skel->maps.groups), bpf_map__fd(skel->maps.gmem), &s)) {
		cling_report_stats(&s, tasks_fd);
		nl_cling_stats_free(&s);
	}
}

/* monitor_copy: the second step: keep the groups' memory and the info
 * map fresh (about once a second) and print --delay blocks, until a stop
 * request, --duration, or the kernel ending the scheduler. */
static void monitor_copy(struct scx_cling *skel)
{
	double next_refresh = cling_sys_now_s() + 1, next_stats = cling_sys_now_s() + cling_opt.stats_s;
	int tasks_fd = cling_opt.tasks ? bpf_map__fd(skel->maps.task_homes) : -1;

	while (!cling_run_stop && !UEI_EXITED(skel, exit_info)) {
		double t = cling_sys_now_s();

		if (cling_opt.duration_s && t - cling_run.start >= cling_opt.duration_s)
			break;
		if (t >= next_refresh) {
			cling_groups_refresh();
			write_info(skel);
			next_refresh = t + 1;
		}
		if (cling_opt.stats_s && t >= next_stats) {
			print_block(skel, tasks_fd);
			next_stats = t + cling_opt.stats_s;
		}
		usleep(20000);
	}
}

/* detach_copy: the last step: detach (destroying the link; the maps stay
 * readable), wait for the kernel, unpin, and tell a restart the kernel
 * asked for from an end to report. @rc: the status so far. Keeps the
 * object for the next attach on a restart (unless --reload-on-restart),
 * else destroys it. Returns the exit status. */
static int detach_copy(struct copy *c, int rc, bool *restart, uint64_t *exit_ns)
{
	struct scx_cling *skel = c->skel;
	bool requested = !UEI_EXITED(skel, exit_info);
	const struct user_exit_info *ei = &skel->bss->exit_info;

	bpf_link__destroy(c->link);
	c->link = NULL;
	if (cling_sys_wait_state("disabled", 10)) {
		cling_report_error("the kernel did not report the scheduler disabled within 10 s");
		rc = EX_FAIL;
	}
	unpin_all(skel);
	*exit_ns = skel->bss->exit_ns;
	if (rc == EX_OK && !requested && !cling_run_stop && UEI_ECODE_RESTART(ei->exit_code)) {
		fprintf(stderr, "scx_cling: the kernel ended the scheduler and asked for a restart "
			"(reason=\"%s\" msg=\"%s\"): attaching again\n", ei->reason, ei->msg);
		*restart = true;
	} else if (rc == EX_OK) {
		rc = cling_report_exit(skel, requested);
	}
	if (*restart && !cling_opt.reload)
		kept = skel;
	else
		scx_cling__destroy(skel);
	return rc;
}

int cling_run_once(bool *restart, uint64_t *exit_ns, uint64_t prev_exit_ns)
{
	struct copy c;
	char st[128];
	int rc;

	*restart = false;
	rc = attach_copy(&c);
	if (rc != EX_OK)
		return rc;
	if (cling_sys_wait_state("enabled", 10) && !UEI_EXITED(c.skel, exit_info)) {
		cling_report_error("the kernel did not report the scheduler enabled within 10 s (state=%s)",
				   cling_sys_read_word(SCX_DIR "/state", st, sizeof(st)));
		rc = EX_FAIL;
	} else {
		pin_all(c.skel);
		write_info(c.skel);
		announce(&c, prev_exit_ns);
		monitor_copy(c.skel);
	}
	return detach_copy(&c, rc, restart, exit_ns);
}
