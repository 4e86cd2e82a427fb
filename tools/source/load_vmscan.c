// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Loading the reclaim figures' object (vmscan.bpf.c): which begin
 * programs the kernel's tracepoints take (6.x or 7.x), the fentry that
 * names the memcg on 6.x and its fallback, and the proactive-reclaim
 * entry points from kallsyms. Apart from the loader because it has the
 * most kernel-version cases of all the objects.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/capability.h>
#include <bpf/libbpf.h>
#include "load_vmscan.h"
#include "load_common.h"
#include "vmscan.skel.h"
#include "caps.h"
#include "ksyms.h"
#include "vmscan_types.h"

/* Text ranges of the proactive-reclaim entry points, from kallsyms. */
struct proactive_ranges {
	uint64_t lo[2], hi[2];
	bool found;
};

/* vmscan: the *_v7 begin programs when the kernel passes the memcg (7.x),
 * else *_v6 (6.x) with memcg_target (fentry) naming the memcg when
 * @fentry; proactive entry points @pr (read once by the caller). -EAGAIN:
 * the load with the fentry program failed (some hosts refuse fentry with
 * EPERM), try again without it. */
static int open_with(struct nl_bpf *b, const struct nl_bpf_opts *o, const struct nl_kbtf *kb,
			    const struct nl_load_sizes *sz, bool fentry,
			    const struct proactive_ranges *pr_rng)
{
	struct nl_vmscan *v;
	LIBBPF_OPTS(bpf_object_open_opts, oo, .btf_custom_path = o->btf_path);
	bool v7 = kb->vmscan_v7;
	/* 6.x kernels: the memcg comes from an fentry on this function */
	bool memcg_fn = fentry && !v7 && kb->memcg_fn;

	v = nl_vmscan__open_opts(&oo);
	if (!v)
		return -errno;
	struct { struct bpf_program *p; const char *tp; bool want; } pr[] = {
		{ v->progs.memcg_begin_v7, "mm_vmscan_memcg_reclaim_begin", v7 },
		{ v->progs.memcg_begin_v6, "mm_vmscan_memcg_reclaim_begin", !v7 },
		{ v->progs.memcg_target, NULL, memcg_fn },
		{ v->progs.memcg_end, "mm_vmscan_memcg_reclaim_end", true },
		{ v->progs.direct_begin_v7, "mm_vmscan_direct_reclaim_begin", v7 },
		{ v->progs.direct_begin_v6, "mm_vmscan_direct_reclaim_begin", !v7 },
		{ v->progs.direct_end, "mm_vmscan_direct_reclaim_end", true },
		{ v->progs.node_begin, "mm_vmscan_node_reclaim_begin", true },
		{ v->progs.node_end, "mm_vmscan_node_reclaim_end", true },
		{ v->progs.kswapd_wake, "mm_vmscan_kswapd_wake", true },
		{ v->progs.kswapd_sleep, "mm_vmscan_kswapd_sleep", true },
		{ v->progs.throttled, "mm_vmscan_throttled", true },
		{ v->progs.lru_isolate, "mm_vmscan_lru_isolate", true },
		{ v->progs.shrink_inactive, "mm_vmscan_lru_shrink_inactive", true },
		{ v->progs.shrink_active, "mm_vmscan_lru_shrink_active", true },
		{ v->progs.reclaim_pages, "mm_vmscan_reclaim_pages", true },
	};
	for (size_t i = 0; i < sizeof(pr) / sizeof(pr[0]); i++) {
		bool have = pr[i].want && (!pr[i].tp || nl_kbtf_has_tp(kb, pr[i].tp));

		bpf_program__set_autoload(pr[i].p, have);
		if (pr[i].want && !have)
			nl_load_missing(b, "reclaim: tracepoint %s is missing", pr[i].tp);
	}
	v->rodata->nl_cgroup_mode = o->cgroup_mode;
	v->rodata->nl_rdonly_cast = kb->rdonly_cast;
	if (pr_rng->found) {
		for (int i = 0; i < 2; i++) {
			v->rodata->nl_proactive_lo[i] = pr_rng->lo[i];
			v->rodata->nl_proactive_hi[i] = pr_rng->hi[i];
		}
		b->vmscan_proactive = true;
	} else {
		/* kallsyms shows zero addresses to a reader without CAP_SYSLOG
		 * (kernel.kptr_restrict, perf_event_paranoid >= 2) */
		nl_load_missing(b, "reclaim: no user_proactive_reclaim/memory_reclaim in /proc/kallsyms%s: memory.reclaim counts as limit reclaim",
			    nl_cap_effective(CAP_SYSLOG) ? "" : " (its addresses need CAP_SYSLOG)");
	}
	nl_load_size_percpu(v->maps.vmscan_pages, b->nr_cpus, sizeof(struct nl_vs_pages), sz->budget / 2,
			    sz->vs_pages);
	nl_load_size_percpu(v->maps.vmscan_time, b->nr_cpus, sizeof(struct nl_vs_time), sz->budget / 2,
			    sz->vs_time);
	if (nl_vmscan__load(v)) {
		int e = -errno;

		nl_vmscan__destroy(v);
		if (memcg_fn)
			return -EAGAIN;
		nl_load_missing(b, "reclaim: BPF load failed (%s)", nl_load_why(o, e));
		return 0;
	}
	b->vmscan = v;
	nl_load_attach_all(b, v->obj);
	b->have_vmscan = true;
	b->vmscan_memcg_arg = v7 || (memcg_fn && nl_load_attached(b, v->progs.memcg_target));
	return 0;
}

/* See open_with(): with the fentry program first, unless the kernel
 * refuses fentry programs (nl_kbtf.fentry; with --btf only the load of the
 * object tells), without on -EAGAIN. kallsyms is read once for both
 * tries: the kernel formats all of it on each read. */
int nl_load_vmscan(struct nl_bpf *b, const struct nl_bpf_opts *o, const struct nl_kbtf *kb,
		       const struct nl_load_sizes *sz)
{
	static const char *const proactive_fns[2] = { "user_proactive_reclaim", "memory_reclaim" };
	struct proactive_ranges pr_rng = { 0 };
	size_t len = strlen(b->missing);
	bool fentry;
	int r;

	if (!nl_kbtf_has_tp(kb, "mm_vmscan_lru_shrink_inactive")) {
		nl_load_missing(b, "reclaim: tracepoint mm_vmscan_lru_shrink_inactive is missing");
		return 0;
	}
	fentry = kb->fentry;
	pr_rng.found = nl_ksym_ranges("/proc/kallsyms", proactive_fns, 2, pr_rng.lo, pr_rng.hi) > 0;
	r = open_with(b, o, kb, sz, fentry, &pr_rng);
	if (r != -EAGAIN)
		return r;
	b->missing[len] = '\0';	/* the retry says it again */
	return open_with(b, o, kb, sz, false, &pr_rng);
}
