/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The ancestry of each cgroup the programs count, recorded when its first
 * entry is made: a cgroup that is created and removed between two
 * collections never appears in user space's walk of the hierarchy, and
 * without its parent its counts could only be folded into the root.
 * A program that includes this header has the cg_ancestry map, and its
 * cgroup entries made with nl_cg_lookup_or_init() record their ancestry.
 */
#ifndef NL_CG_ANCESTRY_BPF_H
#define NL_CG_ANCESTRY_BPF_H

#include "nl_common.bpf.h"

/* cgroup id -> its ancestors' ids (nl_types.h), nearest first. Not
 * preallocated: only cgroups that had events take memory, and user space
 * deletes the entry when it retires the cgroup. A full map loses the
 * ancestry (the cgroup then folds into the root, as without this map). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 16384);
	__type(key, u64);
	__type(value, struct nl_cg_ancestry);
} cg_ancestry SEC(".maps");

/* Record the ancestry of cgroup @id, which must be the current task's (in
 * the hierarchy nl_cgroup_mode names): the parent chain of css.parent,
 * the same in v1 and v2. Called on the first entry of a cgroup in a stats
 * map (rare), never on the hot path of existing entries. Probe reads
 * (nl_task_cgroup_rare): inlined at every cgroup entry of every program,
 * plain loads from BTF pointers here cost the verifier a good part of
 * numalens' start-up. */
static __always_inline void nl_note_cgroup(u64 id)
{
	struct cgroup *cg = nl_task_cgroup_rare(bpf_get_current_task_btf());
	struct nl_cg_ancestry a = {};

	if (!cg || nl_cgroup_id_rare(cg) != id || bpf_map_lookup_elem(&cg_ancestry, &id))
		return;
	for (int i = 0; i < NL_CG_ANCESTORS; i++) {
		struct cgroup_subsys_state *p = BPF_CORE_READ(cg, self.parent);

		if (!p)
			break;
		cg = BPF_CORE_READ(p, cgroup);
		if (!cg)
			break;
		a.id[i] = BPF_CORE_READ(cg, kn, id);
	}
	bpf_map_update_elem(&cg_ancestry, &id, &a, BPF_NOEXIST);
}

/* nl_lookup_or_init() for an entry that may be a cgroup's: @cgid is the
 * current task's cgroup id when @key is that cgroup's entry, else 0; a new
 * entry of a cgroup records the cgroup's ancestry first. */
static __always_inline void *nl_cg_lookup_or_init(void *map, const void *key,
						  const void *zero, u32 why, u64 cgid)
{
	void *v = bpf_map_lookup_elem(map, key);

	if (v)
		return v;
	if (cgid)
		nl_note_cgroup(cgid);
	return nl_insert_lookup(map, key, zero, why);
}

#endif /* NL_CG_ANCESTRY_BPF_H */
