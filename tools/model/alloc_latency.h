/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The opt-in allocation latency figures of a snapshot (struct
 * nl_alloc_latency): starts the latency program (tools/source/alloc_lat.h)
 * and turns its monotonic counts into each interval's deltas.
 */
#ifndef NL_ALLOC_LATENCY_H
#define NL_ALLOC_LATENCY_H

#include <stdint.h>
#include "snapshot.h"

struct nl_alloc_latency_state;

/* nl_alloc_latency_start - load the latency program timing one call in
 * @sample_every. A kernel without the hook is no error: the state then
 * says why in every snapshot. Returns NULL only when out of memory. */
struct nl_alloc_latency_state *nl_alloc_latency_start(uint32_t sample_every);

/* nl_alloc_latency_fill - this interval's figures into @out (overwritten). */
void nl_alloc_latency_fill(struct nl_alloc_latency_state *st, struct nl_alloc_latency *out);

/* nl_alloc_latency_stop - detach and free; NULL is fine. */
void nl_alloc_latency_stop(struct nl_alloc_latency_state *st);

#endif
