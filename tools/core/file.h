/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Reading a small pseudo-file (sysfs, procfs, cgroupfs) in one go: the
 * bottom of the core layer, so topology, procfs and cgroup parsers share it
 * without including each other.
 */
#ifndef NL_FILE_H
#define NL_FILE_H

#include <stddef.h>
#include <sys/types.h>

/*
 * nl_file_read - read up to @len - 1 bytes of @path into @buf, NUL-terminated.
 * Returns the byte count, or -errno (-ENOENT, -EACCES, ...). Content longer
 * than the buffer is truncated silently.
 */
ssize_t nl_file_read(const char *path, char *buf, size_t len);

#endif
