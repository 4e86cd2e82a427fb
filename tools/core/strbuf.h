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

struct nl_buf {
	char *p;	/* NUL-terminated when len > 0; malloc'd */
	size_t len, cap;
	int err;	/* 0 or -ENOMEM */
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

/* Empty @b, keeping its memory (err is cleared). */
void nl_buf_reset(struct nl_buf *b);

/* Free @b's memory and zero it. */
void nl_buf_free(struct nl_buf *b);

#endif
