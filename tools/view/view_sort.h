/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Ordering and filtering of the rows every view shows. Pure functions over
 * a const snapshot: they produce index arrays and never reorder the
 * snapshot itself, so several views can share one snapshot.
 */
#ifndef NL_VIEW_SORT_H
#define NL_VIEW_SORT_H

#include <stdbool.h>
#include <sys/types.h>
#include "snapshot.h"

/*
 * Sort keys. The first five sit on numatop's number keys 1..5 by meaning
 * (RMA -> remote allocations, LMA -> local, RMA/LMA -> remote ratio,
 * CPI -> locality as the "quality" figure, CPU%), so numatop users' fingers
 * keep working; 6..9 are ours. Key k is on number key k + 1.
 */
enum nl_sort_key {
	NL_SORT_REMOTE_RATE = 0,	/* remote allocated pages / s, descending */
	NL_SORT_LOCAL_RATE,		/* local allocated pages / s, descending */
	NL_SORT_REMOTE_RATIO,		/* pages_remote / (local + remote), descending */
	NL_SORT_LOCALITY,		/* locality mean, ascending: worst first */
	NL_SORT_CPU,			/* CPU%, descending (the default, as numatop) */
	NL_SORT_RUNTIME,		/* run_ns_total, descending */
	NL_SORT_RSS,			/* resident pages (cgroups: anon+file bytes), descending */
	NL_SORT_MIGRATIONS,		/* migrated pages ok + failed, descending */
	NL_SORT_PID,			/* pid ascending (cgroups: path ascending) */
	NL_NR_SORT_KEYS,
};

/* Rows a view shows. Zeroed means "everything". */
struct nl_filter {
	pid_t pid;			/* > 0: only this process */
	char cgroup[4096];		/* non-empty: only this cgroup path and below */
	char comm[64];			/* non-empty: only processes whose name contains it */
	const char *chain_of;		/* non-NULL: only the cgroup with this full
					 * path (nl_cgroup_full_path(), never a
					 * cut or cleaned label) and its ancestors
					 * (the cgroups of the process -p names, in
					 * the batch view; points into the snapshot) */
};

/* Options common to the text, JSON and TUI views. */
struct nl_view_opts {
	enum nl_sort_key sort;
	struct nl_filter filter;
	int top_n;			/* > 0: at most this many process/cgroup rows */
	/* the full-screen view marks (colour and '!') a row's remote share
	 * of allocations at or above alert_remote_pct, and its fault
	 * locality at or below alert_locality_pct (both percent) */
	int alert_remote_pct;
	int alert_locality_pct;
};

/* Alerts by default: a quarter of the allocations remote, or fault
 * locality at half or worse (a task touching remote pages as often as
 * local ones). */
#define NL_ALERT_REMOTE_PCT 25
#define NL_ALERT_LOCALITY_PCT 50

/* Fill @o with the defaults: sort by CPU%, no filter, all rows, the
 * alerts above. */
void nl_view_opts_default(struct nl_view_opts *o);

/* Sort key bound to number key @ch ('1'..'9'); -1 for any other char. */
int nl_sort_key_from_char(int ch);

/* Short column-style name of @k ("CPU%", "RMT/s", ...); "?" if out of range. */
const char *nl_sort_key_name(enum nl_sort_key k);

/* What @k sorts by, in a few words for the help screen; "?" if out of range. */
const char *nl_sort_key_about(enum nl_sort_key k);

/*
 * Parse filter text as typed after '/' or given to -p/-c: all digits is a
 * pid, a string starting with '/' a cgroup path prefix, anything else a
 * part of a process name (cgroups are then not filtered), empty clears.
 * Returns 0, or -EINVAL (bad text, @f untouched) or -ENAMETOOLONG.
 */
int nl_sort_filter_parse(struct nl_filter *f, const char *text);

/* True when @f is not empty. */
bool nl_sort_filter_active(const struct nl_filter *f);

/*
 * True when @path is @prefix or lies below it, comparing whole path
 * components: "/a" covers "/a" and "/a/b" but not "/ab". "/" covers all.
 */
bool nl_sort_cgroup_under(const char *path, const char *prefix);

/* Filter tests: a process needs both pid and cgroup to match; a cgroup
 * only the cgroup prefix (a pid filter alone keeps every cgroup). */
bool nl_sort_filter_proc(const struct nl_filter *f, const struct nl_proc *p);
/* nl_sort_filter_proc_in - nl_sort_filter_proc() with the cgroup path taken from
 * @s's cgroup row of @p's cgroup id (its full path, not the cleaned or cut
 * label @p carries), so -c matches a process in a cgroup whose name needed
 * escaping or is longer than the label; the label when @s has no such row. */
bool nl_sort_filter_proc_in(const struct nl_snapshot *s, const struct nl_filter *f,
		       const struct nl_proc *p);
bool nl_sort_filter_cgroup(const struct nl_filter *f, const struct nl_cgroup *c);

/*
 * Write to @idx (room for s->nr_procs) the indexes of the processes that
 * pass @f (NULL: all), ordered by @key with ties broken by pid ascending.
 * Returns how many were written, or -EINVAL.
 */
int nl_sort_procs(const struct nl_snapshot *s, enum nl_sort_key key,
		  const struct nl_filter *f, int *idx);

/*
 * Same for cgroups (@idx has room for s->nr_cgroups). With @tree the result
 * stays a pre-order walk (every cgroup right after its parent) and @key
 * orders siblings only; a cgroup whose parent is filtered out or unknown is
 * placed as a top-level row. Without @tree it is a flat ranking.
 * Returns the count, or -EINVAL / -ENOMEM.
 */
int nl_sort_cgroups(const struct nl_snapshot *s, enum nl_sort_key key,
		    const struct nl_filter *f, bool tree, int *idx);

#endif /* NL_VIEW_SORT_H */
