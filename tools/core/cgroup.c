// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* cgroup id <-> path map, namespace prefix, hierarchy fold; see cgroup.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup.h"
#include "procfs.h"

/* ------------------------------------------------------------------ map */

void nl_cgroup_map_free(struct nl_cgroup_map *m)
{
	free(m->ents);
	free(m->by_id);
	free(m->pool);
	memset(m, 0, sizeof(*m));
}

struct walk {
	struct nl_cgroup_map *m;
	dev_t dev;
	char path[4096];	/* relative path being built */
	size_t plen;
};

static int map_add(struct nl_cgroup_map *m, uint64_t id, int parent_idx, int depth, const char *path)
{
	size_t l = strlen(path) + 1;

	if (m->n == m->cap) {
		int cap = m->cap ? m->cap * 2 : 256;
		void *p = realloc(m->ents, sizeof(*m->ents) * (size_t)cap);

		if (!p)
			return -ENOMEM;
		m->ents = p;
		m->cap = cap;
	}
	if (m->pool_len + l > m->pool_cap) {
		size_t cap = m->pool_cap ? m->pool_cap * 2 : 16384;
		void *p;

		while (cap < m->pool_len + l)
			cap *= 2;
		p = realloc(m->pool, cap);
		if (!p)
			return -ENOMEM;
		m->pool = p;
		m->pool_cap = cap;
	}
	memcpy(m->pool + m->pool_len, path, l);
	m->ents[m->n] = (struct nl_cgroup_ent){
		.id = id,
		.parent_id = parent_idx >= 0 ? m->ents[parent_idx].id : 0,
		.parent_idx = parent_idx,
		.depth = depth,
		/* offset for now; made a pointer when the pool stops moving */
		.path = (const char *)(uintptr_t)m->pool_len,
	};
	m->pool_len += l;
	return m->n++;
}

/* Walk directory @dfd (already added as entry @self, at @depth). Takes @dfd. */
static int walk_dir(struct walk *w, int dfd, int self, int depth)
{
	DIR *d = fdopendir(dfd);
	struct dirent *de;
	int ret = 0;

	if (!d) {
		close(dfd);
		return errno == ENOENT ? 0 : -errno;
	}
	while ((de = readdir(d))) {
		size_t nl, save = w->plen;
		struct stat st;
		int cfd, idx;

		if (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN)
			continue;
		if (de->d_name[0] == '.' && (!de->d_name[1] || (de->d_name[1] == '.' && !de->d_name[2])))
			continue;
		/* one fstatat per directory; open only those with subdirectories:
		 * st_nlink == 2 means none on kernfs (cgroupfs), ext4 and tmpfs,
		 * while filesystems with other nlink rules (1) are always opened */
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISDIR(st.st_mode) ||
		    st.st_dev != w->dev)
			continue;	/* vanished, not a directory, a symlink, another mount */
		nl = strlen(de->d_name);
		if (w->plen + 1 + nl + 1 > sizeof(w->path)) {
			w->m->truncated = true;
			continue;
		}
		if (w->plen == 1)	/* parent is "/" */
			w->plen = 0;
		w->path[w->plen] = '/';
		memcpy(w->path + w->plen + 1, de->d_name, nl + 1);
		w->plen += 1 + nl;
		idx = map_add(w->m, (uint64_t)st.st_ino, self, depth + 1, w->path);
		if (idx < 0) {
			ret = idx;
		} else if (st.st_nlink != 2) {
			if (depth + 1 >= NL_CGROUP_MAX_DEPTH) {
				w->m->truncated = true;	/* has children we do not list */
			} else {
				cfd = openat(dirfd(d), de->d_name,
					     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
				if (cfd >= 0)
					ret = walk_dir(w, cfd, idx, depth + 1);
			}
		}
		w->plen = save;
		w->path[w->plen] = '\0';
		if (ret)
			break;
	}
	closedir(d);
	return ret;
}

static const struct nl_cgroup_map *sort_map;

static int cmp_by_id(const void *a, const void *b)
{
	uint64_t x = sort_map->ents[*(const int *)a].id, y = sort_map->ents[*(const int *)b].id;

	return x < y ? -1 : x > y;
}

