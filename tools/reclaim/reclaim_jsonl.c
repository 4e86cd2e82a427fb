// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The agent's log as JSON Lines; see reclaim_jsonl.h. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include "reclaim_jsonl.h"

int nl_ra_jsonl_emit(FILE *f, const char *type, bool dry_run, const char *cgroup, cJSON *fields)
{
	cJSON *o = cJSON_CreateObject();
	char ts[40], *out;
	int e = 0;

	if (!o) {
		cJSON_Delete(fields);
		return -ENOMEM;
	}
	nl_ra_iso_time(ts, sizeof(ts));
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

int nl_ra_jsonl_msg(FILE *f, const char *type, bool dry_run, const char *cgroup, const char *msg)
{
	cJSON *o = cJSON_CreateObject();

	if (o)
		cJSON_AddStringToObject(o, "message", msg);
	return nl_ra_jsonl_emit(f, type, dry_run, cgroup, o);
}

cJSON *nl_ra_cost_obj(const struct nl_ra *a)
{
	static const char *const part[NL_RA_PART_NR] = { "tick", "feed", "publish", "match", "pause", "wait" };
	const struct nl_ra_cost *k = &a->cost;
	cJSON *o = cJSON_CreateObject(), *ms;
	uint64_t all = 0;

	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "loops", (double)k->loops);
	cJSON_AddNumberToObject(o, "polls", (double)k->polls);
	cJSON_AddNumberToObject(o, "records", (double)k->records);
	cJSON_AddNumberToObject(o, "publishes", (double)k->publishes);
	cJSON_AddNumberToObject(o, "publishes_standing_by", (double)k->publishes_standing_by);
	cJSON_AddNumberToObject(o, "tracepoint_switches", (double)k->attaches);
	ms = cJSON_AddObjectToObject(o, "cpu_ms");
	for (int i = 0; ms && i < NL_RA_PART_NR; i++) {
		cJSON_AddNumberToObject(ms, part[i], (double)k->cpu_ns[i] / 1e6);
		all += k->cpu_ns[i];
	}
	if (ms)
		cJSON_AddNumberToObject(ms, "all", (double)all / 1e6);
	return o;
}
