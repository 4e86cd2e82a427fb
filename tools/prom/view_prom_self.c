// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The families about numalens itself: build and sources, sampling, its
 * snapshots, BPF map drops and run times, evictions, and how many cgroups
 * were exported or left out.
 */
#include "prom_write.h"
#include "view_prom_self.h"

void nl_prom_self_info(struct nl_buf *b, const struct nl_snapshot *s, const struct nl_prom_opts *o)
{
	static const char *const src_names[] = {
		"sched", "alloc", "alloc_class", "migrate", "numa_balancing", "vm_numa_stat", "vmscan",
	};
	bool src[] = { s->src.sched, s->src.alloc, s->src.alloc_class, s->src.migrate,
		       s->src.numa_balancing, s->src.vm_numa_stat, s->src.vmscan };

	nl_prom_family(b, "numalens_build_info", "gauge", "Always 1; the numalens version and the kernel release as labels.");
	nl_prom_open(b, "numalens_build_info", NULL);
	nl_prom_label(b, "version", o->version ? o->version : "");
	nl_prom_label(b, "kernel", s->kernel);
	nl_prom_close_u64(b, 1);
	nl_prom_family(b, "numalens_source_available", "gauge",
	       "1 if the figures of this source are measured in this session, 0 if not (then they stay "
	       "flat, they are not zero activity). numa_balancing gates the locality histogram.");
	for (size_t k = 0; k < sizeof(src) / sizeof(src[0]); k++)
		nl_prom_sample1_u64(b, "numalens_source_available", "source", src_names[k], src[k]);
	nl_prom_family(b, "numalens_alloc_sample_period", "gauge",
	       "Page allocations are counted by process and cgroup from one in this many, each standing "
	       "for as many (1: every one, exact). A cgroup or process allocation counter's increase over "
	       "a window that saw E allocations has a relative standard error of about "
	       "sqrt((period - 1) / E); the node and zone families count every allocation.");
	nl_prom_sample_u64(b, "numalens_alloc_sample_period",
			   s->src.alloc_sample_period ? s->src.alloc_sample_period : 1);
	nl_prom_family(b, "numalens_page_size_bytes", "gauge", "Base page size of the kernel.");
	nl_prom_sample_u64(b, "numalens_page_size_bytes", (uint64_t)s->page_size);
	nl_prom_family(b, "numalens_snapshots_total", "counter", "Snapshots taken from the BPF maps since start.");
	nl_prom_sample_u64(b, "numalens_snapshots_total", s->seq);
	nl_prom_family(b, "numalens_snapshot_timestamp_seconds", "gauge", "Wall-clock time the served snapshot was taken (Unix seconds).");
	nl_prom_sample_s(b, "numalens_snapshot_timestamp_seconds", s->timestamp_ns);
}

void nl_prom_self_render(struct nl_buf *b, const struct nl_snapshot *s)
{
	const struct nl_self *x = &s->self;

	nl_prom_family(b, "numalens_map_drops_total", "counter",
	       "Events a BPF program could not count in full, by reason (a full map, an out-of-range node, "
	       "a pfn outside the node table).");
	for (int k = 0; k < NL_NR_DROPS; k++)
		nl_prom_sample1_u64(b, "numalens_map_drops_total", "reason", nl_snapshot_drop_name(k), x->drops[k]);
	nl_prom_family(b, "numalens_evicted_processes_total", "counter", "Exited processes removed from the BPF maps.");
	nl_prom_sample_u64(b, "numalens_evicted_processes_total", x->procs_evicted);
	nl_prom_family(b, "numalens_evicted_cgroups_total", "counter",
	       "Removed cgroups folded into their parents and removed from the BPF maps.");
	nl_prom_sample_u64(b, "numalens_evicted_cgroups_total", x->cgroups_evicted);
	if (s->in_child_pidns) {	/* tasks our pid namespace cannot see, summed */
		const struct nl_figs *o = &s->other_pidns;

		nl_prom_family(b, "numalens_other_pid_namespaces_cpu_seconds_total", "counter",
		       "On-CPU time of the tasks outside numalens' pid namespace, which no process series shows "
		       "(present only when numalens runs in a pid namespace of its own).");
		nl_prom_sample_s(b, "numalens_other_pid_namespaces_cpu_seconds_total", o->run_ns_total);
		nl_prom_family(b, "numalens_other_pid_namespaces_allocated_pages_total", "counter",
		       "Pages allocated by the tasks outside numalens' pid namespace (local + remote).");
		nl_prom_sample_u64(b, "numalens_other_pid_namespaces_allocated_pages_total",
				   o->alloc.pages_local_total + o->alloc.pages_remote_total);
	}
	nl_prom_family(b, "numalens_bpf_stats_enabled", "gauge",
	       "1 if the kernel counts BPF run times (export --self-cost, or kernel.bpf_stats_enabled=1), so the program run counts and times below advance.");
	nl_prom_sample_u64(b, "numalens_bpf_stats_enabled", x->bpf_stats_enabled);
	nl_prom_family(b, "numalens_bpf_program_runs_total", "counter", "Runs of each BPF program (kernel bpf stats).");
	for (int i = 0; i < x->nr_progs && i < 32; i++)
		nl_prom_sample1_u64(b, "numalens_bpf_program_runs_total", "program", x->progs[i].name, x->progs[i].run_cnt);
	nl_prom_family(b, "numalens_bpf_program_run_time_seconds_total", "counter",
	       "Time spent in each BPF program (kernel bpf stats, seconds).");
	for (int i = 0; i < x->nr_progs && i < 32; i++) {
		nl_prom_open(b, "numalens_bpf_program_run_time_seconds_total", NULL);
		nl_prom_label(b, "program", x->progs[i].name);
		nl_prom_close_s(b, x->progs[i].run_time_ns);
	}
}

void nl_prom_self_cardinality(struct nl_buf *b, const struct nl_snapshot *s, int exported, int omitted)
{
	nl_prom_family(b, "numalens_cgroups", "gauge", "Cgroups in the snapshot, including removed ones in their grace period.");
	nl_prom_sample_u64(b, "numalens_cgroups", (uint64_t)s->nr_cgroups);
	nl_prom_family(b, "numalens_cgroups_exported", "gauge", "Cgroups exported as cgroup label values.");
	nl_prom_sample_u64(b, "numalens_cgroups_exported", (uint64_t)exported);
	nl_prom_family(b, "numalens_cgroups_omitted", "gauge",
	       "Cgroups selected by --cgroup-depth/--cgroup-pattern but left out by --max-cgroups.");
	nl_prom_sample_u64(b, "numalens_cgroups_omitted", (uint64_t)omitted);
}
