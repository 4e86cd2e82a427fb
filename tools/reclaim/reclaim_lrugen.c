// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The lru_gen backend (reclaim_lrugen.h). The debugfs file lists
 *   memcg ID PATH
 *    node N
 *     SEQ AGE_MS ANON_PAGES FILE_PAGES     (one line per generation)
 * and takes commands
 *   + ID N MAX_SEQ CAN_SWAP FORCE_SCAN      age: a new youngest generation;
 *                                           pages found accessed move there
 *   - ID N MIN_SEQ SWAPPINESS NR_PAGES      evict generations <= MIN_SEQ
 * MAX_SEQ must be the current max (EINVAL otherwise: someone aged in
 * between), and MIN_SEQ at most max - 2 (EINVAL), so the two youngest
 * generations, which hold every page touched since the previous aging, are
 * never evicted. The eviction also re-checks each page's accessed bits and
 * moves pages found referenced to a young generation instead.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include "reclaim_lrugen.h"

static bool mounted_debugfs;

int nl_lrugen_parse(FILE *f, const char *rel, int nid, unsigned *id, struct nl_lrugen_node *out)
{
	char line[4352], path[4096];
	bool in_cg = false, in_node = false, seen = false;
	struct { uint64_t seq, age, anon, file; } g[16];
	int ng = 0;

	memset(out, 0, sizeof(*out));
	while (fgets(line, sizeof(line), f)) {
		unsigned v;
		uint64_t seq, age;
		long long an, fi;

		if (sscanf(line, " memcg %u %4095s", &v, path) >= 1 && strstr(line, "memcg")) {
			if (in_cg)
				break;	/* the next memcg: ours is done */
			/* the root memcg is listed with path "/" */
			in_cg = sscanf(line, " memcg %u %4095s", &v, path) == 2 && !strcmp(path, rel);
			if (in_cg) {
				*id = v;
				seen = true;
			}
			continue;
		}
		if (!in_cg)
			continue;
		if (sscanf(line, " node %u", &v) == 1 && strstr(line, "node")) {
			in_node = (int)v == nid;
			continue;
		}
		if (!in_node || sscanf(line, " %" SCNu64 " %" SCNu64 " %lld %lld", &seq, &age, &an, &fi) != 4)
			continue;
		if (ng < 16)
			g[ng++] = (typeof(g[0])){ seq, age, an > 0 ? (uint64_t)an : 0, fi > 0 ? (uint64_t)fi : 0 };
	}
	if (!seen)
		return -ENOENT;
	if (!ng)
		return 0;
	out->found = true;
	out->min_seq = g[0].seq;
	out->max_seq = g[ng - 1].seq;
	out->young_age_ms = g[ng - 1].age;
	for (int i = 0; i < ng; i++) {
		out->anon += g[i].anon;
		out->file += g[i].file;
		if (g[i].seq + 2 <= out->max_seq) {
			out->old_anon += g[i].anon;
			out->old_file += g[i].file;
		}
	}
	return 0;
}

/* Is debugfs mounted at /sys/kernel/debug? */
static bool debugfs_mounted(void)
{
	char dev[256], mnt[4096], type[64];
	bool yes = false;
	FILE *f = fopen("/proc/self/mounts", "re");

	if (!f)
		return false;
	while (!yes && fscanf(f, "%255s %4095s %63s %*[^\n]", dev, mnt, type) == 3)
		yes = !strcmp(mnt, "/sys/kernel/debug") && !strcmp(type, "debugfs");
	fclose(f);
	return yes;
}

int nl_lrugen_probe(char *why, size_t len)
{
	char buf[32] = "";
	FILE *f = fopen("/sys/kernel/mm/lru_gen/enabled", "re");

	if (!f) {
		snprintf(why, len, "no multi-gen LRU (CONFIG_LRU_GEN)");
		return -EOPNOTSUPP;
	}
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	if (!(strtoul(buf, NULL, 16) & 1)) {
		snprintf(why, len, "multi-gen LRU is off (/sys/kernel/mm/lru_gen/enabled = %.8s)", buf);
		return -EOPNOTSUPP;
	}
	if (access(NL_LRUGEN_PATH, F_OK) && !debugfs_mounted()) {
		if (mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL)) {
			snprintf(why, len, "debugfs is not mounted and mounting it failed: %s", strerror(errno));
			return -EOPNOTSUPP;
		}
		mounted_debugfs = true;
	}
	if (access(NL_LRUGEN_PATH, R_OK | W_OK)) {
		snprintf(why, len, "%s: %s", NL_LRUGEN_PATH, strerror(errno));
		nl_lrugen_cleanup();
		return -EOPNOTSUPP;
	}
	return 0;
}

