// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Raw reclaim counters by cgroup id; see vmscan_raw.h. */
#include <stdlib.h>
#include <string.h>
#include "vmscan_raw.h"

static int find_idx(const struct nl_vs_raw *r, uint64_t id, int *at)
{
	int lo = 0, hi = r->n;

	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (r->ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	*at = lo;
	return lo < r->n && r->ids[lo] == id;
}

struct nl_vs_counts *nl_vmscan_raw_get(struct nl_vs_raw *r, uint64_t id)
{
	int at;

	if (find_idx(r, id, &at))
		return &r->c[at];
	if (r->n == r->cap) {
		int cap = r->cap ? r->cap * 2 : 16;
		uint64_t *ids = realloc(r->ids, (size_t)cap * sizeof(*ids));

		if (!ids)
			return NULL;
		r->ids = ids;
		struct nl_vs_counts *c = realloc(r->c, (size_t)cap * sizeof(*c));

		if (!c)
			return NULL;
		r->c = c;
		r->cap = cap;
	}
	memmove(&r->ids[at + 1], &r->ids[at], (size_t)(r->n - at) * sizeof(*r->ids));
	memmove(&r->c[at + 1], &r->c[at], (size_t)(r->n - at) * sizeof(*r->c));
	r->ids[at] = id;
	memset(&r->c[at], 0, sizeof(r->c[at]));
	r->n++;
	return &r->c[at];
}

const struct nl_vs_counts *nl_vmscan_raw_find(const struct nl_vs_raw *r, uint64_t id)
{
	int at;

	return find_idx(r, id, &at) ? &r->c[at] : NULL;
}

void nl_vmscan_raw_clear(struct nl_vs_raw *r)
{
	r->n = 0;
}

void nl_vmscan_raw_free(struct nl_vs_raw *r)
{
	free(r->ids);
	free(r->c);
	memset(r, 0, sizeof(*r));
}
