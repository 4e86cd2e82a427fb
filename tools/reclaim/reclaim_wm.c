// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Watermarks, steps, rate limit and PSI back-off (reclaim_wm.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "reclaim_wm.h"

int nl_wm_parse(const char *s, struct nl_wm_spec *out)
{
	char *end;
	double v;

	memset(out, 0, sizeof(*out));
	if (!s || !*s)
		return -EINVAL;
	/* strtod's hex and exponent forms are typos here, not sizes */
	if (strpbrk(s, "xXpPeE"))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return -EINVAL;
	if (*end == '%' && !end[1]) {
		if (v < 0.01 || v > 100)
			return -EINVAL;
		out->pct = true;
		out->pct_val = v;
		return 0;
	}
	{
		double mul = 1;

		switch (*end) {
		case 0: break;
		case 'k': case 'K': mul = 1024.0; end++; break;
		case 'm': case 'M': mul = 1024.0 * 1024; end++; break;
		case 'g': case 'G': mul = 1024.0 * 1024 * 1024; end++; break;
		case 't': case 'T': mul = 1024.0 * 1024 * 1024 * 1024; end++; break;
		default: return -EINVAL;
		}
		if (*end == 'i' || *end == 'B')
			end += *end == 'i' && end[1] == 'B' ? 2 : 1;
		if (*end || v * mul >= 18e18 || v * mul < 1)
			return -EINVAL;
		out->bytes = (uint64_t)(v * mul);
	}
	return 0;
}

static int resolve1(const struct nl_wm_spec *s, uint64_t limit, uint64_t *out)
{
	if (!s->pct) {
		*out = s->bytes;
		return 0;
	}
	if (limit == UINT64_MAX)
		return -EINVAL;
	*out = (uint64_t)((double)limit * s->pct_val / 100.0);
	return 0;
}

int nl_wm_resolve(const struct nl_wm_spec *hi, const struct nl_wm_spec *lo, uint64_t limit,
		  struct nl_wm *w)
{
	uint64_t h, l;

	if (resolve1(hi, limit, &h) || resolve1(lo, limit, &l))
		return -EINVAL;
	w->high = h;
	w->low = l;
	return l >= h ? -ERANGE : 0;
}

bool nl_wm_update(struct nl_wm *w, uint64_t usage)
{
	if (!w->active && usage > w->high)
		w->active = true;
	else if (w->active && usage <= w->low)
		w->active = false;
	return w->active;
}

uint64_t nl_wm_step_bytes(const struct nl_wm *w, uint64_t usage, uint64_t step_max)
{
	uint64_t over;

	if (usage <= w->low)
		return 0;
	over = usage - w->low;
	return over < step_max ? over : step_max;
}

void nl_rate_init(struct nl_rate *r, double rate_bytes_s, double now_s)
{
	r->rate = rate_bytes_s;
	r->tokens = rate_bytes_s;
	r->last_s = now_s;
}

uint64_t nl_rate_take(struct nl_rate *r, double now_s, uint64_t want)
{
	double dt = now_s - r->last_s;
	uint64_t got;

	if (r->rate <= 0)
		return want;
	if (dt > 0) {
		r->tokens += dt * r->rate;
		if (r->tokens > r->rate)
			r->tokens = r->rate;	/* one second of burst */
		r->last_s = now_s;
	}
	if (r->tokens < 1)
		return 0;
	got = (double)want <= r->tokens ? want : (uint64_t)r->tokens;
	r->tokens -= (double)got;
	return got;
}

void nl_rate_refund(struct nl_rate *r, uint64_t bytes)
{
	if (r->rate <= 0)
		return;
	r->tokens += (double)bytes;
	if (r->tokens > r->rate)
		r->tokens = r->rate;
}

void nl_psi_init(struct nl_psi *p, double thresh_us_s, double min_s, double max_s)
{
	memset(p, 0, sizeof(*p));
	p->thresh_us_s = thresh_us_s;
	p->min_s = p->backoff_s = min_s;
	p->max_s = max_s;
}

bool nl_psi_update(struct nl_psi *p, double now_s, uint64_t total_us)
{
	if (p->have && now_s > p->last_s && total_us >= p->last_us) {
		double rate = (double)(total_us - p->last_us) / (now_s - p->last_s);

		if (p->thresh_us_s > 0 && rate > p->thresh_us_s) {
			if (now_s >= p->until_s) {
				p->until_s = now_s + p->backoff_s;
				p->backoffs++;
				p->backoff_s = p->backoff_s * 2 > p->max_s ? p->max_s : p->backoff_s * 2;
			}
		} else if (now_s >= p->until_s) {
			p->backoff_s = p->min_s;
		}
	}
	p->have = true;
	p->last_s = now_s;
	p->last_us = total_us;
	return now_s < p->until_s;
}

uint64_t nl_refault_cost(uint64_t d_anon, uint64_t d_file, uint64_t d_maj, bool anon_in)
{
	uint64_t file_maj = d_maj > d_anon ? d_maj - d_anon : 0;

	return (anon_in ? d_anon : 0) + (d_file < file_maj ? d_file : file_maj);
}

bool nl_refault_guard_update(struct nl_refault_guard *g, double now_s, uint64_t refaults,
			     uint64_t freed)
{
	if (!g->have) {
		g->have = true;
		g->win_s = now_s;
		g->ref0 = refaults;
		g->freed0 = freed;
		g->backoff_s = 2.0;
		return false;
	}
	if (now_s - g->win_s >= 1.0) {
		uint64_t dr = refaults > g->ref0 ? refaults - g->ref0 : 0;
		uint64_t df = freed > g->freed0 ? freed - g->freed0 : 0;

		if (df > 0 && dr * 2 > df) {
			g->until_s = now_s + g->backoff_s;
			g->trips++;
			g->backoff_s = g->backoff_s * 2 > 30.0 ? 30.0 : g->backoff_s * 2;
		} else if (df > 0 && now_s >= g->until_s) {
			g->backoff_s = 2.0;
		}
		g->win_s = now_s;
		g->ref0 = refaults;
		g->freed0 = freed;
	}
	return now_s < g->until_s;
}
