/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The files an agent process publishes its state in: DIR/<pid>.<ext>, each
 * replaced atomically (written to <pid>.<ext>.tmp, then rename(2)), so a
 * reader never sees half a file. The reclaim agent renders the text
 * (reclaim_pub.c); only this layer creates, replaces and removes files.
 * Errors are negative errno values.
 */
#ifndef NL_AGENT_FILES_H
#define NL_AGENT_FILES_H

#include <stddef.h>

/* mkdir -p @dir (mode 0755; existing directories are fine). 0 or -errno. */
int nl_agent_dir_make(const char *dir);

/* Replace @dir/<pid>.@ext with the @len bytes of @text, through a
 * temporary file and rename(2). 0 or -errno (-EIO on a short write). */
int nl_agent_file_put(const char *dir, const char *ext, const char *text, size_t len);

/* Remove @dir/<pid>.@ext of this process (missing is fine). */
void nl_agent_file_remove(const char *dir, const char *ext);

#endif
