/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* A fake memcg for the reclaim agent's unit tests: /cg under @root with a
 * 100 MiB limit, 99 MiB used (above a 90% high, reclaimed to an 80% low),
 * no swap, page cache on two nodes, and memory.reclaim as a plain file (so
 * no step frees anything); @cfg set for the memory.reclaim backend with
 * round-robin victims and 32-page steps. */
#ifndef NL_FIXTURE_RA_H
#define NL_FIXTURE_RA_H

#include <string.h>
#include "fixture_fs.h"
#include "reclaim_agent.h"
#include "reclaim_hook.h"
#include "reclaim_tick.h"

static inline void fixture_ra_cgroup(const char *root, struct nl_ra_cfg *cfg)
{
	wfile(root, "cg/memory.max", "104857600\n");
	wfile(root, "cg/memory.current", "103809024\n");
	wfile(root, "cg/memory.events", "low 0\nhigh 0\nmax 7\noom 0\n");
	wfile(root, "cg/memory.swap.max", "0\n");
	wfile(root, "cg/memory.reclaim", "");
	wfile(root, "cg/memory.numa_stat",
	      "anon N0=0 N1=0\nfile N0=83886080 N1=20971520\n"
	      "inactive_anon N0=0 N1=0\nactive_anon N0=0 N1=0\n"
	      "inactive_file N0=62914560 N1=16777216\nactive_file N0=20971520 N1=4194304\n"
	      "file_mapped N0=0 N1=0\n");
	memset(cfg, 0, sizeof(*cfg));
	cfg->high = (struct nl_wm_spec){ .pct = true, .pct_val = 90 };
	cfg->low = (struct nl_wm_spec){ .pct = true, .pct_val = 80 };
	cfg->step_pages = 32;
	cfg->pass_steps = 128;
	cfg->backend = NL_RB_MEMCG;
	cfg->victim = NL_VICTIM_RR;
	cfg->bal_lo = 80;
	cfg->bal_hi = 120;
	cfg->root = root;
}

#endif
