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
 *
 * Only cold pages are advised: a step on a node marks every page it meets
 * idle (/sys/kernel/mm/page_idle/bitmap) and advises those still idle from
 * the previous step there, i.e. not accessed since. Steps on one node are
 * at least cold_ms apart (a sooner one does nothing), so an advised page
 * went untouched for at least that long. Without page_idle (a kernel
 * without CONFIG_IDLE_PAGE_TRACKING, like Debian's) nothing tells hot from
 * cold: every page on the node is advised, and the agent tries this
 * backend only after memory.reclaim (nl_rb_order).
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
#include <time.h>
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
	int idle_fd;		/* /sys/kernel/mm/page_idle/bitmap */
	uint64_t dirty;		/* dirty/writeback file pages skipped */
	uint64_t busy;		/* pages found accessed since the last step (marked) */
};

#define PAGE_IDLE "/sys/kernel/mm/page_idle/bitmap"

/* When each node was last stepped (CLOCK_MONOTONIC ms; 0 = never). */
static uint64_t marked_ms[1024];

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
	m->idle_fd = open(PAGE_IDLE, O_RDWR | O_CLOEXEC);
	e = nl_cgroup_map_build(&m->tree, dir);
	if (e < 0) {
		if (m->idle_fd >= 0)
			close(m->idle_fd);
		close(m->kpc_fd);
		if (m->kpf_fd >= 0)
			close(m->kpf_fd);
		return e;
	}
	return 0;
}

