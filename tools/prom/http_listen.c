// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The exporter's listening socket (http_listen.h): --listen parsed
 * (numeric addresses only), the IPv4 fallback of the wildcard, and the
 * socket options that keep idle connections from taking the server's
 * slots. Apart from the server: it is plain sockets, no HTTP.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include "http_listen.h"

/* Split "ADDR:PORT" / ":PORT" / "[V6]:PORT" into @host ("" = any) and @port. */
static int split_listen(const char *s, char *host, size_t hlen, char *port, size_t plen)
{
	const char *colon;
	size_t n;

	if (s[0] == '[') {
		const char *rb = strchr(s, ']');

		if (!rb || rb[1] != ':')
			return -EINVAL;
		n = (size_t)(rb - s - 1);
		if (!n || n >= hlen)	/* "[]:N" names no address */
			return -EINVAL;
		memcpy(host, s + 1, n);
		host[n] = '\0';
		if (!strchr(host, ':'))	/* brackets are for IPv6 only */
			return -EINVAL;
		colon = rb + 1;
	} else {
		colon = strrchr(s, ':');
		if (!colon)
			return -EINVAL;
		n = (size_t)(colon - s);
		if (n >= hlen || memchr(s, ':', n))	/* bare IPv6 needs brackets */
			return -EINVAL;
		memcpy(host, s, n);
		host[n] = '\0';
	}
	n = strlen(colon + 1);
	if (!n || n >= plen || strspn(colon + 1, "0123456789") != n || atol(colon + 1) > 65535)
		return -EINVAL;
	memcpy(port, colon + 1, n + 1);
	return 0;
}

/* The socket address of numeric @host ("" = the IPv6 wildcard) and @port.
 * Numeric only: the binary is static, where name lookups through NSS are
 * unreliable; "localhost" is the one name, as 127.0.0.1. */
static int parse_addr(const char *host, int port, struct sockaddr_storage *ss, socklen_t *len)
{
	struct sockaddr_in *in = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (!strcmp(host, "localhost"))
		host = "127.0.0.1";
	if (!host[0]) {
		in6->sin6_family = AF_INET6;
		in6->sin6_addr = in6addr_any;
		in6->sin6_port = htons((uint16_t)port);
		*len = sizeof(*in6);
		return 0;
	}
	if (inet_pton(AF_INET, host, &in->sin_addr) == 1) {
		in->sin_family = AF_INET;
		in->sin_port = htons((uint16_t)port);
		*len = sizeof(*in);
		return 0;
	}
	if (inet_pton(AF_INET6, host, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((uint16_t)port);
		*len = sizeof(*in6);
		return 0;
	}
	return -EINVAL;
}

int nl_http_listen(const char *listen_s, int defer_s, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	char host[256], port[8];
	int fd, e, one = 1;

	if (split_listen(listen_s, host, sizeof(host), port, sizeof(port)) ||
	    parse_addr(host, atoi(port), &ss, &sl)) {
		snprintf(err, errlen, "--listen '%s' is not ADDR:PORT, :PORT or [IPV6]:PORT "
			 "(ADDR numeric or localhost, PORT 0 to 65535)", listen_s);
		return -EINVAL;
	}
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 && !host[0] && (errno == EAFNOSUPPORT || errno == EINVAL)) {
		/* no IPv6 on this host: the IPv4 wildcard */
		struct sockaddr_in *in = (struct sockaddr_in *)&ss;

		memset(&ss, 0, sizeof(ss));
		in->sin_family = AF_INET;
		in->sin_port = htons((uint16_t)atoi(port));
		sl = sizeof(*in);
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	}
	if (fd < 0) {
		snprintf(err, errlen, "--listen %s: socket: %s", listen_s, strerror(errno));
		return -errno;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	/* HTTP clients speak first: a connection is handed over only once
	 * its first bytes are in, so one that is opened and left idle never
	 * takes a slot while the kernel holds it (up to @defer_s, then it is
	 * handed over and the header timeout runs), and a scraper's
	 * connection arrives with its request already readable, which the
	 * guard never takes */
	setsockopt(fd, IPPROTO_TCP, TCP_DEFER_ACCEPT, &defer_s, sizeof(defer_s));
	if (ss.ss_family == AF_INET6 && !host[0]) {
		int zero = 0;	/* dual-stack: IPv4 clients too */

		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	}
	/* a deep accept queue: when a client floods it with connections,
	 * a scraper's is still queued (and soon taken) rather than dropped,
	 * which costs it a SYN retry of a second or more; the kernel caps
	 * this at net.core.somaxconn */
	if (!bind(fd, (struct sockaddr *)&ss, sl) && !listen(fd, 1024))
		return fd;
	e = -errno;
	close(fd);
	if (e == -EADDRINUSE)
		snprintf(err, errlen, "--listen %s: the port is already in use: pick another with --listen", listen_s);
	else if (e == -EADDRNOTAVAIL)
		snprintf(err, errlen, "--listen %s: not an address of this host (see 'ip addr')", listen_s);
	else if (e == -EACCES)
		snprintf(err, errlen, "--listen %s: ports below 1024 need CAP_NET_BIND_SERVICE", listen_s);
	else
		snprintf(err, errlen, "--listen %s: %s", listen_s, strerror(-e));
	return e;
}
