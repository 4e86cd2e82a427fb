/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * procfs / sysfs / cgroupfs readers that user space cross-checks the BPF
 * counts with: numa_maps, node numastat, memory.numa_stat, /proc/stat CPU
 * times, comm, pid liveness, /proc/PID/cgroup and sysctls
 *
 * Every reader takes a root ("/proc", "/sys") or a full path so unit tests
 * can use fixture trees. Errors are negative errno values.
 */
#ifndef NL_PROCFS_H
#define NL_PROCFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "file.h"
#include "names.h"
#include "nl_types.h"

/* sysfs numastat counters of one node (deltas over the interval), the
 * kernel's own view beside the BPF counts (one event per allocator call). */
struct nl_numastat {
	uint64_t numa_hit, numa_miss, numa_foreign;
	uint64_t interleave_hit, local_node, other_node;
};

struct nl_topo;


/*
 * nl_proc_numa_maps_read - resident pages per node of process @pid, summed over
 * all lines of <procfs_root>/<pid>/numa_maps ("N<nid>=<pages>" items).
 * @pages_by_node: output, zeroed first, in base pages (sysconf page size).
 *   A line's counts are in units of its mapping's page size
 *   (kernelpagesize_kB); hugetlb lines (kernelpagesize_kB=2048 or 1048576)
 *   are scaled to base pages by kernelpagesize_kB / (page_size / 1024).
 *   Node ids >= NL_MAX_NODES are ignored.
 * Returns 0 (also for kernel threads: empty file, all zeros), -ENOENT or
 * -ESRCH if the process is gone, -EACCES/-EPERM without permission, -errno.
 */
int nl_proc_numa_maps_read(const char *procfs_root, pid_t pid, uint64_t pages_by_node[NL_MAX_NODES]);

/* Longest memory policy text kept: the kernel formats it in 64 bytes. */
#define NL_MEMPOLICY_MAX 64

/* A process' memory policies as numa_maps' second column writes them
 * ("default", "bind:1", "prefer:0", "interleave:0-3", "local",
 * "weighted interleave:0-1", "prefer (many):0,2", mode flags as in
 * "bind=static:1"). */
struct nl_mempolicy {
	/* the policy on the most lines: the task's own, which every mapping
	 * without a policy of its own shows; "" when the file had no lines
	 * (a kernel thread) */
	char task[NL_MEMPOLICY_MAX];
	/* of the mappings whose policy differs from task (set with mbind),
	 * the policy holding the most resident pages (the first such line's
	 * when none has pages); "" when every line agrees */
	char vma[NL_MEMPOLICY_MAX];
};

/* nl_proc_numa_maps_read_policy - nl_proc_numa_maps_read() that also fills @pol
 * (zeroed first; NULL skips it) from the same single read of the file. */
int nl_proc_numa_maps_read_policy(const char *procfs_root, pid_t pid, uint64_t pages_by_node[NL_MAX_NODES],
			     struct nl_mempolicy *pol);

/*
 * nl_proc_numastat_read - <sysfs_root>/devices/system/node/node<nid>/numastat
 * (numa_hit, numa_miss, numa_foreign, interleave_hit, local_node,
 * other_node; events, absolute since boot) into @out (zeroed first; missing
 * keys stay 0, unknown keys are ignored).
 * Returns 0, -ENOENT if the node has no numastat, -ENODATA if no known key
 * was found, or -errno.
 */
int nl_proc_numastat_read(const char *sysfs_root, int nid, struct nl_numastat *out);

/*
 * nl_proc_memcg_numa_stat_read - per-node anon and file memory of one memory
 * cgroup, from its memory.numa_stat file @path, in bytes.
 * Both formats:
 *  - cgroup v2: "<key> N0=<bytes> N1=<bytes> ..." per key; uses "anon" and
 *    "file" (v2 "file" includes shmem).
 *  - cgroup v1: "<key>=<pages> N0=<pages> ..."; uses hierarchical_anon and
 *    hierarchical_file when present (our cgroup figures are hierarchical),
 *    else anon and file; pages * @page_size. (v1 "anon"/"file" are the LRU
 *    lists: shmem counts as anon there.)
 * @anon_bytes, @file_bytes: outputs, zeroed first; node ids >= NL_MAX_NODES
 * are ignored.
 * Returns 1 for a v2 file, 2 for v1 (>0 = success), -ENODATA if neither
 * anon nor file was found, -ENOENT if @path does not exist, or -errno.
 */
int nl_proc_memcg_numa_stat_read(const char *path, uint64_t anon_bytes[NL_MAX_NODES],
			    uint64_t file_bytes[NL_MAX_NODES], long page_size);

