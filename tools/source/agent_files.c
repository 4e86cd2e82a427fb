// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* An agent's published state files (agent_files.h). */
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include "agent_files.h"

int nl_agent_dir_make(const char *dir)
{
	char p[4096];

	snprintf(p, sizeof(p), "%s", dir);
	for (char *s = p + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			if (mkdir(p, 0755) && errno != EEXIST)
				return -errno;
			*s = '/';
		}
	return mkdir(p, 0755) && errno != EEXIST ? -errno : 0;
}

int nl_agent_file_put(const char *dir, const char *ext, const char *text, size_t len)
{
	char path[4200], tmp[4300];
	FILE *f;
	int e = 0;

	snprintf(path, sizeof(path), "%s/%d.%s", dir, (int)getpid(), ext);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "we");
	if (!f)
		return -errno;
	if (fwrite(text, 1, len, f) != len)
		e = -EIO;
	if (fclose(f) && !e)
		e = -errno;
	if (!e && rename(tmp, path))
		e = -errno;
	if (e)
		unlink(tmp);
	return e;
}

void nl_agent_file_remove(const char *dir, const char *ext)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/%d.%s", dir, (int)getpid(), ext);
	unlink(path);
}
