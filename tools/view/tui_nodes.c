// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The node window: per node its CPUs, memory, the kernel's numastat
 * counters beside the BPF program's, and below the table the preferred
 * node figures, pages by zone and the opt-in allocation latency, stacks
 * and page lifetime.
 */
#include <math.h>
#include <stdio.h>
#include "view_fmt.h"
#include "tui_nodes.h"
#include "tui_draw.h"
#include "tui_state.h"

enum { NC_NODE = 1, NC_CPUS, NC_CPU, NC_USED, NC_FREE, NC_HIT, NC_MISS, NC_FOREIGN,
       NC_LOCAL, NC_BPFLOCAL, NC_OTHER, NC_BPFOTHER, NC_BPFPAGES, NC_RCLM };

static void node_cell(struct nl_tui *t, const void *row, int kind, int ni, char *b, size_t sz,
		      attr_t *own)
{
	const struct nl_node *n = row;
	const struct nl_numastat *ns = &n->numastat;

	switch (kind) {
	case NC_NODE: snprintf(b, sz, "%d", n->nid); break;
	case NC_CPUS: snprintf(b, sz, "%s", n->cpulist[0] ? n->cpulist : "-"); break;
	case NC_CPU:
		if (isfinite(n->cpu_busy_pct))
			snprintf(b, sz, "%.1f", n->cpu_busy_pct);
		else
			snprintf(b, sz, "-");	/* no online CPU */
		break;
	case NC_USED: snprintf(b, sz, "%.0f", n->mem_used_bytes / MIB); break;
	case NC_FREE: snprintf(b, sz, "%.0f", n->mem_free_bytes / MIB); break;
	case NC_HIT: nl_fmt_num(b, sz, (double)ns->numa_hit); break;
	case NC_MISS: nl_fmt_num(b, sz, (double)ns->numa_miss); break;
	case NC_FOREIGN: nl_fmt_num(b, sz, (double)ns->numa_foreign); break;
	case NC_LOCAL: nl_fmt_num(b, sz, (double)ns->local_node); break;
	case NC_BPFLOCAL: nl_fmt_num(b, sz, (double)n->bpf_events_local); break;
	case NC_OTHER: nl_fmt_num(b, sz, (double)ns->other_node); break;
	case NC_BPFOTHER: nl_fmt_num(b, sz, (double)n->bpf_events_other); break;
	case NC_BPFPAGES: nl_fmt_num(b, sz, (double)n->bpf_pages); break;
	case NC_RCLM:
		nl_tui_draw_reclaim(b, sz, &t->snap, t->snap.src.vmscan ? n->vmscan : NULL, n->vmscan_total);
		break;
	default: b[0] = '\0';
	}
}

/* "DMA32 1.2% Normal 98.8%": each zone's share of @pages (NULL names the
 * zones only when they have pages). */
static void fmt_zone_shares(char *b, size_t sz, const struct nl_snapshot *s, const uint64_t *pages)
{
	uint64_t sum = 0;
	size_t l = 0;

	b[0] = '\0';
	for (int z = 0; z < s->nr_zones; z++)
		sum += pages[z];
	if (!sum) {
		snprintf(b, sz, "no pages");
		return;
	}
	for (int z = 0; z < s->nr_zones && l < sz; z++)
		if (pages[z])
			l += (size_t)snprintf(b + l, sz - l, "%s%s %.1f%%", l ? " " : "", s->zone_names[z],
					      nl_fmt_pct(pages[z], sum));
}

/* Upper edge (ns) of the log2 bucket holding quantile @q of the calls
 * of place @p, all classes; 0 when none. */
static uint64_t lat_quantile_ns(const struct nl_alloc_latency *l, int p, double q, uint64_t *n)
{
	uint64_t sum[NL_LAT_BUCKETS] = { 0 }, cum = 0;

	*n = 0;
	for (int c = 0; c < NL_LAT_NR_CLASSES; c++)
		for (int b = 0; b < NL_LAT_BUCKETS; b++) {
			sum[b] += l->hist[p * NL_LAT_NR_CLASSES + c][b];
			*n += l->hist[p * NL_LAT_NR_CLASSES + c][b];
		}
	for (int b = 0; b < NL_LAT_BUCKETS && *n; b++) {
		cum += sum[b];
		if ((double)cum >= q * (double)*n)
			return 2ull << b;
	}
	return 0;
}

/* The opt-in allocation latency (--alloc-latency): per placement, the
 * timed calls and the bucket edges under which half and 99% of them
 * finished; or why the kernel cannot show it. */
