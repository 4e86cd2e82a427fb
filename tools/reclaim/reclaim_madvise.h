/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The madvise reclaim backend (see reclaim_madvise.c). */
#ifndef NL_RECLAIM_MADVISE_H
#define NL_RECLAIM_MADVISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Page out up to @bytes of the pages on node @nid mapped by the tasks of
 * cgroup @dir (its cgroup.procs, not descendants) and charged to @dir or a
 * descendant (/proc/kpagecgroup: pages charged to other cgroups are never
 * advised). *@advised = bytes handed to process_madvise. Returns 0,
 * -ENOENT (cgroup gone), -ESRCH (no task left to act on), -EPERM /
 * -EINVAL / -EOPNOTSUPP (kernel refused, or no /proc/kpagecgroup), -errno;
 * one line in @err on failure. Tasks exiting mid-step are skipped.
 * Without @anon_ok (no swap for this cgroup) anonymous VMAs are skipped:
 * PAGEOUT cannot free their pages, and they would fill every step.
 */
int nl_madvise_pageout(const char *dir, int nid, bool anon_ok, uint64_t bytes, uint64_t *advised,
		       char *err, size_t errlen);

#endif
