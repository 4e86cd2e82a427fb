// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* HTTP server for `numalens export` on libmicrohttpd; see http_server.h. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <time.h>
#include <sys/socket.h>
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <microhttpd.h>
#include <zlib.h>
#include "http_guard.h"
#include "http_server.h"
#include "http_listen.h"

/* How often the header timeout is checked: it is kept to within this. */
#define SWEEP_MS 250

#define AUTH_CACHE 8
#define AUTH_FAIL_SLOTS 64
#define AUTH_BACKOFF_MS 1000

struct nl_http {
	struct MHD_Daemon *d;
	int fd;
	int port;
	bool ipv6;		/* the socket is AF_INET6 (the wildcard is dual-stack) */
	struct nl_http_routes r;
	struct nl_http_guard *guard;
	const struct nl_web_config *web;
	/* The last AUTH_CACHE users and passwords that passed bcrypt, as
	 * SHA-256 of "user\0password": a scraper that sends the same ones
	 * every scrape then costs one hash, not a bcrypt (tens of ms each),
	 * also beside a second scraper with another user */
	pthread_mutex_t auth_mu;
	unsigned char auth_ok[AUTH_CACHE][32];
	bool have_auth_ok[AUTH_CACHE];
	unsigned auth_next;	/* the entry the next success takes */
	/* Client addresses whose credentials failed bcrypt lately (hash of
	 * the address, CLOCK_MONOTONIC ms): a client that keeps guessing
	 * gets its 401 without another bcrypt until AUTH_BACKOFF_MS passed,
	 * so guessing cannot keep the server's threads busy */
	struct { uint64_t addr, ms; } auth_fail[AUTH_FAIL_SLOTS];
	pthread_t sweeper;
	bool sweeping;		/* the sweeper thread runs */
	bool stop;		/* under stop_mu: the sweeper is to end */
	pthread_mutex_t stop_mu;
	pthread_cond_t stop_cv;	/* on CLOCK_MONOTONIC */
};

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

bool nl_http_accepts_gzip(const char *ae)
{
	while (ae && *ae) {
		const char *end = strchr(ae, ',');
		size_t n = end ? (size_t)(end - ae) : strlen(ae), tl;
		char tok[64];
		const char *q;

		while (n && (*ae == ' ' || *ae == '\t'))
			ae++, n--;
		if (n < sizeof(tok)) {
			memcpy(tok, ae, n);
			tok[n] = '\0';
			tl = strcspn(tok, "; \t");
			q = strstr(tok, "q=");
			/* q=0, q=0.0, q=0.000 refuse; anything else accepts */
			bool refused = q && strspn(q + 2, "0.") == strlen(q + 2);

			if (((tl == 4 && !strncasecmp(tok, "gzip", 4)) || (tl == 1 && tok[0] == '*')) && !refused)
				return true;
		}
		ae = end ? end + 1 : NULL;
	}
	return false;
}

int nl_http_gzip(const char *in, size_t len, struct nl_buf *out)
{
	struct nl_gzip *g = nl_gzip_open(out);

	if (!g)
		return -ENOMEM;
	nl_gzip_write(g, in, len);
	return nl_gzip_close(g);
}

