// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The page lifetime program; see page_life.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "page_life.h"
#include "page_layout.h"
#include "page_life.skel.h"

struct nl_life_prog {
	struct nl_page_life *skel;
	struct bpf_link *links[2];	/* alloc, free */
	int nr_cpus;
};

int nl_page_life_open(struct nl_life_prog **out, uint32_t sample_every, char *why, size_t whylen)
{
	static const char *const tps[] = { "mm_page_alloc", "mm_page_free" };
	struct nl_life_prog *p;
	struct nl_page_layout pl;
	int e;

	*out = NULL;
	why[0] = '\0';
	e = nl_page_layout_for_tps(tps, 2, &pl, NULL, why, whylen);
	if (e)
		return e;
	p = calloc(1, sizeof(*p));
	if (!p) {
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	p->nr_cpus = libbpf_num_possible_cpus();
	p->skel = nl_page_life__open();
	if (!p->skel || p->nr_cpus <= 0) {
		e = p->skel ? -EINVAL : (errno ? -errno : -ENOMEM);
		snprintf(why, whylen, "cannot open the lifetime program: %s", strerror(-e));
		nl_page_life_close(p);
		return e;
	}
	p->skel->rodata->nl_sample_every = sample_every ? sample_every : 1;
	p->skel->rodata->nl_node_shift = pl.node_shift;
	p->skel->rodata->nl_node_mask = pl.node_mask;
	p->skel->rodata->nl_thp_order = nl_page_thp_order();
	e = nl_page_life__load(p->skel);
	if (e) {
		snprintf(why, whylen, "the kernel refused the lifetime program: %s", strerror(-e));
		nl_page_life_close(p);
		return e;
	}
	/* the free side first: a page sampled before it attaches would stay
	 * in the map until evicted */
	p->links[1] = bpf_program__attach(p->skel->progs.life_free);
	p->links[0] = p->links[1] ? bpf_program__attach(p->skel->progs.life_alloc) : NULL;
	if (!p->links[0]) {
		e = errno ? -errno : -EINVAL;
		snprintf(why, whylen, "cannot attach to kmem:mm_page_alloc/mm_page_free (tp_btf): %s",
			 strerror(-e));
		nl_page_life_close(p);
		return e;
	}
	*out = p;
	return 0;
}

/* Add the run count and time of @prog to @out (0 unless counted). */
static void prog_cost(const struct bpf_program *prog, struct nl_page_life_counts *out)
{
	struct bpf_prog_info info = {};
	uint32_t len = sizeof(info);

	if (bpf_prog_get_info_by_fd(bpf_program__fd(prog), &info, &len))
		return;
	out->prog_runs += info.run_cnt;
	out->prog_run_ns += info.run_time_ns;
}

int nl_page_life_read(const struct nl_life_prog *p, struct nl_page_life_counts *out)
{
	int hfd = bpf_map__fd(p->skel->maps.life_hists), sfd = bpf_map__fd(p->skel->maps.life_stats);
	struct nl_life_hist *h = calloc((size_t)p->nr_cpus, sizeof(*h));
	uint64_t *v = calloc((size_t)p->nr_cpus, sizeof(*v));
	int e = 0;

	memset(out, 0, sizeof(*out));
	if (!h || !v) {
		e = -ENOMEM;
		goto out;
	}
	for (uint32_t k = 0; k < NL_LIFE_NR_HISTS; k++) {
		if (bpf_map_lookup_elem(hfd, &k, h)) {
			e = -errno;
			goto out;
		}
		for (int c = 0; c < p->nr_cpus; c++) {
			for (int b = 0; b < NL_LIFE_BUCKETS; b++)
				out->hist[k][b] += h[c].count[b];
			out->sum_ns[k] += h[c].sum_ns;
		}
	}
	for (uint32_t k = 0; k < NL_LIFE_NR_STATS; k++) {
		if (bpf_map_lookup_elem(sfd, &k, v)) {
			e = -errno;
			goto out;
		}
		for (int c = 0; c < p->nr_cpus; c++)
			out->stats[k] += v[c];
	}
	prog_cost(p->skel->progs.life_alloc, out);
	prog_cost(p->skel->progs.life_free, out);
out:
	free(h);
	free(v);
	return e;
}

void nl_page_life_close(struct nl_life_prog *p)
{
	if (!p)
		return;
	for (int i = 0; i < 2; i++)
		bpf_link__destroy(p->links[i]);
	nl_page_life__destroy(p->skel);
	free(p);
}
