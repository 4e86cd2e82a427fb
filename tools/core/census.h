/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * How many tasks and cgroups the host holds now, cheaply (three small
 * pseudo-files, no directory walk): what the loader sizes the BPF tables
 * keyed by process or cgroup from.
 */
#ifndef NL_CENSUS_H
#define NL_CENSUS_H

/* Counts of the whole host (not of a PID or cgroup namespace: the BPF
 * programs see every task). */
struct nl_census {
	unsigned tasks;		/* every thread, kernel threads included
				 * (loadavg's nr_threads): at least the
				 * number of processes */
	unsigned cgroups;	/* of the largest hierarchy, dying ones
				 * included (they still run exit work) */
};

/*
 * nl_census_read - fill @c from <@proc_root>/loadavg, <@proc_root>/cgroups
 * and the cgroup v2 root's cgroup.stat under <@sys_root>/fs/cgroup (or its
 * unified/ mount of a hybrid host). Roots are "/proc" and "/sys", or
 * fixture trees.
 * Returns 0, or -errno when the task count or every cgroup count cannot be
 * read (then the caller knows nothing of the host's size and keeps its
 * worst case).
 */
int nl_census_read(const char *proc_root, const char *sys_root, struct nl_census *c);

#endif