static enum MHD_Result queue(struct MHD_Connection *c, unsigned status, struct MHD_Response *r,
			     const char *type, bool gzip)
{
	enum MHD_Result ret;

	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	if (gzip)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
	MHD_add_response_header(r, MHD_HTTP_HEADER_VARY, "Accept-Encoding");
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

/* Queue @body (taken over: freed by MHD) with @status and @type. */
static enum MHD_Result reply(struct MHD_Connection *c, unsigned status, struct nl_buf *body,
			     const char *type, bool gzip)
{
	struct MHD_Response *r;

	r = MHD_create_response_from_buffer_with_free_callback(body->len, body->p, free);
	if (!r) {
		nl_buf_free(body);
		return MHD_NO;
	}
	memset(body, 0, sizeof(*body));	/* owned by the response now */
	return queue(c, status, r, type, gzip);
}

static void release_body(void *cls)
{
	struct nl_http_body *b = cls;

	if (b->release)
		b->release(b->cls);
	free(b);
}

/* A shared gzip body sent inflated to a client that does not take gzip:
 * the stream's state is all a connection holds (~45 KiB with its window),
 * where an inflated copy would be the whole text. */
struct inflater {
	struct nl_http_body b;
	z_stream z;
	bool started;
};

static void inflater_free(void *cls)
{
	struct inflater *f = cls;

	if (f->started)
		inflateEnd(&f->z);
	if (f->b.release)
		f->b.release(f->b.cls);
	free(f);
}

/* MHD asks for the next block at @pos, in order; writes up to @max bytes. */
static ssize_t inflater_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	struct inflater *f = cls;
	int e;

	(void)pos;
	if (!f->started) {
		/* 15 + 16: the gzip wrapper nl_http_gzip writes */
		if (inflateInit2(&f->z, 15 + 16) != Z_OK)
			return MHD_CONTENT_READER_END_WITH_ERROR;
		f->started = true;
		f->z.next_in = (Bytef *)f->b.p;
		f->z.avail_in = (uInt)f->b.len;
	}
	f->z.next_out = (Bytef *)buf;
	f->z.avail_out = (uInt)max;
	e = inflate(&f->z, Z_NO_FLUSH);
	if (e != Z_OK && e != Z_STREAM_END)
		return MHD_CONTENT_READER_END_WITH_ERROR;
	if (f->z.avail_out == max)	/* nothing more, short of plain_len */
		return MHD_CONTENT_READER_END_WITH_ERROR;
	return (ssize_t)(max - f->z.avail_out);
}

/* Queue a shared body; its release runs when MHD drops the response.
 * @gzip_ok: the client takes gzip (else a gzip body is inflated). */
static enum MHD_Result reply_shared(struct MHD_Connection *c, const struct nl_http_body *body,
				    const char *type, bool gzip_ok)
{
	struct nl_http_body *b;
	struct MHD_Response *r;

	if (body->gzip && !gzip_ok) {
		struct inflater *f = calloc(1, sizeof(*f));

		if (!f) {
			if (body->release)
				body->release(body->cls);
			return MHD_NO;
		}
		f->b = *body;
		r = MHD_create_response_from_callback(body->plain_len, 32768, inflater_read, f, inflater_free);
		if (!r) {
			inflater_free(f);
			return MHD_NO;
		}
		return queue(c, MHD_HTTP_OK, r, type, false);
	}
	b = malloc(sizeof(*b));
	if (!b) {
		if (body->release)
			body->release(body->cls);
		return MHD_NO;
	}
	*b = *body;
	r = MHD_create_response_from_buffer_with_free_callback_cls(b->len, (void *)b->p, release_body, b);
	if (!r) {
		release_body(b);
		return MHD_NO;
	}
	return queue(c, MHD_HTTP_OK, r, type, b->gzip);
}

static enum MHD_Result reply_text(struct MHD_Connection *c, unsigned status, const char *msg)
{
	struct nl_buf b = {};

	nl_buf_puts(&b, msg);
	if (b.err)
		return MHD_NO;
	return reply(c, status, &b, "text/plain; charset=utf-8", false);
}

/* Under client_auth_type VerifyClientCertIfGiven or
 * RequireAndVerifyClientCert: whether the client's certificate (if it
 * must have one) chains to client_ca_file and is valid now. On false a
 * fatal TLS alert has been sent, naming why, before the caller closes. */
