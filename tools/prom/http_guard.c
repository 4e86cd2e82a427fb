// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Connection guard of the export's HTTP server; see http_guard.h. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include "http_guard.h"

/* A connection this young may be a request the server has read and not
 * answered yet: taken only when nothing better is there. */
#define YOUNG_MS 100
/* More unread bytes than a scraper's request ever has (Prometheus sends
 * about 300): oversized headers. */
#define REQUEST_MAX 4096

struct nl_http_conn {
	struct nl_http_conn *prev, *next;
	int fd;
	unsigned char addr[16];	/* IPv6, IPv4 as ::ffff:a.b.c.d */
	bool busy;		/* a request is in progress */
	bool down;		/* shut down by us; not closed yet */
	uint64_t since_ms;	/* accepted, or its last request ended */
};

struct nl_http_guard {
	pthread_mutex_t mu;
	struct nl_http_conn *head, *tail;
	unsigned max_conns, per_addr;
	uint64_t header_ms;
	struct nl_http_guard_stats st;
};

struct nl_http_guard *nl_http_guard_new(unsigned max_conns, unsigned per_addr, uint64_t header_ms)
{
	struct nl_http_guard *g = calloc(1, sizeof(*g));

	if (!g)
		return NULL;
	pthread_mutex_init(&g->mu, NULL);
	g->max_conns = max_conns ? max_conns : 1;
	g->per_addr = per_addr ? per_addr : 1;
	g->header_ms = header_ms ? header_ms : 1;
	return g;
}

void nl_http_guard_free(struct nl_http_guard *g)
{
	if (!g)
		return;
	while (g->head) {
		struct nl_http_conn *c = g->head;

		g->head = c->next;
		free(c);
	}
	pthread_mutex_destroy(&g->mu);
	free(g);
}

/* One key per client host: an IPv4 client reached over the dual-stack
 * socket (::ffff:a.b.c.d) and over an IPv4 one count as the same. */
