// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Probing and dispatching the reclaim backends (reclaim_backend.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "reclaim_backend.h"
#include "reclaim_cg.h"
#include "reclaim_damos.h"
#include "reclaim_lrugen.h"
#include "reclaim_madvise.h"
#include "caps.h"
#include <linux/capability.h>

const char *nl_rb_name(enum nl_rb_kind k)
{
	static const char *const n[NL_RB_NR] = { "damos", "madvise", "memcg", "lru_gen" };

	return k < NL_RB_NR ? n[k] : "none";
}

int nl_rb_order[NL_RB_NR] = { NL_RB_LRUGEN, NL_RB_DAMOS, NL_RB_MADVISE, NL_RB_MEMCG };

static const char *sysfs_root = "/sys";

/* madvise works on other processes' memory: process_madvise() asks for
 * CAP_SYS_NICE, reading and advising a process that holds capabilities
 * we lack asks for CAP_SYS_PTRACE, and pagemap shows page frame numbers
 * (which node a page is on, which memcg it is charged to) only to
 * CAP_SYS_ADMIN. Without one of them it would only ever fail or find no
 * page: say which is missing. */
static bool madvise_caps(char *why, size_t len)
{
	static const int caps[] = { CAP_SYS_NICE, CAP_SYS_PTRACE, CAP_SYS_ADMIN };
	static const char *const names[] = { "CAP_SYS_NICE", "CAP_SYS_PTRACE", "CAP_SYS_ADMIN" };
	char miss[48];

	if (!nl_caps_missing(caps, names, 3, miss, sizeof(miss)))
		return true;
	snprintf(why, len, "process_madvise and pagemap need CAP_SYS_NICE, CAP_SYS_PTRACE, CAP_SYS_ADMIN; lacking %s", miss);
	return false;
}

void nl_rb_probe_all(struct nl_rb_probe *p, bool v1, const char *sysfs)
{
	memset(p, 0, sizeof(*p));
	sysfs_root = sysfs;
	p->ok[NL_RB_LRUGEN] = nl_lrugen_probe(p->why[NL_RB_LRUGEN], sizeof(p->why[0])) == 0;
	if (v1)
		snprintf(p->why[NL_RB_DAMOS], sizeof(p->why[0]),
			 "DAMOS memcg filters take cgroup v2 paths; this is the v1 memory hierarchy");
	else
		p->ok[NL_RB_DAMOS] = nl_damos_probe(sysfs, p->why[NL_RB_DAMOS], sizeof(p->why[0])) == 0;
	/* process_madvise and move_pages exist when the syscalls answer
	 * something other than ENOSYS to an invalid call. */
	if (syscall(SYS_process_madvise, -1, NULL, 0, 0, 0u) < 0 && errno == ENOSYS)
		snprintf(p->why[NL_RB_MADVISE], sizeof(p->why[0]), "no process_madvise (5.10+)");
	else if (syscall(SYS_move_pages, 0, 0UL, NULL, NULL, NULL, 0) < 0 && errno == ENOSYS)
		snprintf(p->why[NL_RB_MADVISE], sizeof(p->why[0]), "no move_pages (CONFIG_MIGRATION)");
	else
		p->ok[NL_RB_MADVISE] = madvise_caps(p->why[NL_RB_MADVISE], sizeof(p->why[0]));
	/* without page_idle madvise cannot tell cold pages from hot: the
	 * kernel's own LRU order (memory.reclaim, memcg-wide) goes first */
	if (!nl_madvise_sees_idle()) {
		nl_rb_order[2] = NL_RB_MEMCG;
		nl_rb_order[3] = NL_RB_MADVISE;
	}
	if (v1)
		snprintf(p->why[NL_RB_MEMCG], sizeof(p->why[0]), "no memory.reclaim in cgroup v1");
	else
		p->ok[NL_RB_MEMCG] = true;	/* per cgroup: -EOPNOTSUPP before 5.19 */
}

int nl_rb_reclaim(enum nl_rb_kind k, const struct nl_rb_target *t, uint64_t bytes,
		  uint64_t *asked, char *err, size_t errlen)
{
	int e;

	*asked = 0;
	if (access(t->dir, F_OK)) {
		snprintf(err, errlen, "cgroup %s disappeared", t->rel);
		return -ENOENT;
	}
	switch (k) {
	case NL_RB_DAMOS:
		return nl_damos_pageout(sysfs_root, t->rel, t->nid, bytes, asked, err, errlen);
	case NL_RB_LRUGEN:
		e = nl_lrugen_reclaim(t->rel, t->nid, t->anon_ok ? t->swappiness : 0,
				      t->cold_ms ? t->cold_ms : NL_LRUGEN_COLD_MS, bytes, asked, err, errlen);
		/* the debugfs path names v2 memcgs; a v1 path that is not
		 * listed is not "gone": the cgroup directory still exists */
		return e == -ENOENT && !access(t->dir, F_OK) ? -EOPNOTSUPP : e;
	case NL_RB_MADVISE:
		return nl_madvise_pageout(t->dir, t->nid, t->anon_ok,
					  t->cold_ms ? t->cold_ms : NL_LRUGEN_COLD_MS, bytes, asked, err, errlen);
	case NL_RB_MEMCG:
		*asked = bytes;
		e = nl_rcg_reclaim(t->dir, bytes);
		if (e && e != -EAGAIN)
			snprintf(err, errlen, "memory.reclaim of %s refused: %s", t->rel, strerror(-e));
		return e;
	default:
		snprintf(err, errlen, "no backend");
		return -EINVAL;
	}
}

void nl_rb_cleanup(void)
{
	nl_damos_cleanup();
	nl_lrugen_cleanup();
}
