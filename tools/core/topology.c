// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* NUMA topology and pfn range table; see topology.h. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file.h"
#include "topology.h"

/* Walk a list; call fn(lo, hi, ctx) per item. Returns 0 or -EINVAL. */
static int cpulist_walk(const char *s, int (*fn)(long lo, long hi, void *ctx), void *ctx)
{
	const char *p = s;

	for (;;) {
		long lo, hi;
		char *end;
		int r;

		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			return 0;
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		errno = 0;
		lo = strtol(p, &end, 10);
		if (errno)
			return -EINVAL;
		p = end;
		hi = lo;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				return -EINVAL;
			hi = strtol(p, &end, 10);
			if (errno)
				return -EINVAL;
			p = end;
			if (hi < lo)
				return -EINVAL;
		}
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (*p == ',')
			p++;
		else if (*p)
			return -EINVAL;
		r = fn(lo, hi, ctx);
		if (r)
			return r;
	}
}

struct mask_ctx {
	uint8_t *mask;
	int nbits;
	int count;
};

static int mask_set(long lo, long hi, void *vctx)
{
	struct mask_ctx *c = vctx;

	if (hi >= c->nbits)
		return -ERANGE;
	for (long b = lo; b <= hi; b++) {
		if (!nl_mask_test(c->mask, (int)b)) {
			c->mask[b >> 3] |= (uint8_t)(1u << (b & 7));
			c->count++;
		}
	}
	return 0;
}

int nl_topo_parse_cpulist(const char *s, uint8_t *mask, int nbits)
{
	struct mask_ctx c = { mask, nbits, 0 };
	int r;

	if (nbits < 0)
		return -EINVAL;
	memset(mask, 0, ((size_t)nbits + 7) / 8);
	r = cpulist_walk(s, mask_set, &c);
	return r ? r : c.count;
}

static int max_fn(long lo, long hi, void *vctx)
{
	long *m = vctx;

	(void)lo;
	if (hi > INT_MAX)
		return -ERANGE;
	if (hi > *m)
		*m = hi;
	return 0;
}

int nl_topo_cpulist_max(const char *s)
{
	long m = -1;
	int r = cpulist_walk(s, max_fn, &m);

	return r ? r : (int)m;
}

void nl_topo_free(struct nl_topo *t)
{
	char err[sizeof(t->err)];

	memcpy(err, t->err, sizeof(err));
	for (int n = 0; n < NL_MAX_NODES; n++)
		free(t->node[n].cpus);
	free(t->cpu_nid);
	memset(t, 0, sizeof(*t));
	memcpy(t->err, err, sizeof(err));
}

static void set_err(struct nl_topo *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void set_err(struct nl_topo *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->err, sizeof(t->err), fmt, ap);
	va_end(ap);
}

int nl_topo_cpu_nid(const struct nl_topo *t, int cpu)
{
	if (!t->cpu_nid || cpu < 0 || cpu >= t->nr_cpu_ids)
		return -1;
	return t->cpu_nid[cpu];
}

static int read_node_mem(const char *sysfs_root, int nid, struct nl_topo_node *nd)
{
	char path[PATH_MAX], buf[4096], *save = NULL, *line;
	ssize_t r;

	snprintf(path, sizeof(path), "%s/devices/system/node/node%d/meminfo", sysfs_root, nid);
	r = nl_file_read(path, buf, sizeof(buf));
	if (r < 0)
		return (int)r;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long kb;
		char key[32];
		int id;

		/* "Node 0 MemTotal:        5466316 kB" */
		if (sscanf(line, "Node %d %31s %llu", &id, key, &kb) != 3)
			continue;
		if (!strcmp(key, "MemTotal:"))
			nd->mem_total_bytes = (uint64_t)kb * 1024;
		else if (!strcmp(key, "MemFree:"))
			nd->mem_free_bytes = (uint64_t)kb * 1024;
	}
	return 0;
}

int nl_topo_refresh_mem(struct nl_topo *t, const char *sysfs_root)
{
	int ret = 0;

	for (int i = 0; i < t->nr_nodes; i++) {
		int r = read_node_mem(sysfs_root, t->nids[i], &t->node[t->nids[i]]);

		if (r && !ret)
			ret = r;
	}
	return ret;
}

struct online_ctx {
	struct nl_topo *t;
};

