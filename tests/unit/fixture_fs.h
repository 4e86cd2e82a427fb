/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Fixture trees for the parser tests: fake /sys, /proc and cgroupfs
 * layouts written under a temporary directory. Include after <cmocka.h>.
 */
#ifndef NL_FIXTURE_FS_H
#define NL_FIXTURE_FS_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* test paths are short; composed buffers cannot really overflow */
#pragma GCC diagnostic ignored "-Wformat-truncation"

/* mkdir -p @path (errors show up as failed writes later). */
static inline void mkdir_p(const char *path)
{
	char tmp[PATH_MAX];

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(tmp, 0755);
			*p = '/';
		}
	}
	mkdir(tmp, 0755);
}

/* Write @content to @root/@rel, creating its directories. */
static inline void wfile(const char *root, const char *rel, const char *content)
{
	char path[PATH_MAX], dir[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	mkdir_p(dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

/* rm -rf @d and free it (a string from fixture_tmpdir). */
static inline void rmtree(char *d)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d);
	assert_int_equal(system(cmd), 0);
	free(d);
}

/* A new empty directory /tmp/nl_<tag>_XXXXXX (malloc'd), or NULL. */
static inline char *fixture_tmpdir(const char *tag)
{
	char *d = malloc(64);

	if (!d)
		return NULL;
	snprintf(d, 64, "/tmp/nl_%s_XXXXXX", tag);
	if (!mkdtemp(d)) {
		free(d);
		return NULL;
	}
	return d;
}

#endif