/* Busy and total jiffies of one CPU (USER_HZ ticks) from /proc/stat. */
struct nl_cpu_times {
	bool present;		/* a "cpuN" line existed (online CPU) */
	uint64_t busy;		/* user+nice+system+irq+softirq+steal */
	uint64_t total;		/* busy + idle + iowait (guest time is inside user/nice) */
};

/*
 * nl_proc_cpu_times_read - per-CPU times from <procfs_root>/stat into @out[0..max_cpus)
 * (zeroed first; CPU c goes to out[c]; CPUs >= max_cpus are ignored).
 * Returns the highest CPU id seen + 1 (capped at @max_cpus), or -errno
 * (-ENODATA if there is no cpuN line).
 */
int nl_proc_cpu_times_read(const char *procfs_root, struct nl_cpu_times *out, int max_cpus);

/*
 * nl_proc_node_busy_pct - per-node CPU busy percentage between two /proc/stat
 * readings: 100 * Σ_cpu∈node Δbusy / Σ_cpu∈node Δtotal.
 * @t:         topology (cpu -> node)
 * @prev/@cur: readings of @n entries each (CPU c at index c); CPUs not
 *             present in both are skipped; a counter going backwards counts 0
 * @pct:       output indexed by node id; nodes not online, without CPUs or
 *             with Δtotal == 0 get NAN
 * Returns the number of nodes with a value.
 */
int nl_proc_node_busy_pct(const struct nl_topo *t, const struct nl_cpu_times *prev,
		     const struct nl_cpu_times *cur, int n, double pct[NL_MAX_NODES]);

/* nl_proc_pid_alive - true if <procfs_root>/<pid> exists and the task is not a
 * zombie/dead (state Z or X in <pid>/stat). */
bool nl_proc_pid_alive(const char *procfs_root, pid_t pid);

/*
 * nl_proc_start_ticks - when process @pid started: field 22 of
 * <procfs_root>/<pid>/stat, clock ticks (sysconf(_SC_CLK_TCK)) since boot.
 * With the pid it names one process for the whole boot (a later process
 * given the same pid starts later), and no wall clock step moves it.
 * Returns 0, -ENOENT if gone, -EINVAL if unparsable, or -errno.
 */
int nl_proc_start_ticks(const char *procfs_root, pid_t pid, uint64_t *ticks);

/* nl_proc_boot_id - this boot's random id (<procfs_root>/sys/kernel/random/boot_id,
 * newline cut) in @buf; "" when it cannot be read. */
void nl_proc_boot_id(const char *procfs_root, char *buf, size_t len);

/*
 * nl_proc_start_ns - when process @pid started, in ns since boot (field 22
 * of <procfs_root>/<pid>/stat, in clock ticks, so 1/CLK_TCK s resolution;
 * the kernel counts it on CLOCK_BOOTTIME). Lets a reader tell a pid's
 * current process from an earlier one that had the same pid. Returns 0,
 * -ENOENT if gone, -EINVAL if unparsable, or -errno.
 */
int nl_proc_start_ns(const char *procfs_root, pid_t pid, uint64_t *boot_ns);

/*
 * nl_proc_list_pids - numeric entries of @procfs_root (thread-group ids).
 * Fills up to @max into @out (any order). Returns the total number found
 * (may exceed @max: call again with a larger array) or -errno.
 */
int nl_proc_list_pids(const char *procfs_root, pid_t *out, int max);

/*
 * nl_proc_read_pid_list - the pids a cgroup.procs file (or any file of one
 * decimal number a line) lists, appended to *@v (grown with realloc;
 * *@n entries, *@cap slots). Lets a reader learn the cgroup of every
 * process of a cgroup with one read instead of one /proc/<pid>/cgroup
 * per process. Returns how many were appended, -ENOMEM (the list keeps
 * what it had), or the -errno of the open or read (-EOPNOTSUPP: a
 * threaded cgroup v2, whose cgroup.procs cannot be read).
 */
int nl_proc_read_pid_list(const char *path, pid_t **v, int *n, int *cap);

/*
 * nl_proc_statm_resident - resident pages of process @pid, the second field of
 * <procfs_root>/<pid>/statm (pages of the kernel's page size; 0 for a
 * kernel thread). Cheap beside numa_maps: used to rank processes by size
 * before reading their numa_maps. Returns 0, or -errno (-ENOENT if gone,
 * -EINVAL if unparsable).
 */
int nl_proc_statm_resident(const char *procfs_root, pid_t pid, uint64_t *pages);

