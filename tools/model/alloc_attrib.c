// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Miss and remote attribution; see alloc_attrib.h. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ksyms.h"
#include "alloc_stacks.h"
#include "alloc_attrib.h"

struct nl_alloc_attrib_state {
	struct nl_stk_prog *prog;	/* NULL: not available, see why */
	struct nl_ksym_table *ksyms;	/* NULL: frames left as addresses */
	uint32_t sample_every;
	char why[320];
	struct nl_stk_entry top[NL_ATTRIB_TOP];
};

struct nl_alloc_attrib_state *nl_alloc_attrib_start(uint32_t sample_every)
{
	struct nl_alloc_attrib_state *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->sample_every = sample_every ? sample_every : 1;
	if (!nl_alloc_stacks_open(&st->prog, st->sample_every, st->why, sizeof(st->why)))
		st->ksyms = nl_ksym_table_load("/proc/kallsyms");
	return st;
}

bool nl_alloc_attrib_is_tracing_frame(const char *fn)
{
	static const char *const prefixes[] = {
		"bpf_", "__bpf_", "___bpf_", "trace_", "__traceiter_", "perf_", "__perf_",
	};

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(fn, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

/* The frames of @e into @site: named, the tracing ones on top left out. */
static void name_frames(const struct nl_alloc_attrib_state *st, const struct nl_stk_entry *e,
			struct nl_alloc_site *site)
{
	bool top = true;

	site->nr_frames = 0;
	for (int i = 0; i < e->nr_ips && site->nr_frames < NL_ATTRIB_FRAMES; i++) {
		uint64_t off = 0;
		const char *fn = nl_ksym_table_name(st->ksyms, e->ips[i], &off);
		char *out = site->frames[site->nr_frames];

		if (top && fn && nl_alloc_attrib_is_tracing_frame(fn))
			continue;
		top = false;
		if (fn)
			snprintf(out, NL_ATTRIB_FRAME_LEN, "%s+0x%" PRIx64, fn, off);
		else
			snprintf(out, NL_ATTRIB_FRAME_LEN, "0x%" PRIx64, e->ips[i]);
		site->nr_frames++;
	}
}

void nl_alloc_attrib_fill(struct nl_alloc_attrib_state *st, struct nl_alloc_stacks *out)
{
	struct nl_alloc_stacks_counts c;

	memset(out, 0, sizeof(*out));
	if (!st)
		return;
	out->enabled = true;
	out->sample_every = st->sample_every;
	if (!st->prog || nl_alloc_stacks_read(st->prog, &c, st->top, NL_ATTRIB_TOP)) {
		snprintf(out->unavailable, sizeof(out->unavailable), "%s",
			 st->prog ? "the stacks maps could not be read" : st->why);
		return;
	}
	out->available = true;
	out->allocs = c.stats[NL_STK_ALLOCS];
	out->seen_remote = c.stats[NL_STK_SEEN_REMOTE];
	out->seen_miss = c.stats[NL_STK_SEEN_MISS];
	out->sampled = c.stats[NL_STK_SAMPLED];
	out->no_stack = c.stats[NL_STK_NO_STACK];
	out->keys_full = c.stats[NL_STK_KEYS_FULL];
	out->nr_keys = c.nr_keys;
	out->prog_runs = c.prog_runs;
	out->prog_run_ns = c.prog_run_ns;
	out->nr = c.nr;
	for (int i = 0; i < c.nr; i++) {
		struct nl_alloc_site *s = &out->top[i];
		const struct nl_stk_entry *e = &st->top[i];

		s->events = e->val.events;
		s->pages = e->val.pages;
		s->gfp = e->key.gfp;
		nl_alloc_stacks_gfp_names(st->prog, e->key.gfp, s->gfp_names, sizeof(s->gfp_names));
		s->class = e->key.class;
		s->kind = e->key.kind;
		s->order = e->key.order;
		s->thp = e->key.thp;
		name_frames(st, e, s);
	}
}

void nl_alloc_attrib_stop(struct nl_alloc_attrib_state *st)
{
	if (!st)
		return;
	nl_alloc_stacks_close(st->prog);
	nl_ksym_table_free(st->ksyms);
	free(st);
}
