/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A growable byte buffer for rendered responses (Prometheus text, HTML).
 * Appends never fail loudly: the first allocation failure sets ->err to
 * -ENOMEM and later appends are ignored, so a renderer checks once.
 */
#ifndef NL_STRBUF_H
#define NL_STRBUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct nl_buf {
	char *p;	/* NUL-terminated when len > 0; malloc'd */
	size_t len, cap;
	int err;	/* 0 or -ENOMEM (or drain's -errno) */
	/* Optional, for output nobody needs whole (a scrape's text that is
	 * gzipped as it is written): at each nl_buf_drain_point() past
	 * drain_at bytes, drain(drain_ctx, p, len) takes the bytes so far
	 * and the buffer starts again from empty, so it stays small and in
	 * cache. drain returns 0 or -errno (then ->err). */
	int (*drain)(void *ctx, const char *p, size_t n);
	void *drain_ctx;
	size_t drain_at;
};

/* Append @n bytes of @s. */
void nl_buf_put(struct nl_buf *b, const char *s, size_t n);

/* Append the C string @s. */
void nl_buf_puts(struct nl_buf *b, const char *s);

/* Append printf-formatted text (slow path: headers, rare lines). */
void nl_buf_printf(struct nl_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Append @v in decimal. */
void nl_buf_put_u64(struct nl_buf *b, uint64_t v);

/* Append @ns nanoseconds as decimal seconds, exactly ("1.5", "0.000000001",
 * "3"): no float rounding, so counters in seconds stay monotonic. */
void nl_buf_put_ns_as_s(struct nl_buf *b, uint64_t ns);

/* Make room for @extra more bytes. 0 or -ENOMEM. */
int nl_buf_reserve(struct nl_buf *b, size_t extra);

/*
 * Writing in place, for hot loops (a 2,000-cgroup scrape is ~150k lines):
 * nl_buf_room() makes room for at most @n bytes and returns where they go
 * (NULL after an allocation failure, ->err set); the caller writes at
 * most @n bytes with the nl_put_*_at() helpers, each returning the end of
 * what it wrote, then nl_buf_commit() with that end. One capacity check
 * per line instead of one per piece.
 */
static inline char *nl_buf_room(struct nl_buf *b, size_t n)
{
	if (b->err || (b->len + n + 1 > b->cap && nl_buf_reserve(b, n)))
		return NULL;
	return b->p + b->len;
}

/* End an nl_buf_room() write at @end (NUL-terminates). */
static inline void nl_buf_commit(struct nl_buf *b, char *end)
{
	b->len = (size_t)(end - b->p);
	*end = '\0';
}

/* Copy @n bytes to @w; returns @w + @n. */
static inline char *nl_put_mem_at(char *w, const char *s, size_t n)
{
	memcpy(w, s, n);
	return w + n;
}

/* Longest output of nl_buf_put_u64_at() and nl_buf_put_ns_as_s_at(). */
#define NL_PUT_U64_MAX 20
#define NL_PUT_NS_AS_S_MAX 30

/* Write @v in decimal at @w; returns the end. */
char *nl_buf_put_u64_at(char *w, uint64_t v);

/* Write @ns as seconds at @w, as nl_buf_put_ns_as_s(); returns the end. */
char *nl_buf_put_ns_as_s_at(char *w, uint64_t ns);

/* Hand what @b holds to its drain (if set and @b has no error) and empty
 * it. 0 or ->err. */
int nl_buf_drain(struct nl_buf *b);

/* A point where the writer of @b reads nothing it wrote before (a line's
 * end, for the Prometheus writers): drains @b once it holds drain_at
 * bytes. */
static inline void nl_buf_drain_point(struct nl_buf *b)
{
	if (b->drain && b->len >= b->drain_at)
		nl_buf_drain(b);
}

/* Empty @b, keeping its memory and drain (err is cleared). */
void nl_buf_reset(struct nl_buf *b);

/* Free @b's memory and zero it. */
void nl_buf_free(struct nl_buf *b);

#endif