static bool client_cert_ok(struct nl_http *h, struct MHD_Connection *c)
{
	gnutls_typed_vdata_st client_purpose = {
		.type = GNUTLS_DT_KEY_PURPOSE_OID, .data = (unsigned char *)GNUTLS_KP_TLS_WWW_CLIENT,
	};
	const union MHD_ConnectionInfo *ci;
	gnutls_session_t s;
	unsigned n = 0, status = 0;

	if (!h->web || !h->web->tls || h->web->client_auth == NL_CLIENT_AUTH_NONE)
		return true;
	ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_GNUTLS_SESSION);
	if (!ci || !ci->tls_session)
		return false;
	s = (gnutls_session_t)ci->tls_session;
	if (!gnutls_certificate_get_peers(s, &n) || !n) {
		if (h->web->client_auth == NL_CLIENT_AUTH_VERIFY_IF_GIVEN)
			return true;
		gnutls_alert_send(s, GNUTLS_AL_FATAL, GNUTLS_A_CERTIFICATE_REQUIRED);
		return false;
	}
	/* the chain, the CA's signature, the validity dates, and a purpose
	 * that allows a TLS client (a server's certificate from the same CA
	 * is no client's; one with no purpose listed may be used for any) */
	if (gnutls_certificate_verify_peers(s, &client_purpose, 1, &status) == 0 && status == 0)
		return true;
	gnutls_alert_send(s, GNUTLS_AL_FATAL, status & GNUTLS_CERT_EXPIRED ? GNUTLS_A_CERTIFICATE_EXPIRED :
			  GNUTLS_A_BAD_CERTIFICATE);
	return false;
}

/* The client's address of @c hashed (FNV-1a of the address bytes, not
 * the port), never 0; 0 when unknown. */