int nl_cgroup_map_build(struct nl_cgroup_map *m, const char *root)
{
	struct walk *w;
	struct stat st;
	int fd, ret;

	nl_cgroup_map_free(m);
	if (strlen(root) >= sizeof(m->root))
		return -ENAMETOOLONG;
	memcpy(m->root, root, strlen(root) + 1);
	fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		ret = -errno;
		close(fd);
		goto fail;
	}
	w = calloc(1, sizeof(*w));
	if (!w) {
		close(fd);
		ret = -ENOMEM;
		goto fail;
	}
	w->m = m;
	w->dev = st.st_dev;
	strcpy(w->path, "/");
	w->plen = 1;
	ret = map_add(m, (uint64_t)st.st_ino, -1, 0, "/");
	if (ret >= 0)
		ret = walk_dir(w, fd, 0, 0);
	else
		close(fd);
	free(w);
	if (ret < 0)
		goto fail;
	for (int i = 0; i < m->n; i++)
		m->ents[i].path = m->pool + (uintptr_t)m->ents[i].path;
	m->by_id = malloc(sizeof(int) * (size_t)m->n);
	if (!m->by_id) {
		ret = -ENOMEM;
		goto fail;
	}
	for (int i = 0; i < m->n; i++)
		m->by_id[i] = i;
	sort_map = m;
	qsort(m->by_id, (size_t)m->n, sizeof(int), cmp_by_id);
	sort_map = NULL;
	return m->n;
fail:
	{
		char r[sizeof(m->root)];

		memcpy(r, m->root, sizeof(r));
		nl_cgroup_map_free(m);
		memcpy(m->root, r, sizeof(r));
	}
	return ret;
}