static int online_fn(long lo, long hi, void *vctx)
{
	struct nl_topo *t = ((struct online_ctx *)vctx)->t;

	if (hi >= NL_MAX_NODES) {
		set_err(t, "NUMA node %ld is online; numalens supports at most %d nodes (ids 0-%d)",
			 hi, NL_MAX_NODES, NL_MAX_NODES - 1);
		return -E2BIG;
	}
	for (long n = lo; n <= hi; n++)
		t->node[n].online = true;
	return 0;
}

/* The online nodes from devices/system/node/online. Without that file
 * (CONFIG_NUMA=n) there is one node 0 and *@numa becomes false. 0 or a
 * negative errno, with t->err set. */
static int topo_read_online(struct nl_topo *t, const char *sysfs_root, bool *numa)
{
	char path[PATH_MAX], buf[4096];
	struct online_ctx c = { t };
	ssize_t r;
	int ret;

	*numa = true;
	snprintf(path, sizeof(path), "%s/devices/system/node/online", sysfs_root);
	r = nl_file_read(path, buf, sizeof(buf));
	if (r == -ENOENT) {
		*numa = false;
		t->node[0].online = true;
		return 0;
	}
	if (r < 0) {
		set_err(t, "%s: %s", path, strerror((int)-r));
		return (int)r;
	}
	ret = cpulist_walk(buf, online_fn, &c);
	if (ret == -EINVAL)
		set_err(t, "%s: cannot parse \"%s\"", path, buf);
	return ret;
}

/* The highest possible CPU id (devices/system/cpu/possible), -1 if unknown. */
static int topo_max_possible_cpu(const char *sysfs_root)
{
	char path[PATH_MAX], buf[4096];
	int max_cpu = -1;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/possible", sysfs_root);
	if (nl_file_read(path, buf, sizeof(buf)) >= 0) {
		max_cpu = nl_topo_cpulist_max(buf);
		if (max_cpu < -1)
			max_cpu = -1;
	}
	return max_cpu;
}

/* Node @n's cpulist into @lists[n] (malloc'ed) and its display copy;
 * widens *@max_cpu to the highest CPU it names. 0 or a negative errno. */
static int topo_read_cpulist(struct nl_topo *t, const char *sysfs_root, int n, char **lists, int *max_cpu)
{
	struct nl_topo_node *nd = &t->node[n];
	char path[PATH_MAX], buf[4096];
	ssize_t r;
	size_t l;
	int m;

	snprintf(path, sizeof(path), "%s/devices/system/node/node%d/cpulist", sysfs_root, n);
	r = nl_file_read(path, buf, sizeof(buf));
	if (r < 0) {
		set_err(t, "%s: %s", path, strerror((int)-r));
		return (int)r;
	}
	buf[strcspn(buf, "\n")] = '\0';
	lists[n] = strdup(buf);
	if (!lists[n])
		return -ENOMEM;
	l = strlen(buf);
	if (l >= sizeof(nd->cpulist))
		l = sizeof(nd->cpulist) - 1;	/* display only; the mask is exact */
	memcpy(nd->cpulist, buf, l);
	nd->cpulist[l] = '\0';
	m = nl_topo_cpulist_max(buf);
	if (m < -1) {
		set_err(t, "%s: cannot parse \"%s\"", path, buf);
		return -EINVAL;
	}
	if (m > *max_cpu)
		*max_cpu = m;
	return 0;
}

/* Size the CPU -> node map from @max_cpu (the configured CPU count when
 * nothing named one); every CPU starts on no node, or node 0 without NUMA.
 * 0 or -ENOMEM. */
static int topo_alloc_cpus(struct nl_topo *t, int max_cpu, bool numa)
{
	if (max_cpu < 0) {
		long c = sysconf(_SC_NPROCESSORS_CONF);

		max_cpu = c > 0 ? (int)c - 1 : 0;
	}
	t->nr_cpu_ids = max_cpu + 1;
	t->cpu_nid = malloc(sizeof(int) * (size_t)t->nr_cpu_ids);
	if (!t->cpu_nid)
		return -ENOMEM;
	for (int c = 0; c < t->nr_cpu_ids; c++)
		t->cpu_nid[c] = numa ? -1 : 0;
	return 0;
}

/* Node @nid's SLIT row into @nd->distance (by node id): the file lists one
 * distance per online node, in the order of @t->nids. Zeros on any trouble:
 * the distances only annotate views. */
