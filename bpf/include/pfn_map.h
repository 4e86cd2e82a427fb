/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The pfn -> (node, zone) table as a BPF map, declared once for every BPF
 * object that needs a page's node: the alloc program and scx_cling. User
 * space writes entry 0 after load (nl_bpf_set_pfn_table(), scx_cling's
 * loader); until then the table is empty (n == 0) and lookups find
 * nothing. BPF only: include it from one .bpf.c per object, after
 * vmlinux.h and bpf_helpers.h.
 */
#ifndef NL_PFN_MAP_H
#define NL_PFN_MAP_H

#include "pfn_lookup.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct nl_pfn_table);
} pfn_table SEC(".maps");

#endif
