/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The cgroup hierarchy numalens keys by (v2, or the v1 memory controller
 * on hybrid hosts), its mount point, and paths read in a cgroup namespace
 * joined to it. Errors are negative errno values.
 */
#ifndef NL_CGROUP_MOUNT_H
#define NL_CGROUP_MOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include "nl_types.h"

/*
 * nl_mount_detect - choose the cgroup hierarchy to key by.
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
int nl_mount_detect(const char *mounts_path, enum nl_cgroup_mode *mode, char *root, size_t len);

/*
 * nl_mount_find - mount point of the hierarchy @mode names, for an
 * explicit --cgroup-hierarchy: the first cgroup2 mount (NL_CG_V2) or v1
 * mount with the "memory" option (NL_CG_V1_MEMORY) in @mounts_path, into
 * @out (@len bytes). Returns 0, -ENOENT if none, or -errno from reading.
 */
int nl_mount_find(const char *mounts_path, int mode, char *out, size_t len);

/*
 * nl_mount_is_root - whether the directory @mnt (a cgroup mount point) is
 * its hierarchy's root: kernfs gives every hierarchy's root inode 1. A
 * container's own cgroup mount (made inside its cgroup namespace) shows
 * only the container's subtree, whose top is some other cgroup, so labels
 * read there would not be the host's. Returns 1, 0, or -errno from stat.
 */
int nl_mount_is_root(const char *mnt);

/*
 * nl_mount_ns_join - the hierarchy path of @rel, a /proc/<pid>/cgroup path
 * read in a cgroup namespace whose root is @prefix (from
 * nl_cgroup_ns_prefix), into @out: "." and ".." resolved, "/" for the
 * root. Returns 0, -EINVAL (".." above the hierarchy's root) or
 * -ENAMETOOLONG.
 */
int nl_mount_ns_join(const char *prefix, const char *rel, char *out, size_t len);

#endif
