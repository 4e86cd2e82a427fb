// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Exact node and zone totals from the node_cells map; see node_exact.h. */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "node_exact.h"
#include "zones.h"
#include "alloc.skel.h"

_Static_assert(NL_NODEX_ZONES <= NL_NR_ZONES, "every exact zone has a slot in the node counters");

uint32_t nl_node_exact_row(int nr_nodes)
{
	uint32_t n = nr_nodes > 0 ? (uint32_t)nr_nodes : 1;

	return (n * (NL_NODEX_ZONES + 4) + 3) & ~3u;
}

void nl_node_exact_size(struct nl_alloc *a, int nr_cpus, int nr_nodes)
{
	a->rodata->nl_nodex_nodes = (uint32_t)nr_nodes;
	a->rodata->nl_nodex_row = nl_node_exact_row(nr_nodes);
	bpf_map__set_max_entries(a->maps.node_cells, (unsigned)nr_cpus * nl_node_exact_row(nr_nodes));
}

int nl_node_exact_map(struct nl_bpf *b)
{
	long pg = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)b->nr_cpus * nl_node_exact_row(b->nr_nodes) * sizeof(struct nl_node_cell);
	void *p;

	len = (len + (size_t)pg - 1) & ~((size_t)pg - 1);
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, bpf_map__fd(b->alloc->maps.node_cells), 0);
	if (p == MAP_FAILED)
		return -errno;
	b->node_cells = p;
	b->node_cells_len = len;
	return 0;
}

void nl_node_exact_unmap(struct nl_bpf *b)
{
	if (b->node_cells)
		munmap((void *)b->node_cells, b->node_cells_len);
	b->node_cells = NULL;
	b->node_cells_len = 0;
}

/* A cell's two words as BPF leaves them (another CPU may be adding). */
static uint64_t cell_a(const struct nl_node_cell *c)
{
	return __atomic_load_n(&c->a, __ATOMIC_RELAXED);
}

static uint64_t cell_b(const struct nl_node_cell *c)
{
	return __atomic_load_n(&c->b, __ATOMIC_RELAXED);
}

/* Add CPU row @r's counts (@n nodes in the row, @nn of them read) to @nodes. */
static void row_add(const struct nl_node_cell *r, uint32_t n, int nn, struct nl_node_counts *nodes)
{
	const uint32_t p = n * NL_NODEX_ZONES;

	for (uint32_t nid = 0; nid < (uint32_t)nn; nid++) {
		struct nl_node_counts *d = &nodes[nid];
		const struct nl_node_cell *lo = &r[p + nid], *rk = &r[p + n + nid];
		uint64_t lh = 0, pg;

		for (int z = 0; z < NL_NODEX_ZONES; z++) {
			lh += cell_a(&r[nid * NL_NODEX_ZONES + z]);
			pg = cell_b(&r[nid * NL_NODEX_ZONES + z]);
			d->pages += pg;
			d->pages_by_zone[z] += pg;
		}
		d->events_local += lh + cell_a(lo) + cell_b(lo);
		d->events_other += cell_a(rk) + cell_b(rk) + cell_a(&r[p + 2 * n + nid]);
		d->events_hit += lh + cell_a(rk);
		d->events_miss += cell_a(lo) + cell_b(rk);
		d->events_from_remote += cell_a(&r[p + 3 * n + nid]);
		d->events_foreign += cell_b(&r[p + 3 * n + nid]);
	}
}

void nl_node_exact_read(const struct nl_bpf *b, struct nl_node_counts nodes[NL_MAX_NODES])
{
	int nn = b->nr_nodes < NL_MAX_NODES ? b->nr_nodes : NL_MAX_NODES;
	uint32_t row = nl_node_exact_row(b->nr_nodes);

	if (!b->node_cells || nn < 1)
		return;
	for (int cpu = 0; cpu < b->nr_cpus; cpu++)
		row_add(b->node_cells + (size_t)cpu * row, (uint32_t)b->nr_nodes, nn, nodes);
}
