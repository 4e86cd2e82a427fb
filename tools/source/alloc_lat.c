// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The allocation latency program; see alloc_lat.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "alloc_lat.h"
#include "page_layout.h"
#include "alloc_lat.skel.h"

struct nl_lat_prog {
	struct nl_alloc_lat *skel;
	struct bpf_link *links[2];		/* entry, exit */
	struct bpf_program *enter, *exit;	/* the pair in use */
	char hook[64];				/* "<function> (fentry|kprobe)" */
	int nr_cpus;
	int gfp_arg, order_arg;			/* the hook's argument positions */
};

/* The allocator's core function, newest name first: every page
 * allocation passes it (alloc_pages, folios, slab pages, the bulk
 * allocator's fallback). */
static const char *const hooks[] = {
	"__alloc_frozen_pages_noprof",	/* 6.15 on */
	"__alloc_pages_noprof",		/* 6.10 - 6.14 */
	"__alloc_pages",		/* before */
};

/* The first hook @vm has, with the positions of its gfp and order
 * arguments (by name, from its prototype); NULL when none is there. */
static const char *find_hook(const struct btf *vm, int *gfp_arg, int *order_arg)
{
	for (size_t i = 0; i < sizeof(hooks) / sizeof(hooks[0]); i++) {
		int id = btf__find_by_name_kind(vm, hooks[i], BTF_KIND_FUNC);
		const struct btf_type *fn = id > 0 ? btf__type_by_id(vm, id) : NULL;
		const struct btf_type *proto = fn ? btf__type_by_id(vm, fn->type) : NULL;
		const struct btf_param *p;

		if (!proto || !btf_is_func_proto(proto))
			continue;
		*gfp_arg = *order_arg = -1;
		p = btf_params(proto);
		for (int k = 0; k < btf_vlen(proto); k++) {
			const char *name = btf__name_by_offset(vm, p[k].name_off);

			if (name && (!strcmp(name, "gfp") || !strcmp(name, "gfp_mask")))
				*gfp_arg = k;
			else if (name && !strcmp(name, "order"))
				*order_arg = k;
		}
		if (*gfp_arg >= 0 && *gfp_arg < 5 && *order_arg >= 0 && *order_arg < 5)
			return hooks[i];
	}
	return NULL;
}

/* Open, load and attach the pair of @kprobes (else fentry/fexit) programs
 * on @hook. Returns 0 or a negative errno, with @why set. */
static int load_pair(struct nl_lat_prog *l, const char *hook, bool kprobes,
		     const struct nl_page_layout *pl, uint32_t sample_every, char *why, size_t whylen)
{
	struct nl_alloc_lat *sk;
	int e;

	sk = l->skel = nl_alloc_lat__open();
	if (!sk) {
		e = errno ? -errno : -ENOMEM;
		snprintf(why, whylen, "cannot open the latency program: %s", strerror(-e));
		return e;
	}
	sk->rodata->nl_sample_every = sample_every;
	sk->rodata->nl_node_shift = pl->node_shift;
	sk->rodata->nl_node_mask = pl->node_mask;
	sk->rodata->nl_gfp_arg = (uint32_t)l->gfp_arg;
	sk->rodata->nl_order_arg = (uint32_t)l->order_arg;
	bpf_program__set_autoload(sk->progs.lat_enter, !kprobes);
	bpf_program__set_autoload(sk->progs.lat_exit, !kprobes);
	bpf_program__set_autoload(sk->progs.lat_kenter, kprobes);
	bpf_program__set_autoload(sk->progs.lat_kexit, kprobes);
	e = kprobes ? 0 : bpf_program__set_attach_target(sk->progs.lat_enter, 0, hook);
	if (!e && !kprobes)
		e = bpf_program__set_attach_target(sk->progs.lat_exit, 0, hook);
	if (!e)
		e = nl_alloc_lat__load(sk);
	if (e) {
		snprintf(why, whylen, "the kernel refused the latency program (%s on %s): %s",
			 kprobes ? "kprobe" : "fentry", hook, strerror(-e));
		return e;
	}
	l->links[0] = kprobes ? bpf_program__attach_kprobe(sk->progs.lat_kenter, false, hook)
			      : bpf_program__attach(sk->progs.lat_enter);
	l->links[1] = kprobes ? bpf_program__attach_kprobe(sk->progs.lat_kexit, true, hook)
			      : bpf_program__attach(sk->progs.lat_exit);
	if (!l->links[0] || !l->links[1]) {
		e = errno ? -errno : -EINVAL;
		if (kprobes && e == -ENOENT && access("/sys/kernel/tracing/kprobe_events", F_OK) &&
		    access("/sys/kernel/debug/tracing/kprobe_events", F_OK))
			snprintf(why, whylen, "this kernel has no kprobes (built without CONFIG_KPROBES)");
		else
			snprintf(why, whylen, "cannot attach to %s (%s): %s", hook,
				 kprobes ? "kprobe" : "fentry", strerror(-e));
		return e;
	}
	l->enter = kprobes ? sk->progs.lat_kenter : sk->progs.lat_enter;
	l->exit = kprobes ? sk->progs.lat_kexit : sk->progs.lat_exit;
	snprintf(l->hook, sizeof(l->hook), "%s (%s)", hook, kprobes ? "kprobe" : "fentry");
	return 0;
}

