// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The opt-in views in plain text; see view_optin.h. */
#include <inttypes.h>
#include "view_fmt.h"
#include "view_optin.h"

/* Frames printed per site: the allocator's own frames and the path into
 * it fit; the JSON has all that were kept. */
#define TEXT_FRAMES 12

static const char *kind_name(uint8_t kind)
{
	if ((kind & NL_STK_REMOTE) && (kind & NL_STK_MISS))
		return "remote+miss";
	return kind & NL_STK_REMOTE ? "remote" : "miss";
}

static void write_stacks(FILE *out, const struct nl_alloc_stacks *a)
{
	fprintf(out, "\nALLOC STACKS  remote or miss allocations, 1 in %" PRIu32 " sampled, since start\n",
		a->sample_every);
	if (!a->available) {
		fprintf(out, "unavailable: %s\n", a->unavailable);
		return;
	}
	fprintf(out, "allocations %" PRIu64 "  remote %" PRIu64 "  miss %" PRIu64 "  sampled %" PRIu64
		"  lost %" PRIu64 "  sites %d\n", a->allocs, a->seen_remote, a->seen_miss, a->sampled,
		a->no_stack + a->keys_full, a->nr_keys);
	for (int i = 0; i < a->nr; i++) {
		const struct nl_alloc_site *s = &a->top[i];

		fprintf(out, "#%d %" PRIu64 " sampled (%.1f%%) %" PRIu64 " pages  %s  class %s%s  order %u  gfp %s\n",
			i + 1, s->events, a->sampled ? 100.0 * (double)s->events / (double)a->sampled : 0.0,
			s->pages, kind_name(s->kind), nl_class_name(s->class), s->thp ? " thp" : "",
			s->order, s->gfp_names);
		for (int f = 0; f < s->nr_frames && f < TEXT_FRAMES; f++)
			fprintf(out, "    %s\n", s->frames[f]);
	}
}

void nl_text_write_optin(FILE *out, const struct nl_snapshot *s)
{
	if (s->alloc_stacks.enabled)
		write_stacks(out, &s->alloc_stacks);
}
