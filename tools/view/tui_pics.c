// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The pictures of `numalens top` as text (tui_pics.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tui_pics.h"

static double clamp01(double f)
{
	return f < 0 ? 0 : f > 1 ? 1 : f;
}

enum nl_pic_level nl_pic_level(double frac)
{
	if (!(frac >= 0.60))	/* NaN too: nothing to warn about */
		return NL_PIC_OK;
	return frac < 0.85 ? NL_PIC_WARN : NL_PIC_HIGH;
}

char *nl_pic_meter(char *buf, size_t sz, int width, double frac)
{
	int in = width - 2, fill;
	char pct[8];

	if (!buf || sz == 0)
		return buf;
	if (width < 6 || (size_t)width + 1 > sz) {
		buf[0] = '\0';
		return buf;
	}
	if (isnan(frac)) {
		snprintf(buf, sz, "[%*s]", in, "n/a");
		return buf;
	}
	frac = clamp01(frac);
	fill = (int)lround(frac * in);
	snprintf(pct, sizeof(pct), "%d%%", (int)lround(frac * 100));
	buf[0] = '[';
	for (int i = 0; i < in; i++)
		buf[1 + i] = i < fill ? '|' : ' ';
	/* the number over the bars' right end, as htop prints it */
	memcpy(buf + 1 + in - strlen(pct), pct, strlen(pct));
	buf[1 + in] = ']';
	buf[width] = '\0';
	return buf;
}

const char *nl_pic_tick(double frac, bool utf8)
{
	static const char *const u[8] = { "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };
	static const char *const a[8] = { "_", ".", "-", "=", "+", "*", "#", "@" };
	int k;

	if (isnan(frac))
		return " ";
	k = (int)(clamp01(frac) * 8);
	if (k > 7)
		k = 7;
	return utf8 ? u[k] : a[k];
}

const char *nl_pic_shade(double frac, bool utf8)
{
	static const char *const u[5] = { "·", "░", "▒", "▓", "█" };
	static const char *const a[5] = { ".", ":", "+", "*", "#" };
	int k;

	if (isnan(frac))
		return " ";
	k = frac < 0.01 ? 0 : frac < 0.25 ? 1 : frac < 0.50 ? 2 : frac < 0.75 ? 3 : 4;
	return utf8 ? u[k] : a[k];
}

/* --- the placement picture ----------------------------------------------- */

int nl_pic_pick_nodes(const double *weight, int nr, int *pos)
{
	bool taken[NL_MAX_NODES] = { false };
	int n = 0;

	if (nr > NL_MAX_NODES)
		nr = NL_MAX_NODES;
	if (nr <= NL_PIC_MAX_NODES) {
		for (int i = 0; i < nr; i++)
			pos[i] = i;
		return nr;
	}
	for (int k = 0; k < NL_PIC_MAX_NODES; k++) {
		int best = -1;

		for (int i = 0; i < nr; i++)
			if (!taken[i] && (best < 0 || weight[i] > weight[best]))
				best = i;
		taken[best] = true;
	}
	for (int i = 0; i < nr; i++)
		if (taken[i])
			pos[n++] = i;
	return n;
}

double nl_pic_expected_distance(const struct nl_pic_place *p)
{
	double cs = 0, ms = 0, d = 0;

	for (int i = 0; i < p->n; i++) {
		cs += isnan(p->cpu[i]) ? 0 : p->cpu[i];
		ms += isnan(p->mem[i]) ? 0 : p->mem[i];
	}
	if (cs <= 0 || ms <= 0)
		return NAN;
	for (int i = 0; i < p->n; i++)
		for (int j = 0; j < p->n; j++) {
			double w = (isnan(p->cpu[i]) ? 0 : p->cpu[i]) * (isnan(p->mem[j]) ? 0 : p->mem[j]);

			if (w <= 0)
				continue;
			if (!p->dist[i][j])
				return NAN;
			d += w * p->dist[i][j];
		}
	return d / (cs * ms) / 10.0;
}

/* a percentage in 4 cells, no sign (the row or column says %): " 62",
 * "   -" for NaN */
static const char *pct4(char *b, size_t sz, double f)
{
	if (isnan(f))
		snprintf(b, sz, "   -");
	else
		snprintf(b, sz, "%4d", (int)lround(clamp01(f) * 100));
	return b;
}

int nl_pic_place_lines(char (*out)[256], int max, const struct nl_pic_place *p, bool utf8)
{
	int n = 0, len;
	char b[8];
	double e;

#define LINE(...) do { if (n < max) snprintf(out[n++], 256, __VA_ARGS__); } while (0)
#define ADD(...) do { len = (int)strlen(out[n - 1]); \
		      snprintf(out[n - 1] + len, 256 - (size_t)len, __VA_ARGS__); } while (0)
	if (max <= 0 || p->n <= 0)
		return 0;
	if (p->nr_nodes > p->n)
		LINE("Placement: CPU time (rows) x memory (columns), %d busiest of %d nodes",
		     p->n, p->nr_nodes);
	else
		LINE("Placement: CPU time by node (rows) x memory by node (columns)");
	LINE("%-9s", "");
	for (int j = 0; j < p->n; j++)
		ADD(" N%-2d", p->nid[j] % 1000);
	ADD("%6s  SLIT", "CPU%");
	for (int i = 0; i < p->n && n < max; i++) {
		LINE("  CPU N%-2d", p->nid[i] % 1000);
		for (int j = 0; j < p->n; j++) {
			const char *g = nl_pic_shade(p->cpu[i] * p->mem[j], utf8);

			ADD("  %s%s", g, g);
		}
		ADD("  %s ", pct4(b, sizeof(b), p->cpu[i]));
		for (int j = 0; j < p->n; j++) {
			if (p->dist[i][j])
				ADD(" %2d", p->dist[i][j] > 99 ? 99 : p->dist[i][j]);
			else
				ADD("  ?");
		}
	}
	LINE("  memory%%");
	for (int j = 0; j < p->n; j++)
		ADD("%s", pct4(b, sizeof(b), p->mem[j]));
	ADD("  resident");
	LINE("  allocs%%");
	for (int j = 0; j < p->n; j++)
		ADD("%s", pct4(b, sizeof(b), p->alloc[j]));
	ADD("  this interval");
	LINE("  a cell: CPU share x memory share, %s%s%s%s%s = <1/1/25/50/75%%+",
	     nl_pic_shade(0, utf8), nl_pic_shade(0.1, utf8), nl_pic_shade(0.3, utf8),
	     nl_pic_shade(0.6, utf8), nl_pic_shade(0.9, utf8));
	e = nl_pic_expected_distance(p);
	if (isnan(e))
		LINE("  expected distance per access: unknown (no CPU time, no memory or no SLIT)");
	else
		LINE("  expected distance per access %.2fx local, if accesses follow the memory", e);
#undef LINE
#undef ADD
	return n;
}