static void addr_key(const struct sockaddr *sa, unsigned char key[16])
{
	memset(key, 0, 16);
	if (sa && sa->sa_family == AF_INET) {
		key[10] = key[11] = 0xff;
		memcpy(key + 12, &((const struct sockaddr_in *)sa)->sin_addr, 4);
	} else if (sa && sa->sa_family == AF_INET6) {
		memcpy(key, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
	}
}

/* Under mu: shut @c down; libmicrohttpd closes it when it reads the end. */
static void take_down(struct nl_http_guard *g, struct nl_http_conn *c)
{
	shutdown(c->fd, SHUT_RDWR);
	c->down = true;
	g->st.open--;
}

/* Bytes that have arrived on @c and that the server has not read yet. */
static int unread(const struct nl_http_conn *c)
{
	int n = 0;

	return ioctl(c->fd, FIONREAD, &n) || n < 0 ? 0 : n;
}

/* Under mu: true when @c may be taken for a newcomer (other than @self;
 * with @addr, of that address only). */
static bool takeable(const struct nl_http_conn *c, const struct nl_http_conn *self, const unsigned char *addr)
{
	return c != self && !c->busy && !c->down && (!addr || !memcmp(c->addr, addr, 16));
}

/*
 * Under mu: the connection to take for a newcomer at @now_ms. Unread
 * bytes (arrived, not read by the server yet) mostly mean a request is
 * arriving: the listen socket hands a connection over only once its
 * first bytes are in, so a scraper's connection starts with its request
 * unread, and for a few milliseconds after the server reads it, before
 * it is answered, it looks like a young connection with nothing unread.
 * So, by preference:
 *  1. the oldest with nothing unread that has waited YOUNG_MS or more
 *     (an idle or trickling client);
 *  2. the one with the most unread, when that is more than any scrape
 *     request sends (a client sending oversized headers);
 *  3. the oldest with nothing unread;
 *  4. the oldest.
 * NULL: none.
 */
static struct nl_http_conn *victim(struct nl_http_guard *g, const struct nl_http_conn *self,
				   const unsigned char *addr, uint64_t now_ms)
{
	struct nl_http_conn *oldest = NULL, *idle_old = NULL, *most = NULL, *idle = NULL;
	int most_n = 0;

	for (struct nl_http_conn *c = g->head; c; c = c->next)
		if (takeable(c, self, addr) && (!oldest || c->since_ms < oldest->since_ms))
			oldest = c;
	/* the usual case, one call: the oldest has idled or trickled a while */
	if (!oldest || (now_ms >= oldest->since_ms + YOUNG_MS && !unread(oldest)))
		return oldest;
	for (struct nl_http_conn *c = g->head; c; c = c->next) {
		int n;

		if (!takeable(c, self, addr))
			continue;
		n = unread(c);
		if (!n && (!idle || c->since_ms < idle->since_ms))
			idle = c;
		if (!n && now_ms >= c->since_ms + YOUNG_MS && (!idle_old || c->since_ms < idle_old->since_ms))
			idle_old = c;
		if (n > most_n) {
			most = c;
			most_n = n;
		}
	}
	if (idle_old)
		return idle_old;
	if (most_n > REQUEST_MAX)
		return most;
	return idle ? idle : oldest;
}

struct nl_http_conn *nl_http_guard_opened(struct nl_http_guard *g, int fd, const struct sockaddr *sa,
					  uint64_t now_ms)
{
	struct nl_http_conn *c = calloc(1, sizeof(*c)), *v;
	unsigned same = 0;

	if (!c) {
		shutdown(fd, SHUT_RDWR);
		return NULL;
	}
	c->fd = fd;
	c->since_ms = now_ms;
	addr_key(sa, c->addr);
	pthread_mutex_lock(&g->mu);
	c->prev = g->tail;
	if (g->tail)
		g->tail->next = c;
	else
		g->head = c;
	g->tail = c;
	g->st.open++;
	for (struct nl_http_conn *o = g->head; o; o = o->next)
		same += !o->down && !memcmp(o->addr, c->addr, 16);
	if (same > g->per_addr || g->st.open > g->max_conns) {
		/* over the address' share: make room within that address,
		 * so that one client's crowd only ever displaces itself */
		v = victim(g, c, same > g->per_addr ? c->addr : NULL, now_ms);
		if (v) {
			take_down(g, v);
			g->st.displaced++;
		} else {
			take_down(g, c);
			g->st.refused++;
		}
	}
	pthread_mutex_unlock(&g->mu);
	return c;
}

void nl_http_guard_busy(struct nl_http_guard *g, struct nl_http_conn *c)
{
	if (!c)
		return;
	pthread_mutex_lock(&g->mu);
	c->busy = true;
	pthread_mutex_unlock(&g->mu);
}

void nl_http_guard_idle(struct nl_http_guard *g, struct nl_http_conn *c, uint64_t now_ms)
{
	if (!c)
		return;
	pthread_mutex_lock(&g->mu);
	c->busy = false;
	c->since_ms = now_ms;
	pthread_mutex_unlock(&g->mu);
}

void nl_http_guard_closed(struct nl_http_guard *g, struct nl_http_conn *c)
{
	if (!c)
		return;
	pthread_mutex_lock(&g->mu);
	if (c->prev)
		c->prev->next = c->next;
	else
		g->head = c->next;
	if (c->next)
		c->next->prev = c->prev;
	else
		g->tail = c->prev;
	if (!c->down)
		g->st.open--;
	pthread_mutex_unlock(&g->mu);
	free(c);
}

unsigned nl_http_guard_sweep(struct nl_http_guard *g, uint64_t now_ms)
{
	unsigned n = 0;

	pthread_mutex_lock(&g->mu);
	for (struct nl_http_conn *c = g->head; c; c = c->next) {
		if (c->busy || c->down || now_ms < c->since_ms + g->header_ms)
			continue;
		take_down(g, c);
		g->st.timed_out++;
		n++;
	}
	pthread_mutex_unlock(&g->mu);
	return n;
}

struct nl_http_guard_stats nl_http_guard_stats(struct nl_http_guard *g)
{
	struct nl_http_guard_stats st;

	pthread_mutex_lock(&g->mu);
	st = g->st;
	pthread_mutex_unlock(&g->mu);
	return st;
}