static uint64_t client_addr_hash(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	const unsigned char *p;
	uint64_t x = 1469598103934665603ull;
	size_t n;

	if (!ci || !ci->client_addr)
		return 0;
	if (ci->client_addr->sa_family == AF_INET) {
		p = (const unsigned char *)&((const struct sockaddr_in *)ci->client_addr)->sin_addr;
		n = 4;
	} else if (ci->client_addr->sa_family == AF_INET6) {
		p = (const unsigned char *)&((const struct sockaddr_in6 *)ci->client_addr)->sin6_addr;
		n = 16;
	} else {
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		x = (x ^ p[i]) * 1099511628211ull;
	return x ? x : 1;
}

/* Whether the client at @addr failed bcrypt less than AUTH_BACKOFF_MS
 * ago (under auth_mu). */
static bool auth_backing_off(struct nl_http *h, uint64_t addr, uint64_t now)
{
	const typeof(h->auth_fail[0]) *f = &h->auth_fail[addr % AUTH_FAIL_SLOTS];

	return addr && f->addr == addr && now - f->ms < AUTH_BACKOFF_MS;
}

/* With basic_auth_users: whether the request carries one of them with
 * its password. */
static bool user_ok(struct nl_http *h, struct MHD_Connection *c)
{
	struct MHD_BasicAuthInfo *bi;
	unsigned char d[32];
	bool ok = false, cached = false, wait;
	uint64_t addr = client_addr_hash(c), now = mono_ms();

	if (!h->web || !h->web->nr_users)
		return true;
	bi = MHD_basic_auth_get_username_password3(c);
	if (!bi || !bi->password) {
		MHD_free(bi);
		return false;
	}
	{
		size_t n = bi->username_len + 1 + bi->password_len;
		char *k = malloc(n);

		if (k) {
			memcpy(k, bi->username, bi->username_len);
			k[bi->username_len] = '\0';
			memcpy(k + bi->username_len + 1, bi->password, bi->password_len);
			cached = !gnutls_hash_fast(GNUTLS_DIG_SHA256, k, n, d);
			explicit_bzero(k, n);
			free(k);
		}
	}
	pthread_mutex_lock(&h->auth_mu);
	for (int e = 0; cached && e < AUTH_CACHE; e++) {
		unsigned char diff = 0;

		for (int i = 0; i < 32; i++)
			diff |= (unsigned char)(d[i] ^ h->auth_ok[e][i]);
		ok |= h->have_auth_ok[e] && !diff;
	}
	wait = !ok && auth_backing_off(h, addr, now);
	pthread_mutex_unlock(&h->auth_mu);
	if (!ok && !wait) {
		ok = nl_web_config_check_user(h->web, bi->username, bi->username_len, bi->password,
					      bi->password_len);
		pthread_mutex_lock(&h->auth_mu);
		if (ok && cached) {
			memcpy(h->auth_ok[h->auth_next], d, sizeof(d));
			h->have_auth_ok[h->auth_next] = true;
			h->auth_next = (h->auth_next + 1) % AUTH_CACHE;
		} else if (!ok && addr) {
			h->auth_fail[addr % AUTH_FAIL_SLOTS].addr = addr;
			h->auth_fail[addr % AUTH_FAIL_SLOTS].ms = mono_ms();
		}
		pthread_mutex_unlock(&h->auth_mu);
	}
	explicit_bzero(d, sizeof(d));
	MHD_free(bi);
	return ok;
}

/* 401 with a WWW-Authenticate challenge for the realm "numalens". */
static enum MHD_Result reply_unauthorized(struct MHD_Connection *c)
{
	static const char msg[] = "unauthorized: this exporter takes a basic-auth user and password\n";
	struct MHD_Response *r = MHD_create_response_from_buffer_static(sizeof(msg) - 1, msg);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
	ret = MHD_queue_basic_auth_required_response3(c, "numalens", MHD_YES, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url, const char *method,
			      const char *version, const char *upload, size_t *upload_size, void **req_cls)
{
	struct nl_http *h = cls;
	struct nl_buf body = {}, z = {};
	const char *type;
	unsigned status = MHD_HTTP_OK;
	int e = 0;

	(void)version;
	(void)upload;
	{
		const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

		/* the headers are in: the request is no longer waited for */
		if (ci)
			nl_http_guard_busy(h->guard, ci->socket_context);
	}
	/* The first call brings the headers only. Answered then,
	 * libmicrohttpd closes the connection after the response (a body
	 * could still follow), so every scrape would pay a new connection;
	 * the answer waits for the call after the body (none, or discarded). */
	if (!*req_cls) {
		static char headers_seen;

		/* a client certificate that fails ends the connection before
		 * any answer, as a failed handshake would */
		if (!client_cert_ok(h, c))
			return MHD_NO;
		*req_cls = &headers_seen;
		return MHD_YES;
	}
	if (*upload_size) {
		*upload_size = 0;
		return MHD_YES;
	}
	/* every path, /healthz included, as Prometheus exporters do */
	if (!user_ok(h, c))
		return reply_unauthorized(c);
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply_text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET and HEAD are served\n");
	if (!strcmp(url, "/metrics")) {
		struct nl_http_body mb = {};
		bool gz = nl_http_accepts_gzip(MHD_lookup_connection_value(c, MHD_HEADER_KIND,
									    MHD_HTTP_HEADER_ACCEPT_ENCODING));

		e = h->r.metrics(h->r.ctx, gz, &mb);
		if (e == -EAGAIN)
			return reply_text(c, MHD_HTTP_SERVICE_UNAVAILABLE, "no snapshot yet, retry in a second\n");
		if (e)
			return reply_text(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "rendering failed\n");
		return reply_shared(c, &mb, "text/plain; version=0.0.4; charset=utf-8", gz);
	} else if (!strcmp(url, "/")) {
		type = "text/html; charset=utf-8";
		e = h->r.index(h->r.ctx, &body);
	} else if (!strcmp(url, "/healthz")) {
		type = "text/plain; charset=utf-8";
		status = h->r.health(h->r.ctx, &body) ? MHD_HTTP_OK : MHD_HTTP_SERVICE_UNAVAILABLE;
	} else {
		return reply_text(c, MHD_HTTP_NOT_FOUND, "not found: try /metrics, /healthz or /\n");
	}
	if (e || body.err) {
		nl_buf_free(&body);
		return reply_text(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "rendering failed\n");
	}
	if (nl_http_accepts_gzip(MHD_lookup_connection_value(c, MHD_HEADER_KIND,
							      MHD_HTTP_HEADER_ACCEPT_ENCODING)) &&
	    !nl_http_gzip(body.p ? body.p : "", body.len, &z)) {
		nl_buf_free(&body);
		return reply(c, status, &z, type, true);
	}
	nl_buf_free(&z);
	return reply(c, status, &body, type, false);
}

/* libmicrohttpd: a connection was accepted or is closing (its socket still open). */
static void conn_notify(void *cls, struct MHD_Connection *c, void **socket_context,
			enum MHD_ConnectionNotificationCode toe)
{
	struct nl_http *h = cls;

	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		/* each answer is in one buffer of the connection that the
		 * next call overwrites: take the value before asking again */
		const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
		int fd = ci ? ci->connect_fd : -1;
		const struct sockaddr *sa;

		ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
		sa = ci ? ci->client_addr : NULL;
		if (fd >= 0)
			*socket_context = nl_http_guard_opened(h->guard, fd, sa, mono_ms());
	} else if (toe == MHD_CONNECTION_NOTIFY_CLOSED) {
		nl_http_guard_closed(h->guard, *socket_context);
		*socket_context = NULL;
	}
}

/* libmicrohttpd: a request ended (answered, or the connection broke). */
static void request_done(void *cls, struct MHD_Connection *c, void **req_cls,
			 enum MHD_RequestTerminationCode toe)
{
	struct nl_http *h = cls;
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	(void)req_cls;
	(void)toe;
	if (ci)
		nl_http_guard_idle(h->guard, ci->socket_context, mono_ms());
}

/* The sweeper thread: the header timeout, every SWEEP_MS until stopped. */
static void *sweep_main(void *arg)
{
	struct nl_http *h = arg;
	struct timespec t;

	pthread_mutex_lock(&h->stop_mu);
	while (!h->stop) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		t.tv_nsec += SWEEP_MS * 1000000L;
		if (t.tv_nsec >= 1000000000L) {
			t.tv_sec++;
			t.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&h->stop_cv, &h->stop_mu, &t);
		if (!h->stop)
			nl_http_guard_sweep(h->guard, mono_ms());
	}
	pthread_mutex_unlock(&h->stop_mu);
	return NULL;
}

