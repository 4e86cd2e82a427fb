// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * make bench: render time of `numalens export`'s /metrics text for a
 * synthetic snapshot (default 2,000 cgroups x 4 nodes, every cgroup and
 * 10 processes exported), and its gzip time and sizes. A report, never
 * pass/fail.
 *   usage: bench_export_render [CGROUPS NODES RUNS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "export_synth.h"
#include "http_server.h"
#include "view_prom.h"

static double clock_ms(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double now_ms(void)
{
	return clock_ms(CLOCK_MONOTONIC);
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int cg = argc > 1 ? atoi(argv[1]) : 2000, nodes = argc > 2 ? atoi(argv[2]) : 4;
	int runs = argc > 3 ? atoi(argv[3]) : 50;
	struct nl_snapshot s;
	struct nl_prom_opts o;
	struct nl_buf b = {}, z = {};
	double *t = calloc((size_t)runs, sizeof(*t)), *c = calloc((size_t)runs, sizeof(*c)), gz_ms;

	if (!t || !c || runs < 1 || nl_export_synth(&s, cg, nodes, 1)) {
		fprintf(stderr, "bench_export_render: bad arguments or out of memory\n");
		return 1;
	}
	nl_prom_opts_default(&o);
	o.cgroup_depth = 64;
	o.max_cgroups = 0;
	o.top_procs = 10;
	o.version = "bench";
	for (int i = 0; i < runs; i++) {
		double t0 = now_ms(), c0 = clock_ms(CLOCK_THREAD_CPUTIME_ID);

		nl_buf_reset(&b);
		if (nl_prom_render(&b, &s, &o)) {
			fprintf(stderr, "bench_export_render: render failed\n");
			return 1;
		}
		t[i] = now_ms() - t0;
		c[i] = clock_ms(CLOCK_THREAD_CPUTIME_ID) - c0;
	}
	gz_ms = now_ms();
	nl_http_gzip(b.p, b.len, &z);
	gz_ms = now_ms() - gz_ms;
	qsort(t, (size_t)runs, sizeof(*t), cmp_d);
	qsort(c, (size_t)runs, sizeof(*c), cmp_d);
	printf("render %d cgroups x %d nodes, %d runs: ms p50 %.2f  p90 %.2f  min %.2f  max %.2f   (target <= 20)\n",
	       cg, nodes, runs, t[runs / 2], t[(runs * 9) / 10], t[0], t[runs - 1]);
	/* on a loaded host the wall time above includes time the render
	 * waited for a CPU; its own CPU time does not */
	printf("render CPU time: ms p50 %.2f  p90 %.2f  min %.2f  max %.2f\n",
	       c[runs / 2], c[(runs * 9) / 10], c[0], c[runs - 1]);
	printf("text %zu bytes (%.1f MiB); gzip level 1: %zu bytes in %.1f ms\n", b.len, b.len / 1048576.0, z.len, gz_ms);
	nl_buf_free(&b);
	nl_buf_free(&z);
	nl_snapshot_free(&s);
	free(t);
	free(c);
	return 0;
}
