// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Id-keyed counter tables; see counts.h. */
#include <stdlib.h>
#include <string.h>
#include "counts.h"

static unsigned hash_id(uint64_t id, int nslot)
{
	return (unsigned)((id * 0x9e3779b97f4a7c15ull) >> 32) & (unsigned)(nslot - 1);
}

static void reindex(struct nl_counts_table *t)
{
	for (int i = 0; i < t->nslot; i++)
		t->slot[i] = -1;
	for (int i = 0; i < t->n; i++) {
		unsigned h = hash_id(t->v[i].id, t->nslot);

		while (t->slot[h] >= 0)
			h = (h + 1) & (unsigned)(t->nslot - 1);
		t->slot[h] = i;
	}
}

struct nl_counts *nl_counts_get(struct nl_counts_table *t, uint64_t id)
{
	unsigned h;

	if (t->n == t->cap) {
		int cap = t->cap ? t->cap * 2 : 256;
		struct nl_id_counts *v = realloc(t->v, (size_t)cap * sizeof(*v));
		int *slot;

		if (!v)
			return NULL;
		t->v = v;
		slot = realloc(t->slot, (size_t)cap * 2 * sizeof(*slot));
		if (!slot)
			return NULL;
		t->slot = slot;
		t->cap = cap;
		t->nslot = cap * 2;
		reindex(t);
	}
	if (!t->nslot)
		return NULL;
	for (h = hash_id(id, t->nslot); t->slot[h] >= 0; h = (h + 1) & (unsigned)(t->nslot - 1))
		if (t->v[t->slot[h]].id == id)
			return &t->v[t->slot[h]].c;
	t->slot[h] = t->n;
	memset(&t->v[t->n], 0, sizeof(t->v[0]));
	t->v[t->n].id = id;
	return &t->v[t->n++].c;
}

const struct nl_counts *nl_counts_find(const struct nl_counts_table *t, uint64_t id)
{
	if (!t->n)
		return NULL;
	for (unsigned h = hash_id(id, t->nslot); t->slot[h] >= 0;
	     h = (h + 1) & (unsigned)(t->nslot - 1))
		if (t->v[t->slot[h]].id == id)
			return &t->v[t->slot[h]].c;
	return NULL;
}

void nl_counts_clear(struct nl_counts_table *t)
{
	t->n = 0;
	for (int i = 0; i < t->nslot; i++)
		t->slot[i] = -1;
}

void nl_counts_free(struct nl_counts_table *t)
{
	free(t->v);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}
