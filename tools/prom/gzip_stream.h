/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * gzip into a growing buffer, in pieces, for the exporter's compressed
 * responses (zlib, level 2: see gzip_stream.c for why).
 */
#ifndef NL_GZIP_STREAM_H
#define NL_GZIP_STREAM_H

#include <stddef.h>
#include "strbuf.h"

/*
 * gzip fed in pieces: a text gzipped as it is written (an nl_buf drain)
 * need never be held whole. nl_gzip_open() empties @out and
 * returns the stream (NULL: -ENOMEM); nl_gzip_write() appends @n bytes
 * of @p; nl_gzip_close() ends the gzip member in @out and frees the
 * stream (NULL is taken, as -ENOMEM). write and close return 0, -ENOMEM
 * or -EIO; after a failure later writes do nothing and close returns it.
 */
struct nl_gzip;
struct nl_gzip *nl_gzip_open(struct nl_buf *out);
int nl_gzip_write(struct nl_gzip *g, const char *p, size_t n);
int nl_gzip_close(struct nl_gzip *g);

#endif
