// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* scx_cling families of the Prometheus exposition; see view_prom_cling.h. */
#include <inttypes.h>
#include <stdio.h>
#include "prom_write.h"
#include "view_prom_cling.h"

enum node_field { NF_ENQ, NF_LOCAL, NF_REMOTE, NF_HITS, NF_ATTEMPTS, NF_FAILURES,
		  NF_QUEUED, NF_BUSY, NF_HOME, NR_NF };

static const struct {
	const char *name, *type, *help;
} node_fam[NR_NF] = {
	[NF_ENQ] = { "numalens_scx_cling_enqueued_tasks_total", "counter",
		     "Tasks scx_cling inserted into the node's dispatch queue (DSQ)." },
	[NF_LOCAL] = { "numalens_scx_cling_local_dispatches_total", "counter",
		       "Tasks a CPU of the node took from its own node's DSQ or ran where select_cpu placed them." },
	[NF_REMOTE] = { "numalens_scx_cling_remote_dispatches_total", "counter",
			"Tasks a CPU of the node took from another node's DSQ after they waited past the steal "
			"threshold (work conservation)." },
	[NF_HITS] = { "numalens_scx_cling_cling_hits_total", "counter",
		      "Wakeups where the cling rule held (the task last ran on its home node, the waker runs on "
		      "another node, the home is not busy) and the task stayed on this node instead of following "
		      "the waker." },
	[NF_ATTEMPTS] = { "numalens_scx_cling_attempts_total", "counter",
			  "Placements of NUMA-group tasks on this node, their home (scx_cling(8): attempt)." },
	[NF_FAILURES] = { "numalens_scx_cling_failures_total", "counter",
			  "Attempts that failed: the task waited past the wait bound while another node had an "
			  "idle CPU, or another node took it (scx_cling(8): failure)." },
	[NF_QUEUED] = { "numalens_scx_cling_queued_tasks", "gauge", "Tasks in the node's DSQ at the latest sample." },
	[NF_BUSY] = { "numalens_scx_cling_busy_groups", "gauge",
		      "NUMA groups for which this node is busy now (failure ratio above the cling degree)." },
	[NF_HOME] = { "numalens_scx_cling_home_groups", "gauge", "NUMA groups whose home is this node now." },
};

static uint64_t node_value(const struct nl_cling_node *n, enum node_field f)
{
	switch (f) {
	case NF_ENQ: return n->enqueued;
	case NF_LOCAL: return n->local;
	case NF_REMOTE: return n->remote;
	case NF_HITS: return n->cling_hits;
	case NF_ATTEMPTS: return n->attempts;
	case NF_FAILURES: return n->failures;
	case NF_QUEUED: return n->queued;
	case NF_BUSY: return n->busy_groups;
	case NF_HOME: return n->home_groups;
	default: return 0;
	}
}

/* Open a sample of @name labelled with the group's cgroup: its path, or
 * "#<id>" when the snapshot does not know the cgroup. */
static void open_group(struct nl_buf *b, const char *name, const struct nl_snapshot *s, uint64_t cgid)
{
	char id[32];

	nl_prom_open(b, name, NULL);
	for (int i = 0; i < s->nr_cgroups; i++)
		if (s->cgroups[i].id == cgid) {
			nl_prom_label(b, "cgroup", s->cgroups[i].path);
			return;
		}
	snprintf(id, sizeof(id), "#%" PRIu64, cgid);
	nl_prom_label(b, "cgroup", id);
}

static void settings(struct nl_buf *b, const struct cling_info *in)
{
	nl_prom_family(b, "numalens_scx_cling_degree_ratio", "gauge",
		       "--cling-degree as a ratio: a node is busy for a group when its failure ratio exceeds it.");
	nl_prom_sample_dbl(b, "numalens_scx_cling_degree_ratio", in->degree / 100.0, 2);
	nl_prom_family(b, "numalens_scx_cling_decay_period_seconds", "gauge",
		       "Period of the halving decay of the attempt/failure weights.");
	nl_prom_sample_dbl(b, "numalens_scx_cling_decay_period_seconds", in->decay_ms / 1000.0, 3);
	nl_prom_family(b, "numalens_scx_cling_wait_bound_seconds", "gauge",
		       "A task queued on its home node longer than this while another node has an idle CPU "
		       "counts as a failure.");
	nl_prom_sample_s(b, "numalens_scx_cling_wait_bound_seconds", in->wait_bound_ns);
	nl_prom_family(b, "numalens_scx_cling_steal_after_seconds", "gauge",
		       "An idle CPU of another node may take a task queued this long.");
	nl_prom_sample_s(b, "numalens_scx_cling_steal_after_seconds", in->steal_ns);
}

