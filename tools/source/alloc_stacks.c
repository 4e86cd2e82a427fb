// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The miss and remote attribution program; see alloc_stacks.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "alloc_stacks.h"
#include "page_layout.h"
#include "alloc_stacks.skel.h"

struct nl_stk_prog {
	struct nl_alloc_stacks *skel;
	struct bpf_link *link;
	int nr_cpus;
	char gfp_bit[32][24];	/* the name of each gfp bit, "" when unknown */
};

/* The gfp bit names from @vm: the enum whose members are ___GFP_<X>_BIT
 * (include/linux/gfp_types.h), kept as __GFP_<X>. */
static void gfp_bits_from_btf(struct nl_stk_prog *p, const struct btf *vm)
{
	int n = (int)btf__type_cnt(vm);

	for (int id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(vm, id);
		const struct btf_enum *e;
		bool is_gfp = false;

		if (!btf_is_enum(t))
			continue;
		e = btf_enum(t);
		for (int k = 0; k < btf_vlen(t); k++) {
			const char *name = btf__name_by_offset(vm, e[k].name_off);
			size_t l = name ? strlen(name) : 0;

			if (l > 10 && !strncmp(name, "___GFP_", 7) && !strcmp(name + l - 4, "_BIT") &&
			    e[k].val >= 0 && e[k].val < 32) {
				snprintf(p->gfp_bit[e[k].val], sizeof(p->gfp_bit[0]), "__GFP_%.*s",
					 (int)(l - 11), name + 7);
				is_gfp = true;
			}
		}
		if (is_gfp)
			return;
	}
}

int nl_alloc_stacks_open(struct nl_stk_prog **out, uint32_t sample_every, char *why, size_t whylen)
{
	static const char *const tps[] = { "mm_page_alloc" };
	struct nl_stk_prog *p;
	struct nl_page_layout pl;
	struct btf *vm;
	int e;

	*out = NULL;
	why[0] = '\0';
	e = nl_page_layout_for_tps(tps, 1, &pl, &vm, why, whylen);
	if (e)
		return e;
	p = calloc(1, sizeof(*p));
	if (!p) {
		btf__free(vm);
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	gfp_bits_from_btf(p, vm);
	btf__free(vm);
	p->nr_cpus = libbpf_num_possible_cpus();
	p->skel = nl_alloc_stacks__open();
	if (!p->skel || p->nr_cpus <= 0) {
		e = p->skel ? -EINVAL : (errno ? -errno : -ENOMEM);
		snprintf(why, whylen, "cannot open the stacks program: %s", strerror(-e));
		nl_alloc_stacks_close(p);
		return e;
	}
	p->skel->rodata->nl_sample_every = sample_every ? sample_every : 1;
	p->skel->rodata->nl_node_shift = pl.node_shift;
	p->skel->rodata->nl_node_mask = pl.node_mask;
	p->skel->rodata->nl_thp_order = nl_page_thp_order();
	e = nl_alloc_stacks__load(p->skel);
	if (e) {
		snprintf(why, whylen, "the kernel refused the stacks program: %s", strerror(-e));
		nl_alloc_stacks_close(p);
		return e;
	}
	p->link = bpf_program__attach(p->skel->progs.stk_page_alloc);
	if (!p->link) {
		e = errno ? -errno : -EINVAL;
		snprintf(why, whylen, "cannot attach to kmem:mm_page_alloc (tp_btf): %s", strerror(-e));
		nl_alloc_stacks_close(p);
		return e;
	}
	*out = p;
	return 0;
}

/* Before @a comes @b: more events, then more pages. */
static bool ranks_before(const struct nl_stk_val *a, const struct nl_stk_val *b)
{
	return a->events > b->events || (a->events == b->events && a->pages > b->pages);
}

int nl_alloc_stacks_read(const struct nl_stk_prog *p, struct nl_alloc_stacks_counts *out,
			 struct nl_stk_entry *top, int max)
{
	int cfd = bpf_map__fd(p->skel->maps.stk_counts), sfd = bpf_map__fd(p->skel->maps.stk_stats);
	int tfd = bpf_map__fd(p->skel->maps.stk_traces);
	uint64_t *v = calloc((size_t)p->nr_cpus, sizeof(*v));
	struct nl_stk_key k, next;
	struct bpf_prog_info info = {};
	uint32_t ilen = sizeof(info);
	bool first = true;
	int e = 0;

	memset(out, 0, sizeof(*out));
	out->top = top;
	if (!v)
		return -ENOMEM;
	for (uint32_t i = 0; i < NL_STK_NR_STATS; i++) {
		if (bpf_map_lookup_elem(sfd, &i, v)) {
			e = -errno;
			goto done;
		}
		for (int c = 0; c < p->nr_cpus; c++)
			out->stats[i] += v[c];
	}
	/* keep the @max best in @top, best first (insertion: max is small) */
	while (!bpf_map_get_next_key(cfd, first ? NULL : &k, &next)) {
		struct nl_stk_val val;
		int at;

		first = false;
		k = next;
		if (bpf_map_lookup_elem(cfd, &k, &val))
			continue;	/* gone meanwhile */
		out->nr_keys++;
		for (at = out->nr; at > 0 && ranks_before(&val, &top[at - 1].val); at--)
			;
		if (at >= max)
			continue;
		if (out->nr < max)
			out->nr++;
		memmove(&top[at + 1], &top[at], (size_t)(out->nr - 1 - at) * sizeof(*top));
		top[at].key = k;
		top[at].val = val;
		top[at].nr_ips = 0;
	}
	for (int i = 0; i < out->nr; i++) {
		uint32_t id = (uint32_t)top[i].key.stack_id;

		if (bpf_map_lookup_elem(tfd, &id, top[i].ips))
			continue;
		while (top[i].nr_ips < NL_STK_DEPTH && top[i].ips[top[i].nr_ips])
			top[i].nr_ips++;
	}
	if (!bpf_prog_get_info_by_fd(bpf_program__fd(p->skel->progs.stk_page_alloc), &info, &ilen)) {
		out->prog_runs = info.run_cnt;
		out->prog_run_ns = info.run_time_ns;
	}
done:
	free(v);
	return e;
}

const char *nl_alloc_stacks_gfp_names(const struct nl_stk_prog *p, uint32_t gfp, char *buf,
				      size_t len)
{
	size_t o = 0;
	uint32_t rest = 0;

	buf[0] = '\0';
	for (int b = 0; b < 32; b++) {
		if (!(gfp & (1u << b)))
			continue;
		if (!p || !p->gfp_bit[b][0]) {
			rest |= 1u << b;
			continue;
		}
		o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s%s", o ? "|" : "", p->gfp_bit[b]);
	}
	if (rest || !gfp)
		snprintf(buf + (o < len ? o : len - 1), o < len ? len - o : 1, "%s0x%x", o ? "|" : "", rest);
	return buf;
}

void nl_alloc_stacks_close(struct nl_stk_prog *p)
{
	if (!p)
		return;
	bpf_link__destroy(p->link);
	nl_alloc_stacks__destroy(p->skel);
	free(p);
}
