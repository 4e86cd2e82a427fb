// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* http_guard.c: which connection the export's HTTP server gives up when a
 * client crowds it: the per-address and total caps, sparing requests in
 * progress and requests just arriving, the header timeout. Connections
 * are socketpairs: the guard holds one end, the test reads the other to
 * see whether it was shut down. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include "http_guard.h"

#define MAXC 8

struct pair {
	int srv, cli;
	struct nl_http_conn *c;
};

static struct pair conns[MAXC];
static int nconns;

/* A connection from IPv4 @ip accepted at @t ms; @unread bytes already
 * sent by the client and not read by the server. */
static struct pair *open_from(struct nl_http_guard *g, const char *ip, uint64_t t, size_t unread)
{
	struct pair *p = &conns[nconns++];
	struct sockaddr_in sa = { .sin_family = AF_INET };
	int sv[2];
	char buf[16384];

	assert_true(nconns <= MAXC);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	p->srv = sv[0];
	p->cli = sv[1];
	assert_int_equal(inet_pton(AF_INET, ip, &sa.sin_addr), 1);
	assert_true(unread <= sizeof(buf));
	memset(buf, 'a', unread);
	if (unread)
		assert_int_equal(write(p->cli, buf, unread), (ssize_t)unread);
	p->c = nl_http_guard_opened(g, p->srv, (struct sockaddr *)&sa, t);
	assert_non_null(p->c);
	return p;
}

/* true when the server end of @p was shut down (the client reads EOF) */
static bool is_down(const struct pair *p)
{
	char b;

	return recv(p->cli, &b, 1, MSG_DONTWAIT) == 0;
}

static void close_all(struct nl_http_guard *g)
{
	for (int i = 0; i < nconns; i++) {
		nl_http_guard_closed(g, conns[i].c);
		close(conns[i].srv);
		close(conns[i].cli);
	}
	nconns = 0;
	assert_int_equal(nl_http_guard_stats(g).open, 0);
	nl_http_guard_free(g);
}

static void test_per_address_takes_own_oldest(void **state)
{
	struct nl_http_guard *g = nl_http_guard_new(10, 2, 5000);
	struct pair *a1, *a2, *b1, *a3;
	struct sockaddr_in6 m = { .sin6_family = AF_INET6 };
	int sv[2];
	struct nl_http_conn *a4;

	(void)state;
	a1 = open_from(g, "127.0.0.2", 0, 0);
	a2 = open_from(g, "127.0.0.2", 1000, 0);
	b1 = open_from(g, "127.0.0.1", 500, 0);	/* older than a2, another host */
	a3 = open_from(g, "127.0.0.2", 2000, 0);
	/* the third from .2 takes .2's oldest, not .1's */
	assert_true(is_down(a1));
	assert_false(is_down(a2));
	assert_false(is_down(b1));
	assert_false(is_down(a3));
	assert_int_equal(nl_http_guard_stats(g).displaced, 1);
	assert_int_equal(nl_http_guard_stats(g).open, 3);
	/* the same host over the dual-stack socket, ::ffff:127.0.0.2, is
	 * the same address: it takes a2 */
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(inet_pton(AF_INET6, "::ffff:127.0.0.2", &m.sin6_addr), 1);
	a4 = nl_http_guard_opened(g, sv[0], (struct sockaddr *)&m, 3000);
	assert_true(is_down(a2));
	assert_false(is_down(a3));
	assert_int_equal(nl_http_guard_stats(g).displaced, 2);
	nl_http_guard_closed(g, a4);
	close(sv[0]);
	close(sv[1]);
	close_all(g);
}

static void test_busy_never_taken(void **state)
{
	struct nl_http_guard *g = nl_http_guard_new(10, 2, 5000);
	struct pair *a1, *a2, *a3;

	(void)state;
	a1 = open_from(g, "10.0.0.7", 0, 0);
	a2 = open_from(g, "10.0.0.7", 1000, 0);
	nl_http_guard_busy(g, a1->c);
	nl_http_guard_busy(g, a2->c);
	/* both are being answered: the newcomer is the one shut down */
	a3 = open_from(g, "10.0.0.7", 2000, 0);
	assert_false(is_down(a1));
	assert_false(is_down(a2));
	assert_true(is_down(a3));
	assert_int_equal(nl_http_guard_stats(g).refused, 1);
	assert_int_equal(nl_http_guard_stats(g).displaced, 0);
	assert_int_equal(nl_http_guard_stats(g).open, 2);
	close_all(g);
}

