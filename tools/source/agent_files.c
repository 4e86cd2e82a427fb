// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* An agent's published state files (agent_files.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "agent_files.h"
#include "procfs.h"

int nl_agent_files_mkdir(const char *dir)
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

/* The first line of every file: who wrote it, by pid, start time (clock
 * ticks after boot, /proc/PID/stat field 22) and boot id. Readers judge
 * the writer alive by these, never by the file's mtime against the wall
 * clock, which a clock step moves; nl_agent_files_read hands out the
 * text after this line. */
#define STAMP "numalens-agent "

int nl_agent_files_put(const char *dir, const char *ext, const char *text, size_t len)
{
	/* the stamp is the process's for its whole life: read once (an agent
	 * publishes every interval, and these were two reads of /proc per
	 * file); again after a fork, whose child has a pid and start of its own */
	static char boot[64];
	static uint64_t start;
	static pid_t stamped;
	char path[4200], tmp[4300];
	FILE *f;
	int e = 0;

	snprintf(path, sizeof(path), "%s/%d.%s", dir, (int)getpid(), ext);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if (stamped != getpid()) {
		e = nl_proc_start_ticks("/proc", getpid(), &start);
		if (e)
			return e;
		nl_proc_boot_id("/proc", boot, sizeof(boot));
		stamped = getpid();
	}
	f = fopen(tmp, "we");
	if (!f)
		return -errno;
	if (fprintf(f, STAMP "pid=%d start=%" PRIu64 " boot=%s\n", (int)getpid(), start,
		    boot[0] ? boot : "-") < 0 ||
	    fwrite(text, 1, len, f) != len)
		e = -EIO;
	if (fclose(f) && !e)
		e = -errno;
	if (!e && rename(tmp, path))
		e = -errno;
	if (e)
		unlink(tmp);
	return e;
}

void nl_agent_files_remove(const char *dir, const char *ext)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/%d.%s", dir, (int)getpid(), ext);
	unlink(path);
}

/* The most of one file read: a state file is a few KiB per cgroup. */
#define NL_AGENT_FILE_MAX (1u << 24)

/* The whole of @path, NUL-terminated, and its status in *@st; NULL if it
 * is unreadable, out of memory or not a regular file. Only a regular file
 * is an agent's (it renames one into place): a FIFO or a device would
 * block the reader (open of a FIFO waits for a writer) or never end, and
 * a symlink may lead to either, so none is opened as more than O_NONBLOCK
 * and each is refused before a byte is read. */
static char *slurp(const char *path, struct stat *st)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	ssize_t n;
	int fd;

	if (lstat(path, st) || !S_ISREG(st->st_mode))
		return NULL;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, st) || !S_ISREG(st->st_mode))
		goto fail;
	do {
		if (len + 4096 + 1 > cap) {
			char *nb = realloc(buf, cap = cap ? cap * 2 : 16384);

			if (!nb)
				goto fail;
			buf = nb;
		}
		n = read(fd, buf + len, cap - len - 1 < NL_AGENT_FILE_MAX - len ?
					cap - len - 1 : NL_AGENT_FILE_MAX - len);
		if (n < 0 && errno == EINTR) {
			n = 1;	/* read again: the loop test wants n > 0 */
			continue;
		}
		if (n < 0)
			goto fail;
		len += (size_t)n;
	} while (n > 0 && len < NL_AGENT_FILE_MAX);
	close(fd);
	buf[len] = '\0';
	return buf;
fail:
	free(buf);
	close(fd);
	return NULL;
}

static uint64_t ns_of(const struct timespec *t)
{
	return (uint64_t)t->tv_sec * 1000000000ULL + (uint64_t)t->tv_nsec;
}

/* A file without the stamp line (written by an older numalens): is @pid
 * the process that last wrote it, by its mtime? Its start time (since
 * boot) is moved to the wall clock the mtime is on. A tick of slack covers
 * the start time's resolution; an agent writes its files only after
 * loading BPF, long after it started. A wall clock step between the write
 * and this read misjudges it, which the stamp avoids. */
static bool writer_alive_by_mtime(int pid, const struct stat *st)
{
	struct timespec real, boot;
	uint64_t start, started_real, slack = 20000000ULL;

	if (nl_proc_start_ns("/proc", pid, &start))
		return false;
	clock_gettime(CLOCK_REALTIME, &real);
	clock_gettime(CLOCK_BOOTTIME, &boot);
	if (ns_of(&boot) < start)
		return true;	/* clocks disagree: keep the old rule */
	started_real = ns_of(&real) - (ns_of(&boot) - start);
	return ns_of(&st->st_mtim) + slack >= started_real;
}

