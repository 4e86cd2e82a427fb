// SPDX-License-Identifier: GPL-2.0
/*
 * nlhostile: an HTTP client that misbehaves on purpose, to test that
 * `numalens export` keeps answering its scrapers beside it.
 *
 *   nlhostile -p PORT [-a SRC] [-d DST] -m MODE -n CONNS -t SECONDS [-g GAP]
 *
 * It keeps CONNS connections to DST:PORT (default 127.0.0.1) open from
 * the local address SRC (default: any; 127.0.0.2 etc. are all local on
 * Linux, so a test can play a second host) for SECONDS, and opens a new
 * one at once whenever the server closes one or refuses it: it never
 * backs off (the "reconnect loop"). MODE says what each connection does:
 *   idle   send nothing;
 *   slow   send a request line and then one header byte every GAP
 *          seconds (default 1), never ending the headers;
 *   big    send a request whose one header is 64 KiB, then wait;
 *   churn  close the connection as soon as it is up, and open another.
 * At the end it prints one line of counts:
 *   connects=N closed=N statuses=LIST held_max=N
 * closed: connections the server closed or reset; statuses: the distinct
 * HTTP status codes the server answered with. Exit 0, or 1 when no
 * connection could ever be opened, 2 bad usage.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#ifndef IP_BIND_ADDRESS_NO_PORT
#define IP_BIND_ADDRESS_NO_PORT 24
#endif

enum mode { IDLE, SLOW, BIG, CHURN };

struct conn {
	int fd;			/* -1: to be (re)opened */
	int up;			/* the connect finished */
	double next;		/* slow: when the next byte goes */
	size_t sent;		/* big: bytes of the request sent */
};

static struct sockaddr_in src, dst;
static int have_src, ep;
static enum mode mode;
static double gap = 1;
static char *bigreq;
static size_t biglen;
static unsigned long connects, closed;
static int statuses[1000];

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Start a non-blocking connect for @c; on failure @c stays closed. */
static void open_conn(struct conn *c)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLOUT | EPOLLRDHUP, .data.ptr = c };
	int one = 1;

	c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (c->fd < 0)
		return;
	if (have_src) {
		/* the port is picked at connect, per destination: the loop
		 * does not run out of ports as fast */
		setsockopt(c->fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof(one));
		if (bind(c->fd, (struct sockaddr *)&src, sizeof(src)))
			goto fail;
	}
	if (connect(c->fd, (struct sockaddr *)&dst, sizeof(dst)) && errno != EINPROGRESS)
		goto fail;
	if (epoll_ctl(ep, EPOLL_CTL_ADD, c->fd, &ev))
		goto fail;
	c->up = 0;
	c->sent = 0;
	c->next = 0;
	return;
fail:
	close(c->fd);
	c->fd = -1;
}

/* Wait for reads only: a writable socket would wake the loop forever. */
static void reads_only(struct conn *c)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLRDHUP, .data.ptr = c };

	epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev);
}

static void close_conn(struct conn *c, int by_server)
{
	if (c->fd < 0)
		return;
	epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	c->fd = -1;
	closed += by_server;
}

/* The connect finished: what MODE does first. */
static void on_up(struct conn *c)
{
	static const char line[] = "GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: ";

	c->up = 1;
	connects++;
	if (mode != BIG && mode != CHURN)
		reads_only(c);
	switch (mode) {
	case IDLE:
		break;
	case SLOW:
		if (write(c->fd, line, sizeof(line) - 1) < 0)
			close_conn(c, 1);
		c->next = now() + gap;
		break;
	case BIG:
		break;	/* sent as the socket takes it */
	case CHURN:
		close_conn(c, 0);
		break;
	}
}

static void on_event(struct conn *c, unsigned ev)
{
	char buf[4096];
	ssize_t n;

	if (!c->up) {
		int err = 0;
		socklen_t l = sizeof(err);

		getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &l);
		if (err) {
			close_conn(c, 1);	/* refused: the loop tries again */
			return;
		}
		if (!(ev & EPOLLOUT) && !(ev & EPOLLIN))
			return;
		on_up(c);
		if (c->fd < 0)
			return;
	}
	if (mode == BIG && c->sent < biglen && (ev & EPOLLOUT)) {
		n = write(c->fd, bigreq + c->sent, biglen - c->sent);
		/* a failed write: the server closed it, the read below sees that */
		if (n > 0)
			c->sent += (size_t)n;
		if (c->sent == biglen)
			reads_only(c);
	}
	if (ev & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) {
		n = read(c->fd, buf, sizeof(buf) - 1);
		if (n > 0) {
			int code;

			buf[n] = '\0';
			if (sscanf(buf, "HTTP/1.%*d %d", &code) == 1 && code > 0 && code < 1000)
				statuses[code] = 1;
		}
		if (n == 0 || (n < 0 && errno != EAGAIN))
			close_conn(c, 1);
	}
}

