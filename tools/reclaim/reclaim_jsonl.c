// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The agent's log as JSON Lines; see reclaim_jsonl.h. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "reclaim_jsonl.h"

size_t nl_jsonl_iso_time(char *buf, size_t len)
{
	struct timespec t;
	struct tm tm;
	size_t n;

	clock_gettime(CLOCK_REALTIME, &t);
	if (!gmtime_r(&t.tv_sec, &tm) || !(n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm)))
		return buf && len ? (buf[0] = '\0', 0) : 0;
	return n + (size_t)snprintf(buf + n, len - n, ".%03ldZ", t.tv_nsec / 1000000);
}

int nl_jsonl_emit(FILE *f, const char *type, bool dry_run, const char *cgroup, cJSON *fields)
{
	cJSON *o = cJSON_CreateObject();
	char ts[40], *out;
	int e = 0;

	if (!o) {
		cJSON_Delete(fields);
		return -ENOMEM;
	}
	nl_jsonl_iso_time(ts, sizeof(ts));
	cJSON_AddStringToObject(o, "time", ts);
	cJSON_AddStringToObject(o, "type", type);
	cJSON_AddBoolToObject(o, "dry_run", dry_run);
	if (cgroup)
		cJSON_AddStringToObject(o, "cgroup", cgroup);
	/* move @fields' members over, in their order */
	while (fields && fields->child) {
		cJSON *it = cJSON_DetachItemViaPointer(fields, fields->child);

		cJSON_AddItemToObject(o, it->string, it);
	}
	cJSON_Delete(fields);
	out = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	if (!out)
		return -ENOMEM;
	if (fprintf(f, "%s\n", out) < 0 || fflush(f))
		e = -errno;
	free(out);
	return e;
}

int nl_jsonl_msg(FILE *f, const char *type, bool dry_run, const char *cgroup, const char *msg)
{
	cJSON *o = cJSON_CreateObject();

	if (o)
		cJSON_AddStringToObject(o, "message", msg);
	return nl_jsonl_emit(f, type, dry_run, cgroup, o);
}
