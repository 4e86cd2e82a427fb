/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The HTTP side of `numalens export`, on libmicrohttpd: GET/HEAD of
 * /metrics, / and /healthz, 404 elsewhere, 405 for other methods, gzip
 * when the client's Accept-Encoding allows it. Connections are served by
 * an epoll thread pool with a connection cap and an idle timeout, so a
 * client that sends half a request and stalls holds one slot until the
 * timeout, never a thread.
 *
 * With a web configuration the server speaks TLS (GnuTLS, 1.2 or later),
 * may demand a client certificate signed by the configured CA, and
 * answers 401 on every path to a request without a valid basic-auth user.
 */
#ifndef NL_HTTP_SERVER_H
#define NL_HTTP_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include "strbuf.h"
#include "gzip_stream.h"	/* nl_gzip_*, the stream nl_http_gzip() uses */
#include "web_config.h"

/* A response body the server does not own: it is sent as is and
 * release(cls) is called once the server is done with it. A gzip body
 * with plain_len set also serves clients that do not take gzip: the
 * server inflates it as it sends, a block at a time, so that only the
 * compressed form needs to stay in memory. */
struct nl_http_body {
	const char *p;
	size_t len;
	bool gzip;			/* p is gzip-encoded */
	size_t plain_len;		/* gzip: the inflated length in bytes; 0:
					 * unknown (then served to gzip clients only) */
	void (*release)(void *cls);
	void *cls;
};

/* What the server serves; the callbacks run on server threads, concurrently. */
struct nl_http_routes {
	/* Point @out at the /metrics body (Prometheus text, or gzip of it
	 * when @gzip_ok or its plain_len is set). Shared bodies keep
	 * memory flat under many concurrent scrapes. 0, -EAGAIN (nothing to
	 * serve yet: 503) or -errno (500). */
	int (*metrics)(void *ctx, bool gzip_ok, struct nl_http_body *out);
	/* Append the / page (HTML) to @out. 0 or -errno. */
	int (*index)(void *ctx, struct nl_buf *out);
	/* Append a one-line health message; return true when healthy (200),
	 * false for 503. */
	bool (*health)(void *ctx, struct nl_buf *out);
	void *ctx;
};

struct nl_http_opts {
	const char *listen;		/* "ADDR:PORT", ":PORT" (all addresses), "[V6]:PORT" */
	unsigned max_conns;		/* concurrent connections; 0 = 128 */
	unsigned max_per_addr;		/* of them from one client address; 0 = half max_conns */
	unsigned header_timeout_ms;	/* from accept or the last response to a
					 * request's complete headers; 0 = 5000 */
	unsigned timeout_s;		/* idle connection timeout; 0 = 10 */
	unsigned threads;		/* thread pool size; 0 = 2 */
	bool verbose;			/* libmicrohttpd's own messages on stderr */
	const struct nl_web_config *web;	/* TLS and users; NULL: plain HTTP,
						 * open. Must outlive the server */
	struct nl_http_routes routes;
};

struct nl_http;

/*
 * Bind @o->listen and start serving. Returns 0 and sets *@out, or -EINVAL
 * (malformed address or port; ADDR must be numeric or "localhost"),
 * -EADDRINUSE (port taken), -EADDRNOTAVAIL (not an address of this host),
 * -EACCES (privileged port) or another -errno; @err gets a one-line reason.
 */
int nl_http_start(struct nl_http **out, const struct nl_http_opts *o, char *err, size_t errlen);

/* Stop accepting, finish or drop open connections, free. Safe on NULL. */
void nl_http_stop(struct nl_http *h);

/* The port actually bound (useful with port 0). */
int nl_http_port(const struct nl_http *h);

/* nl_http_ipv6 - true when @h listens on an IPv6 socket (for an empty
 * ADDR: the dual-stack wildcard; false when it fell back to IPv4). */
bool nl_http_ipv6(const struct nl_http *h);

/* True if an Accept-Encoding header value @ae accepts gzip (a "gzip" or
 * "*" token without q=0). NULL: false. */
bool nl_http_accepts_gzip(const char *ae);

/* gzip @in (@len bytes) into @out (replaced). 0 or -ENOMEM/-EIO. */
int nl_http_gzip(const char *in, size_t len, struct nl_buf *out);

#endif
