// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* procfs/sysfs/cgroupfs readers; see procfs.h. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file.h"
#include "names.h"
#include "procfs.h"
#include "topology.h"

/* Parse an unsigned decimal at *p; advance *p. Returns false if no digit. */
static bool parse_u64(const char **p, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;

	if (!isdigit((unsigned char)*s))
		return false;
	while (isdigit((unsigned char)*s)) {
		x = x * 10 + (uint64_t)(*s - '0');
		s++;
	}
	*v = x;
	*p = s;
	return true;
}

/* Parse "N<nid>=<value>" at the start of token @tok (which ends at
 * whitespace or NUL). Returns true and sets nid/val on a match. */
static bool parse_node_item(const char *tok, uint64_t *nid, uint64_t *val)
{
	const char *p = tok;

	if (*p != 'N')
		return false;
	p++;
	if (!parse_u64(&p, nid) || *p != '=')
		return false;
	p++;
	if (!parse_u64(&p, val))
		return false;
	return *p == '\0' || isspace((unsigned char)*p);
}

/* The policy column of numa_maps line @line ("<start> <policy> ...") into
 * @out. Two of the kernel's mode names hold a space ("weighted interleave",
 * "prefer (many)"), so those take the next word too. Returns false when
 * the line has no second column. */
static bool line_policy(const char *line, char *out, size_t len)
{
	const char *p = strchr(line, ' '), *e;

	if (!p)
		return false;
	while (*p == ' ')
		p++;
	e = p + strcspn(p, " \t\n");
	if (e == p)
		return false;
	if ((!strncmp(p, "weighted", 8) && (size_t)(e - p) == 8 && *e == ' ') ||
	    (!strncmp(p, "prefer", 6) && (size_t)(e - p) == 6 && !strncmp(e, " (many)", 7)))
		e = e + 1 + strcspn(e + 1, " \t\n");
	snprintf(out, len, "%.*s", (int)(e - p), p);
	return true;
}

/* Distinct policies of one numa_maps file: lines and resident pages each. */
#define POLICY_SLOTS 8
struct policy_tally {
	int n;
	struct { char name[NL_MEMPOLICY_MAX]; uint64_t lines, pages; } s[POLICY_SLOTS];
};

static void tally_add(struct policy_tally *t, const char *name, uint64_t pages)
{
	int i;

	for (i = 0; i < t->n && strcmp(t->s[i].name, name); i++)
		;
	if (i == t->n) {
		if (t->n == POLICY_SLOTS)
			return;	/* more distinct policies than slots: the rest are rare */
		snprintf(t->s[t->n++].name, NL_MEMPOLICY_MAX, "%s", name);
	}
	t->s[i].lines++;
	t->s[i].pages += pages;
}

/* The task's policy (most lines, the first on a tie) and the other one
 * with the most pages, as struct nl_mempolicy describes. */
static void tally_pick(const struct policy_tally *t, struct nl_mempolicy *pol)
{
	int task = -1, vma = -1;

	for (int i = 0; i < t->n; i++)
		if (task < 0 || t->s[i].lines > t->s[task].lines)
			task = i;
	for (int i = 0; i < t->n; i++)
		if (i != task && (vma < 0 || t->s[i].pages > t->s[vma].pages))
			vma = i;
	if (task >= 0)
		snprintf(pol->task, sizeof(pol->task), "%s", t->s[task].name);
	if (vma >= 0)
		snprintf(pol->vma, sizeof(pol->vma), "%s", t->s[vma].name);
}

int nl_proc_numa_maps_read(const char *procfs_root, pid_t pid, uint64_t pages_by_node[NL_MAX_NODES])
{
	return nl_proc_numa_maps_read_policy(procfs_root, pid, pages_by_node, NULL);
}

int nl_proc_numa_maps_read_policy(const char *procfs_root, pid_t pid, uint64_t pages_by_node[NL_MAX_NODES],
			     struct nl_mempolicy *pol)
{
	struct policy_tally tally = { .n = 0 };
	char polname[NL_MEMPOLICY_MAX];
	char path[PATH_MAX];
	long page_kb = sysconf(_SC_PAGESIZE) / 1024;
	char *line = NULL;
	size_t cap = 0;
	FILE *f;
	int ret = 0;

