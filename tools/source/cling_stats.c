// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * scx_cling statistics reader (cling_stats.h): sums the per-CPU node
 * counters, walks the groups hash, and applies cling.h's busy rule so
 * every reader shows the same busy flags as the scheduler uses.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "cling_stats.h"
#include "procfs.h"

void nl_cling_stats_fold(struct nl_cling_stats *s)
{
	uint32_t nr = s->info.nr_nodes > CLING_MAX_NODES ? CLING_MAX_NODES : s->info.nr_nodes;

	for (uint32_t n = 0; n < CLING_MAX_NODES; n++)
		s->node[n].busy_groups = s->node[n].home_groups = 0;
	for (int i = 0; i < s->nr_groups; i++) {
		struct nl_cling_group *g = &s->groups[i];
		struct cling_mstat ms = { .busiest = g->busiest };

		memcpy(ms.failure, g->failure, sizeof(ms.failure));
		memcpy(ms.total, g->total, sizeof(ms.total));
		for (uint32_t n = 0; n < nr; n++) {
			g->ratio[n] = cling_ratio(g->failure[n], g->total[n]);
			g->busy[n] = cling_busy(&ms, (int)n, s->info.degree);
			if (g->busy[n])
				s->node[n].busy_groups++;
		}
		if (g->home >= 0 && (uint32_t)g->home < nr)
			s->node[g->home].home_groups++;
	}
}

void nl_cling_stats_free(struct nl_cling_stats *s)
{
	if (!s)
		return;
	free(s->groups);
	s->groups = NULL;
	s->nr_groups = 0;
}

static int cmp_group(const void *a, const void *b)
{
	uint64_t x = ((const struct nl_cling_group *)a)->cgid;
	uint64_t y = ((const struct nl_cling_group *)b)->cgid;

	return x < y ? -1 : x > y;
}

static int read_nodes(int fd, struct nl_cling_stats *s)
{
	int ncpu = libbpf_num_possible_cpus();
	struct cling_node_stats *v;

	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	v = calloc((size_t)ncpu, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (uint32_t n = 0; n < s->info.nr_nodes && n < CLING_MAX_NODES; n++) {
		struct nl_cling_node *o = &s->node[n];
		uint64_t latest = 0;

		if (bpf_map_lookup_elem(fd, &n, v)) {
			int e = -errno;
			free(v);
			return e;
		}
		for (int c = 0; c < ncpu; c++) {
			o->enqueued += v[c].enqueued;
			o->local += v[c].local;
			o->remote += v[c].remote;
			o->cling_hits += v[c].cling_hits;
			o->attempts += v[c].attempts;
			o->failures += v[c].failures;
			o->home_ignored += v[c].home_ignored;
			/* queued is a gauge: the newest sample wins. */
			if (v[c].queued_at >= latest) {
				latest = v[c].queued_at;
				o->queued = v[c].queued;
			}
		}
	}
	free(v);
	return 0;
}

static int read_groups(int gfd, int mfd, struct nl_cling_stats *s)
{
	uint64_t key, next, *prev = NULL;
	struct cling_group g;
	struct cling_group_mem m;

	s->groups = calloc(CLING_MAX_GROUPS, sizeof(*s->groups));
	if (!s->groups)
		return -ENOMEM;
	while (s->nr_groups < CLING_MAX_GROUPS && !bpf_map_get_next_key(gfd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(gfd, &key, &g))
			continue; /* deleted meanwhile */
		struct nl_cling_group *o = &s->groups[s->nr_groups++];

		o->cgid = key;
		o->home = g.home;
		o->busiest = g.ms.busiest;
		memcpy(o->failure, g.ms.failure, sizeof(o->failure));
		memcpy(o->total, g.ms.total, sizeof(o->total));
		if (mfd >= 0 && !bpf_map_lookup_elem(mfd, &key, &m))
			memcpy(o->pages, m.pages, sizeof(o->pages));
	}
	qsort(s->groups, (size_t)s->nr_groups, sizeof(*s->groups), cmp_group);
	return 0;
}

int nl_cling_stats_read_fds(int info_fd, int nodes_fd, int groups_fd, int gmem_fd,
			    struct nl_cling_stats *out)
{
	uint32_t zero = 0;
	int e;

	memset(out, 0, sizeof(*out));
	if (bpf_map_lookup_elem(info_fd, &zero, &out->info))
		return -errno;
	e = read_nodes(nodes_fd, out);
	if (!e)
		e = read_groups(groups_fd, gmem_fd, out);
	if (e) {
		nl_cling_stats_free(out);
		return e;
	}
	nl_cling_stats_fold(out);
	return 0;
}

/* proc_start: start time of process @pid (field 22 of /proc/PID/stat,
 * clock ticks since boot), or 0 when it does not exist. */
static uint64_t proc_start(uint32_t pid)
{
	uint64_t v;

	return nl_proc_start_ticks("/proc", (pid_t)pid, &v) ? 0 : v;
}

uint64_t nl_cling_loader_start(uint32_t pid)
{
	return proc_start(pid);
}

static int pin_fd(const char *dir, const char *name)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return bpf_obj_get(p);
}

int nl_cling_stats_read(const char *pin_dir, struct nl_cling_stats *out)
{
	static const char *names[4] = { "info", "nodes", "groups", "gmem" };
	int fd[4], e = 0;
	uint32_t zero = 0;

	memset(out, 0, sizeof(*out));
	for (int i = 0; i < 4; i++)
		fd[i] = -1;
	for (int i = 0; i < 4 && !e; i++) {
		fd[i] = pin_fd(pin_dir, names[i]);
		if (fd[i] < 0)
			e = errno == ENOENT || errno == ENOTDIR ? -ENOENT : -errno;
	}
	if (!e) {
		struct cling_info info;

		/* Pins left by a loader that died are not a running scheduler. */
		if (bpf_map_lookup_elem(fd[0], &zero, &info))
			e = -errno;
		else if (!info.loader_pid || (kill((pid_t)info.loader_pid, 0) && errno == ESRCH))
			e = -ENOENT;
		else if (info.loader_start && proc_start(info.loader_pid) != info.loader_start)
			e = -ENOENT;	/* the pid was reused by another process */
	}
	if (!e)
		e = nl_cling_stats_read_fds(fd[0], fd[1], fd[2], fd[3], out);
	for (int i = 0; i < 4; i++)
		if (fd[i] >= 0)
			close(fd[i]);
	return e;
}
