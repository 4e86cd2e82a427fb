// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The loader's one read of the kernel's BTF (kbtf.h): tracepoint
 * prototypes, page flags layout, reclaim tracepoint shapes, fentry.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "file.h"
#include "kbtf.h"

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

bool nl_kbtf_has_tp(const struct nl_kbtf *k, const char *name)
{
	return k->nr_tps && bsearch(&name, k->tps, k->nr_tps, sizeof(*k->tps), str_cmp);
}

/* Use the tp_btf programs, which read node and zone from the struct page,
 * when the kernel has the tracepoints as tp_btf (its own BTF, not --btf),
 * its page flags layout is known (x86-64: a sparse vmemmap, so no section
 * field) and NUMALENS_ALLOC_PFN does not ask for the pfn-table programs. */
static bool use_page_flags(const struct btf *vm, const struct nl_bpf_opts *o,
			   struct nl_page_layout *pl)
{
#if defined(__x86_64__)
	const char *env = getenv("NUMALENS_ALLOC_PFN");

	if ((env && *env && strcmp(env, "0")) || (o->btf_path && access(NL_KERNEL_BTF, R_OK)))
		return false;
	return btf__find_by_name_kind(vm, "btf_trace_mm_page_alloc", BTF_KIND_TYPEDEF) > 0 &&
	       !nl_page_layout_from_btf(vm, pl);
#else
	(void)vm, (void)o, (void)pl;
	return false;
#endif
}

/* True when tracepoint @name's TP_PROTO (from btf_trace_<name>) is
 * (void *, gfp_t, int, struct mem_cgroup *): the 7.x reclaim begin events,
 * whose *_v7 programs read the memcg as their third argument. */
static bool tp_btf_memcg_arg(const struct btf *vm, const char *name)
{
	char tn[128];
	const struct btf_type *t;
	const struct btf_param *p;
	int id;

	snprintf(tn, sizeof(tn), "btf_trace_%s", name);
	id = vm ? btf__find_by_name_kind(vm, tn, BTF_KIND_TYPEDEF) : -1;
	if (id <= 0)
		return false;
	t = btf__type_by_id(vm, btf__type_by_id(vm, id)->type);	/* pointer */
	if (!t || !btf_is_ptr(t))
		return false;
	t = btf__type_by_id(vm, t->type);
	if (!t || !btf_is_func_proto(t) || btf_vlen(t) != 4)
		return false;
	p = btf_params(t);
	t = btf__type_by_id(vm, p[3].type);
	if (!t || !btf_is_ptr(t))
		return false;
	t = btf__type_by_id(vm, t->type);
	return t && btf_is_struct(t) && !strcmp(btf__name_by_offset(vm, t->name_off), "mem_cgroup");
}

/* 7.x: both reclaim begin events name the memcg. */
static bool vmscan_v7(const struct btf *vm)
{
	return tp_btf_memcg_arg(vm, "mm_vmscan_memcg_reclaim_begin") &&
	       tp_btf_memcg_arg(vm, "mm_vmscan_direct_reclaim_begin");
}

/* Whether the BPF JIT is on (net.core.bpf_jit_enable non-zero; a kernel
 * built with the JIT always on reads 1). Unreadable: assume on, as every
 * mainstream kernel is. */
static bool jit_on(void)
{
	char b[8];

	return nl_file_read("/proc/sys/net/core/bpf_jit_enable", b, sizeof(b)) <= 0 || b[0] != '0';
}

/* True unless the kernel refuses an fentry program on function @fn: a
 * two-instruction program of that kind, loaded and closed. Some hosts
 * refuse every fentry program (EPERM) before any verification; asking a
 * program this small spares a load of the whole vmscan object (its maps,
 * its own parse of the kernel's BTF, its verification) that would be
 * thrown away. @vm must be the kernel's own BTF: its ids are the
 * kernel's. True also when the answer is not known (@fn not in @vm): the
 * load of the object then decides, as before. */
static bool fentry_allowed(const struct btf *vm, const char *fn, bool verbose)
{
	/* r0 = 0; exit */
	struct bpf_insn insns[2] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int id = btf__find_by_name_kind(vm, fn, BTF_KIND_FUNC);
	LIBBPF_OPTS(bpf_prog_load_opts, po, .expected_attach_type = BPF_TRACE_FENTRY);
	int fd;

	if (id <= 0)
		return true;
	po.attach_btf_id = (__u32)id;
	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "nl_fentry_probe", "Dual BSD/GPL", insns, 2, &po);
	if (fd < 0) {
		if (verbose)
			fprintf(stderr, "numalens: the kernel refuses fentry programs on %s (%s): the memcg of 6.x limit reclaim is not named\n",
				fn, strerror(errno));
		return false;
	}
	close(fd);
	return true;
}

int nl_kbtf_read(struct nl_kbtf *k, const struct btf *vm, const struct nl_bpf_opts *o)
{
	static const char prefix[] = "btf_trace_";
	const size_t pl = sizeof(prefix) - 1;
	size_t len = 0, n = 0, at = 0;
	__u32 cnt = btf__type_cnt(vm);
	bool rdonly_cast = false;

	memset(k, 0, sizeof(*k));
	/* two passes over the types: sizes, then copies */
	for (int pass = 0; pass < 2; pass++) {
		for (__u32 id = 1; id < cnt; id++) {
			const struct btf_type *t = btf__type_by_id(vm, id);
			const char *nm;
			size_t l;

			if (!pass && btf_is_func(t) && !o->btf_path &&
			    !strcmp(btf__name_by_offset(vm, t->name_off), "bpf_rdonly_cast"))
				rdonly_cast = true;
			if (!btf_is_typedef(t))
				continue;
			nm = btf__name_by_offset(vm, t->name_off);
			if (!nm || strncmp(nm, prefix, pl))
				continue;
			l = strlen(nm + pl) + 1;
			if (pass) {
				memcpy(k->names + at, nm + pl, l);
				k->tps[n++] = k->names + at;
				at += l;
			} else {
				len += l;
				n++;
			}
		}
		if (!pass) {
			k->names = malloc(len ? len : 1);
			k->tps = calloc(n ? n : 1, sizeof(*k->tps));
			if (!k->names || !k->tps) {
				free(k->names);
				free(k->tps);
				memset(k, 0, sizeof(*k));
				return -ENOMEM;
			}
			n = 0;
		}
	}
	k->nr_tps = n;
	/* a program naming a kfunc loads only with the JIT on, dead branch or
	 * not: with it off, keep the plain pointer walks (interpreted) */
	k->rdonly_cast = rdonly_cast && jit_on();
	qsort(k->tps, n, sizeof(*k->tps), str_cmp);
	k->by_page = use_page_flags(vm, o, &k->pl);
	k->vmscan_v7 = vmscan_v7(vm);
	k->memcg_fn = btf__find_by_name_kind(vm, NL_MEMCG_RECLAIM_FN, BTF_KIND_FUNC) > 0;
	/* the probe only where its answer is used: a 6.x kernel's own BTF,
	 * and a command that opens the vmscan object */
	k->fentry = k->vmscan_v7 || !k->memcg_fn || o->btf_path ||
		    !nl_kbtf_has_tp(k, "mm_vmscan_lru_shrink_inactive") ||
		    fentry_allowed(vm, NL_MEMCG_RECLAIM_FN, o->verbose);
	return 0;
}

void nl_kbtf_free(struct nl_kbtf *k)
{
	free(k->names);
	free(k->tps);
	memset(k, 0, sizeof(*k));
}
