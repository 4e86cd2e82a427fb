// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The madvise backend: process_madvise(MADV_PAGEOUT) on the pages of a
 * cgroup's tasks that sit on one node. numa_maps says which VMAs hold pages
 * on the node, move_pages(2) with nodes == NULL says where each page is,
 * and runs of pages on the node become the iovecs. Pages shared with
 * processes outside the cgroup are left alone by the kernel (PAGEOUT only
 * reclaims pages mapped once), so other cgroups are not touched.
 *
 * A step is bounded in advised bytes, and the kernel's PAGEOUT does not say
 * what it skipped, so VMAs whose pages are all mapped once (numa_maps has
 * no "mapmax=") go first, over every task, and shared VMAs (a program's
 * text and data mapped by each of its processes) only after: otherwise the
 * shared text on the node, which PAGEOUT never frees, can fill every step
 * before the tasks' private memory is reached.
 *
 * PAGEOUT frees a page mapped once whoever it is charged to: page cache a
 * task maps but another cgroup read first is charged there. So each page's
 * memcg is checked (pagemap -> pfn -> /proc/kpagecgroup, the inode of the
 * memcg's cgroup directory) against the cgroup and its descendants, and
 * pages charged elsewhere are never advised: the agent touches no other
 * cgroup. Without /proc/kpagecgroup (CONFIG_MEMCG off) that check is not
 * possible and the step is refused.
 *
 * Dirty and writeback file pages are skipped too (/proc/kpageflags): the
 * PAGEOUT path does not write file pages back, so it would only unmap them
 * (the task's mapping torn down, nothing freed). They are counted, and a
 * step that came up short says so. Dirtiness still in a PTE (a write
 * through a shared mapping) is not visible there and not skipped. The
 * same flags tell where a large folio ends: a step finishes the one it is
 * in, since advising part of one splits it and frees next to nothing.
 */
#include <errno.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include "cgroup.h"
#include "reclaim_cg.h"
#include "reclaim_madvise.h"

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif
#define CHUNK 512	/* pages per move_pages call */
#define MAX_IOV 512	/* below UIO_MAXIOV (1024) */

struct vma {
	uint64_t start, end;
};

/* What a step checks each page against: the memcgs it may take pages from
 * (the cgroup directory and its descendants, by the project's cgroup
 * walker; ids = kernfs ids = the inodes /proc/kpagecgroup reports),
 * /proc/kpagecgroup, and /proc/kpageflags for dirty pages and folio ends. */
struct memcgs {
	struct nl_cgroup_map tree;
	int kpc_fd;
	int kpf_fd;		/* /proc/kpageflags, -1 if unreadable */
	uint64_t dirty;		/* dirty/writeback file pages skipped */
};

/* /proc/kpageflags bits (Documentation/admin-guide/mm/pagemap.rst) */
#define KPF_DIRTY	4
#define KPF_WRITEBACK	8
#define KPF_ANON	12
#define KPF_SWAPBACKED	14
#define KPF_COMPOUND_HEAD	15
#define KPF_COMPOUND_TAIL	16

/* Fill @m for cgroup directory @dir. Returns 0, -ENOENT (cgroup gone),
 * -EOPNOTSUPP (no /proc/kpagecgroup) or -errno of the walk. */
static int memcgs_open(struct memcgs *m, const char *dir)
{
	int e;

	memset(m, 0, sizeof(*m));
	m->kpc_fd = open("/proc/kpagecgroup", O_RDONLY | O_CLOEXEC);
	if (m->kpc_fd < 0)
		return -EOPNOTSUPP;
	m->kpf_fd = open("/proc/kpageflags", O_RDONLY | O_CLOEXEC);
	e = nl_cgroup_map_build(&m->tree, dir);
	if (e < 0) {
		close(m->kpc_fd);
		if (m->kpf_fd >= 0)
			close(m->kpf_fd);
		return e;
	}
	return 0;
}

static void memcgs_close(struct memcgs *m)
{
	close(m->kpc_fd);
	if (m->kpf_fd >= 0)
		close(m->kpf_fd);
	nl_cgroup_map_free(&m->tree);
}

/* True when the page at pagemap entry @pm is present, charged to a memcg
 * of @m and not a dirty or writeback file page (counted in m->dirty).
 * *@fl = its /proc/kpageflags word (0 if unreadable). */
static bool page_ours(struct memcgs *m, uint64_t pm, uint64_t *fl)
{
	uint64_t pfn = pm & ((1ULL << 55) - 1), ino;

	*fl = 0;
	if (!(pm >> 63) || !pfn)	/* not present, or no pfn (no CAP_SYS_ADMIN) */
		return false;
	if (pread(m->kpc_fd, &ino, sizeof(ino), (off_t)(pfn * sizeof(ino))) != sizeof(ino))
		return false;
	if (nl_cgroup_map_index(&m->tree, ino) < 0)
		return false;
	if (m->kpf_fd < 0 || pread(m->kpf_fd, fl, sizeof(*fl), (off_t)(pfn * sizeof(*fl))) != sizeof(*fl))
		return true;
	if ((*fl & (1ULL << KPF_DIRTY | 1ULL << KPF_WRITEBACK)) &&
	    !(*fl & (1ULL << KPF_ANON | 1ULL << KPF_SWAPBACKED))) {
		m->dirty++;
		return false;
	}
	return true;
}

/* VMAs of @pid with pages on @nid (numa_maps "N<nid>=" > 0) whose pages
 * are mapped more than once somewhere (@shared) or all mapped once (not
 * @shared); ends from maps. Returns the count or -errno; *@out is malloc'd. */
static int node_vmas(pid_t pid, int nid, bool shared, bool anon_ok, struct vma **out)
{
	char p[64], line[2048], key[16];
	FILE *f;
	struct vma *v = NULL;
	int n = 0, cap = 0;

	*out = NULL;
	snprintf(p, sizeof(p), "/proc/%d/numa_maps", pid);
	snprintf(key, sizeof(key), " N%d=", nid);
	f = fopen(p, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		uint64_t start;

		if (!strstr(line, key) || !strstr(line, " mapmax=") != !shared ||
		    (!anon_ok && !strstr(line, " file=")) || sscanf(line, "%" SCNx64, &start) != 1)
			continue;
		if (n == cap) {
			struct vma *nv = realloc(v, sizeof(*v) * (size_t)(cap = cap ? cap * 2 : 64));

			if (!nv) {
				free(v);
				fclose(f);
				return -ENOMEM;
			}
			v = nv;
		}
		v[n].start = start;
		v[n++].end = 0;
	}
	fclose(f);
	snprintf(p, sizeof(p), "/proc/%d/maps", pid);
	f = fopen(p, "re");
	if (!f) {
		free(v);
		return -errno;
	}
	/* both files list VMAs in address order */
	for (int i = 0; fgets(line, sizeof(line), f) && i < n;) {
		uint64_t s, e;

		if (sscanf(line, "%" SCNx64 "-%" SCNx64, &s, &e) != 2)
			continue;
		if (s == v[i].start)
			v[i++].end = e;
	}
	fclose(f);
	*out = v;
	return n;
}

static int flush(int pidfd, struct iovec *iov, int *niov, uint64_t *advised)
{
	ssize_t r;

	if (!*niov)
		return 0;
	r = syscall(SYS_process_madvise, pidfd, iov, (size_t)*niov, MADV_PAGEOUT, 0u);
	*niov = 0;
	if (r < 0)
		return -errno;
	*advised += (uint64_t)r;
	return 0;
}

/* Page out up to @want bytes of @pid's pages on @nid charged to a memcg
 * of @m, in its @shared (or exclusive) VMAs; adds to @advised. */
static int pageout_pid(pid_t pid, int nid, bool shared, bool anon_ok, struct memcgs *m,
		       uint64_t want, uint64_t *advised)
{
	long psz = sysconf(_SC_PAGESIZE);
	struct iovec iov[MAX_IOV];
	void *addrs[CHUNK];
	uint64_t pm[CHUNK];
	int status[CHUNK], niov = 0, e = 0, pidfd, pmfd, n;
	struct vma *v;
	char p[64];

	pidfd = (int)syscall(SYS_pidfd_open, pid, 0u);
	if (pidfd < 0)
		return -ESRCH;
	snprintf(p, sizeof(p), "/proc/%d/pagemap", pid);
	pmfd = open(p, O_RDONLY | O_CLOEXEC);
	if (pmfd < 0) {
		close(pidfd);
		return -ESRCH;
	}
	n = node_vmas(pid, nid, shared, anon_ok, &v);
	if (n < 0) {
		close(pmfd);
		close(pidfd);
		return n == -ENOENT ? -ESRCH : n;
	}
	uint64_t found = 0;
	/* Once the budget is spent, a step still takes the rest of the large
	 * folio it is in (kpageflags COMPOUND_TAIL): PAGEOUT of part of one
	 * splits it, unmapping all of it for a few pages freed (a 1 MiB file
	 * folio: 0 freed of 128 KiB asked). */
	bool stop = false, last_large = false;

	for (int i = 0; i < n && !e && !stop; i++) {
		for (uint64_t a = v[i].start; a < v[i].end && !e && !stop;) {
			int k = 0;

			for (; k < CHUNK && a + (uint64_t)k * (uint64_t)psz < v[i].end; k++)
				addrs[k] = (void *)(uintptr_t)(a + (uint64_t)k * (uint64_t)psz);
			if (syscall(SYS_move_pages, pid, (unsigned long)k, addrs, NULL, status, 0) < 0) {
				e = errno == ESRCH ? -ESRCH : 0;	/* e.g. a VMA that went away */
				break;
			}
			if (pread(pmfd, pm, sizeof(pm[0]) * (size_t)k,
				  (off_t)(a / (uint64_t)psz * sizeof(pm[0]))) != (ssize_t)(sizeof(pm[0]) * (size_t)k))
				break;	/* the VMA went away: next one */
			for (int j = 0; j < k && !stop; j++) {
				uint64_t pa = (uint64_t)(uintptr_t)addrs[j], fl;
				bool spent = *advised + found >= want;

				if (spent && !last_large) {
					stop = true;
					break;
				}
				if (status[j] != nid || !page_ours(m, pm[j], &fl) ||
				    (spent && !(fl & 1ULL << KPF_COMPOUND_TAIL))) {
					stop = spent;	/* the folio ended */
					continue;
				}
				last_large = fl & (1ULL << KPF_COMPOUND_HEAD | 1ULL << KPF_COMPOUND_TAIL);
				found += (uint64_t)psz;
				if (niov && (uint64_t)(uintptr_t)iov[niov - 1].iov_base +
						    iov[niov - 1].iov_len == pa) {
					iov[niov - 1].iov_len += (size_t)psz;
					continue;
				}
				if (niov == MAX_IOV) {
					uint64_t before = *advised;

					e = flush(pidfd, iov, &niov, advised);
					found -= *advised - before;
					if (e)
						break;
				}
				iov[niov].iov_base = addrs[j];
				iov[niov++].iov_len = (size_t)psz;
			}
			a += (uint64_t)k * (uint64_t)psz;
		}
	}
	if (!e) {
		uint64_t before = *advised;

		e = flush(pidfd, iov, &niov, advised);
		found -= *advised - before;
	}
	free(v);
	close(pmfd);
	close(pidfd);
	return e;
}

int nl_madvise_pageout(const char *dir, int nid, bool anon_ok, uint64_t bytes, uint64_t *advised,
		       char *err, size_t errlen)
{
	pid_t *pids;
	struct memcgs m;
	int n, live = 0, e;

	*advised = 0;
	e = memcgs_open(&m, dir);
	if (e == -EOPNOTSUPP) {
		snprintf(err, errlen, "no /proc/kpagecgroup: cannot tell which cgroup a page is charged to");
		return -EOPNOTSUPP;
	}
	if (e) {
		snprintf(err, errlen, "cannot walk %s: %s", dir, strerror(-e));
		return e;
	}
	n = nl_rcg_procs(dir, &pids);
	if (n < 0) {
		memcgs_close(&m);
		snprintf(err, errlen, "cannot read %s/cgroup.procs: %s", dir, strerror(-n));
		return n == -ENOENT ? -ENOENT : n;
	}
	/* pass 0: the exclusive VMAs of every task; pass 1: the shared ones */
	for (int pass = 0; pass < 2 && !e; pass++) {
		live = 0;
		for (int i = 0; i < n && *advised < bytes; i++) {
			int r = pageout_pid(pids[i], nid, pass, anon_ok, &m, bytes, advised);

			if (r == -ESRCH)
				continue;	/* the task exited meanwhile: next one */
			live++;
			if (r == -EPERM || r == -EINVAL || r == -ENOSYS) {
				snprintf(err, errlen, "process_madvise(MADV_PAGEOUT) refused by the kernel: %s",
					 strerror(-r));
				e = r == -ENOSYS ? -EOPNOTSUPP : r;
				break;
			}
		}
		if (*advised >= bytes)
			break;
	}
	free(pids);
	memcgs_close(&m);
	if (!e && !live && n > 0 && !*advised) {
		snprintf(err, errlen, "every task of the cgroup exited during the step");
		return -ESRCH;
	}
	if (!e && n == 0) {
		snprintf(err, errlen, "no task in the cgroup to page out from (only page cache left?)");
		return -ESRCH;
	}
	if (!e && *advised < bytes && m.dirty)	/* the step came up short: say why */
		snprintf(err, errlen, "skipped %" PRIu64 " KiB of dirty or writeback file pages mapped on node %d "
			 "(counted per mapping): MADV_PAGEOUT frees them only once written back (the flusher, or sync)",
			 m.dirty * (uint64_t)sysconf(_SC_PAGESIZE) / 1024, nid);
	return e;
}
