/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Loading numalens' BPF objects (sched, alloc, migrate skeletons) on the
 * live kernel: preflight checks with one clear message per missing
 * prerequisite, map sizing to a memory budget, per-tracepoint degradation
 * (a missing tracepoint disables only its figure), and BPF run-time stats.
 */
#ifndef NL_LOADER_H
#define NL_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "nl_types.h"
#include "loader_types.h"	/* options, the loaded objects, exit codes */

struct btf;

/*
 * nl_bpf_caps_missing - which of CAP_BPF and CAP_PERFMON our effective set
 * lacks ("CAP_BPF", "CAP_PERFMON" or both in one string, with CAP_SYS_ADMIN
 * named as the alternative), or NULL when
 * loading and attaching tracing programs is allowed (both held, or
 * CAP_SYS_ADMIN). Checked by capability, not uid: root with a reduced
 * bounding set lacks them too.
 */
const char *nl_bpf_caps_missing(void);

/* nl_bpf_btf_check - the one BTF check of every command: the BTF numalens'
 * CO-RE programs relocate against is @path (--btf) when given, else the
 * kernel's own (NL_KERNEL_BTF); it must parse and describe a kernel
 * (struct task_struct). Returns 0 and, when @out is not NULL, the parsed
 * BTF in *@out (btf__free it); else NL_EXIT_USAGE (@path unreadable, not
 * BTF, not a kernel's) or NL_EXIT_KERNEL (no kernel BTF), with a one-line
 * message naming the BTF in @err. */
int nl_bpf_btf_check(const char *path, struct btf **out, char *err, size_t errlen);

/* Check privileges, BTF, bpffs and tracefs (mounting those two when
 * absent), then open, size, load and attach every object whose
 * tracepoints exist. On failure returns an enum nl_exit code (> 0) and
 * writes a one-line message saying what to do into @err. 0 on success,
 * also when some figures are missing (see b->missing). */
int nl_bpf_open(struct nl_bpf *b, const struct nl_bpf_opts *o, char *err, size_t errlen);

/* Load the pfn -> (nid, zone) table (@n ranges, sorted, half-open) into
 * the alloc object. Returns 0, -EINVAL if @n > NL_MAX_PFN_RANGES, or a
 * negative errno from the map update. No-op without the alloc object. */
int nl_bpf_set_pfn_table(struct nl_bpf *b, const struct nl_pfn_range *r, int n);

/* Fill names/run counts/run times of the attached programs (from
 * bpf_prog_info; run time needs the stats fd). Returns the count written,
 * at most @max. */
int nl_bpf_prog_stats(const struct nl_bpf *b, char names[][64], unsigned long long *run_cnt,
		      unsigned long long *run_time_ns, int max);

/* True when the kernel counts BPF run times, so nl_bpf_prog_stats()
 * figures advance: numalens holds the stats (self_cost) or
 * kernel.bpf_stats_enabled is 1. Another process's BPF_ENABLE_STATS fd
 * is invisible here and reads as false. */
bool nl_bpf_stats_on(const struct nl_bpf *b);

/* Tell the sched program whether kernel.numa_balancing is on: while it is
 * off, on-CPU time is binned into no locality bucket (the tasks' fault
 * counters are stale then). No-op without the sched object. */
void nl_bpf_set_numa_balancing(struct nl_bpf *b, bool on);

/* Tell the sched program, once per collection, whether a sched_ext
 * scheduler is enabled: while one is, a task's on-CPU time is binned by
 * locality only when its NUMA-fault counters moved since the previous
 * call (ext tasks take no hinting faults, their counters are stale).
 * No-op without the sched object. */
void nl_bpf_set_sched_ext(struct nl_bpf *b, bool on);

/* The largest sample period the BPF side takes. */
#define NL_ALLOC_SAMPLE_LIMIT 65536u

/* Count one page allocation in about @period (each standing for @period
 * of them) from now on; 0 or 1 counts every one; at most
 * NL_ALLOC_SAMPLE_LIMIT. Each CPU takes it at its next allocation, with
 * a new gap; the pages of a sampled batch still waiting for their LRU
 * then lose their anon/file/shmem class. No-op without the allocation
 * object. */
void nl_bpf_set_alloc_sample(struct nl_bpf *b, uint32_t period);

/* Sum the drop counters of all objects into @drops[NL_NR_DROPS]. */
void nl_bpf_drops(const struct nl_bpf *b, unsigned long long drops[NL_NR_DROPS]);

/* Detach and free everything. Safe on a zeroed or partly opened struct. */
void nl_bpf_close(struct nl_bpf *b);

/* Pause every program nl_bpf_open() attached (@pause), so the hooked
 * events cost (next to) nothing while nobody needs their figures, or
 * resume them; the maps and their contents stay. The vmscan programs stay
 * attached and return at once while paused (a flag in their object: no
 * rewrite of the kernel's text at each tracepoint, which a detach and an
 * attach each cost); the others are detached and attached again. 0, or
 * the -errno of the first program that would not attach again (the others
 * are attached). */
int nl_bpf_pause(struct nl_bpf *b, bool pause);

#endif
