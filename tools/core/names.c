// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The name-cleaning rule and column arithmetic on cleaned text; see names.h. */
#include <stdint.h>
#include <stdio.h>
#include <ctype.h>
#include <string.h>
#include "names.h"

int nl_name_utf8_seq(const unsigned char *s, size_t avail)
{
	unsigned char c, lo = 0x80, hi = 0xbf;
	int n;

	if (!avail)
		return 0;
	c = s[0];
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
	else
		return 0;
	/* the second byte's range excludes overlongs, surrogates and > U+10FFFF */
	if (avail < 2)
		return -1;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (int i = 2; i < n; i++) {
		if ((size_t)i >= avail)
			return -i;
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	}
	return n;
}

/* Code point of the valid @n-byte UTF-8 character at @s. */
static uint32_t decode(const unsigned char *s, int n)
{
	static const unsigned char mask[] = { 0, 0x7f, 0x1f, 0x0f, 0x07 };
	uint32_t cp = s[0] & mask[n];

	for (int i = 1; i < n; i++)
		cp = cp << 6 | (s[i] & 0x3f);
	return cp;
}

static bool is_control(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
}

size_t nl_name_clean(char *out, size_t outlen, const char *in, size_t inlen, unsigned flags,
		     bool *altered)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)in;
	size_t i = 0, total = 0, o = 0;
	bool alt = false, full = false;

	while (i < inlen) {
		char rep[16];
		size_t rl = 0;
		int n = nl_name_utf8_seq(s + i, inlen - i);

		if (n < 0 && (flags & NL_NAME_MAYBE_CUT)) {
			alt = true;	/* the kernel's cut: drop the half character */
			break;
		}
		if (n <= 0) {
			memcpy(rep, "\xef\xbf\xbd", 3);	/* U+FFFD for one bad byte */
			rl = 3;
			n = 1;
			alt = true;
		} else if (is_control(decode(s + i, n))) {
			for (int k = 0; k < n; k++) {
				rep[rl++] = '\\';
				rep[rl++] = 'x';
				rep[rl++] = hex[s[i + k] >> 4];
				rep[rl++] = hex[s[i + k] & 15];
			}
			alt = true;
		} else {
			memcpy(rep, s + i, (size_t)n);
			rl = (size_t)n;
		}
		/* whole characters only: once one does not fit, none follows */
		if (!full && outlen && o + rl < outlen) {
			memcpy(out + o, rep, rl);
			o += rl;
		} else {
			full = true;
		}
		total += rl;
		i += (size_t)n;
	}
	if (outlen)
		out[o] = '\0';
	if (altered)
		*altered = alt;
	return total;
}

void nl_name_comm_clean(char out[NL_NAME_MAX], const char *comm)
{
	size_t n = strnlen(comm, NL_COMM_BYTES);

	nl_name_clean(out, NL_NAME_MAX, comm, n, n == NL_COMM_BYTES ? NL_NAME_MAYBE_CUT : 0, NULL);
}

/* East Asian wide and fullwidth ranges (two terminal columns), the common
 * blocks: Hangul Jamo, CJK radicals to Yi, Hangul syllables, CJK
 * compatibility, fullwidth forms, emoji, CJK extension planes. */
static int char_cols(uint32_t cp)
{
	static const uint32_t wide[][2] = {
		{ 0x1100, 0x115f }, { 0x2e80, 0x303e }, { 0x3041, 0x33ff }, { 0x3400, 0x4dbf },
		{ 0x4e00, 0x9fff }, { 0xa000, 0xa4cf }, { 0xac00, 0xd7a3 }, { 0xf900, 0xfaff },
		{ 0xfe30, 0xfe4f }, { 0xff00, 0xff60 }, { 0xffe0, 0xffe6 }, { 0x1f300, 0x1f64f },
		{ 0x1f900, 0x1f9ff }, { 0x20000, 0x3fffd },
	};

	for (size_t i = 0; i < sizeof(wide) / sizeof(wide[0]); i++)
		if (cp >= wide[i][0] && cp <= wide[i][1])
			return 2;
	return 1;
}

