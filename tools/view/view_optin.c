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
			s->pages, kind_name(s->kind), nl_fmt_class_name(s->class), s->thp ? " thp" : "",
			s->order, s->gfp_names);
		for (int f = 0; f < s->nr_frames && f < TEXT_FRAMES; f++)
			fprintf(out, "    %s\n", s->frames[f]);
	}
}

/* @ns as a short duration ("512ns", "4.19ms"). */
static const char *dur(char *buf, size_t sz, double ns)
{
	if (ns < 1e3)
		snprintf(buf, sz, "%.0fns", ns);
	else if (ns < 1e6)
		snprintf(buf, sz, "%.3gus", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, sz, "%.3gms", ns / 1e6);
	else
		snprintf(buf, sz, "%.3gs", ns / 1e9);
	return buf;
}

/* One line per histogram with pages freed this interval: count, mean and
 * the buckets holding them ("from:count"). */
static void write_lifetime(FILE *out, const struct nl_page_lifetime *l)
{
	static const char *const places[NL_LIFE_NR_PLACES] = { "local", "remote" };
	static const char *const classes[NL_LIFE_NR_CLASSES] = {
		"kernel", "reclaimable", "movable", "thp",
	};

	fprintf(out, "\nPAGE LIFETIME  allocation to free, 1 in %" PRIu32 " allocations timed, this interval\n",
		l->sample_every);
	if (!l->available) {
		fprintf(out, "unavailable: %s\n", l->unavailable);
		return;
	}
	fprintf(out, "allocations %" PRIu64 "  timed %" PRIu64 "  freed %" PRIu64 "  not kept %" PRIu64 "\n",
		l->allocs, l->sampled, l->freed, l->not_kept);
	for (int k = 0; k < NL_LIFE_NR_HISTS; k++) {
		uint64_t n = 0;
		char a[16];

		for (int b = 0; b < NL_LIFE_BUCKETS; b++)
			n += l->hist[k][b];
		if (!n)
			continue;
		fprintf(out, "%-6s %-11s %8" PRIu64 " freed, mean %s:", places[k / NL_LIFE_NR_CLASSES],
			classes[k % NL_LIFE_NR_CLASSES], n,
			dur(a, sizeof(a), (double)l->sum_ns[k] / (double)n));
		for (int b = 0; b < NL_LIFE_BUCKETS; b++)
			if (l->hist[k][b])
				fprintf(out, " %s:%" PRIu64, dur(a, sizeof(a), (double)(1ULL << b)), l->hist[k][b]);
		fputc('\n', out);
	}
}

void nl_optin_write(FILE *out, const struct nl_snapshot *s)
{
	if (s->alloc_stacks.enabled)
		write_stacks(out, &s->alloc_stacks);
	if (s->page_life.enabled)
		write_lifetime(out, &s->page_life);
}