/* Stop and join the sweeper, if it runs. */
static void sweep_stop(struct nl_http *h)
{
	if (!h->sweeping)
		return;
	pthread_mutex_lock(&h->stop_mu);
	h->stop = true;
	pthread_cond_signal(&h->stop_cv);
	pthread_mutex_unlock(&h->stop_mu);
	pthread_join(h->sweeper, NULL);
	h->sweeping = false;
}

/* libmicrohttpd's TLS options for @web into @opts (room for 5), ended by
 * MHD_OPTION_END; sets MHD_USE_TLS in *@flags when @web asks for TLS. */
static void tls_options(const struct nl_web_config *web, struct MHD_OptionItem *opts,
			unsigned *flags)
{
	int nt = 0;

	if (web && web->tls) {
		/* the PEM texts were read and checked when the file was loaded */
		*flags |= MHD_USE_TLS;
		opts[nt++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_CERT, 0, web->cert_pem };
		opts[nt++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_KEY, 0, web->key_pem };
		opts[nt++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_PRIORITIES, 0,
						      (void *)nl_web_config_priorities(web) };
		/* a trust list makes libmicrohttpd ask for a client certificate */
		if (web->client_ca_pem)
			opts[nt++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_TRUST, 0,
							      web->client_ca_pem };
	}
	opts[nt] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };
}

/* Start libmicrohttpd on @h->fd for @o, with at most @max_conns
 * connections the guard admits. False when it would not start. */
static bool start_daemon(struct nl_http *h, const struct nl_http_opts *o, unsigned max_conns)
{
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL;
	struct MHD_OptionItem tls_opts[5];

	if (o->verbose)
		flags |= MHD_USE_ERROR_LOG;
	tls_options(o->web, tls_opts, &flags);
	h->d = MHD_start_daemon(flags, 0, NULL, NULL, handle, h,
				MHD_OPTION_LISTEN_SOCKET, h->fd,
				MHD_OPTION_THREAD_POOL_SIZE, o->threads ? o->threads : 2u,
				/* the guard keeps the count to max_conns; the
				 * headroom is for connections it has shut down
				 * that libmicrohttpd has not closed yet, so that
				 * accepting never stops while it can make room */
				MHD_OPTION_CONNECTION_LIMIT, max_conns + 16u,
				MHD_OPTION_CONNECTION_TIMEOUT, o->timeout_s ? o->timeout_s : 10u,
				/* request headers only: bounds what a client can make us hold */
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)32768,
				MHD_OPTION_NOTIFY_CONNECTION, conn_notify, h,
				MHD_OPTION_NOTIFY_COMPLETED, request_done, h,
				MHD_OPTION_ARRAY, tls_opts,
				MHD_OPTION_END);
	return h->d != NULL;
}

