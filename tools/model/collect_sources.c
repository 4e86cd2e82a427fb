// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* A snapshot's source and self figures; see collect_sources.h. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "collect_sources.h"
#include "procfs.h"

/* True when a sched_ext scheduler is enabled (or being enabled or
 * disabled): /sys/kernel/sched_ext/state reads other than "disabled".
 * False when the kernel has no sched_ext. */
static bool sched_ext_on(const char *sysfs_root)
{
	char path[512], state[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/kernel/sched_ext/state", sysfs_root);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (!fgets(state, sizeof(state), f))
		state[0] = 0;
	fclose(f);
	return state[0] && strncmp(state, "disabled", 8) != 0;
}

/* Append "; @what" (or @what alone) to @src->missing. */
static void add_missing(struct nl_sources *src, const char *what)
{
	size_t l = strlen(src->missing);

	snprintf(src->missing + l, sizeof(src->missing) - l, "%s%s", l ? "; " : "", what);
}

void nl_collect_sources_fill(struct nl_bpf *b, const struct nl_collect_opts *o, struct nl_snapshot *s)
{
	struct nl_sources *src = &s->src;
	int nb = nl_proc_sysctl_read_int(o->procfs_root, "kernel/numa_balancing");
	int ns = nl_proc_sysctl_read_int(o->procfs_root, "vm/numa_stat");

	src->sched = b->have_sched;
	src->alloc = b->have_alloc;
	src->alloc_class = b->have_alloc_class;
	src->migrate = b->have_migrate;
	src->vmscan = b->have_vmscan;
	src->vmscan_memcg_arg = b->vmscan_memcg_arg;
	src->numa_balancing = nb > 0;
	nl_bpf_set_numa_balancing(b, src->numa_balancing);
	src->vm_numa_stat = ns != 0;	/* absent sysctl (old kernels): always counted */
	src->sysctl_numa_balancing = nb < 0 ? -1 : nb;
	src->sysctl_numa_stat = ns < 0 ? -1 : ns;
	src->sysctl_zone_reclaim_mode = nl_proc_sysctl_read_int(o->procfs_root, "vm/zone_reclaim_mode");
	if (src->sysctl_zone_reclaim_mode < 0)
		src->sysctl_zone_reclaim_mode = -1;
	src->cgroup_mode = o->cgroup_mode;
	snprintf(src->cgroup_root, sizeof(src->cgroup_root), "%s", o->cgroup_root);
	snprintf(src->missing, sizeof(src->missing), "%s", b->missing);
	if (nb == 0)
		add_missing(src, "locality: NUMA balancing is off (kernel.numa_balancing=0)");
	src->sched_ext = sched_ext_on(o->sysfs_root);
	nl_bpf_set_sched_ext(b, src->sched_ext);
	if (src->sched_ext && nb != 0)
		add_missing(src, "locality: sched_ext (tasks on a sched_ext scheduler take no NUMA hinting "
				 "faults; only tasks whose fault counters moved are binned)");
}

void nl_collect_sources_fill_self(const struct nl_bpf *b, const struct nl_collect_procs_stats *ps,
				  uint64_t cgroups_evicted, struct nl_snapshot *s)
{
	unsigned long long drops[NL_NR_DROPS], cnt[32], ns[32];
	char names[32][64];
	int n;

	nl_bpf_drops(b, drops);
	for (int i = 0; i < NL_NR_DROPS; i++)
		s->self.drops[i] = drops[i];
	s->self.procs_evicted = ps->evicted;
	s->self.numa_maps_read = ps->rss_reads;
	s->self.numa_maps_reused = ps->rss_reused;
	s->self.cgroups_evicted = cgroups_evicted;
	s->self.bpf_stats_enabled = nl_bpf_stats_on(b);
	n = nl_bpf_prog_stats(b, names, cnt, ns, 32);
	s->self.nr_progs = n;
	for (int i = 0; i < n; i++) {
		snprintf(s->self.progs[i].name, sizeof(s->self.progs[i].name), "%s", names[i]);
		s->self.progs[i].run_cnt = cnt[i];
		s->self.progs[i].run_time_ns = ns[i];
	}
}
