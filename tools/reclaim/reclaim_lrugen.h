/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The lru_gen backend: proactive reclaim through MGLRU's debugfs file
 * (/sys/kernel/debug/lru_gen, Documentation/admin-guide/mm/multigen_lru.rst),
 * which ages and evicts the generations of one memcg's lruvec on one node.
 * Only pages in the oldest generations, i.e. not accessed across the last
 * two agings, are evicted: the kernel's own LRU order, cold pages first.
 * Errors are negative errno values with one line in @err.
 */
#ifndef NL_RECLAIM_LRUGEN_H
#define NL_RECLAIM_LRUGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NL_LRUGEN_PATH "/sys/kernel/debug/lru_gen"
/* Default shortest time between two agings of one lruvec (ms): a page is
 * evicted only when it went untouched for at least this long. */
#define NL_LRUGEN_COLD_MS 1000

/* Generations of one memcg on one node, as the debugfs file lists them. */
struct nl_lrugen_node {
	bool found;		/* the node is listed for the memcg */
	uint64_t min_seq, max_seq;
	uint64_t young_age_ms;	/* age of the youngest generation */
	uint64_t old_anon, old_file;	/* pages in generations <= max_seq - 2 */
	uint64_t anon, file;	/* pages in all generations */
};

/*
 * Parse the lru_gen listing in @f for memcg path @rel ("/a/b", "/" for the
 * root) and node @nid: *@id gets the memcg id (the kernel's mem_cgroup id,
 * not the cgroup inode). Returns 0, or -ENOENT when @rel is not listed.
 */
int nl_lrugen_parse(FILE *f, const char *rel, int nid, unsigned *id, struct nl_lrugen_node *out);

/* Can the backend run: MGLRU on, debugfs lru_gen writable (debugfs is
 * mounted when it is not). 0 or -EOPNOTSUPP with @why. */
int nl_lrugen_probe(char *why, size_t len);

/*
 * Evict up to @bytes of memcg @rel's cold pages on node @nid: age the
 * lruvec when its old generations hold fewer pages than asked and the
 * youngest generation is at least @cold_ms old (so a page still being used
 * is seen used between agings), then evict generations <= max_seq - 2
 * with @swappiness (0: file pages only, for a memcg that cannot swap).
 * *@asked = @bytes. Returns 0, -EINPROGRESS (nothing old enough to evict
 * yet: the next aging is due later), -EAGAIN (nothing on the node),
 * -ENOENT (memcg not listed: gone), -EOPNOTSUPP / -EPERM (the kernel
 * refused the file), or -errno.
 */
int nl_lrugen_reclaim(const char *rel, int nid, uint32_t swappiness, uint32_t cold_ms,
		      uint64_t bytes, uint64_t *asked, char *err, size_t errlen);

/* Unmount debugfs if the probe mounted it. */
void nl_lrugen_cleanup(void);

#endif