static void read_node_distance(const struct nl_topo *t, const char *sysfs_root, int nid,
			       struct nl_topo_node *nd)
{
	char path[PATH_MAX], buf[1024], *p = buf, *end;
	uint8_t row[NL_MAX_NODES] = { 0 };
	int i = 0;

	snprintf(path, sizeof(path), "%s/devices/system/node/node%d/distance", sysfs_root, nid);
	if (nl_file_read(path, buf, sizeof(buf)) < 0)
		return;
	for (; i < t->nr_nodes; i++) {
		unsigned long v = strtoul(p, &end, 10);

		if (end == p || v > 255)
			return;
		row[t->nids[i]] = (uint8_t)v;
		p = end;
	}
	memcpy(nd->distance, row, sizeof(row));
}

/* Node @n's CPU mask from @list (every CPU without NUMA), the CPU -> node
 * map, and its meminfo (absent meminfo is not an error). 0 or a negative
 * errno. */
static int topo_fill_node(struct nl_topo *t, const char *sysfs_root, int n, const char *list, bool numa)
{
	struct nl_topo_node *nd = &t->node[n];
	int ret;

	nd->cpus = calloc(((size_t)t->nr_cpu_ids + 7) / 8, 1);
	if (!nd->cpus)
		return -ENOMEM;
	if (!numa) {
		for (int c = 0; c < t->nr_cpu_ids; c++)
			nd->cpus[c >> 3] |= (uint8_t)(1u << (c & 7));
		nd->nr_cpus = t->nr_cpu_ids;
		snprintf(nd->cpulist, sizeof(nd->cpulist), "0-%d", t->nr_cpu_ids - 1);
		return 0;
	}
	ret = nl_topo_parse_cpulist(list, nd->cpus, t->nr_cpu_ids);
	if (ret < 0)
		return ret;
	nd->nr_cpus = ret;
	for (int c = 0; c < t->nr_cpu_ids; c++)
		if (nl_mask_test(nd->cpus, c))
			t->cpu_nid[c] = n;
	read_node_distance(t, sysfs_root, n, nd);
	ret = read_node_mem(sysfs_root, n, nd);
	if (ret && ret != -ENOENT) {
		set_err(t, "node%d/meminfo: %s", n, strerror(-ret));
		return ret;
	}
	return 0;
}

int nl_topo_load(struct nl_topo *t, const char *sysfs_root)
{
	char *lists[NL_MAX_NODES] = { 0 };	/* full node cpulists */
	int ret, max_cpu;
	bool numa;

	t->err[0] = '\0';
	nl_topo_free(t);
	ret = topo_read_online(t, sysfs_root, &numa);
	max_cpu = topo_max_possible_cpu(sysfs_root);
	/* online node ids; their cpulists may name CPUs past "possible" */
	for (int n = 0; n < NL_MAX_NODES && !ret; n++) {
		if (!t->node[n].online)
			continue;
		t->nids[t->nr_nodes++] = n;
		if (numa)
			ret = topo_read_cpulist(t, sysfs_root, n, lists, &max_cpu);
	}
	if (!ret)
		ret = topo_alloc_cpus(t, max_cpu, numa);
	for (int i = 0; i < t->nr_nodes && !ret; i++)
		ret = topo_fill_node(t, sysfs_root, t->nids[i], lists[t->nids[i]], numa);
	if (!ret && numa)
		ret = nl_topo_refresh_cpus(t, sysfs_root);
	if (ret)
		nl_topo_free(t);
	for (int n = 0; n < NL_MAX_NODES; n++)
		free(lists[n]);
	return ret;
}

int nl_topo_node_possible(const char *sysfs_root)
{
	static const char *const files[] = { "possible", "online" };
	char path[PATH_MAX], buf[4096];

	for (int i = 0; i < 2; i++) {
		ssize_t r;
		int m;

		snprintf(path, sizeof(path), "%s/devices/system/node/%s", sysfs_root, files[i]);
		r = nl_file_read(path, buf, sizeof(buf));
		if (r == -ENOENT)
			continue;
		if (r < 0)
			return (int)r;
		m = nl_topo_cpulist_max(buf);
		if (m < -1)
			return m;
		return m < 0 ? 1 : m + 1;
	}
	return 1;	/* no NUMA: node 0 only */
}

