// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The node families of `numalens export`: sysfs numastat and meminfo, the
 * node's CPUs, and the BPF program's preferred-node and per-zone counts
 * set beside the kernel's own.
 */
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include "prom_write.h"
#include "view_prom_node.h"

static void fam_numastat(struct nl_buf *b, const struct nl_snapshot *s)
{
	static const struct { const char *name, *help; size_t off; } f[] = {
#define NS(field, help) { "numalens_node_" #field "_total", help, offsetof(struct nl_numastat, field) }
		NS(numa_hit, "sysfs numastat numa_hit of the node: allocations intended for and placed on it (allocator calls)."),
		NS(numa_miss, "sysfs numastat numa_miss: allocations placed on the node though intended for another (allocator calls)."),
		NS(numa_foreign, "sysfs numastat numa_foreign: allocations intended for the node but placed elsewhere (allocator calls)."),
		NS(interleave_hit, "sysfs numastat interleave_hit: interleave-policy allocations placed on the node (allocator calls)."),
		NS(local_node, "sysfs numastat local_node: allocations on the node from a process running on it (allocator calls)."),
		NS(other_node, "sysfs numastat other_node: allocations on the node from a process running elsewhere (allocator calls)."),
#undef NS
	};
	char nid[16];

	for (size_t k = 0; k < sizeof(f) / sizeof(f[0]); k++) {
		nl_prom_family(b, f[k].name, "counter", f[k].help);
		for (int i = 0; i < s->nr_nodes; i++) {
			snprintf(nid, sizeof(nid), "%d", s->nodes[i].nid);
			nl_prom_sample1_u64(b, f[k].name, "node", nid,
				    *(const uint64_t *)((const char *)&s->nodes[i].numastat_total + f[k].off));
		}
	}
}

static void fam_node_memory(struct nl_buf *b, const struct nl_snapshot *s)
{
	char nid[16];

	nl_prom_family(b, "numalens_node_memory_total_bytes", "gauge", "Memory of the node (sysfs meminfo MemTotal).");
	for (int i = 0; i < s->nr_nodes; i++) {
		snprintf(nid, sizeof(nid), "%d", s->nodes[i].nid);
		nl_prom_sample1_u64(b, "numalens_node_memory_total_bytes", "node", nid, s->nodes[i].mem_total_bytes);
	}
	nl_prom_family(b, "numalens_node_memory_free_bytes", "gauge", "Free memory of the node (sysfs meminfo MemFree).");
	for (int i = 0; i < s->nr_nodes; i++) {
		snprintf(nid, sizeof(nid), "%d", s->nodes[i].nid);
		nl_prom_sample1_u64(b, "numalens_node_memory_free_bytes", "node", nid, s->nodes[i].mem_free_bytes);
	}
	nl_prom_family(b, "numalens_node_cpus", "gauge", "Online CPUs of the node.");
	for (int i = 0; i < s->nr_nodes; i++) {
		snprintf(nid, sizeof(nid), "%d", s->nodes[i].nid);
		nl_prom_sample1_u64(b, "numalens_node_cpus", "node", nid, (uint64_t)s->nodes[i].nr_cpus);
	}
	nl_prom_family(b, "numalens_node_cpu_busy_ratio", "gauge",
		       "Busy share of the node's online CPUs over the last interval (/proc/stat), 0..1; "
		       "no sample for a node without online CPUs.");
	for (int i = 0; i < s->nr_nodes; i++) {
		if (!isfinite(s->nodes[i].cpu_busy_pct))
			continue;
		snprintf(nid, sizeof(nid), "%d", s->nodes[i].nid);
		nl_prom_open(b, "numalens_node_cpu_busy_ratio", NULL);
		nl_prom_label(b, "node", nid);
		nl_prom_close_dbl(b, s->nodes[i].cpu_busy_pct / 100.0, 4);
	}
}

/* Hit, miss and foreign against the preferred node, per node, as the
 * BPF program counts them: the twins of the numastat families above, so a
 * dashboard can set one beside the other. */
static void fam_node_preferred(struct nl_buf *b, const struct nl_snapshot *s)
{
	static const struct { const char *name, *help; size_t off; } f[] = {
#define PN(n, field, help) { "numalens_node_preferred_" n "_total", help, offsetof(struct nl_node, field) }
		PN("hits", bpf_events_hit_total,
		   "Page-allocator calls that placed the page on this node, the node the task's memory policy "
		   "preferred (every call counted at mm_page_alloc, at any sample period; "
		   "compare numalens_node_numa_hit_total)."),
		PN("misses", bpf_events_miss_total,
		   "Page-allocator calls that placed the page on this node though the task's memory policy "
		   "preferred another (every call counted at mm_page_alloc, at any sample period; "
		   "compare numalens_node_numa_miss_total)."),
		PN("foreign", bpf_events_foreign_total,
		   "Page-allocator calls whose task's memory policy preferred this node but got a page on "
		   "another (every call counted at mm_page_alloc, at any sample period; "
		   "compare numalens_node_numa_foreign_total)."),
#undef PN
	};

	if (!s->src.alloc)
		return;
	for (size_t k = 0; k < sizeof(f) / sizeof(f[0]); k++) {
		nl_prom_family(b, f[k].name, "counter", f[k].help);
		for (int i = 0; i < s->nr_nodes; i++) {
			nl_prom_open(b, f[k].name, NULL);
			nl_prom_label_u64(b, "node", (uint64_t)s->nodes[i].nid);
			nl_prom_close_u64(b, *(const uint64_t *)((const char *)&s->nodes[i] + f[k].off));
		}
	}
}

/* Pages each node handed out by zone (BPF, monotonic while numalens runs);
 * the zone label is the name /proc/zoneinfo gives. */
static void fam_node_zones(struct nl_buf *b, const struct nl_snapshot *s)
{
	static const char name[] = "numalens_node_zone_pages_total";

	if (!s->src.alloc || !s->nr_zones)
		return;
	nl_prom_family(b, name, "counter",
		       "Base pages allocated from the node by zone (every mm_page_alloc event, at any sample "
		       "period; compare with vmstat pgalloc_<zone>).");
	for (int i = 0; i < s->nr_nodes; i++)
		for (int z = 0; z < s->nr_zones; z++) {
			nl_prom_open(b, name, NULL);
			nl_prom_label_u64(b, "node", (uint64_t)s->nodes[i].nid);
			nl_prom_label(b, "zone", s->zone_names[z]);
			nl_prom_close_u64(b, s->nodes[i].bpf_pages_by_zone_total[z]);
		}
	nl_prom_family(b, "numalens_zone_pgalloc_pages_total", "counter",
		       "The kernel's own count of base pages allocated from each zone, all nodes summed "
		       "(/proc/vmstat pgalloc_<zone>, since boot): the check on numalens_node_zone_pages_total.");
	for (int z = 0; z < s->nr_zones; z++)
		nl_prom_sample1_u64(b, "numalens_zone_pgalloc_pages_total", "zone", s->zone_names[z],
				    s->pgalloc_total[z]);
}

void nl_prom_node_render(struct nl_buf *b, const struct nl_snapshot *s)
{
	fam_numastat(b, s);
	fam_node_memory(b, s);
	fam_node_preferred(b, s);
	fam_node_zones(b, s);
}
