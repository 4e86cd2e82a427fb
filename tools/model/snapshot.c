// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Snapshot lifetime and derived figures shared by every view. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "snapshot.h"

void nl_snapshot_free_rows(struct nl_snapshot *s)
{
	free(s->procs);
	for (int i = 0; s->cgroups && i < s->nr_cgroups; i++) {
		free(s->cgroups[i].vmscan);
		free(s->cgroups[i].agent);
		free(s->cgroups[i].long_path);
	}
	free(s->cgroups);
	s->cgroups = NULL;
	s->procs = NULL;
	s->nr_cgroups = 0;
	s->nr_procs = 0;
}

void nl_snapshot_free(struct nl_snapshot *s)
{
	if (!s)
		return;
	free(s->nodes);
	nl_snapshot_free_rows(s);
	nl_cling_stats_free(&s->cling);
	memset(s, 0, sizeof(*s));
}

/* A malloc'ed copy of @n elements of @size at @p; NULL for none. Sets
 * *@fail on allocation failure. */
static void *dup_or_fail(const void *p, size_t n, size_t size, bool *fail)
{
	void *d;

	if (!p || !n)
		return NULL;
	d = malloc(n * size);
	if (!d) {
		*fail = true;
		return NULL;
	}
	memcpy(d, p, n * size);
	return d;
}

int nl_snapshot_copy(struct nl_snapshot *dst, const struct nl_snapshot *src)
{
	struct nl_snapshot c = *src;
	bool fail = false;

	if (src->nr_nodes < 0 || src->nr_procs < 0 || src->nr_cgroups < 0 || src->cling.nr_groups < 0)
		return -EINVAL;
	c.nodes = dup_or_fail(src->nodes, (size_t)src->nr_nodes, sizeof(*src->nodes), &fail);
	c.procs = dup_or_fail(src->procs, (size_t)src->nr_procs, sizeof(*src->procs), &fail);
	c.cgroups = dup_or_fail(src->cgroups, (size_t)src->nr_cgroups, sizeof(*src->cgroups), &fail);
	c.cling.groups = dup_or_fail(src->cling.groups, (size_t)src->cling.nr_groups,
				     sizeof(*src->cling.groups), &fail);
	/* the per-cgroup parts are owned by each snapshot: copy, never share */
	for (int i = 0; c.cgroups && i < c.nr_cgroups; i++) {
		c.cgroups[i].vmscan = src->cgroups[i].vmscan ?
			dup_or_fail(src->cgroups[i].vmscan, 1, nl_vmscan_figs_size(src->cgroups[i].vmscan->nr_nids), &fail) :
			NULL;
		c.cgroups[i].agent = dup_or_fail(src->cgroups[i].agent, 1, sizeof(*c.cgroups[i].agent), &fail);
		c.cgroups[i].long_path = src->cgroups[i].long_path ?
			dup_or_fail(src->cgroups[i].long_path, strlen(src->cgroups[i].long_path) + 1, 1, &fail) :
			NULL;
	}
	if (!c.cgroups)
		c.nr_cgroups = 0;	/* nothing of src's to free on failure */
	if (fail) {
		nl_snapshot_free(&c);
		return -ENOMEM;
	}
	*dst = c;
	return 0;
}

const char *nl_snapshot_proc_cgroup(const struct nl_snapshot *s, pid_t pid)
{
	for (int i = 0; pid > 0 && i < s->nr_procs; i++) {
		const struct nl_proc *p = &s->procs[i];

		if (p->pid != pid)
			continue;
		for (int k = 0; p->cgroup_id && k < s->nr_cgroups; k++)
			if (s->cgroups[k].id == p->cgroup_id)
				return nl_cgroup_full_path(&s->cgroups[k]);
		return p->cgroup_path;	/* not in the table: its label is all we have */
	}
	return NULL;
}

void nl_snapshot_set_focus(struct nl_snapshot *s, pid_t pid, const struct nl_focus *last)
{
	const char *cg = nl_snapshot_proc_cgroup(s, pid);

	s->focus.pid = pid > 0 ? pid : 0;
	if (cg)
		snprintf(s->focus.cgroup, sizeof(s->focus.cgroup), "%s", cg);
	else if (pid > 0 && last && last->pid == pid)
		snprintf(s->focus.cgroup, sizeof(s->focus.cgroup), "%s", last->cgroup);
	else
		s->focus.cgroup[0] = '\0';
}

double nl_snapshot_locality_mean(const uint64_t bucket_ns[NL_LOC_BUCKETS])
{
	/* long double: a busy cgroup's ns sums stay exact well past 2^53 */
	long double sum = 0, w = 0;

	for (int b = 0; b < NL_LOC_BUCKETS; b++) {
		sum += bucket_ns[b];
		w += (long double)bucket_ns[b] * (b + 0.5L) / NL_LOC_BUCKETS;
	}
	if (sum == 0)
		return NAN;
	return (double)(w / sum);
}

double nl_snapshot_locality_median(const uint64_t bucket_ns[NL_LOC_BUCKETS])
{
	long double sum = 0, half, below = 0;

	for (int b = 0; b < NL_LOC_BUCKETS; b++)
		sum += bucket_ns[b];
	if (sum == 0)
		return NAN;
	half = sum / 2;
	for (int b = 0; b < NL_LOC_BUCKETS; b++) {
		if (bucket_ns[b] && below + bucket_ns[b] >= half)
			return (double)((b + (half - below) / bucket_ns[b]) / NL_LOC_BUCKETS);
		below += bucket_ns[b];
	}
	return 1.0;	/* not reached: the buckets sum to more than half */
}

const char *nl_snapshot_drop_name(unsigned int i)
{
	static const char *const names[NL_NR_DROPS] = {
		[NL_DROP_TASK_MAP_FULL] = "task_map_full",
		[NL_DROP_CGROUP_MAP_FULL] = "cgroup_map_full",
		[NL_DROP_PENDING_FULL] = "pending_full",
		[NL_DROP_NODE_RANGE] = "node_range",
		[NL_DROP_PFN_UNKNOWN] = "pfn_unknown",
		[NL_DROP_EXIT_RING_FULL] = "exit_ring_full",
		[NL_DROP_SLICE_UNSEEN] = "slice_unseen",
	};

	return i < NL_NR_DROPS && names[i] ? names[i] : "unknown";
}

void nl_snapshot_missing_without(char *out, size_t sz, const char *missing, const char *prefix)
{
	size_t l = 0, pl = strlen(prefix);
	const char *p = missing;

	if (!sz)
		return;
	out[0] = '\0';
	while (*p) {
		const char *end = strstr(p, "; ");
		size_t n = end ? (size_t)(end - p) : strlen(p);

		if (strncmp(p, prefix, pl) && l + n + 3 < sz)
			l += snprintf(out + l, sz - l, "%s%.*s", l ? "; " : "", (int)n, p);
		p += n;
		if (end)
			p += 2;
	}
}