static int usage(void)
{
	fprintf(stderr, "usage: nlhostile -p PORT [-a SRC] [-d DST] -m idle|slow|big|churn -n CONNS "
		"-t SECONDS [-g GAP]\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *srcs = NULL, *dsts = "127.0.0.1", *ms = NULL;
	int port = 0, n = 0, opt, held_max = 0, ever = 0;
	double secs = 0, end;
	struct rlimit rl;
	struct conn *cs;

	while ((opt = getopt(argc, argv, "p:a:d:m:n:t:g:")) != -1) {
		switch (opt) {
		case 'p': port = atoi(optarg); break;
		case 'a': srcs = optarg; break;
		case 'd': dsts = optarg; break;
		case 'm': ms = optarg; break;
		case 'n': n = atoi(optarg); break;
		case 't': secs = atof(optarg); break;
		case 'g': gap = atof(optarg); break;
		default: return usage();
		}
	}
	if (port <= 0 || port > 65535 || n <= 0 || n > 100000 || secs <= 0 || gap <= 0 || !ms)
		return usage();
	if (!strcmp(ms, "idle"))
		mode = IDLE;
	else if (!strcmp(ms, "slow"))
		mode = SLOW;
	else if (!strcmp(ms, "big"))
		mode = BIG;
	else if (!strcmp(ms, "churn"))
		mode = CHURN;
	else
		return usage();
	dst.sin_family = AF_INET;
	dst.sin_port = htons((uint16_t)port);
	src.sin_family = AF_INET;
	if (inet_pton(AF_INET, dsts, &dst.sin_addr) != 1 ||
	    (srcs && inet_pton(AF_INET, srcs, &src.sin_addr) != 1))
		return usage();
	have_src = srcs != NULL;
	signal(SIGPIPE, SIG_IGN);	/* writes to a connection the server closed */
	/* hundreds of sockets: lift the soft descriptor limit to the hard one */
	if (!getrlimit(RLIMIT_NOFILE, &rl)) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	biglen = 65536 + 64;
	bigreq = malloc(biglen + 1);
	cs = calloc((size_t)n, sizeof(*cs));
	ep = epoll_create1(EPOLL_CLOEXEC);
	if (!bigreq || !cs || ep < 0) {
		perror("nlhostile");
		return 1;
	}
	{
		int h = snprintf(bigreq, biglen, "GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: ");

		memset(bigreq + h, 'a', biglen - (size_t)h - 4);
		memcpy(bigreq + biglen - 4, "\r\n\r\n", 4);
	}
	for (int i = 0; i < n; i++)
		cs[i].fd = -1;
	end = now() + secs;
	while (now() < end) {
		struct epoll_event evs[256];
		int k, held = 0;
		double t = now();

		for (int i = 0; i < n; i++) {
			if (cs[i].fd < 0)
				open_conn(&cs[i]);
			if (cs[i].fd >= 0 && cs[i].up) {
				held++;
				if (mode == SLOW && t >= cs[i].next) {
					if (write(cs[i].fd, "a", 1) < 0 && errno != EAGAIN)
						close_conn(&cs[i], 1);
					cs[i].next = t + gap;
				}
			}
		}
		if (held > held_max)
			held_max = held;
		ever |= connects > 0;
		k = epoll_wait(ep, evs, 256, 20);
		for (int i = 0; i < k; i++)
			on_event(evs[i].data.ptr, evs[i].events);
	}
	printf("connects=%lu closed=%lu statuses=", connects, closed);
	{
		const char *sep = "";

		for (int c = 0; c < 1000; c++)
			if (statuses[c]) {
				printf("%s%d", sep, c);
				sep = ",";
			}
		if (!*sep)
			printf("none");
	}
	printf(" held_max=%d\n", held_max);
	return ever ? 0 : 1;
}
