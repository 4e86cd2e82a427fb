// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Whole-file reads for the sysfs/procfs parsers; see file.h. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "file.h"

ssize_t nl_file_read(const char *path, char *buf, size_t len)
{
	size_t off = 0;
	int fd;

	if (!len)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (off < len - 1) {
		ssize_t r = read(fd, buf + off, len - 1 - off);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			close(fd);
			buf[0] = '\0';
			return r;
		}
		if (r == 0)
			break;
		off += (size_t)r;
	}
	close(fd);
	buf[off] = '\0';
	return (ssize_t)off;
}
