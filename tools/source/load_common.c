// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The steps every object's load takes (load_common.h): the "missing:"
 * notes, map sizing to the memory budget, attaching.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "load_common.h"

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

/* Shrink a per-CPU hash so that entries * cpus * value size fits @budget. */
void nl_load_size_percpu(struct bpf_map *m, int cpus, size_t value_size, size_t budget)
{
	size_t per = (size_t)cpus * ((value_size + 7) & ~7ul);
	size_t max = per ? budget / per : 0;

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
