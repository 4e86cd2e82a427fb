// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Reading and writing memcg files for the reclaim agent (reclaim_cg.h). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "reclaim_cg.h"

static FILE *open_in(const char *dir, const char *file)
{
	char p[4352];

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	return fopen(p, "re");
}

int nl_rcg_read_u64(const char *dir, const char *file, uint64_t *v)
{
	FILE *f = open_in(dir, file);
	char buf[64];
	int e = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, sizeof(buf), f))
		e = -EIO;
	else if (!strncmp(buf, "max", 3))
		*v = NL_RCG_NO_LIMIT;
	else if (sscanf(buf, "%" SCNu64, v) != 1)
		e = -EINVAL;
	fclose(f);
	return e;
}

int nl_rcg_numa_stat(const char *dir, bool v1, struct nl_rcg_numa *out)
{
	FILE *f = open_in(dir, "memory.numa_stat");
	long psz = sysconf(_SC_PAGESIZE);
	char line[4096];

	memset(out, 0, sizeof(*out));
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *sp = strpbrk(line, v1 ? "=" : " ");
		uint64_t *dst = NULL;
		size_t klen;

		if (!sp)
			continue;
		klen = (size_t)(sp - line);
#define KEY(k) (klen == sizeof(k) - 1 && !strncmp(line, k, klen))
		if (v1) {
			/* v1: "anon=T N0=p ...", in pages; no active split */
			if (KEY("anon"))
				dst = out->inactive_anon;
			else if (KEY("file"))
				dst = out->inactive_file;
		} else {
			if (KEY("inactive_anon"))
				dst = out->inactive_anon;
			else if (KEY("active_anon"))
				dst = out->active_anon;
			else if (KEY("inactive_file"))
				dst = out->inactive_file;
			else if (KEY("active_file"))
				dst = out->active_file;
			else if (KEY("file_mapped"))
				dst = out->file_mapped, out->have_mapped = true;
		}
#undef KEY
		if (!dst)
			continue;
		for (char *tok = strtok(sp + 1, " \n"); tok; tok = strtok(NULL, " \n")) {
			unsigned nid;
			uint64_t val;

			if (sscanf(tok, "N%u=%" SCNu64, &nid, &val) != 2 || nid >= NL_MAX_NODES)
				continue;
			dst[nid] = v1 ? val : val / (uint64_t)psz;
			if ((int)nid + 1 > out->nr_nodes)
				out->nr_nodes = (int)nid + 1;
		}
	}
	fclose(f);
	return 0;
}

uint64_t nl_rcg_numa_node_pages(const struct nl_rcg_numa *n, int nid)
{
	if (nid < 0 || nid >= NL_MAX_NODES)
		return 0;
	return n->inactive_anon[nid] + n->active_anon[nid] + n->inactive_file[nid] +
	       n->active_file[nid];
}

int nl_rcg_usage(const char *dir, bool v1, uint64_t *bytes)
{
	return nl_rcg_read_u64(dir, v1 ? "memory.usage_in_bytes" : "memory.current", bytes);
}

int nl_rcg_swap_usage(const char *dir, bool v1, uint64_t *bytes)
{
	if (v1)
		return -EOPNOTSUPP;
	return nl_rcg_read_u64(dir, "memory.swap.current", bytes);
}

int nl_rcg_limit(const char *dir, bool v1, uint64_t *bytes)
{
	int e = nl_rcg_read_u64(dir, v1 ? "memory.limit_in_bytes" : "memory.max", bytes);

	/* v1 reports "no limit" as PAGE_COUNTER_MAX pages in bytes */
	if (!e && v1 && *bytes >= (1ULL << 62))
		*bytes = NL_RCG_NO_LIMIT;
	return e;
}

int nl_rcg_events_max(const char *dir, bool v1, uint64_t *n)
{
	FILE *f;
	char k[64];
	uint64_t v;
	int e = -ENODATA;

	if (v1)
		return nl_rcg_read_u64(dir, "memory.failcnt", n);
	f = open_in(dir, "memory.events");
	if (!f)
		return -errno;
	while (fscanf(f, "%63s %" SCNu64, k, &v) == 2)
		if (!strcmp(k, "max")) {
			*n = v;
			e = 0;
		}
	fclose(f);
	return e;
}

