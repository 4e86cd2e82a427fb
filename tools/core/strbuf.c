// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Growable byte buffer; see strbuf.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "strbuf.h"

int nl_buf_reserve(struct nl_buf *b, size_t extra)
{
	size_t need = b->len + extra + 1, cap;
	char *p;

	if (b->err)
		return b->err;
	if (need <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 4096;
	while (cap < need)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p)
		return b->err = -ENOMEM;
	b->p = p;
	b->cap = cap;
	return 0;
}

void nl_buf_put(struct nl_buf *b, const char *s, size_t n)
{
	if (nl_buf_reserve(b, n))
		return;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

void nl_buf_puts(struct nl_buf *b, const char *s)
{
	nl_buf_put(b, s, strlen(s));
}

void nl_buf_printf(struct nl_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || nl_buf_reserve(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/* "00".."99": two digits per division, half the divisions of one at a
 * time. */
static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

char *nl_buf_put_u64_at(char *w, uint64_t v)
{
	char tmp[NL_PUT_U64_MAX];
	char *q = tmp + sizeof(tmp);

	while (v >= 100) {
		const char *d = digit_pairs + 2 * (v % 100);

		v /= 100;
		*--q = d[1];
		*--q = d[0];
	}
	if (v >= 10) {
		*--q = digit_pairs[2 * v + 1];
		*--q = digit_pairs[2 * v];
	} else {
		*--q = (char)('0' + v);
	}
	return nl_put_mem_at(w, q, (size_t)(tmp + sizeof(tmp) - q));
}

char *nl_buf_put_ns_as_s_at(char *w, uint64_t ns)
{
	uint32_t f = (uint32_t)(ns % 1000000000ull);
	char frac[10];
	int n = 9;

	w = nl_buf_put_u64_at(w, ns / 1000000000ull);
	if (!f)
		return w;
	frac[0] = '.';
	for (int i = 8; i >= 2; i -= 2, f /= 100)	/* nine digits: four pairs, then one */
		memcpy(frac + i, digit_pairs + 2 * (f % 100), 2);
	frac[1] = (char)('0' + f);
	while (frac[n] == '0')	/* trailing zeros only cost bytes */
		n--;
	return nl_put_mem_at(w, frac, (size_t)n + 1);
}

void nl_buf_put_u64(struct nl_buf *b, uint64_t v)
{
	char *w = nl_buf_room(b, NL_PUT_U64_MAX);

	if (w)
		nl_buf_commit(b, nl_buf_put_u64_at(w, v));
}

void nl_buf_put_ns_as_s(struct nl_buf *b, uint64_t ns)
{
	char *w = nl_buf_room(b, NL_PUT_NS_AS_S_MAX);

	if (w)
		nl_buf_commit(b, nl_buf_put_ns_as_s_at(w, ns));
}

int nl_buf_drain(struct nl_buf *b)
{
	if (b->err || !b->drain)
		return b->err;
	if (b->len) {
		int e = b->drain(b->drain_ctx, b->p, b->len);

		if (e)
			return b->err = e;
	}
	b->len = 0;
	if (b->p)
		b->p[0] = '\0';
	return 0;
}

void nl_buf_reset(struct nl_buf *b)
{
	b->len = 0;
	b->err = 0;
	if (b->p)
		b->p[0] = '\0';
}

void nl_buf_free(struct nl_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}