	memset(pages_by_node, 0, sizeof(uint64_t) * NL_MAX_NODES);
	if (pol)
		memset(pol, 0, sizeof(*pol));
	if (page_kb <= 0)
		page_kb = 4;
	snprintf(path, sizeof(path), "%s/%d/numa_maps", procfs_root, (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	errno = 0;
	while (getline(&line, &cap, f) > 0) {
		uint64_t line_pages[NL_MAX_NODES];
		uint64_t kps_kb = (uint64_t)page_kb, nid, val, mult;
		char *save = NULL, *tok;
		int hi = -1;	/* highest node id on this line: the loops stop there */
		uint64_t line_total = 0;
		bool has_pol = pol && line_policy(line, polname, sizeof(polname));

		for (tok = strtok_r(line, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
			if (parse_node_item(tok, &nid, &val)) {
				if (nid < NL_MAX_NODES) {
					for (; hi < (int)nid; hi++)
						line_pages[hi + 1] = 0;
					line_pages[nid] += val;
				}
			} else if (!strncmp(tok, "kernelpagesize_kB=", 18)) {
				const char *p = tok + 18;
				uint64_t k;

				if (parse_u64(&p, &k) && k)
					kps_kb = k;
			}
		}
		mult = kps_kb / (uint64_t)page_kb;
		if (!mult)
			mult = 1;
		for (int n = 0; n <= hi; n++) {
			pages_by_node[n] += line_pages[n] * mult;
			line_total += line_pages[n] * mult;
		}
		if (has_pol)
			tally_add(&tally, polname, line_total);
		errno = 0;
	}
	if (ferror(f))
		ret = errno ? -errno : -EIO;
	if (pol && !ret)
		tally_pick(&tally, pol);
	free(line);
	fclose(f);
	return ret;
}

int nl_proc_numastat_read(const char *sysfs_root, int nid, struct nl_numastat *out)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "numa_hit", offsetof(struct nl_numastat, numa_hit) },
		{ "numa_miss", offsetof(struct nl_numastat, numa_miss) },
		{ "numa_foreign", offsetof(struct nl_numastat, numa_foreign) },
		{ "interleave_hit", offsetof(struct nl_numastat, interleave_hit) },
		{ "local_node", offsetof(struct nl_numastat, local_node) },
		{ "other_node", offsetof(struct nl_numastat, other_node) },
	};
	char path[PATH_MAX], buf[1024], *save = NULL, *line;
	ssize_t r;
	int found = 0;

	memset(out, 0, sizeof(*out));
	snprintf(path, sizeof(path), "%s/devices/system/node/node%d/numastat", sysfs_root, nid);
	r = nl_file_read(path, buf, sizeof(buf));
	if (r < 0)
		return (int)r;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char key[32];
		unsigned long long v;

		if (sscanf(line, "%31s %llu", key, &v) != 2)
			continue;
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			if (!strcmp(key, keys[i].key)) {
				*(uint64_t *)((char *)out + keys[i].off) = v;
				found++;
			}
		}
	}
	return found ? 0 : -ENODATA;
}

/* What a memory.numa_stat file said, before the format is known: v2's
 * anon and file lines go straight to the output, v1's candidates wait
 * here ([0] plain, [1] hierarchical_) in pages. */
struct numa_stat_parse {
	uint64_t v1_anon[2][NL_MAX_NODES], v1_file[2][NL_MAX_NODES];
	bool v1_have_anon[2], v1_have_file[2];
	bool v2_anon, v2_file;
	int fmt;	/* 1 = v2, 2 = v1, 0 = none seen */
};

