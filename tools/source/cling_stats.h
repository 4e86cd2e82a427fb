/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Reading scx_cling's statistics from user space: from the maps it pins
 * under /sys/fs/bpf/scx_cling/ (layout: sched_ext/scx_cling.h), or from
 * map fds (the loader itself). The one reader behind `scx_cling --delay`,
 * `scx_cling --monitor` and `numalens export`.
 */
#ifndef NL_CLING_STATS_H
#define NL_CLING_STATS_H

#include <stdbool.h>
#include <stdint.h>
#include "scx_cling.h"

/*
 * struct nl_cling_node - one node, summed over CPUs (monotonic counts since
 * attach, except the gauges).
 * @queued:      tasks in the node's DSQ at the latest sample (gauge)
 * @busy_groups: NUMA groups for which this node is busy now (gauge)
 * @home_groups: NUMA groups whose home is this node now (gauge)
 * The rest: see struct cling_node_stats.
 */
struct nl_cling_node {
	uint64_t enqueued, local, remote, cling_hits, attempts, failures, queued, home_ignored;
	uint32_t busy_groups, home_groups;
};

/*
 * struct nl_cling_group - one NUMA group.
 * @cgid:    cgroup id (v2 inode number)
 * @home:    home node, -1 if none
 * @busiest: busiest node, -1 if none yet
 * @failure, @total: decayed weights per node (1024 per event)
 * @ratio:   failure * 100 / (total + 1) per node, percent
 * @busy:    cling_busy() per node at the scheduler's degree
 * @pages:   resident pages per node the loader last wrote (0 if unknown)
 */
struct nl_cling_group {
	uint64_t cgid;
	int32_t home, busiest;
	uint64_t failure[CLING_MAX_NODES], total[CLING_MAX_NODES];
	uint32_t ratio[CLING_MAX_NODES];
	bool busy[CLING_MAX_NODES];
	uint64_t pages[CLING_MAX_NODES];
};

/*
 * struct nl_cling_stats - a snapshot of scx_cling.
 * @info:      scheduler facts (nr_nodes, degree, decay_ms, wait bound)
 * @node:      per node, [0, info.nr_nodes)
 * @groups:    @nr_groups groups, sorted by cgid (malloc'ed: nl_cling_stats_free)
 */
struct nl_cling_stats {
	struct cling_info info;
	struct nl_cling_node node[CLING_MAX_NODES];
	struct nl_cling_group *groups;
	int nr_groups;
};

/*
 * nl_cling_stats_read - read the maps pinned in @pin_dir (CLING_PIN_DIR
 * normally) into @out. Returns 0; -ENOENT when scx_cling is not running
 * (no pins, or the pinning loader is gone: its pid is free or now names a
 * process that started at another time); -EACCES/-EPERM without
 * privileges; -ENOMEM; another negative errno from the bpf syscalls.
 * On error @out holds nothing to free.
 */
int nl_cling_stats_read(const char *pin_dir, struct nl_cling_stats *out);

/*
 * nl_cling_stats_read_fds - the same from open map fds (info, nodes,
 * groups, gmem; gmem may be -1). Does not check the loader pid.
 * Returns 0 or a negative errno.
 */
int nl_cling_stats_read_fds(int info_fd, int nodes_fd, int groups_fd, int gmem_fd,
			    struct nl_cling_stats *out);

/*
 * nl_cling_stats_fold - derive the gauges: for each group its ratio[] and
 * busy[] from failure/total/busiest at @s->info.degree (cling.h), then per
 * node busy_groups and home_groups. Pure; called by the readers, exported
 * for tests.
 */
void nl_cling_stats_fold(struct nl_cling_stats *s);

/*
 * nl_cling_loader_start - start time of process @pid in clock ticks since
 * boot (field 22 of /proc/PID/stat), what cling_info.loader_start holds;
 * 0 when there is no such process.
 */
uint64_t nl_cling_loader_start(uint32_t pid);

/* nl_cling_stats_free - free @s->groups; @s may be zeroed or NULL. */
void nl_cling_stats_free(struct nl_cling_stats *s);

#endif /* NL_CLING_STATS_H */
