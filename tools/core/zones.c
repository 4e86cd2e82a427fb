// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Zone names and pgalloc counters; see zones.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "zones.h"

int nl_zone_names(const char *zoneinfo_path, char names[][NL_ZONE_NAME_MAX], int max)
{
	FILE *f = fopen(zoneinfo_path, "re");
	char line[256], name[NL_ZONE_NAME_MAX];
	int first = -1, nid, n = 0;

	if (!f)
		return -errno;
	while (n < max && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Node %d, zone %15s", &nid, name) != 2)
			continue;
		if (first < 0)
			first = nid;
		if (nid != first)
			break;
		snprintf(names[n++], NL_ZONE_NAME_MAX, "%s", name);
	}
	fclose(f);
	return n;
}

int nl_zone_vmstat_pgalloc(const char *procfs_root, char names[][NL_ZONE_NAME_MAX], int n, uint64_t *out)
{
	char path[512], line[128], key[64];
	unsigned long long v;
	FILE *f;

	memset(out, 0, sizeof(*out) * (size_t)n);
	snprintf(path, sizeof(path), "%s/vmstat", procfs_root);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "pgalloc_", 8) || sscanf(line + 8, "%63s %llu", key, &v) != 2)
			continue;
		for (int z = 0; z < n; z++)
			if (!strcasecmp(key, names[z]))
				out[z] = v;
	}
	fclose(f);
	return 0;
}
