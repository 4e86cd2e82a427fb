// SPDX-License-Identifier: GPL-2.0
/*
 * The memory-home refresh of the scx_cling loader: about once a second it
 * walks the cgroup tree, takes the cgroups --group/--all name as NUMA
 * groups, and writes each one's resident pages per node (memory.numa_stat)
 * into the gmem map, from which the BPF side picks the group's home node.
 * Groups that went away are dropped from gmem and from the scheduler's
 * groups map, so their tasks stop clinging and the map does not fill up.
 */
#include <errno.h>
#include <fnmatch.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <scx/common.h>
#include "scx_cling.h"
#include "cling_loader.h"
#include "scx_cling.skel.h"

/* The walk's state: nftw callbacks take no context pointer. */
struct scan {
	struct scx_cling *skel;
	size_t root_len;
	uint64_t seen[CLING_MAX_GROUPS];
	int nr_seen;
	int nodes;
	long page;
};
static struct scan scan;

/* matches: is the cgroup at @rel ("/a/b") a NUMA group (--all / --group)? */
static bool matches(const char *rel)
{
	if (cling_opt.all)
		return strcmp(rel, "/") != 0;
	for (int i = 0; i < cling_opt.nr_patterns; i++)
		if (!strcmp(cling_opt.patterns[i], rel) || !fnmatch(cling_opt.patterns[i], rel, FNM_PATHNAME))
			return true;
	return false;
}

/*
 * numa_stat_pages - resident pages per node of the cgroup at @dir: anon +
 * file of its cgroup v2 memory.numa_stat ("anon N0=<bytes> N1=..."), in
 * pages, for nodes below @nr_nodes (others are left 0). Read here rather
 * than through the numalens tables so that every node scx_cling supports
 * counts. Returns 0 or -errno (-ENODATA: no anon/file line).
 */
static int numa_stat_pages(const char *dir, uint64_t *pages, int nr_nodes, long page)
{
	char p[PATH_MAX], *line = NULL;
	size_t cap = 0;
	bool seen = false;
	FILE *f;

	snprintf(p, sizeof(p), "%s/memory.numa_stat", dir);
	f = fopen(p, "re");
	if (!f)
		return -errno;
	memset(pages, 0, sizeof(uint64_t) * CLING_MAX_NODES);
	while (getline(&line, &cap, f) > 0) {
		char *save = NULL, *tok = strtok_r(line, " \n", &save);

		if (!tok || (strcmp(tok, "anon") && strcmp(tok, "file")))
			continue;
		seen = true;
		while ((tok = strtok_r(NULL, " \n", &save))) {
			unsigned long long nid, bytes;

			if (sscanf(tok, "N%llu=%llu", &nid, &bytes) == 2 && nid < (unsigned)nr_nodes &&
			    nid < CLING_MAX_NODES)
				pages[nid] += bytes / (uint64_t)page;
		}
	}
	free(line);
	fclose(f);
	return seen ? 0 : -ENODATA;
}

/* A NUMA group with less resident memory than this (bytes) gets no home:
 * memory that a CPU cache holds has no locality to gain, and the kernel's
 * cling needs a preferred node that a task taking next to no NUMA faults
 * never gets. On the costed bench's cpuonly load a CPU-bound group clung
 * to the node of its few dozen stack pages, behind the group living there. */
#define CLING_GROUP_MIN_BYTES (4ull << 20)

/* scan_one: nftw callback; writes a matching cgroup's pages into gmem,
 * keyed by its inode number (= the kernfs cgroup id BPF reads). */
static int scan_one(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	const char *rel = path + scan.root_len;
	struct cling_group_mem m;

	if (type != FTW_D)
		return 0;
	if (!*rel)
		rel = "/";
	if (!matches(rel) || scan.nr_seen >= CLING_MAX_GROUPS)
		return 0;
	if (numa_stat_pages(path, m.pages, scan.nodes, scan.page))
		return 0; /* gone meanwhile, or no memory controller: not a group yet */
	uint64_t id = (uint64_t)sb->st_ino, sum = 0;

	for (int i = 0; i < scan.nodes && i < CLING_MAX_NODES; i++)
		sum += m.pages[i];
	m.no_home = sum * (uint64_t)scan.page < CLING_GROUP_MIN_BYTES;
	m.pad = 0;

	scan.seen[scan.nr_seen++] = id;
	bpf_map__update_elem(scan.skel->maps.gmem, &id, sizeof(id), &m, sizeof(m), BPF_ANY);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* prune: delete from @map (keys: cgroup ids) every key not in scan.seen
 * (sorted). Keys are collected first: deleting while walking the hash
 * would restart the walk. */
static void prune(struct bpf_map *map)
{
	static uint64_t dead[CLING_MAX_GROUPS];
	uint64_t key, next, *prev = NULL;
	int nd = 0;

	while (nd < CLING_MAX_GROUPS && !bpf_map__get_next_key(map, prev, &next, sizeof(next))) {
		key = next;
		prev = &key;
		if (!bsearch(&key, scan.seen, (size_t)scan.nr_seen, sizeof(key), cmp_u64))
			dead[nd++] = key;
	}
	for (int i = 0; i < nd; i++)
		bpf_map__delete_elem(map, &dead[i], sizeof(dead[i]), 0);
}

void cling_groups_attach(struct scx_cling *skel, int nodes)
{
	scan.skel = skel;
	scan.nodes = nodes;
	scan.page = sysconf(_SC_PAGESIZE);
}

/* A cgroup that leaves the groups (deleted, or no longer matching) is
 * dropped at once: its tasks stop clinging at their next placement, and
 * the groups map would otherwise fill up with dead cgroups. */
void cling_groups_refresh(void)
{
	if (!cling_opt.all && !cling_opt.nr_patterns)
		return;
	scan.nr_seen = 0;
	scan.root_len = strlen(cling_opt.cg_root);
	nftw(cling_opt.cg_root, scan_one, 16, FTW_PHYS | FTW_MOUNT);
	qsort(scan.seen, (size_t)scan.nr_seen, sizeof(scan.seen[0]), cmp_u64);
	prune(scan.skel->maps.gmem);
	prune(scan.skel->maps.groups);
}