/* Detach and free the programs of @l, keeping @l. */
static void unload(struct nl_lat_prog *l)
{
	for (int i = 0; i < 2; i++) {
		bpf_link__destroy(l->links[i]);
		l->links[i] = NULL;
	}
	nl_alloc_lat__destroy(l->skel);
	l->skel = NULL;
}

int nl_alloc_lat_open(struct nl_lat_prog **out, uint32_t sample_every, char *why, size_t whylen)
{
	struct nl_lat_prog *l;
	struct nl_page_layout pl;
	struct btf *vm;
	const char *hook;
	int e, gfp_arg = 0, order_arg = 1;

	*out = NULL;
	why[0] = '\0';
	vm = btf__load_vmlinux_btf();
	if (!vm) {
		snprintf(why, whylen, "the kernel has no BTF (/sys/kernel/btf/vmlinux)");
		return -ENOENT;
	}
	hook = find_hook(vm, &gfp_arg, &order_arg);
	e = nl_page_layout_from_btf(vm, &pl);
	btf__free(vm);
	if (!hook) {
		snprintf(why, whylen, "the kernel has none of __alloc_frozen_pages_noprof, "
			 "__alloc_pages_noprof, __alloc_pages with gfp and order arguments to hook");
		return -ENOENT;
	}
	if (e) {
		snprintf(why, whylen, "the page layout (node bits of struct page) is not known on this kernel");
		return -EINVAL;
	}
	l = calloc(1, sizeof(*l));
	if (!l) {
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	l->nr_cpus = libbpf_num_possible_cpus();
	if (l->nr_cpus <= 0) {
		snprintf(why, whylen, "cannot count the possible CPUs");
		free(l);
		return -EINVAL;
	}
	if (!sample_every)
		sample_every = 1;
	l->gfp_arg = gfp_arg;
	l->order_arg = order_arg;
	/* fentry/fexit first: cheaper, and the exit checks its entry; some
	 * hosts refuse fentry programs, then kprobes */
	e = load_pair(l, hook, false, &pl, sample_every, why, whylen);
	if (e) {
		char first[160];

		snprintf(first, sizeof(first), "%s", why);
		unload(l);
		e = load_pair(l, hook, true, &pl, sample_every, why, whylen);
		if (e) {	/* both: say both */
			char second[160];

			snprintf(second, sizeof(second), "%s", why);
			snprintf(why, whylen, "%s; %s", first, second);
		}
	}
	if (e) {
		nl_alloc_lat_close(l);
		return e;
	}
	*out = l;
	return 0;
}

const char *nl_alloc_lat_hook(const struct nl_lat_prog *l)
{
	return l ? l->hook : "";
}

/* Run count and time of @p (0 unless the kernel counts them). */
static void prog_cost(const struct bpf_program *p, uint64_t *runs, uint64_t *ns)
{
	struct bpf_prog_info info = {};
	uint32_t len = sizeof(info);

	if (bpf_prog_get_info_by_fd(bpf_program__fd(p), &info, &len))
		return;
	*runs += info.run_cnt;
	*ns += info.run_time_ns;
}

int nl_alloc_lat_read(const struct nl_lat_prog *l, struct nl_alloc_lat_counts *out)
{
	int hfd = bpf_map__fd(l->skel->maps.lat_hists), sfd = bpf_map__fd(l->skel->maps.lat_stats);
	struct nl_lat_hist *h = calloc((size_t)l->nr_cpus, sizeof(*h));
	uint64_t *v = calloc((size_t)l->nr_cpus, sizeof(*v));
	int e = 0;

	memset(out, 0, sizeof(*out));
	if (!h || !v) {
		e = -ENOMEM;
		goto out;
	}
	for (uint32_t k = 0; k < NL_LAT_NR_HISTS && !e; k++) {
		if (bpf_map_lookup_elem(hfd, &k, h)) {
			e = -errno;
			break;
		}
		for (int c = 0; c < l->nr_cpus; c++) {
			for (int b = 0; b < NL_LAT_BUCKETS; b++)
				out->hist[k][b] += h[c].count[b];
			out->sum_ns[k] += h[c].sum_ns;
		}
	}
	for (uint32_t k = 0; k < NL_LAT_NR_STATS && !e; k++) {
		if (bpf_map_lookup_elem(sfd, &k, v)) {
			e = -errno;
			break;
		}
		for (int c = 0; c < l->nr_cpus; c++)
			out->stats[k] += v[c];
	}
	prog_cost(l->enter, &out->prog_runs, &out->prog_run_ns);
	prog_cost(l->exit, &out->prog_runs, &out->prog_run_ns);
out:
	free(h);
	free(v);
	return e;
}

void nl_alloc_lat_close(struct nl_lat_prog *l)
{
	if (!l)
		return;
	unload(l);
	free(l);
}
