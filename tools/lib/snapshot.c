// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Snapshot lifetime and derived figures shared by every view. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "snapshot.h"

void nl_snapshot_free(struct nl_snapshot *s)
{
	if (!s)
		return;
	free(s->nodes);
	free(s->procs);
	for (int i = 0; s->cgroups && i < s->nr_cgroups; i++)
	{
		free(s->cgroups[i].vmscan);
		free(s->cgroups[i].agent);
	}
	free(s->cgroups);
	nl_cling_stats_free(&s->cling);
	memset(s, 0, sizeof(*s));
}

double nl_locality_mean(const uint64_t bucket_ns[NL_LOC_BUCKETS])
{
	/* long double: a busy cgroup's ns sums stay exact well past 2^53 */
	long double sum = 0, w = 0;

	for (int b = 0; b < NL_LOC_BUCKETS; b++) {
		sum += bucket_ns[b];
		w += (long double)bucket_ns[b] * (b + 0.5L) / NL_LOC_BUCKETS;
	}
	if (sum == 0)
		return NAN;
	return (double)(w / sum);
}
