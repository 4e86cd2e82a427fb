/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Helpers shared by numalens' BPF programs (BPF side only): the drop
 * counters, lookup-or-insert on bounded maps, and the task -> cgroup id
 * mapping for both cgroup layouts (enum nl_cgroup_mode). Every program
 * includes it, so each skeleton has the drops map and the two rodata
 * settings below. Recording a new cgroup's ancestry is in
 * cg_ancestry.bpf.h, for the programs that need it.
 */
#ifndef NL_COMMON_BPF_H
#define NL_COMMON_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include "nl_types.h"

/* Set by user space before load (rodata). */
const volatile u32 nl_cgroup_mode = NL_CG_V2;
/* Inode number of numalens' own pid namespace when that is not the
 * initial one, else 0: process keys are then the kernel's tgids as they
 * are, with no cost on the hot paths. */
const volatile u32 nl_pidns_inum = 0;
/* Set by user space before load: the kernel has bpf_rdonly_cast() and
 * CO-RE reads its own BTF (no --btf), so nl_untrusted() may cast. A
 * constant, so the verifier drops the way not taken: no test at run
 * time. */
const volatile bool nl_rdonly_cast = false;

/* Deepest pid namespace nesting the kernel allows (MAX_PID_NS_LEVEL). */
#define NL_PIDNS_MAX_LEVEL 32

/*
 * @p, a BTF pointer to @type, as one the verifier does not trust, for
 * walking pointer fields on hot paths. At run time nothing changes:
 * bpf_rdonly_cast() becomes a register move, and a tracing program's loads
 * through any BTF pointer are the same guarded direct loads (a NULL or a
 * bad address reads as 0). At load time, each pointer field loaded
 * through a trusted or RCU pointer makes the verifier search the whole
 * kernel BTF by name several times (is the type marked safe to trust?)
 * on every path it walks: tens of ms of start-up over our programs.
 * The result cannot go to helpers that want a trusted task
 * (bpf_task_storage_get): walk with it, pass the original.
 * Without nl_rdonly_cast the pointer stays trusted. An object that
 * must load without the kernel's BTF (alloc's classic programs, with
 * --btf) defines NL_NO_KFUNCS first: libbpf resolves a kfunc, even one
 * no program runs, only against the kernel's own BTF, and fails the
 * whole object without it.
 */
#ifdef NL_NO_KFUNCS
#define nl_untrusted(p, type) ((type *)(p))
#else
#define nl_untrusted(p, type)							\
	(nl_rdonly_cast ?							\
	 (type *)bpf_rdonly_cast((p), bpf_core_type_id_kernel(type)) : (type *)(p))
#endif

/* Per-CPU drop counters, indexed by enum nl_drop. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NL_NR_DROPS);
	__type(key, u32);
	__type(value, u64);
} drops SEC(".maps");

static __always_inline void nl_drop(u32 why)
{
	u64 *c = bpf_map_lookup_elem(&drops, &why);

	if (c)
		*c += 1;
}

/* Insert @zero under @key in the bounded hash @map unless present, and
 * return the entry. NULL (and one count in drops[@why]) when the map is
 * full. */
static __always_inline void *nl_insert_lookup(void *map, const void *key,
					      const void *zero, u32 why)
{
	void *v;

	/* -EEXIST: another CPU inserted it meanwhile; look it up again. */
	bpf_map_update_elem(map, key, zero, BPF_NOEXIST);
	v = bpf_map_lookup_elem(map, key);
	if (!v)
		nl_drop(why);
	return v;
}

/* Return the value for @key in the bounded hash @map, inserting @zero if
 * absent. NULL (and one count in drops[@why]) when the map is full. A
 * cgroup's entry that should also record the cgroup's ancestry goes
 * through nl_cg_lookup_or_init() (cg_ancestry.bpf.h) instead. */
static __always_inline void *nl_lookup_or_init(void *map, const void *key,
					       const void *zero, u32 why)
{
	void *v = bpf_map_lookup_elem(map, key);

	if (v)
		return v;
	return nl_insert_lookup(map, key, zero, why);
}

/* Cgroup id of @t in the hierarchy user space chose: the v2 (default
 * hierarchy) cgroup, or the cgroup of the v1 memory controller on hybrid
 * hosts. The kernfs id equals the cgroup directory's inode number, which is
 * how user space resolves it to a path. 0 when it cannot be read.
 * @t must be a BTF pointer (tp_btf argument or bpf_get_current_task_btf()):
 * the chain is then plain loads the verifier guards (a NULL reads as 0),
 * several times cheaper than bpf_probe_read_kernel per hop. */
