// SPDX-License-Identifier: GPL-2.0
/*
 * What the scx_cling loader tells its user: the statistics blocks of
 * --delay and --monitor (text or JSON Lines; README.md documents the
 * fields), error lines, the verifier's work under --verbose, and why the
 * kernel ejected the scheduler.
 */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <scx/common.h>
#include "cling_loader.h"
#include "cling_stats.h"
#include "scx_cling.skel.h"

void cling_report_error(const char *fmt, ...)
{
	va_list ap;

	fputs("scx_cling: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* --- statistics output ---------------------------------------------------- */

/* cg_path: the cgroup path of inode @id under the cgroup root, or "#id". */
struct cg_find { uint64_t id; char path[PATH_MAX]; };
static struct cg_find cg_find;
static int find_one(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	if (type == FTW_D && (uint64_t)sb->st_ino == cg_find.id) {
		const char *rel = path + strlen(cling_opt.cg_root);
		snprintf(cg_find.path, sizeof(cg_find.path), "%s", *rel ? rel : "/");
		return 1;
	}
	return 0;
}
static const char *cg_path(uint64_t id)
{
	cg_find.id = id;
	snprintf(cg_find.path, sizeof(cg_find.path), "#%llu", (unsigned long long)id);
	nftw(cling_opt.cg_root, find_one, 16, FTW_PHYS | FTW_MOUNT);
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

	if (!cling_opt.json)
		printf("%-8s %5s %8s  %s\n", "tid", "home", "mem_home", "group");
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &th))
			continue;
		if (!cling_opt.json) {
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

/* cling_report_stats: one block per call (format documented in README.md). */
void cling_report_stats(const struct nl_cling_stats *s, int tasks_fd)
{
	time_t t = time(NULL);
	char ts[32];

	if (cling_opt.json) {
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


/* monitor: --monitor; print a running scx_cling's pinned statistics every
 * --monitor seconds until SIGINT/SIGTERM. Returns the exit status. */
int cling_report_monitor(void)
{
	int tasks_fd = -1;

	if (cling_opt.tasks) {
		char p[PATH_MAX];
		snprintf(p, sizeof(p), "%s/task_homes", cling_opt.pin_dir);
		tasks_fd = bpf_obj_get(p);
	}
	cling_run_catch_signals();
	while (!cling_run_stop) {
		struct nl_cling_stats s;
		int e = nl_cling_stats_read(cling_opt.pin_dir, &s);

		if (e == -ENOENT) {
			cling_report_error("scx_cling is not running (no live pins in %s)", cling_opt.pin_dir);
			return EX_FAIL;
		}
		if (e) {
			cling_report_error("reading %s: %s", cling_opt.pin_dir, strerror(-e));
			return e == -EPERM || e == -EACCES ? EX_PRIV : EX_FAIL;
		}
		cling_report_stats(&s, tasks_fd);
		nl_cling_stats_free(&s);
		usleep((useconds_t)(cling_opt.monitor_s * 1e6));
	}
	return EX_OK;
}

int cling_report_exit(struct scx_cling *skel, bool requested)
{
	int kind = skel->bss->exit_info.kind;

	/* none, done and unregistered are orderly; from UEI_KIND_ERROR on,
	 * errors; any kind at all when nobody asked it to leave */
	if (kind >= UEI_KIND_ERROR || (!requested && kind)) {
		(void)UEI_REPORT("scx_cling", skel, exit_info);
		return EX_FAIL;
	}
	return EX_OK;
}

/* --verbose: what the verifier did for each program (instructions it
 * processed, out of its 1,000,000 budget) and the load time, so the
 * headroom at this machine's node count shows. */
void cling_report_verifier(struct scx_cling *skel, double load_ms)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, skel->obj) {
		struct bpf_prog_info info = {};
		uint32_t len = sizeof(info);
		int fd = bpf_program__fd(prog);

		if (fd < 0 || bpf_prog_get_info_by_fd(fd, &info, &len))
			continue;
		fprintf(stderr, "scx_cling: verifier: %s %u insns processed (%d nodes)\n",
			bpf_program__name(prog), info.verified_insns, cling_run.nodes);
	}
	fprintf(stderr, "scx_cling: verifier: object loaded in %.0f ms\n", load_ms);
}