/* One line of memory.numa_stat (cut up by strtok_r) into @ps. */
static void numa_stat_line(struct numa_stat_parse *ps, char *line, uint64_t *anon_bytes,
			   uint64_t *file_bytes)
{
	char *save = NULL, *key = strtok_r(line, " \t\n", &save), *eq, *tok;
	uint64_t *dst = NULL, nid, val;
	bool *flag = NULL;

	if (!key)
		return;
	eq = strchr(key, '=');
	if (eq) {	/* v1: key=total N0=.. */
		int h = 0;

		*eq = '\0';
		if (!ps->fmt)
			ps->fmt = 2;
		if (!strncmp(key, "hierarchical_", 13)) {
			h = 1;
			key += 13;
		}
		if (!strcmp(key, "anon")) {
			dst = ps->v1_anon[h];
			flag = &ps->v1_have_anon[h];
		} else if (!strcmp(key, "file")) {
			dst = ps->v1_file[h];
			flag = &ps->v1_have_file[h];
		}
	} else {	/* v2: key N0=.. */
		if (!ps->fmt)
			ps->fmt = 1;
		if (!strcmp(key, "anon")) {
			dst = anon_bytes;
			flag = &ps->v2_anon;
		} else if (!strcmp(key, "file")) {
			dst = file_bytes;
			flag = &ps->v2_file;
		}
	}
	if (!dst)
		return;
	*flag = true;
	while ((tok = strtok_r(NULL, " \t\n", &save))) {
		if (parse_node_item(tok, &nid, &val) && nid < NL_MAX_NODES)
			dst[nid] = val;
	}
}

int nl_proc_memcg_numa_stat_read(const char *path, uint64_t anon_bytes[NL_MAX_NODES],
			    uint64_t file_bytes[NL_MAX_NODES], long page_size)
{
	struct numa_stat_parse ps = { .fmt = 0 };
	char *line = NULL;
	size_t cap = 0;
	FILE *f;
	int ret;

	memset(anon_bytes, 0, sizeof(uint64_t) * NL_MAX_NODES);
	memset(file_bytes, 0, sizeof(uint64_t) * NL_MAX_NODES);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0)
		numa_stat_line(&ps, line, anon_bytes, file_bytes);
	ret = ferror(f) ? -EIO : 0;
	free(line);
	fclose(f);
	if (ret)
		return ret;
	if (ps.fmt == 1)
		return (ps.v2_anon || ps.v2_file) ? 1 : -ENODATA;
	if (ps.fmt == 2) {
		/* our cgroup figures are hierarchical: those lines when there */
		int ha = ps.v1_have_anon[1] ? 1 : 0, hf = ps.v1_have_file[1] ? 1 : 0;

		if (!ps.v1_have_anon[ha] && !ps.v1_have_file[hf])
			return -ENODATA;
		for (int n = 0; n < NL_MAX_NODES; n++) {
			anon_bytes[n] = ps.v1_anon[ha][n] * (uint64_t)page_size;
			file_bytes[n] = ps.v1_file[hf][n] * (uint64_t)page_size;
		}
		return 2;
	}
	return -ENODATA;
}

int nl_proc_cpu_times_read(const char *procfs_root, struct nl_cpu_times *out, int max_cpus)
{
	char path[PATH_MAX], *line = NULL;
	size_t cap = 0;
	int hi = -1;
	FILE *f;

	if (max_cpus > 0)
		memset(out, 0, sizeof(*out) * (size_t)max_cpus);
	snprintf(path, sizeof(path), "%s/stat", procfs_root);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		unsigned long long v[8] = { 0 };
		int cpu, n;

		if (strncmp(line, "cpu", 3) || !isdigit((unsigned char)line[3]))
			continue;
		/* cpuN user nice system idle iowait irq softirq steal [guest guest_nice] */
		n = sscanf(line + 3, "%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu,
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
		if (n < 5 || cpu < 0 || cpu >= max_cpus)
			continue;
		out[cpu].present = true;
		out[cpu].busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
		out[cpu].total = out[cpu].busy + v[3] + v[4];
		if (cpu > hi)
			hi = cpu;
	}
	free(line);
	fclose(f);
	return hi < 0 ? -ENODATA : hi + 1;
}

