// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The sparklines' history (tui_hist.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "tui_hist.h"
#include "tui_pics.h"

/* Position of @key in @h->s, or where it would go (*@found false). */
static int hist_pos(const struct nl_hist *h, uint64_t key, bool *found)
{
	int lo = 0, hi = h->n;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (h->s[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < h->n && h->s[lo].key == key;
	return lo;
}

int nl_hist_add(struct nl_hist *h, uint64_t key, uint64_t t_ms, const double *v)
{
	bool found;
	int i = hist_pos(h, key, &found);
	struct nl_hist_series *s;
	int k;

	if (!found) {
		if (h->n == h->cap) {
			int cap = h->cap ? 2 * h->cap : 64;
			struct nl_hist_series *ns = realloc(h->s, (size_t)cap * sizeof(*ns));

			if (!ns)
				return -ENOMEM;
			h->s = ns;
			h->cap = cap;
		}
		memmove(h->s + i + 1, h->s + i, (size_t)(h->n - i) * sizeof(*h->s));
		memset(&h->s[i], 0, sizeof(h->s[i]));
		h->s[i].key = key;
		h->n++;
	}
	s = &h->s[i];
	k = (s->head + s->n) % NL_HIST_SAMPLES;
	if (s->n == NL_HIST_SAMPLES)
		s->head = (s->head + 1) % NL_HIST_SAMPLES;	/* the oldest goes */
	else
		s->n++;
	s->t_ms[k] = t_ms;
	for (int j = 0; j < NL_HIST_VALUES; j++)
		s->v[j][k] = (float)v[j];
	return 0;
}

const struct nl_hist_series *nl_hist_find(const struct nl_hist *h, uint64_t key)
{
	bool found;
	int i;

	if (!h || !h->n)
		return NULL;
	i = hist_pos(h, key, &found);
	return found ? &h->s[i] : NULL;
}

void nl_hist_prune(struct nl_hist *h, uint64_t now_ms, uint64_t keep_ms)
{
	int o = 0;

	for (int i = 0; i < h->n; i++) {
		const struct nl_hist_series *s = &h->s[i];
		uint64_t last = s->n ? s->t_ms[(s->head + s->n - 1) % NL_HIST_SAMPLES] : 0;

		if (s->n && last + keep_ms >= now_ms)
			h->s[o++] = *s;
	}
	h->n = o;
}

void nl_hist_free(struct nl_hist *h)
{
	free(h->s);
	memset(h, 0, sizeof(*h));
}

char *nl_hist_spark(char *buf, size_t sz, const struct nl_hist_series *s, int which,
		    uint64_t now_ms, uint64_t span_ms, int width, bool utf8)
{
	size_t len = 0;

	if (!buf || sz == 0)
		return buf;
	buf[0] = '\0';
	if (width <= 0 || span_ms == 0 || which < 0 || which >= NL_HIST_VALUES)
		return buf;
	for (int c = 0; c < width; c++) {
		/* cell c covers (start, end] of the span, oldest first; signed,
		 * as the span may reach back before the clock's 0 */
		int64_t start = (int64_t)now_ms - (int64_t)span_ms + (int64_t)(span_ms * (uint64_t)c / (uint64_t)width);
		int64_t end = (int64_t)now_ms - (int64_t)span_ms +
			      (int64_t)(span_ms * (uint64_t)(c + 1) / (uint64_t)width);
		double sum = 0;
		int cnt = 0;
		const char *g;

		for (int i = 0; s && i < s->n; i++) {
			int k = (s->head + i) % NL_HIST_SAMPLES;
			int64_t t = (int64_t)s->t_ms[k];

			if (t > start && t <= end && !isnan(s->v[which][k])) {
				sum += s->v[which][k];
				cnt++;
			}
		}
		g = nl_pic_tick(cnt ? sum / cnt : NAN, utf8);
		if (len + strlen(g) + 1 > sz)
			break;
		memcpy(buf + len, g, strlen(g));
		len += strlen(g);
		buf[len] = '\0';
	}
	return buf;
}
