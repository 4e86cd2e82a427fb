/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What numalens' loader learns from the kernel's BTF before it loads any
 * object: which tracepoints have tp_btf prototypes, the page flags
 * layout, the shape of the reclaim tracepoints, and whether the kernel
 * takes fentry programs. Apart from the loader because it is the one part
 * that reads BTF types, and is read once per start.
 */
#ifndef NL_KBTF_H
#define NL_KBTF_H

#include <stdbool.h>
#include <stddef.h>
#include "loader_types.h"
#include "page_layout.h"

/* Limit reclaim's entry point on 6.x kernels, where an fentry program
 * names the memcg (the vmscan object's memcg_target). */
#define NL_MEMCG_RECLAIM_FN "try_to_free_mem_cgroup_pages"

/*
 * What the loader reads from the kernel's BTF, all of it taken before the
 * first object loads, so that our parse is freed by then: libbpf parses a
 * copy of its own for each object (libbpf 1.5 takes no parsed BTF from
 * its caller), and with ours gone the first of those reuses its memory
 * (the loader holds the heap while objects load) instead of faulting in 5+ MiB more.
 */
struct nl_kbtf {
	char *names;		/* tracepoints with a btf_trace_<name> typedef:
				 * their names, each NUL-terminated */
	const char **tps;	/* pointers into names, sorted */
	size_t nr_tps;
	bool by_page;		/* the alloc programs read node and zone
				 * from the struct page, by layout pl */
	struct nl_page_layout pl;
	bool vmscan_v7;		/* both reclaim begin events name the
				 * memcg (7.x) */
	bool memcg_fn;		/* NL_MEMCG_RECLAIM_FN is a function of the BTF */
	bool fentry;		/* the kernel takes an fentry program on it,
				 * or was not asked */
	bool rdonly_cast;	/* the kfunc bpf_rdonly_cast is in the
				 * kernel's own BTF (not with --btf: CO-RE
				 * type ids would come from that file) */
};

/* Fill @k from the kernel BTF @vm for a load with options @o (see struct
 * nl_kbtf). 0 or -ENOMEM. */
int nl_kbtf_read(struct nl_kbtf *k, const struct btf *vm, const struct nl_bpf_opts *o);

/* Free what nl_kbtf_read() allocated; @k reads as empty afterwards. */
void nl_kbtf_free(struct nl_kbtf *k);

/* True when tracepoint @name has a tp_btf prototype (btf_trace_<name>). */
bool nl_kbtf_has_tp(const struct nl_kbtf *k, const char *name);

#endif
