// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The steps every object's load takes (load_common.h): the "missing:"
 * notes, map sizing to the memory budget, attaching.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "load_common.h"
#include "census.h"
#include "vmscan_types.h"

void nl_load_missing(struct nl_bpf *b, const char *fmt, ...)
{
	size_t len = strlen(b->missing);
	va_list ap;

	if (len && len + 2 < sizeof(b->missing)) {
		strcat(b->missing, "; ");
		len += 2;
	}
	va_start(ap, fmt);
	vsnprintf(b->missing + len, sizeof(b->missing) - len, fmt, ap);
	va_end(ap);
}

/* Why a load failed, for the "missing:" line: with --btf and no kernel BTF,
 * tp_btf programs cannot find their attach point (ESRCH), which the
 * errno alone would not tell. */
const char *nl_load_why(const struct nl_bpf_opts *o, int e)
{
	static char why[160];

	if (e == -ESRCH && o->btf_path && access(NL_KERNEL_BTF, R_OK))
		return "its tracepoints attach by the kernel's own BTF, which --btf cannot replace";
	snprintf(why, sizeof(why), "%s; --verbose shows why", strerror(-e));
	return why;
}

/* @n rounded up to a multiple of 1024, at most UINT_MAX / 2. */
static unsigned round_k(unsigned long n)
{
	n = (n + 1023) & ~1023ul;
	return n > UINT_MAX / 2 ? UINT_MAX / 2 : (unsigned)n;
}

/*
 * Why these sizes. The kernel makes a preallocated per-CPU hash with one
 * per-CPU allocation per entry (about 1 us each on our 2-CPU host, more
 * with more CPUs), so a table sized for the worst case costs start-up
 * time in proportion: 122,880 entries were a third of top's start. They
 * stay preallocated (see the maps in bpf/), so they are sized for this
 * host instead: from its task and cgroup counts at start, twice over,
 * plus a margin for what comes and goes between two collections (a
 * process or cgroup that is gone leaves its tables one or two
 * collections later) and for the host filling up after start. The
 * margin grows with the CPUs, as the processes a host can start and end
 * in an interval do: export's churn test (100 short processes a second,
 * a cgroup every quarter second, 5 s interval) filled 1,283 keys of the
 * process table and 3,735 of the allocation overflow table on 2 CPUs,
 * the margins below are 3.2 and 4.4 x those. Tasks count every thread and
 * kernel thread, more than the processes the tables hold. The margins
 * grow with CPUs (reclaim's with nodes); nothing caps a table for having
 * many of either: only the compiled sizes and the memory budget cap
 * them, as before. A host that outgrows its margin
 * counts the events that found no entry as map-full drops, as ever. A
 * host whose counts cannot be read keeps the compiled sizes.
 */
void nl_load_sizes_for(struct nl_load_sizes *s, const struct nl_census *c, int nr_nodes,
		       int cpus, size_t budget)
{
	unsigned long pop, ncpu = cpus > 1 ? (unsigned long)cpus : 1;

	s->budget = budget;
	s->ids = s->alloc = s->vs_pages = s->vs_time = UINT_MAX;
	if (!c)
		return;
	pop = (unsigned long)c->tasks + c->cgroups;
	/* a key per process and per cgroup */
	s->ids = round_k(2 * pop + 2048 * ncpu);
	/* only keys whose direct-mapped slot (per CPU) another key holds,
	 * but a process has one key per node pair, zone and class it
	 * allocated in, and the slots fill as processes come and go */
	s->alloc = round_k(4 * pop + 8192 * ncpu);
	/* a key per cgroup that reclaims, per context and node */
	s->vs_pages = round_k(2ul * c->cgroups * NL_VS_NR_CTX * (unsigned long)nr_nodes + 1024);
	s->vs_time = round_k(2ul * c->cgroups * NL_VS_NR_CTX + 1024);
}

void nl_load_sizes_read(struct nl_load_sizes *s, int nr_nodes, int cpus, size_t budget)
{
	struct nl_census c;

	nl_load_sizes_for(s, nl_census_read("/proc", "/sys", &c) ? NULL : &c, nr_nodes, cpus, budget);
}

void nl_load_size_percpu(struct bpf_map *m, int cpus, size_t value_size, size_t budget,
			 unsigned want)
{
	size_t per = (size_t)cpus * ((value_size + 7) & ~7ul);
	size_t max = per ? budget / per : 0;

	if (max > want)
		max = want;
	if (max < 256)
		max = 256;
	if (max < bpf_map__max_entries(m))
		bpf_map__set_max_entries(m, (unsigned)max);
}

int nl_load_attach_all(struct nl_bpf *b, struct bpf_object *obj)
{
	struct bpf_program *p;

	bpf_object__for_each_program(p, obj) {
		struct bpf_link *l;

		if (!bpf_program__autoload(p))
			continue;
		l = bpf_program__attach(p);
		if (!l) {
			nl_load_missing(b, "%s: attach failed (%s)", bpf_program__name(p), strerror(errno));
			continue;
		}
		if (b->nr_links < (int)(sizeof(b->links) / sizeof(b->links[0]))) {
			b->link_progs[b->nr_links] = p;
			b->links[b->nr_links++] = l;
		}
		else
			bpf_link__destroy(l);
	}
	return 0;
}

/* True when one of b's links runs program p (a failed attach is only
 * a missing figure; a caller that changes its reading of the
 * figures on it asks here). */
bool nl_load_attached(const struct nl_bpf *b, const struct bpf_program *p)
{
	struct bpf_prog_info pi = { 0 };
	__u32 len = sizeof(pi);

	if (bpf_prog_get_info_by_fd(bpf_program__fd(p), &pi, &len))
		return false;
	for (int i = 0; i < b->nr_links; i++) {
		struct bpf_link_info li = { 0 };
		__u32 ll = sizeof(li);

		if (!bpf_link_get_info_by_fd(bpf_link__fd(b->links[i]), &li, &ll) && li.prog_id == pi.id)
			return true;
	}
	return false;
}