int nl_topo_node_limit_check(const char *sysfs_root, char *err, size_t errlen)
{
	int n = nl_topo_node_possible(sysfs_root);

	if (n < 0) {
		snprintf(err, errlen, "cannot read %s/devices/system/node/possible: %s", sysfs_root,
			 strerror(-n));
		return n;
	}
	if (n > NL_MAX_NODES) {
		snprintf(err, errlen, "this machine has NUMA node ids up to %d; numalens supports at most %d nodes (ids 0-%d)",
			 n - 1, NL_MAX_NODES, NL_MAX_NODES - 1);
		return -E2BIG;
	}
	return n;
}

int nl_topo_cpulist_format(const uint8_t *mask, int nbits, char *buf, size_t len)
{
	size_t at = 0;
	int count = 0;

	if (len)
		buf[0] = '\0';
	for (int b = 0; b < nbits; b++) {
		int e = b;
		int w;

		if (!nl_mask_test(mask, b))
			continue;
		while (e + 1 < nbits && nl_mask_test(mask, e + 1))
			e++;
		count += e - b + 1;
		if (at < len) {
			w = e > b ? snprintf(buf + at, len - at, "%s%d-%d", at ? "," : "", b, e)
				  : snprintf(buf + at, len - at, "%s%d", at ? "," : "", b);
			at = w < 0 || (size_t)w >= len - at ? len : at + (size_t)w;
		}
		b = e;
	}
	return count;
}

/* devices/system/cpu/online into @mask of t->nr_cpu_ids bits. 0, or
 * -ENOENT when the file is absent (then every CPU counts as online). */
static int read_cpu_online(const struct nl_topo *t, const char *sysfs_root, uint8_t *mask)
{
	char path[PATH_MAX], buf[4096];
	ssize_t r;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/online", sysfs_root);
	r = nl_file_read(path, buf, sizeof(buf));
	if (r < 0)
		return (int)r;
	/* -ERANGE: a CPU beyond possible came online; count those we know */
	r = nl_topo_parse_cpulist(buf, mask, t->nr_cpu_ids);
	if (r == -ERANGE) {
		memset(mask, 0xff, ((size_t)t->nr_cpu_ids + 7) / 8);
		r = 0;
	}
	return r < 0 ? (int)r : 0;
}

/* Keep only the online CPUs of @nid's mask (@online NULL: all count),
 * then recount it and rewrite its cpulist and the CPU -> node map. */
static void topo_apply_online(struct nl_topo *t, int nid, const uint8_t *online)
{
	struct nl_topo_node *nd = &t->node[nid];

	for (int c = 0; c < t->nr_cpu_ids; c++) {
		if (online && !nl_mask_test(online, c))
			nd->cpus[c >> 3] &= (uint8_t)~(1u << (c & 7));
		if (nl_mask_test(nd->cpus, c))
			t->cpu_nid[c] = nid;
		else if (t->cpu_nid[c] == nid)
			t->cpu_nid[c] = -1;
	}
	nd->nr_cpus = nl_topo_cpulist_format(nd->cpus, t->nr_cpu_ids, nd->cpulist, sizeof(nd->cpulist));
}

int nl_topo_refresh_cpus(struct nl_topo *t, const char *sysfs_root)
{
	size_t bytes = ((size_t)t->nr_cpu_ids + 7) / 8;
	uint8_t *online, *m;
	int ret = 0, r;

	if (!t->cpu_nid || t->nr_cpu_ids <= 0)
		return 0;
	online = calloc(bytes, 1);
	m = calloc(bytes, 1);
	if (!online || !m) {
		free(online);
		free(m);
		return -ENOMEM;
	}
	r = read_cpu_online(t, sysfs_root, online);
	for (int i = 0; i < t->nr_nodes; i++) {
		int nid = t->nids[i];
		char path[PATH_MAX], buf[4096];
		ssize_t n;

		snprintf(path, sizeof(path), "%s/devices/system/node/node%d/cpulist", sysfs_root, nid);
		n = nl_file_read(path, buf, sizeof(buf));
		if (n == -ENOENT)
			continue;	/* no NUMA (node 0 holds every CPU), or node gone */
		if (n < 0 || nl_topo_parse_cpulist(buf, m, t->nr_cpu_ids) < 0) {
			if (!ret)
				ret = n < 0 ? (int)n : -EINVAL;
			continue;
		}
		memcpy(t->node[nid].cpus, m, bytes);
		topo_apply_online(t, nid, r ? NULL : online);
	}
	free(online);
	free(m);
	return ret;
}