/* Start the sweeper thread of @h (its clock CLOCK_MONOTONIC). False when
 * the thread would not start; the mutex and condition are then
 * destroyed again. */
static bool start_sweeper(struct nl_http *h)
{
	pthread_condattr_t ca;

	pthread_mutex_init(&h->stop_mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&h->stop_cv, &ca);
	pthread_condattr_destroy(&ca);
	h->sweeping = !pthread_create(&h->sweeper, NULL, sweep_main, h);
	if (!h->sweeping) {
		pthread_cond_destroy(&h->stop_cv);
		pthread_mutex_destroy(&h->stop_mu);
	}
	return h->sweeping;
}

int nl_http_start(struct nl_http **out, const struct nl_http_opts *o, char *err, size_t errlen)
{
	struct nl_http *h = calloc(1, sizeof(*h));
	union { struct sockaddr sa; struct sockaddr_in in; struct sockaddr_in6 in6; struct sockaddr_storage ss; } sa;
	socklen_t sl = sizeof(sa);
	unsigned max_conns = o->max_conns ? o->max_conns : 128u;
	unsigned header_ms = o->header_timeout_ms ? o->header_timeout_ms : 5000u;

	if (!h)
		return -ENOMEM;
	h->r = o->routes;
	h->guard = nl_http_guard_new(max_conns, o->max_per_addr ? o->max_per_addr : (max_conns + 1) / 2,
				     header_ms);
	if (!h->guard) {
		free(h);
		return -ENOMEM;
	}
	h->fd = nl_http_listen(o->listen, (int)((header_ms + 999) / 1000), err, errlen);
	if (h->fd < 0) {
		int e = h->fd;

		nl_http_guard_free(h->guard);
		free(h);
		return e;
	}
	if (!getsockname(h->fd, &sa.sa, &sl)) {
		h->port = ntohs(sa.sa.sa_family == AF_INET6 ? sa.in6.sin6_port : sa.in.sin_port);
		h->ipv6 = sa.sa.sa_family == AF_INET6;
	}
	h->web = o->web;
	pthread_mutex_init(&h->auth_mu, NULL);
	if (!start_daemon(h, o, max_conns)) {
		snprintf(err, errlen, "cannot start the HTTP server on %s (libmicrohttpd failed; --verbose says why)",
			 o->listen);
		close(h->fd);
		nl_http_guard_free(h->guard);
		pthread_mutex_destroy(&h->auth_mu);
		free(h);
		return -EIO;
	}
	if (!start_sweeper(h)) {
		snprintf(err, errlen, "cannot start the HTTP server's timeout thread");
		MHD_stop_daemon(h->d);
		nl_http_guard_free(h->guard);
		pthread_mutex_destroy(&h->auth_mu);
		free(h);
		return -EAGAIN;
	}
	*out = h;
	return 0;
}

void nl_http_stop(struct nl_http *h)
{
	if (!h)
		return;
	sweep_stop(h);
	/* MHD_stop_daemon closes the listen socket it was given, and every
	 * connection (each tells the guard) */
	MHD_stop_daemon(h->d);
	nl_http_guard_free(h->guard);
	pthread_cond_destroy(&h->stop_cv);
	pthread_mutex_destroy(&h->stop_mu);
	pthread_mutex_destroy(&h->auth_mu);
	explicit_bzero(h->auth_ok, sizeof(h->auth_ok));
	free(h);
}

int nl_http_port(const struct nl_http *h)
{
	return h ? h->port : -1;
}

bool nl_http_ipv6(const struct nl_http *h)
{
	return h && h->ipv6;
}