int nl_proc_node_busy_pct(const struct nl_topo *t, const struct nl_cpu_times *prev,
		     const struct nl_cpu_times *cur, int n, double pct[NL_MAX_NODES])
{
	uint64_t busy[NL_MAX_NODES] = { 0 }, total[NL_MAX_NODES] = { 0 };
	int cnt = 0;

	for (int c = 0; c < n; c++) {
		int nid = nl_topo_cpu_nid(t, c);

		if (nid < 0 || nid >= NL_MAX_NODES || !prev[c].present || !cur[c].present)
			continue;
		if (cur[c].busy > prev[c].busy)
			busy[nid] += cur[c].busy - prev[c].busy;
		if (cur[c].total > prev[c].total)
			total[nid] += cur[c].total - prev[c].total;
	}
	for (int nid = 0; nid < NL_MAX_NODES; nid++) {
		if (!t->node[nid].online || !total[nid]) {
			pct[nid] = NAN;
			continue;
		}
		if (busy[nid] > total[nid])
			busy[nid] = total[nid];
		pct[nid] = 100.0 * (double)busy[nid] / (double)total[nid];
		cnt++;
	}
	return cnt;
}

bool nl_proc_pid_alive(const char *procfs_root, pid_t pid)
{
	char path[PATH_MAX], buf[512], *rp;

	snprintf(path, sizeof(path), "%s/%d/stat", procfs_root, (int)pid);
	if (nl_file_read(path, buf, sizeof(buf)) <= 0)
		return false;
	/* "pid (comm) S ..."; comm may hold ')' so take the last one */
	rp = strrchr(buf, ')');
	if (!rp || rp[1] != ' ')
		return true;
	return rp[2] != 'Z' && rp[2] != 'X' && rp[2] != 'x';
}

/* Field @n (from 1) of a <pid>/stat line "pid (comm) S ...", n >= 3: the
 * comm may hold ')' and spaces, so the fields start after the last ')'.
 * NULL when the line has fewer fields. */
static const char *stat_field(const char *buf, int n)
{
	const char *p = strrchr(buf, ')');

	if (!p || p[1] != ' ')
		return NULL;
	p += 2;
	for (int f = 3; f < n && p; f++) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	return p;
}

int nl_proc_start_ticks(const char *procfs_root, pid_t pid, uint64_t *ticks)
{
	char path[PATH_MAX], buf[1024];
	const char *p;
	unsigned long long v;
	int n;

	snprintf(path, sizeof(path), "%s/%d/stat", procfs_root, (int)pid);
	n = nl_file_read(path, buf, sizeof(buf));
	if (n < 0)
		return n;
	p = stat_field(buf, 22);	/* starttime */
	if (!p || sscanf(p, "%llu", &v) != 1)
		return -EINVAL;
	*ticks = v;
	return 0;
}

void nl_proc_boot_id(const char *procfs_root, char *buf, size_t len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/sys/kernel/random/boot_id", procfs_root);
	if (nl_file_read(path, buf, len) < 0)
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

int nl_proc_start_ns(const char *procfs_root, pid_t pid, uint64_t *boot_ns)
{
	long hz = sysconf(_SC_CLK_TCK);
	uint64_t ticks;
	int e;

	if (hz <= 0)
		return -EINVAL;
	e = nl_proc_start_ticks(procfs_root, pid, &ticks);
	if (e)
		return e;
	*boot_ns = ticks * (1000000000ULL / (uint64_t)hz);
	return 0;
}

int nl_proc_list_pids(const char *procfs_root, pid_t *out, int max)
{
	struct dirent *de;
	int n = 0;
	DIR *d = opendir(procfs_root);

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char *end;
		long v;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		v = strtol(de->d_name, &end, 10);
		if (*end || v <= 0 || v > INT_MAX)
			continue;
		if (n < max)
			out[n] = (pid_t)v;
		n++;
	}
	closedir(d);
	return n;
}