int nl_cgroup_map_index(const struct nl_cgroup_map *m, uint64_t id)
{
	int lo = 0, hi = m->n;

	if (!m->by_id)
		return -1;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		uint64_t v = m->ents[m->by_id[mid]].id;

		if (v == id)
			return m->by_id[mid];
		if (v < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

const struct nl_cgroup_ent *nl_cgroup_map_find(const struct nl_cgroup_map *m, uint64_t id)
{
	int i = nl_cgroup_map_index(m, id);

	return i < 0 ? NULL : &m->ents[i];
}

int nl_cgroup_id_of(const char *path, uint64_t *id)
{
	struct stat st;

	if (stat(path, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	*id = (uint64_t)st.st_ino;
	return 0;
}

/* ------------------------------------------------------------ namespace */

/* Whether the cgroup.procs of directory @dir lists @pid. */
static bool procs_lists(const char *dir, pid_t pid)
{
	char path[PATH_MAX + 16];
	pid_t *v = NULL;
	int n = 0, cap = 0, r;
	bool hit = false;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	r = nl_proc_read_pid_list(path, &v, &n, &cap);
	for (int i = 0; r >= 0 && i < n && !hit; i++)
		hit = v[i] == pid;
	free(v);
	return hit;
}

int nl_cgroup_ns_prefix(const char *procfs_root, const char *root, int mode, char *out, size_t len)
{
	char self[PATH_MAX], dir[2 * PATH_MAX];
	struct nl_cgroup_map m = {};
	pid_t me = getpid();	/* cgroup.procs lists pids of our pid namespace */
	int e, n;

	e = nl_proc_cgroup_path(procfs_root, 0, mode, self, sizeof(self));
	if (e)
		return e;
	if (strstr(self, "/.."))
		return -EINVAL;
	snprintf(dir, sizeof(dir), "%s%s", root, strcmp(self, "/") ? self : "");
	if (procs_lists(dir, me)) {
		out[0] = '\0';
		return len ? 0 : -ENAMETOOLONG;
	}
	n = nl_cgroup_map_build(&m, root);
	if (n < 0)
		return n;
	e = -ENOENT;
	for (int i = 0; i < m.n && e == -ENOENT; i++) {
		const char *p = m.ents[i].path;
		size_t pl = strlen(p), sl = strcmp(self, "/") ? strlen(self) : 0;

		snprintf(dir, sizeof(dir), "%s%s", root, strcmp(p, "/") ? p : "");
		if (!procs_lists(dir, me))
			continue;
		/* our hierarchy path ends with our namespaced path */
		if (pl < sl || strcmp(p + pl - sl, sl ? self : ""))
			e = -EINVAL;
		else if (pl - sl + 1 > len)
			e = -ENAMETOOLONG;
		else {
			memcpy(out, p, pl - sl);
			out[pl - sl] = '\0';
			if (!strcmp(out, "/"))
				out[0] = '\0';
			e = 0;
		}
	}
	nl_cgroup_map_free(&m);
	return e;
}

/* ----------------------------------------------------------------- fold */

struct nl_cgroup_fold_rec {
	uint64_t id;
	uint64_t parent;	/* last known parent id, 0 = unknown (root) */
	int map_idx;		/* index in the current map when alive */
	int anc;		/* scratch: map index of the nearest live ancestor */
	bool alive;		/* in the current map */
	bool present;		/* in this call's counters */
	bool in_tree;		/* ever seen in a map */
	bool drop;		/* scratch: to be removed */
};

static uint64_t hash_id(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

static int hash_rebuild(struct nl_cgroup_fold *f, int want)
{
	int cap = f->hash_cap ? f->hash_cap : 64;
	int *h;

	while (cap < 2 * want)
		cap *= 2;
	h = calloc((size_t)cap, sizeof(int));
	if (!h)
		return -ENOMEM;
	free(f->hash);
	f->hash = h;
	f->hash_cap = cap;
	for (int i = 0; i < f->n; i++) {
		uint64_t s = hash_id(f->recs[i].id) & (uint64_t)(cap - 1);

		while (h[s])
			s = (s + 1) & (uint64_t)(cap - 1);
		h[s] = i + 1;
	}
	return 0;
}

static int rec_find(const struct nl_cgroup_fold *f, uint64_t id)
{
	uint64_t s;

	if (!f->hash_cap)
		return -1;
	s = hash_id(id) & (uint64_t)(f->hash_cap - 1);
	while (f->hash[s]) {
		if (f->recs[f->hash[s] - 1].id == id)
			return f->hash[s] - 1;
		s = (s + 1) & (uint64_t)(f->hash_cap - 1);
	}
	return -1;
}

/* Find or create the record of @id; *created tells which. Index or -ENOMEM. */
static int rec_get(struct nl_cgroup_fold *f, uint64_t id, bool *created)
{
	int i = rec_find(f, id);
	size_t w = (size_t)f->width;
	uint64_t s;

	*created = false;
	if (i >= 0)
		return i;
	if (f->n == f->cap) {
		int cap = f->cap ? f->cap * 2 : 256;
		void *r = realloc(f->recs, sizeof(*f->recs) * (size_t)cap);

		if (!r)
			return -ENOMEM;
		f->recs = r;
		r = realloc(f->own, sizeof(uint64_t) * w * (size_t)cap);
		if (!r)
			return -ENOMEM;
		f->own = r;
		r = realloc(f->retired, sizeof(uint64_t) * w * (size_t)cap);
		if (!r)
			return -ENOMEM;
		f->retired = r;
		f->cap = cap;
	}
	if (2 * (f->n + 1) > f->hash_cap && hash_rebuild(f, f->n + 1))
		return -ENOMEM;
	i = f->n++;
	f->recs[i] = (struct nl_cgroup_fold_rec){ .id = id, .map_idx = -1, .anc = -1 };
	memset(f->own + (size_t)i * w, 0, sizeof(uint64_t) * w);
	memset(f->retired + (size_t)i * w, 0, sizeof(uint64_t) * w);
	s = hash_id(id) & (uint64_t)(f->hash_cap - 1);
	while (f->hash[s])
		s = (s + 1) & (uint64_t)(f->hash_cap - 1);
	f->hash[s] = i + 1;
	*created = true;
	return i;
}

int nl_cgroup_fold_init(struct nl_cgroup_fold *f, int width)
{
	memset(f, 0, sizeof(*f));
	if (width < 1)
		return -EINVAL;
	f->width = width;
	return 0;
}

void nl_cgroup_fold_free(struct nl_cgroup_fold *f)
{
	free(f->recs);
	free(f->own);
	free(f->retired);
	free(f->hash);
	memset(f, 0, sizeof(*f));
}

/* Map index of the nearest live ancestor of dead record @r (0 = root). */
static int live_ancestor(const struct nl_cgroup_fold *f, int r)
{
	uint64_t p = f->recs[r].parent;

	for (int steps = 0; steps < 4 * NL_CGROUP_MAX_DEPTH + f->n; steps++) {
		int q;

		if (!p)
			return 0;
		q = rec_find(f, p);
		if (q < 0)
			return 0;
		if (f->recs[q].alive)
			return f->recs[q].map_idx;
		if (f->recs[q].anc >= 0)	/* already resolved this call */
			return f->recs[q].anc;
		p = f->recs[q].parent;
	}
	return 0;	/* parent cycle: cannot happen with real trees */
}

/* Step 1: a live record per cgroup of the tree @m; @map_rec[i] is the
 * record of m->ents[i]. 0 or -ENOMEM. */
static int fold_mark_live(struct nl_cgroup_fold *f, const struct nl_cgroup_map *m, int *map_rec)
{
	bool created;

	for (int i = 0; i < m->n; i++) {
		int r = rec_get(f, m->ents[i].id, &created);

		if (r < 0)
			return r;
		f->recs[r].alive = f->recs[r].in_tree = true;
		f->recs[r].map_idx = i;
		f->recs[r].parent = m->ents[i].parent_id;
		map_rec[i] = r;
	}
	return 0;
}

/* Step 2: a record for every counted id; one never seen in any tree is
 * counted as unknown (its counts go to the root). 0 or -ENOMEM. */
static int fold_mark_counted(struct nl_cgroup_fold *f, const uint64_t *ids, int n_ids)
{
	bool created;

	for (int k = 0; k < n_ids; k++) {
		int r = rec_get(f, ids[k], &created);

		if (r < 0)
			return r;
		if (created)
			f->unknown_ids++;
		f->recs[r].present = true;
	}
	return 0;
}

/* Step 3: this call's own vectors become each record's last own vector
 * (duplicate ids summed). A counter that went down means the id was
 * reused or reset: what it had counted moves to retired, so totals never
 * go down. 0 or -ENOMEM. */
static int fold_take_own(struct nl_cgroup_fold *f, const uint64_t *ids, const uint64_t *own, int n_ids)
{
	size_t w = (size_t)f->width;
	uint64_t *cur = calloc((size_t)f->n * w, sizeof(uint64_t));

	if (!cur)
		return -ENOMEM;
	for (int k = 0; k < n_ids; k++) {
		int r = rec_find(f, ids[k]);

		for (size_t j = 0; j < w; j++)
			cur[(size_t)r * w + j] += own[(size_t)k * w + j];
	}
	for (int r = 0; r < f->n; r++) {
		uint64_t *o = f->own + (size_t)r * w, *c = cur + (size_t)r * w;
		bool reset = false;

		if (!f->recs[r].present)
			continue;
		for (size_t j = 0; j < w; j++)
			reset |= c[j] < o[j];
		if (reset) {
			uint64_t *ret_v = f->retired + (size_t)r * w;

			for (size_t j = 0; j < w; j++)
				ret_v[j] += o[j];
			f->resets++;
		}
		memcpy(o, c, sizeof(uint64_t) * w);
	}
	free(cur);
	return 0;
}

/* Step 4: each dead record hangs under its nearest live ancestor; one no
 * longer in the counters is folded into that ancestor's retired counts
 * and marked to drop. */
static void fold_retire_dead(struct nl_cgroup_fold *f, const struct nl_cgroup_map *m, const int *map_rec)
{
	size_t w = (size_t)f->width;

	for (int r = 0; r < f->n; r++) {
		if (f->recs[r].alive)
			continue;
		f->recs[r].anc = live_ancestor(f, r);
	}
	for (int r = 0; r < f->n; r++) {
		struct nl_cgroup_fold_rec *rc = &f->recs[r];

		if (rc->alive)
			continue;
		rc->parent = m->ents[rc->anc].id;	/* path compression */
		if (!rc->present) {
			uint64_t *dst = f->retired + (size_t)map_rec[rc->anc] * w;

			for (size_t j = 0; j < w; j++)
				dst[j] += f->own[(size_t)r * w + j] + f->retired[(size_t)r * w + j];
			rc->drop = true;
			f->retired_ids++;
		}
	}
}

/* Step 5: totals of the live tree: own + retired of each live cgroup,
 * dead-but-counted ids at their live ancestor, then each child added to
 * its parent in reverse pre-order (children come after their parent). */
static void fold_totals(const struct nl_cgroup_fold *f, const struct nl_cgroup_map *m, const int *map_rec,
			uint64_t *totals)
{
	size_t w = (size_t)f->width;

	for (int i = 0; i < m->n; i++) {
		int r = map_rec[i];

		for (size_t j = 0; j < w; j++)
			totals[(size_t)i * w + j] = f->own[(size_t)r * w + j] + f->retired[(size_t)r * w + j];
	}
	for (int r = 0; r < f->n; r++) {
		const struct nl_cgroup_fold_rec *rc = &f->recs[r];

		if (rc->alive || rc->drop)
			continue;
		for (size_t j = 0; j < w; j++)
			totals[(size_t)rc->anc * w + j] += f->own[(size_t)r * w + j] +
							   f->retired[(size_t)r * w + j];
	}
	for (int i = m->n - 1; i > 0; i--) {
		int p = m->ents[i].parent_idx;

		if (p < 0)
			continue;
		for (size_t j = 0; j < w; j++)
			totals[(size_t)p * w + j] += totals[(size_t)i * w + j];
	}
}

/* Step 6: remove the records marked to drop and re-index the hash.
 * 0 or -ENOMEM. */
static int fold_compact(struct nl_cgroup_fold *f)
{
	size_t w = (size_t)f->width;
	int keep = 0;

	for (int r = 0; r < f->n; r++) {
		if (f->recs[r].drop)
			continue;
		if (keep != r) {
			f->recs[keep] = f->recs[r];
			memcpy(f->own + (size_t)keep * w, f->own + (size_t)r * w, sizeof(uint64_t) * w);
			memcpy(f->retired + (size_t)keep * w, f->retired + (size_t)r * w, sizeof(uint64_t) * w);
		}
		keep++;
	}
	if (keep == f->n)
		return 0;
	f->n = keep;
	return hash_rebuild(f, f->n);
}

int nl_cgroup_fold_run(struct nl_cgroup_fold *f, const struct nl_cgroup_map *m,
		       const uint64_t *ids, const uint64_t *own, int n_ids, uint64_t *totals)
{
	int *map_rec, ret;

	if (!m || m->n < 1 || f->width < 1 || n_ids < 0 || (n_ids && (!ids || !own)) || !totals)
		return -EINVAL;
	for (int i = 0; i < f->n; i++) {
		f->recs[i].alive = f->recs[i].present = f->recs[i].drop = false;
		f->recs[i].map_idx = f->recs[i].anc = -1;
	}
	map_rec = malloc(sizeof(int) * (size_t)m->n);
	if (!map_rec)
		return -ENOMEM;
	ret = fold_mark_live(f, m, map_rec);
	if (!ret)
		ret = fold_mark_counted(f, ids, n_ids);
	if (!ret)
		ret = fold_take_own(f, ids, own, n_ids);
	if (!ret) {
		fold_retire_dead(f, m, map_rec);
		fold_totals(f, m, map_rec, totals);
		ret = fold_compact(f);
	}
	free(map_rec);
	return ret;
}

int nl_cgroup_fold_set_parent(struct nl_cgroup_fold *f, uint64_t id, uint64_t parent)
{
	bool created;
	int r;

	if (!parent || parent == id)
		return 0;
	r = rec_get(f, id, &created);
	if (r < 0)
		return r;
	if (!f->recs[r].in_tree)
		f->recs[r].parent = parent;
	return 0;
}

int nl_cgroup_fold_dead(const struct nl_cgroup_fold *f, uint64_t id, uint64_t *out)
{
	int r = rec_find(f, id);
	size_t w = (size_t)f->width;

	if (r < 0)
		return -ENOENT;
	for (size_t j = 0; j < w; j++)
		out[j] = f->own[(size_t)r * w + j] + f->retired[(size_t)r * w + j];
	return 0;
}