/* Is @pid alive and the process that wrote the file whose text begins
 * @head (its stamp line, if any) and whose status is @st? By the stamp:
 * the same pid, start time and boot; a process that got the pid later
 * started later, and a record from before a reboot names another boot. */
static bool writer_alive(int pid, const char *head, const struct stat *st)
{
	char boot[64], rboot[64] = "";
	unsigned long long start;
	uint64_t now;
	int spid, k;

	if (kill(pid, 0) && errno != EPERM)
		return false;
	if (strncmp(head, STAMP, strlen(STAMP)))
		return writer_alive_by_mtime(pid, st);
	k = sscanf(head + strlen(STAMP), "pid=%d start=%llu boot=%63s", &spid, &start, rboot);
	if (k < 2 || spid != pid || nl_proc_start_ticks("/proc", pid, &now) || now != start)
		return false;
	nl_proc_boot_id("/proc", boot, sizeof(boot));
	return k < 3 || !boot[0] || !strcmp(rboot, "-") || !strcmp(rboot, boot);
}

/* The first line of @path (a regular file, not followed through a
 * symlink, never blocking) in @head, "" if unreadable; its status in *@st.
 * Returns false when @path is no regular file. */
static bool read_head(const char *path, char *head, size_t len, struct stat *st)
{
	ssize_t n;
	int fd;

	head[0] = '\0';
	if (lstat(path, st) || !S_ISREG(st->st_mode))
		return false;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return true;
	if (fstat(fd, st) || !S_ISREG(st->st_mode)) {	/* swapped since the lstat */
		close(fd);
		return false;
	}
	n = read(fd, head, len - 1);
	close(fd);
	head[n > 0 ? n : 0] = '\0';
	head[strcspn(head, "\n")] = '\0';
	return true;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

int nl_agent_files_read(const char *dir, const char *ext, struct nl_agent_file **out)
{
	struct dirent **ents = NULL;
	struct nl_agent_file *v = NULL;
	int ne, n = 0, e = 0;

	*out = NULL;
	ne = scandir(dir, &ents, NULL, by_name);
	for (int i = 0; i < ne; i++) {
		char path[4200], tail[64];
		int pid;

		if (!e && sscanf(ents[i]->d_name, "%d.%63s", &pid, tail) == 2 && pid > 0 &&
		    !strcmp(tail, ext)) {
			struct stat st;
			char *txt;

			snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
			txt = slurp(path, &st);
			if (txt && !writer_alive(pid, txt, &st)) {
				free(txt);
				txt = NULL;
			}
			if (txt && !strncmp(txt, STAMP, strlen(STAMP))) {
				/* the readers get the text the agent put */
				char *nl = strchr(txt, '\n');
				size_t skip = nl ? (size_t)(nl + 1 - txt) : strlen(txt);

				memmove(txt, txt + skip, strlen(txt + skip) + 1);
			}

			if (txt) {
				struct nl_agent_file *nv = realloc(v, (size_t)(n + 1) * sizeof(*v));

				if (!nv) {
					free(txt);
					e = -ENOMEM;
				} else {
					v = nv;
					v[n++] = (struct nl_agent_file){ pid, txt };
				}
			}
		}
		free(ents[i]);
	}
	free(ents);
	if (e) {
		nl_agent_files_free(v, n);
		return e;
	}
	*out = v;
	return n;
}

void nl_agent_files_free(struct nl_agent_file *f, int n)
{
	for (int i = 0; f && i < n; i++)
		free(f[i].text);
	free(f);
}

int nl_agent_files_prune(const char *dir)
{
	struct dirent **ents = NULL;
	int ne, n = 0;

	ne = scandir(dir, &ents, NULL, by_name);
	for (int i = 0; i < ne; i++) {
		char path[4200], tail[64], head[256];
		struct stat st;
		int pid;

		snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
		/* ours only: <pid>.<ext> (and a left-over .tmp), regular files */
		if (sscanf(ents[i]->d_name, "%d.%63s", &pid, tail) == 2 && pid > 0 &&
		    pid != (int)getpid() && read_head(path, head, sizeof(head), &st) &&
		    !writer_alive(pid, head, &st) && !unlink(path))
			n++;
		free(ents[i]);
	}
	free(ents);
	return n;
}
