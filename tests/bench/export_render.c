// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * make bench: render time of `numalens export`'s /metrics text for a
 * synthetic snapshot (default 2,000 cgroups x 4 nodes, every cgroup and
 * 10 processes exported), and its gzip time and sizes. A report, never
 * pass/fail.
 *   usage: bench_export_render [CGROUPS NODES RUNS]
 * Two ways, alternating run by run:
 *  - as export serves it (nl_prom_render_gzip): rendered straight into
 *    its gzip a slice at a time, fresh buffers every time as for every
 *    snapshot; the render's own time and the gzip's apart;
 *  - the whole text into one buffer kept from run to run (warm: no page
 *    faults), the render alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "export_synth.h"
#include "http_server.h"
#include "prom_gzip.h"
#include "view_prom.h"

static double clock_ms(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* "p50 .. p90 .. min .. max" of @v (sorted in place). */
static void pr(const char *what, double *v, int n, const char *tail)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_d);
	printf("%s: ms p50 %.2f  p90 %.2f  min %.2f  max %.2f%s\n", what, v[n / 2], v[(n * 9) / 10], v[0],
	       v[n - 1], tail);
}

int main(int argc, char **argv)
{
	int cg = argc > 1 ? atoi(argv[1]) : 2000, nodes = argc > 2 ? atoi(argv[2]) : 4;
	int runs = argc > 3 ? atoi(argv[3]) : 50;
	struct nl_snapshot s;
	struct nl_prom_opts o;
	struct nl_buf b = {};
	size_t gz_len = 0, plain_len = 0;
	double *v = calloc(6 * (size_t)(runs > 0 ? runs : 1), sizeof(*v));
	double *t = v, *c = v + runs, *rt = v + 2 * runs, *rc = v + 3 * runs, *gt = v + 4 * runs, *gc = v + 5 * runs;
	char head[160];

	if (!v || runs < 1 || nl_export_synth(&s, cg, nodes, 1)) {
		fprintf(stderr, "bench_export_render: bad arguments or out of memory\n");
		return 1;
	}
	nl_prom_opts_default(&o);
	o.cgroup_depth = 64;
	o.max_cgroups = 0;
	o.top_procs = 10;
	o.version = "bench";
	for (int i = 0; i < runs; i++) {
		struct nl_prom_gzip_cost k;
		struct nl_buf z = {};
		double t0 = clock_ms(CLOCK_MONOTONIC), c0 = clock_ms(CLOCK_THREAD_CPUTIME_ID);

		nl_buf_reset(&b);
		if (nl_prom_render(&b, &s, &o) || nl_prom_render_gzip(&z, &s, &o, &k)) {
			fprintf(stderr, "bench_export_render: render failed\n");
			return 1;
		}
		/* the warm render ran first: its times end where the gzip's
		 * path began, which takes its own */
		t[i] = rt[i] = k.render_ns / 1e6;
		c[i] = rc[i] = k.render_cpu_ns / 1e6;
		gt[i] = k.gzip_ns / 1e6;
		gc[i] = k.gzip_cpu_ns / 1e6;
		t[i] = clock_ms(CLOCK_MONOTONIC) - t0 - (k.render_ns + k.gzip_ns) / 1e6;
		c[i] = clock_ms(CLOCK_THREAD_CPUTIME_ID) - c0 - (k.render_cpu_ns + k.gzip_cpu_ns) / 1e6;
		gz_len = z.len;
		plain_len = k.plain_len;
		nl_buf_free(&z);
	}
	snprintf(head, sizeof(head), "render %d cgroups x %d nodes, %d runs, as export does it", cg, nodes, runs);
	pr(head, rt, runs, "   (target <= 20)");
	/* on a loaded host the wall time above includes time the render
	 * waited for a CPU; its own CPU time does not */
	pr("render CPU time", rc, runs, "");
	pr("gzip (level 2), streamed beside the render", gt, runs, "");
	pr("gzip CPU time", gc, runs, "");
	pr("warm render, whole text in a buffer kept", t, runs, "");
	pr("warm render CPU time", c, runs, "");
	printf("text %zu bytes (%.1f MiB); gzip %zu bytes (%.1f%%)\n", plain_len, plain_len / 1048576.0, gz_len,
	       100.0 * gz_len / (plain_len ? plain_len : 1));
	nl_buf_free(&b);
	nl_snapshot_free(&s);
	free(v);
	return 0;
}
