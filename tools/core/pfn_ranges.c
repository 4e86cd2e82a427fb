// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The pfn -> (node, zone) range table (pfn_ranges.h), from sysfs memory
 * blocks and /proc/zoneinfo. Apart from the CPU and node topology: it is
 * read once, for the allocation counters' classic programs, and shares
 * nothing with the rest.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file.h"
#include "pfn_ranges.h"

struct zspan {
	int nid;
	int zone;
	uint64_t start, end;
};

static int cmp_range(const void *a, const void *b)
{
	const struct nl_pfn_range *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end < y->end ? -1 : x->end > y->end;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Parse zoneinfo into spans (only populated spans, spanned > 0). */
static int read_zones(const char *zoneinfo_path, struct zspan **out, int *nout)
{
	FILE *f = fopen(zoneinfo_path, "re");
	struct zspan *z = NULL;
	int n = 0, cap = 0, cur_nid = -1, cur_zone = -1;
	uint64_t spanned = 0, start = 0;
	bool have_start = false, have_spanned = false;
	char *line = NULL;
	size_t lcap = 0;

	if (!f)
		return -errno;
#define FLUSH()								\
	do {								\
		if (cur_nid >= 0 && have_start && have_spanned && spanned) { \
			if (n == cap) {					\
				cap = cap ? cap * 2 : 16;		\
				void *nz = realloc(z, sizeof(*z) * (size_t)cap); \
				if (!nz) { free(z); free(line); fclose(f); return -ENOMEM; } \
				z = nz;					\
			}						\
			z[n++] = (struct zspan){ cur_nid, cur_zone, start, start + spanned }; \
		}							\
		have_start = have_spanned = false;			\
	} while (0)
	while (getline(&line, &lcap, f) > 0) {
		int nid;
		char name[32];
		unsigned long long v;

		if (sscanf(line, "Node %d, zone %31s", &nid, name) == 2) {
			FLUSH();
			if (nid != cur_nid) {
				cur_nid = nid;
				cur_zone = 0;
			} else {
				cur_zone++;
			}
		} else if (sscanf(line, " spanned %llu", &v) == 1) {
			spanned = v;
			have_spanned = true;
		} else if (sscanf(line, " start_pfn: %llu", &v) == 1) {
			start = v;
			have_start = true;
		}
	}
	FLUSH();
#undef FLUSH
	free(line);
	fclose(f);
	*out = z;
	*nout = n;
	return 0;
}

/* Growable list of ranges. */
struct rlist {
	struct nl_pfn_range *r;
	int n, cap;
};

static int rl_add(struct rlist *l, uint64_t s, uint64_t e, uint32_t nid, uint32_t zone)
{
	if (s >= e)
		return 0;
	if (l->n && l->r[l->n - 1].end == s && l->r[l->n - 1].nid == nid && l->r[l->n - 1].zone == zone) {
		l->r[l->n - 1].end = e;
		return 0;
	}
	if (l->n == l->cap) {
		int cap = l->cap ? l->cap * 2 : 64;
		void *nr = realloc(l->r, sizeof(*l->r) * (size_t)cap);

		if (!nr)
			return -ENOMEM;
		l->r = nr;
		l->cap = cap;
	}
	l->r[l->n++] = (struct nl_pfn_range){ .start = s, .end = e, .nid = nid, .zone = zone };
	return 0;
}

/* Pages per memory block, from devices/system/memory/block_size_bytes
 * (hex bytes) and @page_size (bytes), into *@out. 0, -EINVAL or -errno. */
static int block_pages(const char *sysfs_root, long page_size, uint64_t *out)
{
	char path[PATH_MAX], buf[64];
	uint64_t block_bytes;
	ssize_t r;
	char *end;

	snprintf(path, sizeof(path), "%s/devices/system/memory/block_size_bytes", sysfs_root);
	r = nl_file_read(path, buf, sizeof(buf));
	if (r < 0)
		return (int)r;
	errno = 0;
	block_bytes = strtoull(buf, &end, 16);
	if (errno || end == buf || !block_bytes || page_size <= 0 || block_bytes % (uint64_t)page_size)
		return -EINVAL;
	*out = block_bytes / (uint64_t)page_size;
	return 0;
}

/* Growable list of (block << 8 | nid) entries: nid < 256. */
struct blist {
	uint64_t *b;
	int n, cap;
};

/* Append the memoryM links of node directory @npath (node @nid) to @l.
 * 0 or -ENOMEM; an unreadable directory adds nothing. */
static int node_blocks(const char *npath, unsigned long nid, struct blist *l)
{
	DIR *md = opendir(npath);
	struct dirent *me;
	char *end;

	if (!md)
		return 0;
	while ((me = readdir(md))) {
		unsigned long long m;

		if (strncmp(me->d_name, "memory", 6) || !isdigit((unsigned char)me->d_name[6]))
			continue;
		m = strtoull(me->d_name + 6, &end, 10);
		if (*end)
			continue;
		if (l->n == l->cap) {
			int cap = l->cap ? l->cap * 2 : 256;
			void *nbk = realloc(l->b, sizeof(*l->b) * (size_t)cap);

			if (!nbk) {
				closedir(md);
				return -ENOMEM;
			}
			l->b = nbk;
			l->cap = cap;
		}
		/* pack (block, nid): nid < 256 */
		l->b[l->n++] = ((uint64_t)m << 8) | nid;
	}
	closedir(md);
	return 0;
}

/* Memory blocks of each node -> merged (nid, NL_ZONE_UNKNOWN) ranges, sorted. */
static int read_blocks(const char *sysfs_root, long page_size, struct rlist *out)
{
	char path[PATH_MAX];
	uint64_t bpages = 0;
	struct blist l = { 0 };
	int ret;
	DIR *nd;
	struct dirent *de;
	char *end;

	ret = block_pages(sysfs_root, page_size, &bpages);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/devices/system/node", sysfs_root);
	nd = opendir(path);
	if (!nd)
		return -errno;
	while ((de = readdir(nd))) {
		char npath[PATH_MAX];
		unsigned long nid;

		if (strncmp(de->d_name, "node", 4) || !isdigit((unsigned char)de->d_name[4]))
			continue;
		nid = strtoul(de->d_name + 4, &end, 10);
		if (*end || nid >= NL_NID_UNKNOWN)
			continue;
		if (snprintf(npath, sizeof(npath), "%s/%s", path, de->d_name) >= (int)sizeof(npath))
			continue;
		ret = node_blocks(npath, nid, &l);
		if (ret)
			goto out;
	}
	if (!l.n) {
		ret = -ENOENT;
		goto out;
	}
	qsort(l.b, (size_t)l.n, sizeof(*l.b), cmp_u64);
	for (int i = 0; i < l.n; i++) {
		uint64_t m = l.b[i] >> 8;

		ret = rl_add(out, m * bpages, (m + 1) * bpages,
			     (uint32_t)(l.b[i] & 0xff), NL_ZONE_UNKNOWN);
		if (ret)
			goto out;
	}
out:
	closedir(nd);
	free(l.b);
	return ret;
}

/* Split node range @nr by the zone spans of its node; append to @out. */
static int split_zones(const struct nl_pfn_range *nr, const struct zspan *z, int nz, struct rlist *out)
{
	uint64_t pts[2 + 2 * 64];
	int np = 0, ret;

	pts[np++] = nr->start;
	pts[np++] = nr->end;
	for (int i = 0; i < nz && np + 2 <= (int)(sizeof(pts) / sizeof(pts[0])); i++) {
		if (z[i].nid != (int)nr->nid)
			continue;
		if (z[i].start > nr->start && z[i].start < nr->end)
			pts[np++] = z[i].start;
		if (z[i].end > nr->start && z[i].end < nr->end)
			pts[np++] = z[i].end;
	}
	qsort(pts, (size_t)np, sizeof(pts[0]), cmp_u64);
	for (int i = 0; i + 1 < np; i++) {
		uint64_t s = pts[i], e = pts[i + 1];
		int zone = -1;

		if (s == e)
			continue;
		for (int j = 0; j < nz; j++)
			if (z[j].nid == (int)nr->nid && z[j].start <= s && e <= z[j].end && z[j].zone > zone)
				zone = z[j].zone;
		if (zone < 0)
			continue;	/* in no zone: never allocated */
		ret = rl_add(out, s, e, nr->nid, (uint32_t)zone);
		if (ret)
			return ret;
	}
	return 0;
}

int nl_pfn_ranges_build_ps(struct nl_pfn_range *out, int max, const char *sysfs_root,
			   const char *zoneinfo_path, long page_size)
{
	struct rlist blk = { 0 }, res = { 0 }, fin = { 0 };
	struct zspan *z = NULL;
	int nz = 0, ret;
	bool zones = false;

	ret = read_blocks(sysfs_root, page_size, &blk);
	if (ret)
		goto out;
	if (zoneinfo_path && read_zones(zoneinfo_path, &z, &nz) == 0 && nz > 0)
		zones = true;
	for (int i = 0; i < blk.n; i++) {
		ret = zones ? split_zones(&blk.r[i], z, nz, &res)
			    : rl_add(&res, blk.r[i].start, blk.r[i].end, blk.r[i].nid, NL_ZONE_UNKNOWN);
		if (ret)
			goto out;
	}
	/* blocks were sorted by (block, nid): a block on two nodes gives two
	 * equal ranges; sort and trim overlaps so the table stays searchable */
	qsort(res.r, (size_t)res.n, sizeof(*res.r), cmp_range);
	for (int i = 0; i < res.n; i++) {
		struct nl_pfn_range r = res.r[i];

		if (fin.n && r.start < fin.r[fin.n - 1].end)
			r.start = fin.r[fin.n - 1].end;
		ret = rl_add(&fin, r.start, r.end, r.nid, r.zone);
		if (ret)
			goto out;
	}
	if (fin.n > max) {
		ret = -E2BIG;
		goto out;
	}
	memcpy(out, fin.r, sizeof(*out) * (size_t)fin.n);
	ret = fin.n;
out:
	free(blk.r);
	free(res.r);
	free(fin.r);
	free(z);
	return ret;
}

int nl_pfn_ranges_build(struct nl_pfn_range *out, int max, const char *sysfs_root,
			const char *zoneinfo_path)
{
	return nl_pfn_ranges_build_ps(out, max, sysfs_root, zoneinfo_path, sysconf(_SC_PAGESIZE));
}

int nl_pfn_lookup(const struct nl_pfn_range *r, int n, uint64_t pfn)
{
	if (n <= 0)
		return -1;
	return nl_pfn_search(r, (u32)n, pfn);
}