void nl_lrugen_cleanup(void)
{
	if (mounted_debugfs && !umount("/sys/kernel/debug"))
		mounted_debugfs = false;
}

/* Read the state of @rel on @nid. */
static int state(const char *rel, int nid, unsigned *id, struct nl_lrugen_node *n)
{
	FILE *f = fopen(NL_LRUGEN_PATH, "re");
	int e;

	if (!f)
		return -errno;
	e = nl_lrugen_parse(f, rel, nid, id, n);
	fclose(f);
	return e;
}

/* Write one command; 0 or -errno. */
static int cmd(const char *c)
{
	int fd = open(NL_LRUGEN_PATH, O_WRONLY | O_CLOEXEC), e = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, c, strlen(c)) < 0)
		e = -errno;
	close(fd);
	return e;
}

int nl_lrugen_reclaim(const char *rel, int nid, uint32_t swappiness, uint32_t cold_ms,
		      uint64_t bytes, uint64_t *asked, char *err, size_t errlen)
{
	uint64_t want = bytes / (uint64_t)sysconf(_SC_PAGESIZE);
	struct nl_lrugen_node n;
	unsigned id = 0;
	char c[128];
	int e = 0, agings = 0;

	*asked = bytes;
	if (!want)
		want = 1;
	/* a few rounds: another writer (the kernel's own aging, another
	 * agent) can move max_seq between our read and our command */
	for (int round = 0; round < 6; round++) {
		uint64_t old;

		e = state(rel, nid, &id, &n);
		if (e == -ENOENT) {
			snprintf(err, errlen, "memcg %s is not listed in " NL_LRUGEN_PATH, rel);
			return -ENOENT;
		}
		if (e) {
			snprintf(err, errlen, "reading " NL_LRUGEN_PATH ": %s", strerror(-e));
			return e == -EACCES ? -EPERM : e;
		}
		if (!n.found || n.anon + n.file == 0) {
			snprintf(err, errlen, "memcg %s has no pages on node %d", rel, nid);
			return -EAGAIN;
		}
		old = n.old_file + (swappiness ? n.old_anon : 0);
		if (old < want && agings < 2 && n.young_age_ms >= cold_ms) {
			/* CAN_SWAP follows swappiness; FORCE_SCAN walks the
			 * page tables so accessed anon pages are seen */
			snprintf(c, sizeof(c), "+ %u %d %" PRIu64 " %d 1", id, nid, n.max_seq, swappiness ? 1 : 0);
			e = cmd(c);
			if (e && e != -EINVAL) {
				snprintf(err, errlen, "aging memcg %s on node %d refused: %s", rel, nid, strerror(-e));
				return e;
			}
			if (!e)
				agings++;
			continue;	/* re-read: new max_seq */
		}
		if (!old) {
			snprintf(err, errlen, "no pages of %s on node %d went untouched across two agings "
				 "(%" PRIu64 " ms apart at least) yet", rel, nid, (uint64_t)cold_ms);
			return -EINPROGRESS;
		}
		snprintf(c, sizeof(c), "- %u %d %" PRIu64 " %u %" PRIu64, id, nid, n.max_seq - 2,
			 swappiness, want);
		e = cmd(c);
		if (e == -EINVAL)
			continue;	/* max_seq moved: read again */
		if (e == -EINTR || e == -EAGAIN)
			return -EAGAIN;
		if (e) {
			snprintf(err, errlen, "evicting memcg %s on node %d refused: %s", rel, nid, strerror(-e));
			return e == -EACCES ? -EPERM : e;
		}
		return 0;
	}
	snprintf(err, errlen, "memcg %s node %d: generations kept changing under the step", rel, nid);
	return -EAGAIN;
}
