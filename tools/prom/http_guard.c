// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Connection guard of the export's HTTP server; see http_guard.h. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include "http_guard.h"

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

/* Under mu: the connection waiting longest, other than @self; with
 * @addr, of that address only. NULL: none. */
static struct nl_http_conn *oldest_waiting(struct nl_http_guard *g, const struct nl_http_conn *self,
					   const unsigned char *addr)
{
	struct nl_http_conn *best = NULL;

	for (struct nl_http_conn *c = g->head; c; c = c->next) {
		if (c == self || c->busy || c->down || (addr && memcmp(c->addr, addr, 16)))
			continue;
		if (!best || c->since_ms < best->since_ms)
			best = c;
	}
	return best;
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
		v = oldest_waiting(g, c, same > g->per_addr ? c->addr : NULL);
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
