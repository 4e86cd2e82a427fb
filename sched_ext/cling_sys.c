// SPDX-License-Identifier: GPL-2.0
/*
 * The scx_cling loader's reads of sysfs and the clock: sched_ext's state,
 * the possible NUMA nodes and their SLIT distances, monotonic time. Kept
 * apart so the loader's other parts read as policy, not parsing.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cling_loader.h"

/* cling_sys_read_word: first line of @path into @buf (no newline); "" if unreadable. */
const char *cling_sys_read_word(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = 0;
	if (f) {
		if (fgets(buf, (int)len, f))
			buf[strcspn(buf, "\n")] = 0;
		fclose(f);
	}
	return buf;
}

/* cling_sys_now_s: CLOCK_MONOTONIC in seconds. */
double cling_sys_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* cling_sys_wait_state: poll sched_ext/state until it reads @want; 0, or -1 after @secs. */
int cling_sys_wait_state(const char *want, double secs)
{
	char st[64];

	for (double end = cling_sys_now_s() + secs; cling_sys_now_s() < end; usleep(10000))
		if (!strcmp(cling_sys_read_word(SCX_DIR "/state", st, sizeof(st)), want))
			return 0;
	return -1;
}

/* parse_max_id: the largest number in a sysfs list such as "0-3,8" or
 * "0"; -1 when @s holds none. */
static int parse_max_id(const char *s)
{
	long v, max = -1;
	char *end;

	while (*s) {
		if (*s < '0' || *s > '9') {
			s++;
			continue;
		}
		v = strtol(s, &end, 10);
		if (v > max)
			max = v > INT_MAX ? INT_MAX : v;
		s = end;
	}
	return (int)max;
}

/* in_list: is @id in the sysfs list @s ("0-3,8")? */
static bool in_list(const char *s, int id)
{
	while (*s) {
		char *end;
		long lo = strtol(s, &end, 10), hi = lo;

		if (end == s)
			return false;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		if (id >= lo && id <= hi)
			return true;
		s = *end == ',' ? end + 1 : end;
		if (*s == '\n')
			break;
	}
	return false;
}

/* cling_sys_possible_nodes: node ids the machine can ever have (highest possible
 * node + 1), so that nodes coming online later are covered; 1 without
 * NUMA in sysfs. */
int cling_sys_possible_nodes(void)
{
	char buf[4096];
	int max = parse_max_id(cling_sys_read_word(NODE_DIR "/possible", buf, sizeof(buf)));

	if (max < 0)
		max = parse_max_id(cling_sys_read_word(NODE_DIR "/online", buf, sizeof(buf)));
	return max < 0 ? 1 : max + 1;
}

/* cling_sys_read_distances: @d[n][m] = SLIT distance from node n to m, from
 * NODE_DIR/nodeN/distance (one value per online node, in node order);
 * CLING_FAR_DISTANCE where unknown, CLING_LOCAL_DISTANCE on the diagonal. */
void cling_sys_read_distances(uint8_t d[CLING_MAX_NODES][CLING_MAX_NODES], int nodes)
{
	char online[4096], p[PATH_MAX];

	cling_sys_read_word(NODE_DIR "/online", online, sizeof(online));
	for (int n = 0; n < nodes; n++) {
		FILE *f;
		int m = 0, v;

		for (int k = 0; k < CLING_MAX_NODES; k++)
			d[n][k] = k == n ? CLING_LOCAL_DISTANCE : CLING_FAR_DISTANCE;
		snprintf(p, sizeof(p), NODE_DIR "/node%d/distance", n);
		f = fopen(p, "re");
		if (!f)
			continue;
		while (fscanf(f, "%d", &v) == 1) {
			while (m < nodes && !in_list(online, m))
				m++;
			if (m >= nodes)
				break;
			d[n][m++] = v < 0 ? 0 : v > CLING_FAR_DISTANCE ? CLING_FAR_DISTANCE : (uint8_t)v;
		}
		fclose(f);
	}
}

/* cling_sys_mono_ns: CLOCK_MONOTONIC in ns (what bpf_ktime_get_ns() reads). */
uint64_t cling_sys_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}
