// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The page flags layout from BTF; see page_layout.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>
#include "page_layout.h"

/* Value of enumerator @name in enum @type of @vm, or -1. */
static long long enum_value(const struct btf *vm, const char *type, const char *name)
{
	int id = btf__find_by_name_kind(vm, type, BTF_KIND_ENUM);
	const struct btf_type *t;
	const struct btf_enum *e;

	if (id <= 0)
		return -1;
	t = btf__type_by_id(vm, (unsigned)id);
	e = btf_enum(t);
	for (int i = 0; i < btf_vlen(t); i++, e++)
		if (!strcmp(btf__name_by_offset(vm, e->name_off), name))
			return e->val;
	return -1;
}

/* Number of elements of array member @member of struct @type, or -1. */
static long long array_len(const struct btf *vm, const char *type, const char *member)
{
	int id = btf__find_by_name_kind(vm, type, BTF_KIND_STRUCT);
	const struct btf_type *t, *mt;
	const struct btf_member *m;

	if (id <= 0)
		return -1;
	t = btf__type_by_id(vm, (unsigned)id);
	m = btf_members(t);
	for (int i = 0; i < btf_vlen(t); i++, m++) {
		if (strcmp(btf__name_by_offset(vm, m->name_off), member))
			continue;
		mt = btf__type_by_id(vm, m->type);
		return mt && btf_is_array(mt) ? (long long)btf_array(mt)->nelems : -1;
	}
	return -1;
}

int nl_page_layout_from_btf(const struct btf *vm, struct nl_page_layout *out)
{
	long long zones = enum_value(vm, "zone_type", "__MAX_NR_ZONES");
	long long refs = array_len(vm, "zonelist", "_zonerefs");

	memset(out, 0, sizeof(*out));
	if (zones < 0 || refs < 0)
		return -ENOENT;
	return nl_page_layout_compute(zones, refs, out);
}

int nl_page_layout_compute(long long zones, long long refs, struct nl_page_layout *out)
{
	unsigned zshift, nshift = 0;
	long long nodes;

	memset(out, 0, sizeof(*out));
	if (zones < 1 || zones > 8 || refs < zones + 1 || (refs - 1) % zones)
		return -EINVAL;
	zshift = zones < 2 ? 0 : zones <= 2 ? 1 : zones <= 4 ? 2 : 3;
	nodes = (refs - 1) / zones;
	if (nodes & (nodes - 1))
		return -EINVAL;	/* MAX_NUMNODES is a power of two */
	while ((1ll << nshift) < nodes)
		nshift++;
	if (nshift + zshift > 32)
		return -EINVAL;
	out->nodes_shift = nshift;
	out->max_nr_zones = (uint32_t)zones;
	out->node_shift = nshift ? 64 - nshift : 0;
	out->node_mask = nshift ? (1u << nshift) - 1 : 0;
	out->zone_shift = 64 - nshift - zshift;
	out->zone_mask = (1u << zshift) - 1;
	return 0;
}

uint32_t nl_page_thp_order(void)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", "re");
	unsigned long long sz = 0;
	long page = sysconf(_SC_PAGESIZE);
	uint32_t o = 0;

	if (f) {
		if (fscanf(f, "%llu", &sz) != 1)
			sz = 0;
		fclose(f);
	}
	if (!sz || page <= 0)
		return 9;
	while (((unsigned long long)page << o) < sz && o < 31)
		o++;
	return o;
}

int nl_page_layout_for_tps(const char *const *tps, int n, struct nl_page_layout *pl,
			   struct btf **vm_out, char *why, size_t whylen)
{
	struct btf *vm = btf__load_vmlinux_btf();
	char name[96];

	if (vm_out)
		*vm_out = NULL;
	if (!vm) {
		snprintf(why, whylen, "the kernel has no BTF (/sys/kernel/btf/vmlinux)");
		return -ENOENT;
	}
	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "btf_trace_%s", tps[i]);
		if (btf__find_by_name_kind(vm, name, BTF_KIND_TYPEDEF) <= 0) {
			btf__free(vm);
			snprintf(why, whylen, "the kernel has no BTF tracepoint kmem:%s", tps[i]);
			return -ENOENT;
		}
	}
	if (nl_page_layout_from_btf(vm, pl)) {
		btf__free(vm);
		snprintf(why, whylen, "the page layout (node bits of struct page) is not known on this kernel");
		return -EINVAL;
	}
	if (vm_out)
		*vm_out = vm;
	else
		btf__free(vm);
	return 0;
}
