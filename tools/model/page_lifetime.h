/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The opt-in page lifetime figures of a snapshot (struct
 * nl_page_lifetime): starts the lifetime program
 * (tools/source/page_life.h) and turns its monotonic counts into each
 * interval's deltas.
 */
#ifndef NL_PAGE_LIFETIME_H
#define NL_PAGE_LIFETIME_H

#include <stdint.h>
#include "snapshot.h"

struct nl_page_lifetime_state;

/* nl_page_lifetime_start - load the lifetime program timing one
 * allocation in @sample_every. A kernel without the hooks is no error:
 * the state then says why in every snapshot. Returns NULL only when out
 * of memory. */
struct nl_page_lifetime_state *nl_page_lifetime_start(uint32_t sample_every);

/* nl_page_lifetime_fill - this interval's figures into @out (overwritten). */
void nl_page_lifetime_fill(struct nl_page_lifetime_state *st, struct nl_page_lifetime *out);

/* nl_page_lifetime_stop - detach and free; NULL is fine. */
void nl_page_lifetime_stop(struct nl_page_lifetime_state *st);

#endif
