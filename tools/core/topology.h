/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * NUMA topology from sysfs: online nodes, their CPUs and memory, the
 * cpu -> node map, and the pfn -> (node, zone) range table that the alloc
 * BPF program searches.
 *
 * Every reader takes the sysfs root ("/sys" normally) so unit tests can point
 * it at a fixture tree. Errors are negative errno values.
 */
#ifndef NL_TOPOLOGY_H
#define NL_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "nl_types.h"
#include "pfn_lookup.h"
#include "pfn_ranges.h"	/* the pfn -> (node, zone) table, built from sysfs */

/* One node of struct nl_topo. */
struct nl_topo_node {
	bool online;
	int nr_cpus;			/* CPUs in cpulist */
	char cpulist[128];		/* sysfs nodeN/cpulist, newline stripped ("" if none) */
	uint8_t *cpus;			/* bitmap of nr_cpu_ids bits (bit c = CPU c), owned */
	uint64_t mem_total_bytes;	/* nodeN/meminfo MemTotal (kB * 1024) */
	uint64_t mem_free_bytes;	/* nodeN/meminfo MemFree (kB * 1024) */
	/* nodeN/distance, indexed by node id: the firmware's SLIT row (10 =
	 * local, 20 = twice as far); 0 where unknown (no such file, a node
	 * not online when it was read). Views show it beside where a task
	 * runs and where its memory is. */
	uint8_t distance[NL_MAX_NODES];
};

/* The machine's NUMA topology. Zero-initialise, fill with nl_topo_load(),
 * release with nl_topo_free(). */
struct nl_topo {
	int nr_nodes;			/* online nodes */
	int nids[NL_MAX_NODES];		/* online node ids, ascending */
	struct nl_topo_node node[NL_MAX_NODES];	/* indexed by node id */
	int nr_cpu_ids;			/* possible CPU ids: 0 .. nr_cpu_ids-1 */
	int *cpu_nid;			/* [nr_cpu_ids]: node of each CPU, -1 if none */
	char err[192];			/* human message for the last error, "" if none */
};

/*
 * nl_topo_load - read the topology under @sysfs_root.
 * @t:          zero-initialised or previously loaded (it is freed first)
 * @sysfs_root: "/sys", or a fixture root holding devices/system/{node,cpu}/...
 *
 * Reads devices/system/node/online (cpulist format), per online node
 * nodeN/cpulist and nodeN/meminfo (MemTotal, MemFree), and the possible CPU
 * count from devices/system/cpu/possible (falling back to the highest CPU in
 * any node cpulist). A machine without devices/system/node (CONFIG_NUMA=n)
 * is reported as one node 0 holding all possible CPUs, memory unknown (0).
 *
 * Each node's CPUs are those of its cpulist that devices/system/cpu/online
 * names (all of them when that file is absent). nodeN/distance fills
 * distance[] (its values are for the online nodes in ascending order); a
 * missing or unparsable file leaves zeros and is no error.
 *
 * Returns 0, or -E2BIG if an online node id is >= NL_MAX_NODES (t->err says
 * which and what the limit is), -EINVAL on unparsable files, -ENOMEM, or another -errno from
 * reading. On error @t is left freed (zeroed) except t->err.
 */
int nl_topo_load(struct nl_topo *t, const char *sysfs_root);

/*
 * nl_topo_node_possible - 1 + the highest node id in
 * devices/system/node/possible under @sysfs_root (falling back to
 * .../online; 1 without devices/system/node, CONFIG_NUMA=n). This is the
 * count per-node BPF values are sized for. Returns it, or -EINVAL on an
 * unparsable list, or another -errno from reading.
 */
int nl_topo_node_possible(const char *sysfs_root);

/*
 * nl_topo_node_limit_check - whether numalens can run on the machine under
 * @sysfs_root: every possible node id below NL_MAX_NODES. Returns the
 * possible node count (as nl_topo_node_possible()), or -E2BIG with a one-line
 * message in @err naming the limit and the highest node id, or another
 * -errno (message in @err).
 */
int nl_topo_node_limit_check(const char *sysfs_root, char *err, size_t errlen);

/*
 * nl_topo_refresh_cpus - follow CPU hotplug: re-read the cpulist of every
 * online node of @t and devices/system/cpu/online, so that each node's mask,
 * nr_cpus and cpulist hold its online CPUs only and the CPU -> node map
 * drops offline CPUs (cheap: one small file per node, once per interval).
 * Returns 0, or -errno of the first failure (@t keeps its old figures for
 * that node).
 */
int nl_topo_refresh_cpus(struct nl_topo *t, const char *sysfs_root);

/*
 * nl_topo_cpulist_format - write bitmap @mask of @nbits bits as a sysfs list
 * ("0-3,8") into @buf of @len bytes ("" when empty; cut short, never
 * overrun, when too long). Returns the number of bits set.
 */
int nl_topo_cpulist_format(const uint8_t *mask, int nbits, char *buf, size_t len);

/*
 * nl_topo_refresh_mem - re-read MemTotal/MemFree of every online node of @t
 * (cheap, once per interval). Returns 0 or -errno of the first failure.
 */
int nl_topo_refresh_mem(struct nl_topo *t, const char *sysfs_root);

/* nl_topo_free - free what nl_topo_load() allocated and zero @t. Safe on a
 * zeroed struct. */
void nl_topo_free(struct nl_topo *t);

/* nl_topo_cpu_nid - node of CPU @cpu, or -1 if unknown/out of range. */
int nl_topo_cpu_nid(const struct nl_topo *t, int cpu);

/*
 * nl_topo_parse_cpulist - parse a sysfs list ("0-3,8,10-11", "" or "\n" = empty)
 * into bitmap @mask of @nbits bits (cleared first; bit b is
 * mask[b / 8] >> (b % 8) & 1). Whitespace around items is allowed.
 *
 * Returns the number of bits set, -EINVAL on bad syntax (including a
 * descending range "5-3"), -ERANGE if an id is >= @nbits.
 */
int nl_topo_parse_cpulist(const char *s, uint8_t *mask, int nbits);

/* nl_topo_cpulist_max - highest id in list @s, -1 if empty, -EINVAL on bad syntax. */
int nl_topo_cpulist_max(const char *s);

/* nl_mask_test - true if bit @bit of bitmap @mask is set. */
static inline bool nl_mask_test(const uint8_t *mask, int bit)
{
	return (mask[bit >> 3] >> (bit & 7)) & 1;
}

#endif /* NL_TOPOLOGY_H */
