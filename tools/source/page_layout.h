/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Where the running kernel keeps a page's node and zone in the flags word
 * of struct page, derived from its BTF, so that the tp_btf allocation
 * program reads both from the page itself (page_to_nid(), page_zonenum())
 * instead of searching a pfn table.
 */
#ifndef NL_PAGE_LAYOUT_H
#define NL_PAGE_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

struct btf;

/* node = (flags >> node_shift) & node_mask; zone likewise. */
struct nl_page_layout {
	uint32_t node_shift, node_mask;
	uint32_t zone_shift, zone_mask;
	uint32_t nodes_shift;	/* CONFIG_NODES_SHIFT: log2(MAX_NUMNODES) */
	uint32_t max_nr_zones;	/* __MAX_NR_ZONES */
};

/* nl_page_layout_from_btf - the layout of @vm's kernel (the formulas of
 * include/linux/page-flags-layout.h): the zone field is wide enough for
 * __MAX_NR_ZONES (enum zone_type); struct zonelist's _zonerefs array has
 * MAX_NUMNODES * MAX_NR_ZONES + 1 entries, which gives NODES_SHIFT; with a
 * sparse vmemmap there is no section field, so the node field is the top
 * NODES_SHIFT bits of a 64-bit word and the zone field sits just below.
 * Returns 0, -ENOENT when @vm lacks one of these types, or -EINVAL when
 * its figures fit no layout (then use the pfn table). */
int nl_page_layout_from_btf(const struct btf *vm, struct nl_page_layout *out);

/* nl_page_layout_compute - the same from the two figures BTF gives:
 * @max_nr_zones (__MAX_NR_ZONES) and @zonerefs (the length of struct
 * zonelist's _zonerefs). Returns 0 or -EINVAL (no layout fits). */
int nl_page_layout_compute(long long max_nr_zones, long long zonerefs, struct nl_page_layout *out);

/* nl_page_layout_for_tps - for an opt-in program on tp_btf tracepoints:
 * load the running kernel's BTF, check it has each of the @n tracepoints
 * @tps (names as "mm_page_alloc") and derive the page layout into @pl.
 * The BTF is handed to the caller in *@vm (to free with btf__free) when
 * @vm is not NULL, else freed. Returns 0; -ENOENT (no BTF, or a
 * tracepoint missing) or -EINVAL (page layout unknown), with @why set to
 * a phrase for the user. */
int nl_page_layout_for_tps(const char *const *tps, int n, struct nl_page_layout *pl,
			   struct btf **vm, char *why, size_t whylen);

/* nl_page_thp_order - the order of a PMD-mapped transparent huge page on
 * this machine (9 with 4 KiB pages on x86-64), from
 * /sys/kernel/mm/transparent_hugepage/hpage_pmd_size; 9 when that file is
 * missing (a kernel without THP, where no page has the flag anyway). */
uint32_t nl_page_thp_order(void);

#endif