static __always_inline struct cgroup *nl_task_cgroup(struct task_struct *task)
{
	struct task_struct *t = nl_untrusted(task, struct task_struct);

	if (nl_cgroup_mode == NL_CG_V1_MEMORY) {
		if (!bpf_core_enum_value_exists(enum cgroup_subsys_id, memory_cgrp_id))
			return 0;
		int idx = bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id);
		struct cgroup_subsys_state *css;

		if (idx < 0 || idx >= CGROUP_SUBSYS_COUNT)
			return 0;
		css = t->cgroups->subsys[idx];
		if (!css)
			return 0;
		return css->cgroup;
	}
	return t->cgroups->dfl_cgrp;
}

static __always_inline u64 nl_task_cgroup_id(struct task_struct *t)
{
	struct cgroup *cg = nl_task_cgroup(t);

	if (!cg)
		return 0;
	return cg->kn->id;
}

/* The cgroup of @t as nl_task_cgroup() gives it, by probe reads: for
 * paths that run rarely (a NUMA move, the first entry of a cgroup). The kernel's verifier checks each plain load of a pointer from
 * a BTF pointer against the whole kernel BTF by name, several searches a
 * load, for every inlined copy: start-up time that a probe read does not
 * cost, for the same value (a NULL reads as 0 either way). */
static __always_inline struct cgroup *nl_task_cgroup_rare(struct task_struct *t)
{
	if (nl_cgroup_mode == NL_CG_V1_MEMORY) {
		if (!bpf_core_enum_value_exists(enum cgroup_subsys_id, memory_cgrp_id))
			return 0;
		int idx = bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id);
		struct cgroup_subsys_state *css = 0;
		struct css_set *cs;

		if (idx < 0 || idx >= CGROUP_SUBSYS_COUNT)
			return 0;
		cs = BPF_CORE_READ(t, cgroups);
		if (!cs || bpf_core_read(&css, sizeof(css), &cs->subsys[idx]) || !css)
			return 0;
		return BPF_CORE_READ(css, cgroup);
	}
	return BPF_CORE_READ(t, cgroups, dfl_cgrp);
}

/* The kernfs id of cgroup @cg (0 for NULL), by probe reads: see
 * nl_task_cgroup_rare(). */
static __always_inline u64 nl_cgroup_id_rare(struct cgroup *cg)
{
	if (!cg)
		return 0;
	return BPF_CORE_READ(cg, kn, id);
}

/* nl_current_cgroup_id() for paths that run rarely: the helper in v2
 * mode, probe reads in v1 (nl_task_cgroup_rare). */
static __always_inline u64 nl_current_cgroup_id_rare(void)
{
	if (nl_cgroup_mode == NL_CG_V2)
		return bpf_get_current_cgroup_id();
	return nl_cgroup_id_rare(nl_task_cgroup_rare(bpf_get_current_task_btf()));
}

/* tgid of @t as numalens' pid namespace (nl_pidns_inum) sees it, from the
 * pid numbers of its group leader (struct pid.numbers[level], one per
 * namespace from the initial one down to the task's own), or
 * NL_TGID_OTHER_NS when that namespace is not among them. @t may be any
 * task pointer: plain probe reads. */
static __always_inline u64 nl_ns_tgid(struct task_struct *t)
{
	struct pid *p = BPF_CORE_READ(t, group_leader, thread_pid);
	unsigned int level;

	if (!p)
		return NL_TGID_OTHER_NS;
	level = BPF_CORE_READ(p, level);
	for (int i = 0; i < NL_PIDNS_MAX_LEVEL; i++) {
		struct upid u;

		if ((unsigned int)i > level)
			break;
		if (bpf_probe_read_kernel(&u, sizeof(u), &p->numbers[i]))
			break;
		if (u.ns && BPF_CORE_READ(u.ns, ns.inum) == nl_pidns_inum)
			return (u32)u.nr;
	}
	return NL_TGID_OTHER_NS;
}

/* The process key of @t (a BTF pointer): its tgid, translated when
 * numalens runs in another pid namespace than the initial one. */
static __always_inline u64 nl_task_tgid(struct task_struct *t)
{
	if (nl_pidns_inum)
		return nl_ns_tgid(t);
	return t->tgid;
}

/* Same for the current task. */
static __always_inline u64 nl_current_tgid(void)
{
	if (nl_pidns_inum)
		return nl_ns_tgid(bpf_get_current_task_btf());
	return bpf_get_current_pid_tgid() >> 32;
}

/* Same for the current task, using the cheaper helper in v2 mode. */
static __always_inline u64 nl_current_cgroup_id(void)
{
	if (nl_cgroup_mode == NL_CG_V2)
		return bpf_get_current_cgroup_id();
	return nl_task_cgroup_id(bpf_get_current_task_btf());
}

#endif /* NL_COMMON_BPF_H */