static void groups(struct nl_buf *b, const struct nl_snapshot *s, int nr_nodes)
{
	const struct nl_cling_stats *c = &s->cling;

	nl_prom_family(b, "numalens_scx_cling_group_home_node", "gauge",
		       "Home node of the NUMA group (its cgroup), -1 while it has none.");
	for (int g = 0; g < c->nr_groups; g++) {
		open_group(b, "numalens_scx_cling_group_home_node", s, c->groups[g].cgid);
		nl_prom_close_s64(b, c->groups[g].home);
	}
	nl_prom_family(b, "numalens_scx_cling_group_failure_ratio", "gauge",
		       "Decayed failure / (attempt weight + 1) of the group on the node, 0..1 "
		       "(above the cling degree the node is busy for the group).");
	for (int g = 0; g < c->nr_groups; g++)
		for (int n = 0; n < nr_nodes; n++) {
			open_group(b, "numalens_scx_cling_group_failure_ratio", s, c->groups[g].cgid);
			nl_prom_label_u64(b, "node", (uint64_t)n);
			nl_prom_close_dbl(b, c->groups[g].ratio[n] / 100.0, 2);
		}
	nl_prom_family(b, "numalens_scx_cling_group_node_busy", "gauge",
		       "1 while the node is busy for the group: its failure ratio is above the cling degree, so the "
		       "group's tasks do not cling to it and it is not chosen as their home.");
	for (int g = 0; g < c->nr_groups; g++)
		for (int n = 0; n < nr_nodes; n++) {
			open_group(b, "numalens_scx_cling_group_node_busy", s, c->groups[g].cgid);
			nl_prom_label_u64(b, "node", (uint64_t)n);
			nl_prom_close_u64(b, c->groups[g].busy[n] ? 1 : 0);
		}
	nl_prom_family(b, "numalens_scx_cling_group_resident_bytes", "gauge",
		       "The group's resident memory on the node as scx_cling's loader last read it "
		       "(memory.numa_stat), which its home follows.");
	for (int g = 0; g < c->nr_groups; g++)
		for (int n = 0; n < nr_nodes; n++) {
			open_group(b, "numalens_scx_cling_group_resident_bytes", s, c->groups[g].cgid);
			nl_prom_label_u64(b, "node", (uint64_t)n);
			nl_prom_close_u64(b, c->groups[g].pages[n] *
						(uint64_t)(s->page_size > 0 ? s->page_size : 4096));
		}
}

void nl_prom_render_cling(struct nl_buf *b, const struct nl_snapshot *s)
{
	int nr_nodes = (int)s->cling.info.nr_nodes;

	nl_prom_family(b, "numalens_scx_cling_running", "gauge",
		       "1 while the scx_cling sched_ext scheduler runs (its maps are pinned under "
		       CLING_PIN_DIR "), else 0 and no other scx_cling series.");
	nl_prom_sample_u64(b, "numalens_scx_cling_running", s->cling_running ? 1 : 0);
	if (!s->cling_running)
		return;
	if (nr_nodes > CLING_MAX_NODES)
		nr_nodes = CLING_MAX_NODES;
	settings(b, &s->cling.info);
	for (int f = 0; f < NR_NF; f++) {
		nl_prom_family(b, node_fam[f].name, node_fam[f].type, node_fam[f].help);
		for (int n = 0; n < nr_nodes; n++) {
			nl_prom_open(b, node_fam[f].name, NULL);
			nl_prom_label_u64(b, "node", (uint64_t)n);
			nl_prom_close_u64(b, node_value(&s->cling.node[n], (enum node_field)f));
		}
	}
	groups(b, s, nr_nodes);
}
