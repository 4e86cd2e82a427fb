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

/* Digits of @v into the end of @tmp[21]; returns the first digit. The hot
 * path of a 2,000-cgroup scrape: snprintf would dominate the render. */
static char *u64_digits(uint64_t v, char tmp[21])
{
	char *q = tmp + 20;

	*q = '\0';
	do {
		*--q = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return q;
}

void nl_buf_put_u64(struct nl_buf *b, uint64_t v)
{
	char tmp[21];
	char *q = u64_digits(v, tmp);

	nl_buf_put(b, q, (size_t)(tmp + 20 - q));
}

void nl_buf_put_ns_as_s(struct nl_buf *b, uint64_t ns)
{
	char frac[10];
	uint64_t f = ns % 1000000000ull;
	int n = 9;

	nl_buf_put_u64(b, ns / 1000000000ull);
	if (!f)
		return;
	frac[0] = '.';
	for (int i = 9; i >= 1; i--, f /= 10)
		frac[i] = (char)('0' + f % 10);
	while (frac[n] == '0')	/* trailing zeros only cost bytes */
		n--;
	nl_buf_put(b, frac, (size_t)n + 1);
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
