/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Loading the reclaim figures' BPF object, one step of nl_bpf_open().
 */
#ifndef NL_LOAD_VMSCAN_H
#define NL_LOAD_VMSCAN_H

#include <stddef.h>
#include "loader_types.h"
#include "kbtf.h"

struct nl_load_sizes;

/* Open, size, load and attach the vmscan object into @b->vmscan with the
 * begin programs the kernel @kb takes, per-CPU maps sized by @sz.
 * A missing tracepoint or a refused load is noted in @b->missing and is
 * not an error. 0, or a negative errno when the object cannot be opened. */
int nl_load_vmscan(struct nl_bpf *b, const struct nl_bpf_opts *o, const struct nl_kbtf *kb,
		   const struct nl_load_sizes *sz);

#endif
