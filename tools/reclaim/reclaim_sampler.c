// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The agent's vmscan-only collector (reclaim_sampler.h). */
#include <stdio.h>
#include <string.h>
#include "reclaim_feed.h"
#include "reclaim_jsonl.h"
#include "reclaim_sampler.h"

/* The BPF objects and the collector; false after saying why on stderr. */
static bool open_session(struct nl_sampler *s, int cg_mode, const char *root, bool verbose, const char *btf)
{
	struct nl_bpf_opts bo = { .cgroup_mode = cg_mode, .verbose = verbose, .vmscan_only = true,
				  .btf_path = btf };
	struct nl_collect_opts co = { .sysfs_root = "/sys", .procfs_root = "/proc", .cgroup_mode = cg_mode,
				      .cgroup_root = root };
	char err[512] = "";

	memset(s, 0, sizeof(*s));
	if (nl_bpf_open(&s->bpf, &bo, err, sizeof(err))) {
		fprintf(stderr, "numalens reclaim: %s\n", err);
		return false;
	}
	if (nl_collect_open(&s->col, &s->bpf, &co, err, sizeof(err))) {
		fprintf(stderr, "numalens reclaim: %s\n", err);
		nl_bpf_close(&s->bpf);
		s->col = NULL;
		return false;
	}
	return true;
}

void nl_sampler_open(struct nl_sampler *s, struct nl_ra *ra, int cg_mode, const char *root, bool verbose,
		     const char *btf)
{
	ra->scan_from = "prior";
	if (!open_session(s, cg_mode, root, verbose, btf) || !s->bpf.have_vmscan) {
		if (s->col) {
			nl_collect_close(s->col);
			nl_bpf_close(&s->bpf);
		}
		memset(s, 0, sizeof(*s));
		if (ra->cfg.json)
			nl_jsonl_msg(stdout, "note", ra->cfg.dry_run, NULL,
				     "scanned/rotated: no reclaim tracepoints here, weights use the cold-start prior");
		else
			printf("  scanned/rotated: no reclaim tracepoints here, weights use the cold-start prior\n");
		return;
	}
	ra->scan = nl_scan_src_new(NL_RA_MAX_CG);
	if (ra->scan)
		ra->scan_from = "vmscan";
}

void nl_sampler_feed(struct nl_sampler *s, struct nl_ra *ra)
{
	uint64_t ids[NL_RA_MAX_CG];
	int n = 0;

	if (!ra->scan || nl_collect_snapshot(s->col, &s->snap))
		return;
	for (int i = 0; i < ra->nr_cg; i++) {
		if (ra->cg[i].gone)
			nl_scan_forget(ra->scan, ra->cg[i].id);
		else
			ids[n++] = ra->cg[i].id;
	}
	nl_feed_snapshot(ra->scan, &s->snap, ids, n);
}

int nl_sampler_pause(struct nl_sampler *s, bool pause)
{
	return nl_bpf_pause(&s->bpf, pause);
}

bool nl_sampler_paused(const struct nl_sampler *s)
{
	return s->bpf.paused;
}

void nl_sampler_close(struct nl_sampler *s, struct nl_ra *ra)
{
	nl_snapshot_free(&s->snap);
	if (s->col) {
		nl_collect_close(s->col);
		s->col = NULL;
		nl_bpf_close(&s->bpf);
	}
	nl_scan_src_free(ra->scan);
	ra->scan = NULL;
}
