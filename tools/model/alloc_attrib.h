/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The opt-in miss and remote attribution of a snapshot (struct
 * nl_alloc_stacks): starts the stacks program (tools/source/alloc_stacks.h)
 * and names the frames of its top sites from /proc/kallsyms.
 */
#ifndef NL_ALLOC_ATTRIB_H
#define NL_ALLOC_ATTRIB_H

#include <stdint.h>
#include "snapshot.h"

struct nl_alloc_attrib_state;

/* nl_alloc_attrib_start - load the stacks program counting one remote or
 * miss allocation in @sample_every. A kernel without the hook is no error:
 * the state then says why in every snapshot. Returns NULL only when out
 * of memory. */
struct nl_alloc_attrib_state *nl_alloc_attrib_start(uint32_t sample_every);

/* nl_alloc_attrib_fill - the figures so far into @out (overwritten). */
void nl_alloc_attrib_fill(struct nl_alloc_attrib_state *st, struct nl_alloc_stacks *out);

/* nl_alloc_attrib_is_tracing_frame - true for a function of the tracing
 * machinery (BPF programs and helpers, tracepoint glue, perf) that sits
 * on top of every stack the program takes and says nothing about the
 * allocation's path. */
bool nl_alloc_attrib_is_tracing_frame(const char *fn);

/* nl_alloc_attrib_stop - detach and free; NULL is fine. */
void nl_alloc_attrib_stop(struct nl_alloc_attrib_state *st);

#endif
