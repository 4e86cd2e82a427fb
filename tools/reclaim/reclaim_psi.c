// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* reclaim_psi.h: see there. */
#include <string.h>
#include "reclaim_psi.h"

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