int nl_rcg_refaults(const char *dir, bool v1, uint64_t *pages)
{
	FILE *f = open_in(dir, "memory.stat");
	char k[64];
	uint64_t v, sum = 0;
	int e = -ENODATA;

	if (!f)
		return -errno;
	/* v2: _anon and _file; v1 (5.9+): the same names, or the older total */
	while (fscanf(f, "%63s %" SCNu64, k, &v) == 2)
		if (!strcmp(k, "workingset_refault_anon") || !strcmp(k, "workingset_refault_file") ||
		    (v1 && !strcmp(k, "workingset_refault"))) {
			sum += v;
			e = 0;
		}
	fclose(f);
	if (!e)
		*pages = sum;
	return e;
}

int nl_rcg_refault_stat(const char *dir, uint64_t *anon, uint64_t *file, uint64_t *majfault)
{
	FILE *f = open_in(dir, "memory.stat");
	char k[64];
	uint64_t v;
	bool have = false;

	if (!f)
		return -errno;
	*anon = *file = *majfault = 0;
	/* v1 (5.9+) has the same names for the memcg itself */
	while (fscanf(f, "%63s %" SCNu64, k, &v) == 2) {
		if (!strcmp(k, "workingset_refault_anon"))
			*anon = v, have = true;
		else if (!strcmp(k, "workingset_refault_file"))
			*file = v, have = true;
		else if (!strcmp(k, "pgmajfault"))
			*majfault = v;
	}
	fclose(f);
	return have ? 0 : -ENODATA;
}

int nl_rcg_psi_some_us(const char *dir, uint64_t *us)
{
	FILE *f = open_in(dir, "memory.pressure");
	char line[256];
	int e = -ENODATA;

	if (!f)
		return -ENOENT;
	while (fgets(line, sizeof(line), f)) {
		char *t = strstr(line, "total=");

		if (!strncmp(line, "some", 4) && t && sscanf(t, "total=%" SCNu64, us) == 1)
			e = 0;
	}
	fclose(f);
	return e;
}

int nl_rcg_swappiness(const char *dir, bool v1, uint32_t *s)
{
	uint64_t v;

	if (!nl_rcg_read_u64(dir, "memory.swappiness", &v) ||
	    !nl_rcg_read_u64("/proc/sys/vm", "swappiness", &v)) {
		*s = v > 200 ? 200 : (uint32_t)v;
		return 0;
	}
	(void)v1;
	*s = 60;
	return -ENOENT;
}

bool nl_rcg_swap_ok(const char *dir, bool v1)
{
	FILE *f = fopen("/proc/swaps", "re");
	char line[512];
	uint64_t total = 0, size, v;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		/* Filename Type Size Used Priority */
		if (sscanf(line, "%*s %*s %" SCNu64, &size) == 1)
			total += size;
	}
	fclose(f);
	if (!total)
		return false;
	if (!v1 && !nl_rcg_read_u64(dir, "memory.swap.max", &v) && v == 0)
		return false;
	return true;
}

int nl_rcg_reclaim(const char *dir, uint64_t bytes)
{
	char p[4352], buf[32];
	int fd, n, e = 0;

	snprintf(p, sizeof(p), "%s/memory.reclaim", dir);
	fd = open(p, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? (access(dir, F_OK) ? -ENOENT : -EOPNOTSUPP) : -errno;
	n = snprintf(buf, sizeof(buf), "%" PRIu64, bytes);
	if (write(fd, buf, (size_t)n) != n)
		e = -errno;
	close(fd);
	return e;
}

int nl_rcg_procs(const char *dir, pid_t **pids)
{
	FILE *f = open_in(dir, "cgroup.procs");
	int n = 0, cap = 0;
	long p;

	*pids = NULL;
	if (!f)
		return -errno;
	while (fscanf(f, "%ld", &p) == 1) {
		if (n == cap) {
			pid_t *np = realloc(*pids, sizeof(pid_t) * (size_t)(cap = cap ? cap * 2 : 32));

			if (!np) {
				fclose(f);
				free(*pids);
				*pids = NULL;
				return -ENOMEM;
			}
			*pids = np;
		}
		(*pids)[n++] = (pid_t)p;
	}
	fclose(f);
	return n;
}
