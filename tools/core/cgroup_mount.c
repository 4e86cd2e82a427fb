// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Which cgroup hierarchy to key by, where it is mounted, and how a path
 * read in a cgroup namespace joins it (cgroup_mount.h). Apart from the id
 * map and the fold: read once at start, from /proc/self/mounts, and
 * sharing no state with them.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup_mount.h"
#include "file.h"

/* Decode the octal escapes (\040 space, \011 tab, \012 newline, \134
 * backslash) /proc/self/mounts uses, in place. */
static void unescape_mount(char *s)
{
	char *w = s;

	for (char *r = s; *r; r++) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' &&
		    r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
			r += 3;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
}

static bool word_in(const char *list, const char *word, const char *seps)
{
	size_t wl = strlen(word);
	const char *p = list;

	while (*p) {
		size_t l = strcspn(p, seps);

		if (l == wl && !strncmp(p, word, wl))
			return true;
		p += l;
		if (*p)
			p++;
	}
	return false;
}

static bool v2_has_memory(const char *mnt)
{
	char path[PATH_MAX], buf[1024];

	snprintf(path, sizeof(path), "%s/cgroup.controllers", mnt);
	if (nl_file_read(path, buf, sizeof(buf)) < 0)
		return false;
	return word_in(buf, "memory", " \t\n");
}

static int set_root(char *root, size_t len, const char *mnt)
{
	if (strlen(mnt) + 1 > len)
		return -ENAMETOOLONG;
	memcpy(root, mnt, strlen(mnt) + 1);
	return 0;
}

int nl_mount_find(const char *mounts_path, int mode, char *out, size_t len)
{
	FILE *f = fopen(mounts_path, "re");
	char dev[256], dir[512], type[64], opts[1024];
	int e = -ENOENT;

	if (!f)
		return -errno;
	while (fscanf(f, "%255s %511s %63s %1023s %*d %*d", dev, dir, type, opts) == 4) {
		bool hit = mode == NL_CG_V2 ? !strcmp(type, "cgroup2")
					    : !strcmp(type, "cgroup") && strstr(opts, "memory");
		if (hit) {
			snprintf(out, len, "%s", dir);
			e = 0;
			break;
		}
	}
	fclose(f);
	return e;
}

int nl_mount_detect(const char *mounts_path, enum nl_cgroup_mode *mode, char *root, size_t len)
{
	char v2_mem[PATH_MAX] = "", v1_mem[PATH_MAX] = "", v2_any[PATH_MAX] = "";
	char *line = NULL;
	size_t cap = 0;
	FILE *f = fopen(mounts_path, "re");

	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		char *save = NULL, *mnt, *type, *opts;

		if (!strtok_r(line, " \t\n", &save) || !(mnt = strtok_r(NULL, " \t\n", &save)) ||
		    !(type = strtok_r(NULL, " \t\n", &save)) || !(opts = strtok_r(NULL, " \t\n", &save)))
			continue;
		unescape_mount(mnt);
		if (!strcmp(type, "cgroup2")) {
			if (!v2_any[0])
				snprintf(v2_any, sizeof(v2_any), "%s", mnt);
			if (!v2_mem[0] && v2_has_memory(mnt))
				snprintf(v2_mem, sizeof(v2_mem), "%s", mnt);
		} else if (!strcmp(type, "cgroup")) {
			if (!v1_mem[0] && word_in(opts, "memory", ","))
				snprintf(v1_mem, sizeof(v1_mem), "%s", mnt);
		}
	}
	free(line);
	fclose(f);
	if (v2_mem[0]) {
		*mode = NL_CG_V2;
		return set_root(root, len, v2_mem);
	}
	if (v1_mem[0]) {
		*mode = NL_CG_V1_MEMORY;
		return set_root(root, len, v1_mem);
	}
	if (v2_any[0]) {
		*mode = NL_CG_V2;
		return set_root(root, len, v2_any);
	}
	return -ENOENT;
}

int nl_mount_is_root(const char *mnt)
{
	struct stat st;

	if (stat(mnt, &st))
		return -errno;
	return st.st_ino == 1;
}

int nl_mount_ns_join(const char *prefix, const char *rel, char *out, size_t len)
{
	char buf[2 * PATH_MAX];
	size_t o = 0;
	int n = snprintf(buf, sizeof(buf), "%s/%s", prefix, rel);

	if (n < 0 || (size_t)n >= sizeof(buf))
		return -ENAMETOOLONG;
	if (len < 2)
		return -ENAMETOOLONG;
	/* component by component; out[0..o) is the resolved path so far */
	for (char *save = NULL, *c = strtok_r(buf, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		size_t cl = strlen(c);

		if (!strcmp(c, "."))
			continue;
		if (!strcmp(c, "..")) {
			if (!o)
				return -EINVAL;
			while (o && out[o - 1] != '/')
				o--;
			o--;	/* the '/' before the dropped component */
			continue;
		}
		if (o + 1 + cl + 1 > len)
			return -ENAMETOOLONG;
		out[o++] = '/';
		memcpy(out + o, c, cl);
		o += cl;
	}
	if (!o)
		out[o++] = '/';
	out[o] = '\0';
	return 0;
}