int nl_proc_read_pid_list(const char *path, pid_t **v, int *n, int *cap)
{
	char buf[16384], part[16];
	int fd = open(path, O_RDONLY | O_CLOEXEC), added = 0, ret = 0;
	size_t plen = 0;

	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t r = read(fd, buf, sizeof(buf));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			ret = -errno;
			break;
		}
		/* r == 0: a last line without its newline ends the list */
		for (ssize_t i = 0; i <= r; i++) {
			long val;

			if (i < r && buf[i] != '\n') {
				if (plen < sizeof(part) - 1)
					part[plen++] = buf[i];
				continue;
			}
			if (i == r && (r || !plen))
				break;
			part[plen] = '\0';
			plen = 0;
			val = strtol(part, NULL, 10);
			if (val <= 0 || val > INT_MAX)
				continue;	/* 0: a process outside our pid namespace */
			if (*n == *cap) {
				int nc = *cap ? *cap * 2 : 1024;
				pid_t *nv = realloc(*v, (size_t)nc * sizeof(*nv));

				if (!nv) {
					close(fd);
					return -ENOMEM;
				}
				*v = nv;
				*cap = nc;
			}
			(*v)[(*n)++] = (pid_t)val;
			added++;
		}
		if (!r)
			break;
	}
	close(fd);
	return ret ? ret : added;
}

int nl_proc_statm_resident(const char *procfs_root, pid_t pid, uint64_t *pages)
{
	char path[PATH_MAX], buf[256];
	unsigned long long size, res;

	snprintf(path, sizeof(path), "%s/%d/statm", procfs_root, (int)pid);
	ssize_t r = nl_file_read(path, buf, sizeof(buf));

	if (r < 0)
		return (int)r;
	if (sscanf(buf, "%llu %llu", &size, &res) != 2)
		return -EINVAL;
	*pages = res;
	return 0;
}

int nl_proc_rss_comm(const char *procfs_root, pid_t pid, uint64_t *pages, char *comm, size_t len)
{
	char path[PATH_MAX], buf[1024], *open, *close;
	const char *p;
	unsigned long long rss;
	ssize_t r;

	snprintf(path, sizeof(path), "%s/%d/stat", procfs_root, (int)pid);
	r = nl_file_read(path, buf, sizeof(buf));
	if (r < 0)
		return (int)r;
	open = strchr(buf, '(');
	close = strrchr(buf, ')');
	p = stat_field(buf, 24);	/* rss */
	if (!open || !close || close < open || !p || sscanf(p, "%llu", &rss) != 1)
		return -EINVAL;
	*pages = rss;
	if (len) {
		size_t n = (size_t)(close - open - 1);

		n = n < len - 1 ? n : len - 1;
		memcpy(comm, open + 1, n);
		comm[n] = '\0';
	}
	return 0;
}

int nl_proc_read_comm(const char *procfs_root, pid_t pid, char *out, size_t len)
{
	char path[PATH_MAX], buf[64];
	ssize_t r;

	snprintf(path, sizeof(path), "%s/%d/comm", procfs_root, (int)pid);
	r = nl_file_read(path, buf, sizeof(buf));
	if (r < 0)
		return (int)r;
	/* only the newline procfs adds: a comm may hold newlines of its own */
	if (r > 0 && buf[r - 1] == '\n')
		buf[r - 1] = '\0';
	if (len) {
		strncpy(out, buf, len - 1);
		out[len - 1] = '\0';
	}
	return 0;
}

int nl_proc_tgid(const char *procfs_root, pid_t tid, pid_t *tgid)
{
	char path[PATH_MAX], buf[2048];
	const char *t;
	ssize_t r;

	snprintf(path, sizeof(path), "%s/%d/status", procfs_root, (int)tid);
	r = nl_file_read(path, buf, sizeof(buf));
	if (r < 0)
		return (int)r;
	t = strstr(buf, "\nTgid:");
	if (!t)
		return -EINVAL;
	*tgid = (pid_t)strtol(t + 6, NULL, 10);
	return *tgid > 0 ? 0 : -EINVAL;
}

static bool list_has(const char *list, size_t n, const char *word)
{
	size_t wl = strlen(word);
	const char *p = list, *end = list + n;

	while (p < end) {
		const char *c = memchr(p, ',', (size_t)(end - p));
		size_t l = c ? (size_t)(c - p) : (size_t)(end - p);

		if (l == wl && !memcmp(p, word, wl))
			return true;
		if (!c)
			break;
		p = c + 1;
	}
	return false;
}