/*
 * nl_proc_rss_comm - resident pages and comm of process @pid from one read
 * of <procfs_root>/<pid>/stat. The rss field (24) is 0 for a kernel thread
 * and otherwise close to statm's resident pages but not equal: the kernel
 * reads its per-CPU counters without summing them here (tens of pages
 * apart on a 6.18 host), so it ranks processes by size and tells kernel
 * threads apart, and statm stays the exact figure. The comm is what
 * <pid>/comm gives, truncated to @len - 1. Returns 0, or -errno (-ENOENT
 * if gone, -EINVAL if unparsable).
 */
int nl_proc_rss_comm(const char *procfs_root, pid_t pid, uint64_t *pages, char *comm, size_t len);

/* nl_proc_read_comm - <procfs_root>/<pid>/comm without the newline into @out
 * (truncated to @len - 1). Returns 0 or -errno (-ENOENT if gone). */
int nl_proc_read_comm(const char *procfs_root, pid_t pid, char *out, size_t len);

/* nl_proc_tgid - the process (thread group) id of thread @tid, from the
 * "Tgid:" line of <procfs_root>/<tid>/status; @tid itself for a process.
 * Returns 0, -ENOENT if gone, -EINVAL if the line is missing, or -errno. */
int nl_proc_tgid(const char *procfs_root, pid_t tid, pid_t *tgid);

/*
 * nl_proc_cgroup_path - the cgroup path of @pid from <procfs_root>/<pid>/cgroup
 * (@pid 0: <procfs_root>/self/cgroup, ours). In a cgroup namespace the path
 * is relative to the namespace's root (see nl_cgroup_ns_prefix).
 * @mode: NL_CG_V2 -> the "0::<path>" line; NL_CG_V1_MEMORY -> the
 *        "<id>:<controllers>:<path>" line whose comma-separated controller
 *        list contains "memory".
 * @out:  path relative to the hierarchy's mount, e.g. "/" or "/a/b"
 * Returns 0, -ENOENT if the process is gone or has no such line,
 * -ENAMETOOLONG if @len is too small, -EINVAL for a bad mode, or -errno.
 */
int nl_proc_cgroup_path(const char *procfs_root, pid_t pid, int mode, char *out, size_t len);

/* The parts of a process nl_proc_ident_read() reads (@want, ->got). */
#define NL_IDENT_COMM	0x1u	/* <pid>/comm, cleaned (names.h) */
#define NL_IDENT_CGROUP	0x2u	/* <pid>/cgroup: the path in one hierarchy */
#define NL_IDENT_STATM	0x4u	/* <pid>/statm: resident pages */
#define NL_IDENT_NUMA	0x8u	/* <pid>/numa_maps: RSS per node, memory policy */

/* Who a process is and what it holds, as nl_proc_ident_read() read it. */
struct nl_proc_ident {
	char comm[NL_NAME_MAX];			/* cleaned, as every output prints it */
	char cgroup[4096];			/* as nl_proc_cgroup_path() gives it */
	uint64_t statm_pages;			/* resident pages (kernel page size) */
	uint64_t pages_by_node[NL_MAX_NODES];	/* as nl_proc_numa_maps_read() gives them */
	struct nl_mempolicy pol;
	unsigned got;				/* NL_IDENT_* parts read */
};

/*
 * nl_proc_ident_read - the parts @want (NL_IDENT_*) of process @pid in one
 * call, in the order comm, cgroup (of hierarchy @cg_mode, as for
 * nl_proc_cgroup_path), statm, numa_maps, so a collector places a process
 * with one call instead of a reader per field. A part that says the
 * process is gone (-ENOENT, -ESRCH) ends the read. @id->got says which
 * parts were read; with NL_IDENT_NUMA asked, pages and policy are zero
 * unless read. Returns 0 when every asked part was read, else the -errno
 * of the first part that was not.
 */
int nl_proc_ident_read(const char *procfs_root, pid_t pid, int cg_mode, unsigned want,
		       struct nl_proc_ident *id);

/*
 * nl_proc_sysctl_read_long - read integer sysctl @name ("kernel/numa_balancing"
 * or "kernel.numa_balancing") from <procfs_root>/sys/ into @val.
 * Returns 0, -ENOENT if the sysctl does not exist, -EINVAL if not a number.
 */
int nl_proc_sysctl_read_long(const char *procfs_root, const char *name, long *val);

/*
 * nl_proc_sysctl_read_int - like nl_proc_sysctl_read_long() but returns the value
 * itself (>= 0) or -errno; only for non-negative sysctls such as
 * kernel.numa_balancing (0, 1, 2, 3) and vm.numa_stat (0, 1).
 */
int nl_proc_sysctl_read_int(const char *procfs_root, const char *name);

#endif /* NL_PROCFS_H */
