/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The cgroup hierarchy numalens keys by (v2, or the v1 memory controller
 * on hybrid hosts), its mount point, and the place of our cgroup
 * namespace in it. Errors are negative errno values.
 */
#ifndef NL_CGROUP_MOUNT_H
#define NL_CGROUP_MOUNT_H

#include <stddef.h>
#include "nl_types.h"

/*
 * nl_cgroup_detect - choose the cgroup hierarchy to key by.
 * @mounts_path: "/proc/self/mounts" or a fixture with the same format
 * @mode:        output, enum nl_cgroup_mode
 * @root:        output, mount point of the chosen hierarchy (octal escapes
 *               such as \040 decoded), @len bytes
 *
 * Rules, in order: a cgroup2 mount whose cgroup.controllers lists "memory"
 * (pure v2, e.g. /sys/fs/cgroup in the VM) -> NL_CG_V2; else a v1 mount
 * with the "memory" option (hybrid host: /sys/fs/cgroup/memory) ->
 * NL_CG_V1_MEMORY; else any cgroup2 mount -> NL_CG_V2.
 * Returns 0, -ENOENT if no cgroup mount qualifies, -ENAMETOOLONG if @len is
 * too small, or -errno from reading @mounts_path.
 */
int nl_cgroup_detect(const char *mounts_path, enum nl_cgroup_mode *mode, char *root, size_t len);

/*
 * nl_cgroup_find_mount - mount point of the hierarchy @mode names, for an
 * explicit --cgroup-hierarchy: the first cgroup2 mount (NL_CG_V2) or v1
 * mount with the "memory" option (NL_CG_V1_MEMORY) in @mounts_path, into
 * @out (@len bytes). Returns 0, -ENOENT if none, or -errno from reading.
 */
int nl_cgroup_find_mount(const char *mounts_path, int mode, char *out, size_t len);

/*
 * nl_cgroup_is_root - whether the directory @mnt (a cgroup mount point) is
 * its hierarchy's root: kernfs gives every hierarchy's root inode 1. A
 * container's own cgroup mount (made inside its cgroup namespace) shows
 * only the container's subtree, whose top is some other cgroup, so labels
 * read there would not be the host's. Returns 1, 0, or -errno from stat.
 */
int nl_cgroup_is_root(const char *mnt);

/*
 * nl_cgroup_ns_prefix - where our cgroup namespace's root sits in the
 * hierarchy mounted at @root (@mode: enum nl_cgroup_mode), as a path
 * relative to the mount ("" when /proc/<pid>/cgroup paths are relative to
 * the mount already: no cgroup namespace, or one rooted at the top).
 * In a cgroup namespace /proc/<pid>/cgroup reads "/" for our own cgroup and
 * "/../x" outside the namespace, while the host's hierarchy mounted at
 * @root shows full paths: the prefix is the path of the cgroup whose
 * cgroup.procs lists our pid, less our own /proc/self/cgroup path.
 * Cost: one cgroup.procs read, or one per cgroup when namespaced.
 * Returns 0, -ENOENT (no cgroup under @root lists us: @root is not the
 * hierarchy we are in), -EINVAL (our own path climbs above the namespace),
 * -ENAMETOOLONG, or -errno.
 */
int nl_cgroup_ns_prefix(const char *procfs_root, const char *root, int mode, char *out, size_t len);

/*
 * nl_cgroup_ns_join - the hierarchy path of @rel, a /proc/<pid>/cgroup path
 * read in a cgroup namespace whose root is @prefix (from
 * nl_cgroup_ns_prefix), into @out: "." and ".." resolved, "/" for the
 * root. Returns 0, -EINVAL (".." above the hierarchy's root) or
 * -ENAMETOOLONG.
 */
int nl_cgroup_ns_join(const char *prefix, const char *rel, char *out, size_t len);

#endif