/* Columns of the character at @s (cleaned text), its length in *@n. */
/* Is @s the start of a "\xHH" escape (ours, or a systemd unit's own)?
 * A cut never splits one: "\x1" would read as another name. */
static bool is_escape(const unsigned char *s)
{
	return s[0] == '\\' && s[1] == 'x' && isxdigit(s[2]) && isxdigit(s[3]);
}

static int cols_at(const unsigned char *s, int *n)
{
	int k;

	if (is_escape(s)) {
		*n = 4;
		return 4;
	}
	k = nl_name_utf8_seq(s, strnlen((const char *)s, 4));

	if (k <= 0) {	/* not cleaned text after all: count the byte alone */
		*n = 1;
		return 1;
	}
	*n = k;
	return char_cols(decode(s, k));
}

int nl_name_text_cols(const char *s)
{
	int cols = 0, n;

	for (const unsigned char *p = (const unsigned char *)s; *p; p += n)
		cols += cols_at(p, &n);
	return cols;
}

size_t nl_name_text_head(const char *s, int cols, int *used)
{
	const unsigned char *p = (const unsigned char *)s;
	int w = 0, n;

	while (*p) {
		int c = cols_at(p, &n);

		if (w + c > cols)
			break;
		w += c;
		p += n;
	}
	if (used)
		*used = w;
	return (size_t)(p - (const unsigned char *)s);
}

size_t nl_name_text_tail(const char *s, int cols, int *used)
{
	size_t len = strlen(s), at = len;
	int w = 0;

	/* walk back over continuation bytes to each character's start */
	while (at > 0) {
		size_t st = at - 1;
		int n, c;

		if (at >= 4 && is_escape((const unsigned char *)s + at - 4)) {
			st = at - 4;
			c = 4;
		} else {
			while (st > 0 && ((unsigned char)s[st] & 0xc0) == 0x80 && at - st < 4)
				st--;
			c = cols_at((const unsigned char *)s + st, &n);
			if ((size_t)n != at - st) {	/* stray byte: one column */
				st = at - 1;
				c = 1;
			}
		}
		if (w + c > cols)
			break;
		w += c;
		at = st;
	}
	if (used)
		*used = w;
	return at;
}

char *nl_name_text_pad(char *out, size_t outlen, const char *s, int cols, bool left)
{
	int w;
	size_t n, o = 0;

	if (!outlen)
		return out;
	if (cols < 0)
		cols = 0;
	n = nl_name_text_head(s, cols, &w);
	if (n + (size_t)(cols - w) >= outlen) {	/* caller's buffer: cut, no pad */
		int c = cols;

		while (c > 0 && (n = nl_name_text_head(s, c, &w)) >= outlen)
			c--;
		if (!c)
			n = 0;
		memcpy(out, s, n);
		out[n] = '\0';
		return out;
	}
	if (!left)
		for (; w < cols; w++)
			out[o++] = ' ';
	memcpy(out + o, s, n);
	o += n;
	for (; w < cols; w++)
		out[o++] = ' ';
	out[o] = '\0';
	return out;
}

bool nl_name_path_label(char *out, size_t len, const char *path, uint64_t id)
{
	char tail[32];
	size_t tl, need, pl = strlen(path);
	bool altered;

	tl = (size_t)snprintf(tail, sizeof(tail), "...#%llu", (unsigned long long)id);
	need = nl_name_clean(NULL, 0, path, pl, 0, &altered);
	if (need + (altered ? tl - 3 : 0) < len) {
		nl_name_clean(out, len, path, pl, 0, NULL);
		if (altered)
			memcpy(out + need, tail + 3, tl - 2);	/* "#<id>" */
		return altered;
	}
	/* does not fit: the cleaned head, then "...#<id>" */
	nl_name_clean(out, len - tl, path, pl, 0, NULL);
	memcpy(out + strlen(out), tail, tl + 1);
	return true;
}
