/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * `numalens reclaim --json`: the agent's log as JSON Lines. Each line is
 * one object {"time": ISO-8601 UTC, "type": ..., ...}: the same facts as
 * the text log (a decision or step with its message, the start-up facts,
 * the periodic state, the summary at exit), for tools that would
 * otherwise parse the text. Types and fields: docs/json.md.
 */
#ifndef NL_RECLAIM_JSONL_H
#define NL_RECLAIM_JSONL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct cJSON;

/* The wall-clock time now in ISO 8601, UTC, with milliseconds
 * ("2026-12-01T18:20:03.097Z"), as every agent log line starts; written
 * into @buf (at least 25 bytes). Returns its length (0 on failure). */
size_t nl_jsonl_iso_time(char *buf, size_t len);

/* nl_jsonl_emit - write {"time", "type": @type, "dry_run", "cgroup":
 * @cgroup (left out when NULL), then @fields' members} as one line on
 * @f and flush. Takes @fields (may be NULL) and deletes it. 0 or -errno
 * (-ENOMEM, or the write's error). */
int nl_jsonl_emit(FILE *f, const char *type, bool dry_run, const char *cgroup,
		     struct cJSON *fields);

/* nl_jsonl_msg - a line of @type whose only field is "message": @msg
 * (a text-log line without its time and cgroup prefix). */
int nl_jsonl_msg(FILE *f, const char *type, bool dry_run, const char *cgroup, const char *msg);

#endif