static void draw_alloc_latency(const struct nl_alloc_latency *l, int *y, int end)
{
	static const char *const places[NL_LAT_NR_PLACES] = { "local", "remote", "failed" };
	char b[200];
	size_t len = 0;

	if (!l->available) {
		nl_tui_draw_line((*y)++, 0, "alloc latency: unavailable: %s", l->unavailable);
		return;
	}
	nl_tui_draw_line((*y)++, 0, "alloc latency, 1 call in %u timed at %s:", l->sample_every, l->hook);
	b[0] = '\0';
	for (int p = 0; p < NL_LAT_NR_PLACES && len < sizeof(b); p++) {
		uint64_t n, p50 = lat_quantile_ns(l, p, 0.5, &n), p99 = lat_quantile_ns(l, p, 0.99, &n);

		len += (size_t)snprintf(b + len, sizeof(b) - len, "%s%s %llu", len ? "   " : "  ", places[p],
					(unsigned long long)n);
		if (n && len < sizeof(b))
			len += (size_t)snprintf(b + len, sizeof(b) - len, " p50<%.1fus p99<%.1fus",
						p50 / 1e3, p99 / 1e3);
	}
	if (*y < end)
		nl_tui_draw_line((*y)++, 0, "%s", b);
}

/* The opt-in miss and remote attribution (--alloc-stacks): the three
 * sites with most sampled allocations since start, each on one line with
 * its innermost frames (the text and JSON views have them all). */
static void draw_alloc_stacks(const struct nl_alloc_stacks *a, int *y, int end)
{
	if (!a->available) {
		nl_tui_draw_line((*y)++, 0, "alloc stacks: unavailable: %s", a->unavailable);
		return;
	}
	nl_tui_draw_line((*y)++, 0,
			 "alloc stacks, remote or miss, 1 in %u sampled, since start: %llu sampled, %d sites",
		a->sample_every, (unsigned long long)a->sampled, a->nr_keys);
	for (int i = 0; i < a->nr && i < 3 && *y < end; i++) {
		const struct nl_alloc_site *s = &a->top[i];
		char fr[160];
		size_t len = 0;

		fr[0] = '\0';
		for (int f = 0; f < s->nr_frames && len < sizeof(fr); f++)
			len += (size_t)snprintf(fr + len, sizeof(fr) - len, "%s%s", f ? " < " : "", s->frames[f]);
		nl_tui_draw_line((*y)++, 0, "  %4.1f%% %s %s%s o%u: %s",
			a->sampled ? 100.0 * (double)s->events / (double)a->sampled : 0.0,
			(s->kind & NL_STK_REMOTE) ? ((s->kind & NL_STK_MISS) ? "remote+miss" : "remote") : "miss",
			nl_fmt_class_name(s->class), s->thp ? " thp" : "", s->order, fr);
	}
}

/* The opt-in page lifetime (--page-lifetime): per placement, the pages
 * freed this interval and the bucket edge under which half of them died. */
static void draw_page_lifetime(const struct nl_page_lifetime *l, int *y, int end)
{
	static const char *const places[NL_LIFE_NR_PLACES] = { "local", "remote" };
	char b[200];
	size_t len = 0;

	if (!l->available) {
		nl_tui_draw_line((*y)++, 0, "page lifetime: unavailable: %s", l->unavailable);
		return;
	}
	b[0] = '\0';
	for (int p = 0; p < NL_LIFE_NR_PLACES && len < sizeof(b); p++) {
		uint64_t sum[NL_LIFE_BUCKETS] = { 0 }, n = 0, cum = 0, p50 = 0;

		for (int c = 0; c < NL_LIFE_NR_CLASSES; c++)
			for (int k = 0; k < NL_LIFE_BUCKETS; k++) {
				sum[k] += l->hist[p * NL_LIFE_NR_CLASSES + c][k];
				n += l->hist[p * NL_LIFE_NR_CLASSES + c][k];
			}
		for (int k = 0; k < NL_LIFE_BUCKETS && n && !p50; k++) {
			cum += sum[k];
			if (2 * cum >= n)
				p50 = 2ull << k;
		}
		len += (size_t)snprintf(b + len, sizeof(b) - len, "  %s %llu freed", places[p],
					(unsigned long long)n);
		if (n && len < sizeof(b))
			len += (size_t)snprintf(b + len, sizeof(b) - len, " p50<%.3gms", (double)p50 / 1e6);
	}
	nl_tui_draw_line((*y)++, 0, "page lifetime, 1 allocation in %u timed, this interval:%s",
			 l->sample_every, b);
}

/* Below the node table: this interval's hit/miss/foreign against the
 * preferred node (BPF) and each node's pages by zone, with the kernel's
 * pgalloc split (all nodes) to check them against. */