static void test_total_cap(void **state)
{
	struct nl_http_guard *g = nl_http_guard_new(3, 3, 5000);
	struct pair *a, *b, *c, *d;

	(void)state;
	a = open_from(g, "10.0.0.1", 0, 0);
	b = open_from(g, "10.0.0.2", 1000, 0);
	c = open_from(g, "10.0.0.3", 2000, 0);
	nl_http_guard_busy(g, a->c);
	/* the fourth: the oldest waiting of any host, b (a is busy) */
	d = open_from(g, "10.0.0.4", 3000, 0);
	assert_false(is_down(a));
	assert_true(is_down(b));
	assert_false(is_down(c));
	assert_false(is_down(d));
	assert_int_equal(nl_http_guard_stats(g).open, 3);
	close_all(g);
}

static void test_arriving_request_spared(void **state)
{
	struct nl_http_guard *g = nl_http_guard_new(10, 2, 5000);
	struct pair *a1, *a2, *a3;

	(void)state;
	/* a1 is older but its request is in, unread: a2 goes */
	a1 = open_from(g, "10.0.0.9", 0, 300);
	a2 = open_from(g, "10.0.0.9", 1000, 0);
	a3 = open_from(g, "10.0.0.9", 2000, 300);
	assert_false(is_down(a1));
	assert_true(is_down(a2));
	assert_false(is_down(a3));
	close_all(g);
}

static void test_oversized_taken_before_young(void **state)
{
	struct nl_http_guard *g = nl_http_guard_new(10, 2, 5000);
	struct pair *a1, *a2, *a3;

	(void)state;
	/* a1 has sent 8 KiB of headers not read yet, a2 is 50 ms old with
	 * nothing unread (maybe a request read and not answered yet): a1 */
	a1 = open_from(g, "10.0.0.9", 0, 8192);
	a2 = open_from(g, "10.0.0.9", 1950, 0);
	a3 = open_from(g, "10.0.0.9", 2000, 300);
	assert_true(is_down(a1));
	assert_false(is_down(a2));
	assert_false(is_down(a3));
	close_all(g);
}

static void test_header_timeout(void **state)
{
	struct nl_http_guard *g = nl_http_guard_new(10, 10, 5000);
	struct pair *idle, *busy, *late;

	(void)state;
	idle = open_from(g, "10.0.0.1", 0, 0);
	busy = open_from(g, "10.0.0.1", 0, 0);
	late = open_from(g, "10.0.0.1", 3000, 0);
	nl_http_guard_busy(g, busy->c);
	assert_int_equal(nl_http_guard_sweep(g, 4999), 0);
	assert_int_equal(nl_http_guard_sweep(g, 5000), 1);
	assert_true(is_down(idle));
	assert_false(is_down(busy));
	assert_false(is_down(late));
	/* the answer ends at 6 s: its next request is due by 11 s */
	nl_http_guard_idle(g, busy->c, 6000);
	assert_int_equal(nl_http_guard_sweep(g, 10999), 1);	/* late, at 8 s */
	assert_true(is_down(late));
	assert_false(is_down(busy));
	assert_int_equal(nl_http_guard_sweep(g, 11000), 1);
	assert_true(is_down(busy));
	assert_int_equal(nl_http_guard_stats(g).timed_out, 3);
	assert_int_equal(nl_http_guard_stats(g).open, 0);
	close_all(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_per_address_takes_own_oldest),
		cmocka_unit_test(test_busy_never_taken),
		cmocka_unit_test(test_total_cap),
		cmocka_unit_test(test_arriving_request_spared),
		cmocka_unit_test(test_oversized_taken_before_young),
		cmocka_unit_test(test_header_timeout),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
