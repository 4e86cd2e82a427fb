/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The node of a struct page, read from its flags word (BPF side only),
 * for the opt-in programs that take the page as a plain address (a
 * tp_btf argument read as u64, so it can also serve as a map key).
 */
#ifndef NL_PAGE_NODE_BPF_H
#define NL_PAGE_NODE_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

/* Set before load: node = (page flags >> shift) & mask (nl_page_layout). */
const volatile u32 nl_node_shift = 0, nl_node_mask = 0;

/* struct page's flags word: an unsigned long up to 6.17, memdesc_flags_t
 * (a struct holding it) since; CO-RE tells them apart by the type. */
struct page___ulong {
	unsigned long flags;
} __attribute__((preserve_access_index));

/* The node of the struct page at @page (a kernel address). */
static __always_inline u32 nl_page_nid(u64 page)
{
	u64 v = 0;

	if (bpf_core_field_exists(struct page___ulong, flags))
		bpf_probe_read_kernel(&v, sizeof(v), (const void *)page +
				      bpf_core_field_offset(struct page___ulong, flags));
	else
		bpf_probe_read_kernel(&v, sizeof(v), (const void *)page +
				      bpf_core_field_offset(struct page, flags));
	return (u32)((v >> nl_node_shift) & nl_node_mask);
}

#endif
