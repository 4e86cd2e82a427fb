/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The reclaim agent's published state, read into the snapshot.
 *
 * `numalens reclaim` is another process: each interval it writes
 * NL_RECLAIM_RUN_DIR/<pid>.json (and <pid>.status, the text --status
 * prints), each by writing <name>.tmp and rename(2), so a reader sees a
 * whole old or a whole new file. One file per agent, so two agents never
 * clash; a file whose pid is dead (agent killed -9) or reused is ignored,
 * by the stamp line the source layer writes first (agent_files.h) and
 * leaves out when it hands the text over. Format
 * "numalens-reclaim-agent/1" (README "numalens reclaim", publishing):
 *
 *   { "format": "numalens-reclaim-agent/1", "pid": 123,
 *     "cgroup_mode": "v2" | "v1-memory", "cgroup_root": "/sys/fs/cgroup",
 *     "backend": "madvise", "victim": "lottery", "dry_run": false,
 *     "scan_source": "vmscan" | "prior",
 *     "hook_latency_us_p50": X, "hook_latency_us_p99": X,  // -1: no hook step
 *     "cgroups": [ { "id": 4242, "path": "/a", "reclaiming": false,
 *        "high_bytes": N, "low_bytes": N, "scan_weight": W,
 *        "weight_by_node": [w0, w1, ...],            // index = nid
 *        "draws_by_node": { "limit": [...], "agent": [...] },
 *        "pages_by_node": { "damos": [...], "madvise": [...], "memcg": [...],
 *                           "lru_gen": [...] },
 *        "passes": N, "steps": N, "no_progress_stops": N,
 *        "over_high_seconds": X, "agent_seconds": X,
 *        "hook": { "limit_events": N, "steps": N, "pages": N,
 *                  "on_drawn_node_pages": N, "clean_steps": N,
 *                  "clean_pages": N, "clean_on_drawn_node_pages": N,
 *                  "last_draw_id": N,
 *                  "last_draw_node": nid | -1 } } ] }
 *
 * collect.c matches "id" against its own cgroup table (same hierarchy
 * only: ids of the v1 memory and v2 trees differ) and hangs the figures on
 * nl_cgroup.agent. Views read them from there, never from these files.
 */
#ifndef NL_RECLAIM_READ_H
#define NL_RECLAIM_READ_H

#include "snapshot.h"

/* Where agents publish (created by the agent, mode 0755). */
#define NL_RECLAIM_RUN_DIR "/run/numalens/reclaim"
#define NL_RECLAIM_FORMAT "numalens-reclaim-agent/1"

/* Previous totals for the deltas (opaque). */
struct nl_ra_reader;

/* A reader, or NULL on -ENOMEM. */
struct nl_ra_reader *nl_ra_reader_new(void);

/* Free it (NULL is fine). */
void nl_ra_reader_free(struct nl_ra_reader *r);

/*
 * Attach every live agent's figures under @dir (NULL: NL_RECLAIM_RUN_DIR)
 * to the matching live cgroups of @s, whose ids belong to hierarchy
 * @cgroup_mode (enum nl_cgroup_mode). A cgroup two agents manage keeps
 * the first by file name. Files of dead pids, other hierarchies or another
 * format are skipped; a missing @dir is no agent. Returns the number of
 * cgroups attached, or -ENOMEM.
 */
int nl_ra_read(struct nl_ra_reader *r, const char *dir, int cgroup_mode, struct nl_snapshot *s);

/*
 * nl_ra_owner - the pid of a running agent, other than @self, whose file
 * under @dir (NULL: NL_RECLAIM_RUN_DIR) lists cgroup @id of hierarchy
 * @cgroup_mode; 0 if none (files of dead pids are skipped, as above), or
 * -ENOMEM.
 */
int nl_ra_owner(const char *dir, int cgroup_mode, uint64_t id, int self);

#endif
