/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The files an agent process publishes its state in: DIR/<pid>.<ext>, each
 * replaced atomically (written to <pid>.<ext>.tmp, then rename(2)), so a
 * reader never sees half a file. The reclaim agent renders the text
 * (reclaim_pub.c); only this layer creates, replaces and removes files.
 * Each file starts with a stamp line naming its writer,
 *   numalens-agent pid=<pid> start=<ticks> boot=<boot id>
 * (start: /proc/<pid>/stat field 22, clock ticks after boot), by which a
 * reader tells a running writer from a dead one whose pid was reused, on
 * no wall clock; the text put follows it and is what readers get back.
 * Errors are negative errno values.
 */
#ifndef NL_AGENT_FILES_H
#define NL_AGENT_FILES_H

#include <stddef.h>
#include <sys/types.h>

/* mkdir -p @dir (mode 0755; existing directories are fine). 0 or -errno. */
int nl_agent_files_mkdir(const char *dir);

/* Replace @dir/<pid>.@ext with the stamp line and the @len bytes of
 * @text, through a temporary file and rename(2). 0 or -errno (-EIO on a
 * short write; -ENOENT when this process's own start time is unreadable). */
int nl_agent_files_put(const char *dir, const char *ext, const char *text, size_t len);

/* Remove @dir/<pid>.@ext of this process (missing is fine). */
void nl_agent_files_remove(const char *dir, const char *ext);

/* One running agent's published file. */
struct nl_agent_file {
	int pid;	/* the agent's pid, from the file name */
	char *text;	/* the whole file, NUL-terminated (malloc'd; at most 16 MiB) */
};

/*
 * Read @dir/<pid>.@ext of every agent still running, in file-name order,
 * into *@out (free with nl_agent_files_free), the stamp line left out. An
 * agent killed with SIGKILL leaves its files behind; they are skipped when
 * the pid is gone, and also when the pid now names another process (the
 * pid was reused, which would otherwise be taken for the agent): its start
 * time or boot differs from the stamp's. A file without a stamp (an older
 * numalens wrote it) is its writer's while the file was last written after
 * the pid's process started, on the wall clock. Only regular files are
 * read: a FIFO, device or symlink of that name is no agent's and is
 * skipped without blocking.
 * Returns how many (0 with a missing @dir), or -ENOMEM.
 */
int nl_agent_files_read(const char *dir, const char *ext, struct nl_agent_file **out);

/* Remove the files in @dir that agents no longer running left behind
 * (killed with SIGKILL or by the OOM killer), by the rule of
 * nl_agent_files_read; never this process's own. Returns how many. */
int nl_agent_files_prune(const char *dir);

/* Free what nl_agent_files_read returned (@f may be NULL). */
void nl_agent_files_free(struct nl_agent_file *f, int n);

#endif
