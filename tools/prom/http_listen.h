/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The exporter's listening socket, opened before the HTTP server starts.
 */
#ifndef NL_HTTP_LISTEN_H
#define NL_HTTP_LISTEN_H

#include <stddef.h>

/* A listening socket on @listen_s ("ADDR:PORT", ":PORT" or "[V6]:PORT";
 * ADDR numeric or "localhost"; empty ADDR: the dual-stack wildcard, or
 * IPv4's without IPv6), accepts deferred up to @defer_s seconds until a
 * client's first bytes arrive. Returns the fd, or -EINVAL (malformed),
 * -EADDRINUSE, -EADDRNOTAVAIL, -EACCES or another -errno with a one-line
 * reason that says what to do in @err. */
int nl_http_listen(const char *listen_s, int defer_s, char *err, size_t errlen);

#endif