static void memcgs_close(struct memcgs *m)
{
	if (m->idle_fd >= 0)
		close(m->idle_fd);
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

bool nl_madvise_sees_idle(void)
{
	return access(PAGE_IDLE, R_OK | W_OK) == 0;
}

/* True when the page at @pm was not accessed since it was marked idle;
 * otherwise it is marked now (counted in m->busy). */
static bool page_cold(struct memcgs *m, uint64_t pm)
{
	uint64_t pfn = pm & ((1ULL << 55) - 1), w = 0, bit = 1ULL << (pfn % 64);
	off_t off = (off_t)(pfn / 64 * sizeof(w));

	if (m->idle_fd < 0)
		return true;	/* no page_idle: cannot tell (see nl_madvise_pageout) */
	/* reading checks the page's accessed bits and clears idle if set */
	if (pread(m->idle_fd, &w, sizeof(w), off) != sizeof(w))
		return false;
	if (w & bit)
		return true;
	w = bit;	/* bits written as 1 are set, the others left alone */
	if (pwrite(m->idle_fd, &w, sizeof(w), off) == sizeof(w))
		m->busy++;
	return false;
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

/* One process's pageout under way: what it looks for (pages of @nid
 * charged to a memcg of @m, up to @want bytes with *@advised), the page
 * runs gathered for the next process_madvise call, the bytes found but
 * not yet advised, and where the budget stopped it. */
struct po {
	int nid, pidfd, pmfd;
	struct memcgs *m;
	uint64_t want, *advised, found;
	long psz;
	struct iovec iov[MAX_IOV];
	int niov;
	/* Once the budget is spent, a step still takes the rest of the large
	 * folio it is in (kpageflags COMPOUND_TAIL): PAGEOUT of part of one
	 * splits it, unmapping all of it for a few pages freed (a 1 MiB file
	 * folio: 0 freed of 128 KiB asked). */
	bool stop, last_large;
};

/* Advise the gathered runs; what they advised is no longer "found". */
static int po_flush(struct po *s)
{
	uint64_t before = *s->advised;
	int e = flush(s->pidfd, s->iov, &s->niov, s->advised);

	s->found -= *s->advised - before;
	return e;
}

/* Gather the page at @addr: onto the last run when it follows it, else a
 * new run (flushing first when the vector is full). 0 or -errno. */
static int po_add(struct po *s, void *addr)
{
	struct iovec *last = s->niov ? &s->iov[s->niov - 1] : NULL;
	int e;

	if (last && (uint64_t)(uintptr_t)last->iov_base + last->iov_len == (uint64_t)(uintptr_t)addr) {
		last->iov_len += (size_t)s->psz;
		return 0;
	}
	if (s->niov == MAX_IOV && (e = po_flush(s)))
		return e;
	s->iov[s->niov].iov_base = addr;
	s->iov[s->niov++].iov_len = (size_t)s->psz;
	return 0;
}

/* The @k pages at @addrs, with their nodes @status and pagemap entries
 * @pm: the cold ones of ours on the node are gathered, and once the
 * budget is spent only the rest of a large folio. 0 or -errno. */
static int po_chunk(struct po *s, void *const *addrs, const uint64_t *pm, const int *status, int k)
{
	for (int j = 0; j < k && !s->stop; j++) {
		bool spent = *s->advised + s->found >= s->want;
		uint64_t fl;
		int e;

		if (spent && !s->last_large) {
			s->stop = true;
			break;
		}
		if (status[j] != s->nid || !page_ours(s->m, pm[j], &fl) ||
		    (spent && !(fl & 1ULL << KPF_COMPOUND_TAIL)) ||
		    (!spent && !page_cold(s->m, pm[j]))) {
			s->stop = spent;	/* the folio ended */
			continue;
		}
		s->last_large = fl & (1ULL << KPF_COMPOUND_HEAD | 1ULL << KPF_COMPOUND_TAIL);
		s->found += (uint64_t)s->psz;
		if ((e = po_add(s, addrs[j])))
			return e;
	}
	return 0;
}

/* The pages of VMA @v of @pid, CHUNK at a time. 0, or -ESRCH when the
 * process went, or the -errno of an advice; a VMA that went away ends
 * early with 0. */
static int po_vma(struct po *s, pid_t pid, const struct vma *v)
{
	void *addrs[CHUNK];
	uint64_t pm[CHUNK], psz = (uint64_t)s->psz;
	int status[CHUNK], e = 0;

	for (uint64_t a = v->start; a < v->end && !e && !s->stop;) {
		int k = 0;

		for (; k < CHUNK && a + (uint64_t)k * psz < v->end; k++)
			addrs[k] = (void *)(uintptr_t)(a + (uint64_t)k * psz);
		if (syscall(SYS_move_pages, pid, (unsigned long)k, addrs, NULL, status, 0) < 0)
			return errno == ESRCH ? -ESRCH : 0;	/* e.g. a VMA that went away */
		if (pread(s->pmfd, pm, sizeof(pm[0]) * (size_t)k,
			  (off_t)(a / psz * sizeof(pm[0]))) != (ssize_t)(sizeof(pm[0]) * (size_t)k))
			return 0;	/* the VMA went away: next one */
		e = po_chunk(s, addrs, pm, status, k);
		a += (uint64_t)k * psz;
	}
	return e;
}

/* Page out up to @want bytes of @pid's pages on @nid charged to a memcg
 * of @m, in its @shared (or exclusive) VMAs; adds to @advised. */
static int pageout_pid(pid_t pid, int nid, bool shared, bool anon_ok, struct memcgs *m,
		       uint64_t want, uint64_t *advised)
{
	struct po s;
	struct vma *v;
	char p[64];
	int e = 0, n;

	memset(&s, 0, sizeof(s));
	s.nid = nid;
	s.m = m;
	s.want = want;
	s.advised = advised;
	s.psz = sysconf(_SC_PAGESIZE);
	s.pidfd = (int)syscall(SYS_pidfd_open, pid, 0u);
	if (s.pidfd < 0)
		return -ESRCH;
	snprintf(p, sizeof(p), "/proc/%d/pagemap", pid);
	s.pmfd = open(p, O_RDONLY | O_CLOEXEC);
	if (s.pmfd < 0) {
		close(s.pidfd);
		return -ESRCH;
	}
	n = node_vmas(pid, nid, shared, anon_ok, &v);
	if (n < 0) {
		close(s.pmfd);
		close(s.pidfd);
		return n == -ENOENT ? -ESRCH : n;
	}
	for (int i = 0; i < n && !e && !s.stop; i++)
		e = po_vma(&s, pid, &v[i]);
	if (!e)
		e = po_flush(&s);
	free(v);
	close(s.pmfd);
	close(s.pidfd);
	return e;
}

int nl_madvise_pageout(const char *dir, int nid, bool anon_ok, uint32_t cold_ms, uint64_t bytes,
		       uint64_t *advised, char *err, size_t errlen)
{
	pid_t *pids;
	struct memcgs m;
	struct timespec ts;
	uint64_t now_ms;
	int n, live = 0, e;

	*advised = 0;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	now_ms = (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
	if (nid >= 0 && nid < 1024 && marked_ms[nid] && now_ms - marked_ms[nid] < cold_ms &&
	    nl_madvise_sees_idle()) {
		snprintf(err, errlen, "node %d was stepped %" PRIu64 " ms ago: its idle pages are told "
			 "after %u ms", nid, now_ms - marked_ms[nid], cold_ms);
		return -EINPROGRESS;
	}
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
	if (nid >= 0 && nid < 1024)
		marked_ms[nid] = now_ms;
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
