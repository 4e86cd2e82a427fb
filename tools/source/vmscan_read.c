// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Reading the vmscan maps; see vmscan_read.h. */
#include <errno.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "vmscan_read.h"
#include "vmscan.skel.h"

/* Add the @cpus per-CPU copies of a value of @words u64 at @vals
 * (stride rounded to 8 bytes, which u64 values already are) into @dst. */
static void add_percpu(uint64_t *dst, const uint64_t *vals, size_t words, int cpus)
{
	for (int c = 0; c < cpus; c++)
		for (size_t k = 0; k < words; k++)
			dst[k] += vals[(size_t)c * words + k];
}

int nl_vmscan_read_set_lru_mode(const struct nl_bpf *b, const char *lru_gen_path)
{
	FILE *f = fopen(lru_gen_path, "r");
	unsigned long caps = 0;
	int on;

	if (f) {
		if (fscanf(f, "%lx", &caps) != 1)
			caps = 0;
		fclose(f);
	}
	on = (caps & 1) != 0;	/* LRU_GEN_CORE */
	if (b->vmscan)
		b->vmscan->bss->nl_mglru = (uint32_t)on;
	return on;
}

int nl_vmscan_read(const struct nl_bpf *b, struct nl_vs_raw *r)
{
	struct nl_vs_key pk, pnext;
	struct nl_vs_tkey tk, tnext;
	size_t pw = sizeof(struct nl_vs_pages) / 8, tw = sizeof(struct nl_vs_time) / 8;
	uint64_t *vals;
	void *prev = NULL;
	int fd;

	nl_vmscan_raw_clear(r);
	if (!b->vmscan)
		return 0;
	vals = malloc((size_t)b->nr_cpus * (tw > pw ? tw : pw) * 8);
	if (!vals)
		return -ENOMEM;
	fd = bpf_map__fd(b->vmscan->maps.vmscan_pages);
	while (!bpf_map_get_next_key(fd, prev, &pnext)) {
		struct nl_vs_counts *c;

		pk = pnext;
		prev = &pk;
		if (pk.ctx >= NL_VS_NR_CTX || pk.nid >= NL_MAX_NODES || bpf_map_lookup_elem(fd, &pk, vals))
			continue;
		c = nl_vmscan_raw_get(r, pk.cgroup_id);
		if (!c)
			goto nomem;
		add_percpu((uint64_t *)&c->pages[pk.ctx][pk.nid], vals, pw, b->nr_cpus);
	}
	prev = NULL;
	fd = bpf_map__fd(b->vmscan->maps.vmscan_time);
	while (!bpf_map_get_next_key(fd, prev, &tnext)) {
		struct nl_vs_counts *c;

		tk = tnext;
		prev = &tk;
		if (tk.ctx >= NL_VS_NR_CTX || bpf_map_lookup_elem(fd, &tk, vals))
			continue;
		c = nl_vmscan_raw_get(r, tk.cgroup_id);
		if (!c)
			goto nomem;
		add_percpu((uint64_t *)&c->time[tk.ctx], vals, tw, b->nr_cpus);
	}
	free(vals);
	return 0;
nomem:
	free(vals);
	return -ENOMEM;
}

static bool listed(uint64_t id, const uint64_t *ids, int n)
{
	for (int i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

int nl_vmscan_read_forget(const struct nl_bpf *b, const uint64_t *ids, int n)
{
	struct nl_vs_key pk, pnext;
	struct nl_vs_tkey tk, tnext;
	void *prev = NULL;
	int fd, deleted = 0;

	if (!b->vmscan || n <= 0)
		return 0;
	/* delete the previous key once past it: deleting the current one
	 * would restart get_next_key from the beginning */
	fd = bpf_map__fd(b->vmscan->maps.vmscan_pages);
	while (!bpf_map_get_next_key(fd, prev, &pnext)) {
		if (prev && listed(pk.cgroup_id, ids, n))
			deleted += !bpf_map_delete_elem(fd, &pk);
		pk = pnext;
		prev = &pk;
	}
	if (prev && listed(pk.cgroup_id, ids, n))
		deleted += !bpf_map_delete_elem(fd, &pk);
	prev = NULL;
	fd = bpf_map__fd(b->vmscan->maps.vmscan_time);
	while (!bpf_map_get_next_key(fd, prev, &tnext)) {
		if (prev && listed(tk.cgroup_id, ids, n))
			deleted += !bpf_map_delete_elem(fd, &tk);
		tk = tnext;
		prev = &tk;
	}
	if (prev && listed(tk.cgroup_id, ids, n))
		deleted += !bpf_map_delete_elem(fd, &tk);
	return deleted;
}