static void draw_node_preferred(const struct nl_snapshot *s, int *y, int end)
{
	char hit[16], miss[16], fgn[16], zones[160];

	if (*y < end)
		nl_tui_draw_line((*y)++, 0,
				 "BPF, against the preferred node (events) and pages by zone, this interval:");
	for (int k = 0; k < s->nr_nodes && *y < end; k++) {
		const struct nl_node *n = &s->nodes[k];

		nl_fmt_num(hit, sizeof(hit), (double)n->bpf_events_hit);
		nl_fmt_num(miss, sizeof(miss), (double)n->bpf_events_miss);
		nl_fmt_num(fgn, sizeof(fgn), (double)n->bpf_events_foreign);
		if (s->nr_zones)
			fmt_zone_shares(zones, sizeof(zones), s, n->bpf_pages_by_zone);
		else
			snprintf(zones, sizeof(zones), "zones unknown");
		nl_tui_draw_line((*y)++, 0, "  node %-3d hit %-7s miss %-7s foreign %-7s %s", n->nid, hit,
				 miss, fgn, zones);
	}
	if (s->nr_zones && *y < end) {
		fmt_zone_shares(zones, sizeof(zones), s, s->pgalloc);
		nl_tui_draw_line((*y)++, 0, "  kernel pgalloc, all nodes: %s", zones);
	}
	if (s->alloc_lat.enabled && *y < end)
		draw_alloc_latency(&s->alloc_lat, y, end);
	if (s->alloc_stacks.enabled && *y < end)
		draw_alloc_stacks(&s->alloc_stacks, y, end);
	if (s->page_life.enabled && *y < end)
		draw_page_lifetime(&s->page_life, y, end);
}

void nl_tui_nodes_draw(struct nl_tui *t)
{
	const struct nl_snapshot *s = &t->snap;
	struct nl_tui_table tb = { .n = 0 };
	int h = nl_tui_draw_body_rows(t), y = HEAD_LINES(t);

	/* Priorities keep the local/remote pairs and RCLM/s at 80 columns:
	 * they answer "is this node's memory served remotely"; memory sizes
	 * and the other numastat counters give way first. */
	nl_tui_draw_col(&tb, "NODE", 4, 0, false, false, NC_NODE, -1);
	nl_tui_draw_col(&tb, "CPUS", 9, 2, true, true, NC_CPUS, -1);
	nl_tui_draw_col(&tb, "CPU%", 6, 0, false, false, NC_CPU, -1);
	nl_tui_draw_col(&tb, "USED_MiB", 8, 2, false, false, NC_USED, -1);
	nl_tui_draw_col(&tb, "FREE_MiB", 8, 2, false, false, NC_FREE, -1);
	nl_tui_draw_col(&tb, "NUMA_HIT", 8, 3, false, false, NC_HIT, -1);
	nl_tui_draw_col(&tb, "MISS", 6, 3, false, false, NC_MISS, -1);
	nl_tui_draw_col(&tb, "FOREIGN", 7, 3, false, false, NC_FOREIGN, -1);
	nl_tui_draw_col(&tb, "LOCAL_NODE", 10, 1, false, false, NC_LOCAL, -1);
	nl_tui_draw_col(&tb, "BPF_LOCAL", 9, 1, false, false, NC_BPFLOCAL, -1);
	nl_tui_draw_col(&tb, "OTHER_NODE", 10, 1, false, false, NC_OTHER, -1);
	nl_tui_draw_col(&tb, "BPF_OTHER", 9, 1, false, false, NC_BPFOTHER, -1);
	nl_tui_draw_col(&tb, "BPF_PAGES", 9, 3, false, false, NC_BPFPAGES, -1);
	nl_tui_draw_col(&tb, "RCLM/s", 6, 1, false, false, NC_RCLM, -1);
	tb.flexw = nl_tui_layout(tb.cols, tb.n, COLS, tb.shown);
	nl_tui_draw_row(&tb, HEAD_LINES(t) - 1, A_BOLD | A_UNDERLINE, node_cell, t, NULL);
	nl_tui_draw_fix_scroll(t, 2, s->nr_nodes);
	for (int k = t->top[2]; k < s->nr_nodes && y < HEAD_LINES(t) + h; k++, y++)
		nl_tui_draw_row(&tb, y, 0, node_cell, t, &s->nodes[k]);
	if (y < HEAD_LINES(t) + h)
		nl_tui_draw_line(y++, 0, "numastat: sysfs deltas (allocator calls); BPF: mm_page_alloc events%s",
			s->src.vm_numa_stat ? "" : "  (vm.numa_stat off: numastat not comparable)");
	if (s->src.alloc)
		draw_node_preferred(s, &y, HEAD_LINES(t) + h);
}
