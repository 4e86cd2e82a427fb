/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Connection guard of the export's HTTP server: keeps a client that opens
 * many connections, or holds them without finishing a request, from
 * locking scrapers out. libmicrohttpd's own limits do not: at its
 * connection cap it stops accepting (a scraper then waits in the listen
 * backlog until a slot frees), its timeout restarts at every byte (a
 * client that sends one header byte every few seconds holds a slot for
 * hours), and its per-address cap refuses the newcomer, not the idler.
 *
 * The guard tracks every open connection and whether a request is in
 * progress on it. A connection is "waiting" from its accept, or from the
 * end of its last response, until its next request's headers are in.
 * Then:
 *  - a connection that keeps waiting longer than the header timeout is
 *    shut down (nl_http_guard_sweep), however slowly it trickles bytes;
 *  - a new connection beyond the per-address cap shuts down the oldest
 *    waiting connection of that address, and one beyond the total cap
 *    the oldest waiting one of any address; when there is none to take
 *    (every connection is in the middle of a request), the new one is
 *    shut down instead.
 * A waiting connection costs its client nothing to reopen, so taking it
 * loses no work; a connection whose request is being answered is never
 * taken. Shutting down is shutdown(2) on the socket: libmicrohttpd sees
 * the end of the stream and closes the connection itself.
 *
 * Thread-safe: the calls come from the server's threads concurrently.
 */
#ifndef NL_HTTP_GUARD_H
#define NL_HTTP_GUARD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

struct nl_http_guard;
struct nl_http_conn;

/* Counts since the guard was made. */
struct nl_http_guard_stats {
	unsigned open;			/* tracked and not shut down */
	unsigned long timed_out;	/* waited past the header timeout */
	unsigned long displaced;	/* waiting, taken for a newer connection */
	unsigned long refused;		/* new, shut down: nothing to take */
};

/*
 * A guard for at most @max_conns connections, @per_addr of them from one
 * client address, each waiting at most @header_ms milliseconds for a
 * request. All three > 0. NULL on -ENOMEM.
 */
struct nl_http_guard *nl_http_guard_new(unsigned max_conns, unsigned per_addr, uint64_t header_ms);

/* Free @g (the connections it tracks must be closed). Safe on NULL. */
void nl_http_guard_free(struct nl_http_guard *g);

/*
 * Connection @fd from @sa (NULL: unknown) was accepted at @now_ms
 * (CLOCK_MONOTONIC). Applies the caps, which may shut down an older
 * connection or this one. Returns its handle for the calls below, NULL
 * when out of memory (the connection is then shut down, untracked).
 */
struct nl_http_conn *nl_http_guard_opened(struct nl_http_guard *g, int fd, const struct sockaddr *sa,
					  uint64_t now_ms);

/* @c's request headers are in: it is not waiting until nl_http_guard_idle. */
void nl_http_guard_busy(struct nl_http_guard *g, struct nl_http_conn *c);

/* @c's request ended at @now_ms: it waits for the next from now on. */
void nl_http_guard_idle(struct nl_http_guard *g, struct nl_http_conn *c, uint64_t now_ms);

/* @c is being closed (its fd is still open): forget and free it. NULL: no-op. */
void nl_http_guard_closed(struct nl_http_guard *g, struct nl_http_conn *c);

/* Shut down the connections that have waited @header_ms or more by @now_ms.
 * Returns how many. */
unsigned nl_http_guard_sweep(struct nl_http_guard *g, uint64_t now_ms);

/* A copy of @g's counts. */
struct nl_http_guard_stats nl_http_guard_stats(struct nl_http_guard *g);

#endif
