// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Watermarks and step sizes (reclaim_wm.h). */
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
