/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The agent publishing its state for `numalens top`/`export` and --status
 * (the reader is reclaim_read.h). */
#ifndef NL_RECLAIM_PUB_H
#define NL_RECLAIM_PUB_H

#include "reclaim_agent.h"

struct cJSON;

/* nl_pub_state_obj - the agent's state as the JSON document of
 * reclaim_read.h (format, pid, backend, per-cgroup weights, draws,
 * pages, hook counts), a new cJSON object the caller deletes; NULL on
 * -ENOMEM. Published as PID.json and, with --json, printed as the
 * "state" lines. */
struct cJSON *nl_pub_state_obj(struct nl_ra *a);

/* Publish the agent's state for `numalens top`/`export` and --status:
 * @dir/<pid>.json (format of reclaim_read.h) and @dir/<pid>.status (the
 * nl_report_status() blocks), each written to a .tmp file and renamed over
 * the old one. @dir NULL: NL_RECLAIM_RUN_DIR, created if missing.
 * 0 or -errno. */
int nl_pub_write(struct nl_ra *a, const char *dir);

/* Remove this process's two files from @dir (NULL: the default). */
void nl_pub_remove(const char *dir);

#endif
