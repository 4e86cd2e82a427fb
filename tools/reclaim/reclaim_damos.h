/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The DAMOS reclaim backend (see reclaim_damos.c). Errors: negative errno
 * with one line in @err. */
#ifndef NL_RECLAIM_DAMOS_H
#define NL_RECLAIM_DAMOS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Can DAMOS be used: the sysfs admin tree, a free kdamond slot (we never
 * take over one someone else configured), the paddr operations set, and a
 * memcg filter. 0, or -EOPNOTSUPP / -EBUSY with @why. */
int nl_damos_probe(const char *sysfs, char *why, size_t len);

/*
 * Page out up to @bytes of cgroup @rel (path under the v2 root, as DAMON's
 * memcg_path wants) from the physical range of node @nid: one paddr
 * context, one region, a memcg allow filter and a pageout scheme with a
 * @bytes size quota per second, run until DAMON reports @bytes applied or
 * 3 s passed, then stopped. *@applied = DAMOS sz_applied.
 */
int nl_damos_pageout(const char *sysfs, const char *rel, int nid, uint64_t bytes,
		     uint64_t *applied, char *err, size_t errlen);

/* After a step: true when the kernel charged the size quota with the
 * pages paged out only (quotas/fail_charge_num = 0), so a step frees at
 * most @bytes; false when the quota had to span the node (older kernels:
 * a step can free all the cgroup's pages on the node). */
bool nl_damos_step_bounded(void);

/* Stop and remove the kdamond this process created, if any. */
void nl_damos_cleanup(void);

#endif