int nl_proc_cgroup_path(const char *procfs_root, pid_t pid, int mode, char *out, size_t len)
{
	char path[PATH_MAX], *line = NULL;
	size_t cap = 0;
	int ret = -ENOENT;
	FILE *f;

	if (mode != NL_CG_V2 && mode != NL_CG_V1_MEMORY)
		return -EINVAL;
	if (pid)
		snprintf(path, sizeof(path), "%s/%d/cgroup", procfs_root, (int)pid);
	else
		snprintf(path, sizeof(path), "%s/self/cgroup", procfs_root);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		char *c1 = strchr(line, ':'), *c2, *p;
		bool match;

		if (!c1 || !(c2 = strchr(c1 + 1, ':')))
			continue;
		if (mode == NL_CG_V2)
			match = c1 - line == 1 && line[0] == '0' && c2 == c1 + 1;
		else
			match = list_has(c1 + 1, (size_t)(c2 - c1 - 1), "memory");
		if (!match)
			continue;
		p = c2 + 1;
		p[strcspn(p, "\n")] = '\0';
		if (strlen(p) + 1 > len)
			ret = -ENAMETOOLONG;
		else {
			memcpy(out, p, strlen(p) + 1);
			ret = 0;
		}
		break;
	}
	free(line);
	fclose(f);
	return ret;
}

/* A part nl_proc_ident_read() could not read because the process is
 * gone: the parts after it would say the same. */
static bool proc_gone(int e)
{
	return e == -ENOENT || e == -ESRCH;
}

int nl_proc_ident_read(const char *procfs_root, pid_t pid, int cg_mode, unsigned want,
		       struct nl_proc_ident *id)
{
	char raw[NL_COMM_BYTES + 1];
	int e = 0, first = 0;

	id->got = 0;
	if (want & NL_IDENT_NUMA) {	/* as nl_proc_numa_maps_read_policy() leaves them */
		memset(id->pages_by_node, 0, sizeof(id->pages_by_node));
		memset(&id->pol, 0, sizeof(id->pol));
	}
	if (want & NL_IDENT_COMM) {
		e = nl_proc_read_comm(procfs_root, pid, raw, sizeof(raw));
		if (!e)
			nl_name_comm_clean(id->comm, raw);
		id->got |= e ? 0 : NL_IDENT_COMM;
		first = first ? first : e;
	}
	if ((want & NL_IDENT_CGROUP) && !proc_gone(first)) {
		e = nl_proc_cgroup_path(procfs_root, pid, cg_mode, id->cgroup, sizeof(id->cgroup));
		id->got |= e ? 0 : NL_IDENT_CGROUP;
		first = first ? first : e;
	}
	if ((want & NL_IDENT_STATM) && !proc_gone(first)) {
		e = nl_proc_statm_resident(procfs_root, pid, &id->statm_pages);
		id->got |= e ? 0 : NL_IDENT_STATM;
		first = first ? first : e;
	}
	if ((want & NL_IDENT_NUMA) && !proc_gone(first)) {
		e = nl_proc_numa_maps_read_policy(procfs_root, pid, id->pages_by_node, &id->pol);
		id->got |= e ? 0 : NL_IDENT_NUMA;
		first = first ? first : e;
	}
	return first;
}

int nl_proc_sysctl_read_long(const char *procfs_root, const char *name, long *val)
{
	char path[PATH_MAX], buf[64], *end, *q;
	ssize_t r;
	long v;
	int n;

	n = snprintf(path, sizeof(path), "%s/sys/", procfs_root);
	if (n < 0 || (size_t)n + strlen(name) >= sizeof(path))
		return -ENAMETOOLONG;
	q = path + n;
	for (const char *p = name; *p; p++)
		*q++ = *p == '.' ? '/' : *p;
	*q = '\0';
	r = nl_file_read(path, buf, sizeof(buf));
	if (r < 0)
		return (int)r;
	errno = 0;
	v = strtol(buf, &end, 10);
	if (end == buf || errno || (*end && !isspace((unsigned char)*end)))
		return -EINVAL;
	*val = v;
	return 0;
}

int nl_proc_sysctl_read_int(const char *procfs_root, const char *name)
{
	long v;
	int r = nl_proc_sysctl_read_long(procfs_root, name, &v);

	if (r < 0)
		return r;
	if (v < 0 || v > INT_MAX)
		return -ERANGE;
	return (int)v;
}
