/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the loader's parts share (loader.c and the per-object steps such as
 * load_vmscan.c): noting a missing figure, sizing a per-CPU map and
 * attaching an object's programs. For the loader only: the other layers
 * use loader.h.
 */
#ifndef NL_LOAD_COMMON_H
#define NL_LOAD_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include "loader_types.h"

struct bpf_map;
struct bpf_object;
struct bpf_program;

/* Append one printf-style reason to @b->missing ("; " between reasons;
 * cut at its size). */
void nl_load_missing(struct nl_bpf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Why a load failed with negative errno @e, for the "missing:" line (a
 * static buffer, valid until the next call). */
const char *nl_load_why(const struct nl_bpf_opts *o, int e);

/* Entries wanted of each preallocated per-CPU hash (before the memory
 * budget), from the host's task and cgroup counts at start (see
 * nl_load_sizes_read()), and the budget in bytes per map. */
struct nl_load_sizes {
	size_t budget;		/* bytes per per-CPU map */
	unsigned ids;		/* keyed by process or cgroup: sched, migrate */
	unsigned alloc;		/* the allocation overflow table */
	unsigned vs_pages;	/* reclaim pages, by cgroup, context and node */
	unsigned vs_time;	/* reclaim episodes, by cgroup and context */
};

struct nl_census;

/* Fill @s for a host with census @c (NULL: not known, every table keeps
 * its compiled size, UINT_MAX here), @nr_nodes possible nodes and @cpus
 * possible CPUs, with @budget bytes per map. */
void nl_load_sizes_for(struct nl_load_sizes *s, const struct nl_census *c, int nr_nodes,
		       int cpus, size_t budget);

/* nl_load_sizes_for() with this host's census (/proc, /sys). */
void nl_load_sizes_read(struct nl_load_sizes *s, int nr_nodes, int cpus, size_t budget);

/* Shrink the per-CPU hash @m to @want entries, and further so that
 * entries * @cpus * @value_size (bytes) fits @budget bytes; never below 256
 * entries, never above its compiled size. */
void nl_load_size_percpu(struct bpf_map *m, int cpus, size_t value_size, size_t budget,
			 unsigned want);

/* Attach every autoloaded program of @obj, keeping the links in @b; a
 * failed attach is noted in @b->missing. Always 0. */
int nl_load_attach_all(struct nl_bpf *b, struct bpf_object *obj);

/* True when one of @b's links runs program @p. */
bool nl_load_attached(const struct nl_bpf *b, const struct bpf_program *p);

#endif
