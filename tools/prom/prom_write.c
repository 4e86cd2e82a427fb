// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Prometheus text-format writers shared by every family renderer; see
 * prom_write.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include "prom_write.h"

void nl_prom_put_label_value(struct nl_buf *b, const char *v)
{
	for (;;) {
		size_t run = strcspn(v, "\\\"\n");

		nl_buf_put(b, v, run);
		v += run;
		if (!*v)
			return;
		nl_buf_put(b, *v == '\\' ? "\\\\" : *v == '"' ? "\\\"" : "\\n", 2);
		v++;
	}
}

void nl_prom_family_pre(struct nl_buf *b, const char *prefix, const char *name, const char *type,
			const char *help)
{
	nl_buf_drain_point(b);
	nl_buf_puts(b, "# HELP ");
	nl_buf_puts(b, prefix);
	nl_buf_puts(b, name);
	nl_buf_put(b, " ", 1);
	nl_buf_puts(b, help);
	nl_buf_puts(b, "\n# TYPE ");
	nl_buf_puts(b, prefix);
	nl_buf_puts(b, name);
	nl_buf_put(b, " ", 1);
	nl_buf_puts(b, type);
	nl_buf_put(b, "\n", 1);
}

void nl_prom_family(struct nl_buf *b, const char *name, const char *type, const char *help)
{
	nl_prom_family_pre(b, "", name, type, help);
}

void nl_prom_open(struct nl_buf *b, const char *name, const char *suffix)
{
	nl_buf_puts(b, name);
	if (suffix)
		nl_buf_puts(b, suffix);
	nl_buf_put(b, "{", 1);
}

/* The sample's first label follows its '{' directly. */
static void label_key(struct nl_buf *b, const char *key)
{
	if (b->len && b->p && b->p[b->len - 1] != '{')
		nl_buf_put(b, ",", 1);
	nl_buf_puts(b, key);
	nl_buf_puts(b, "=\"");
}

void nl_prom_label(struct nl_buf *b, const char *key, const char *v)
{
	label_key(b, key);
	nl_prom_put_label_value(b, v);
	nl_buf_put(b, "\"", 1);
}

void nl_prom_label_u64(struct nl_buf *b, const char *key, uint64_t v)
{
	label_key(b, key);
	nl_buf_put_u64(b, v);
	nl_buf_put(b, "\"", 1);
}

void nl_prom_label_s(struct nl_buf *b, const char *key, uint64_t ns)
{
	label_key(b, key);
	nl_buf_put_ns_as_s(b, ns);
	nl_buf_put(b, "\"", 1);
}

void nl_prom_close_u64(struct nl_buf *b, uint64_t v)
{
	nl_buf_put(b, "} ", 2);
	nl_buf_put_u64(b, v);
	nl_buf_put(b, "\n", 1);
	nl_buf_drain_point(b);
}

void nl_prom_close_s64(struct nl_buf *b, int64_t v)
{
	nl_buf_printf(b, "} %" PRId64 "\n", v);
	nl_buf_drain_point(b);
}

void nl_prom_close_s(struct nl_buf *b, uint64_t ns)
{
	nl_buf_put(b, "} ", 2);
	nl_buf_put_ns_as_s(b, ns);
	nl_buf_put(b, "\n", 1);
	nl_buf_drain_point(b);
}

void nl_prom_close_dbl(struct nl_buf *b, double v, int prec)
{
	nl_buf_printf(b, "} %.*f\n", prec, v);
	nl_buf_drain_point(b);
}

void nl_prom_sample_u64(struct nl_buf *b, const char *name, uint64_t v)
{
	nl_buf_puts(b, name);
	nl_buf_put(b, " ", 1);
	nl_buf_put_u64(b, v);
	nl_buf_put(b, "\n", 1);
	nl_buf_drain_point(b);
}

void nl_prom_sample_s(struct nl_buf *b, const char *name, uint64_t ns)
{
	nl_buf_puts(b, name);
	nl_buf_put(b, " ", 1);
	nl_buf_put_ns_as_s(b, ns);
	nl_buf_put(b, "\n", 1);
	nl_buf_drain_point(b);
}

void nl_prom_sample_dbl(struct nl_buf *b, const char *name, double v, int prec)
{
	nl_buf_printf(b, "%s %.*f\n", name, prec, v);
	nl_buf_drain_point(b);
}

void nl_prom_sample1_u64(struct nl_buf *b, const char *name, const char *label, const char *value,
			 uint64_t v)
{
	nl_prom_open(b, name, NULL);
	nl_prom_label(b, label, value);
	nl_prom_close_u64(b, v);
}

void nl_prom_pieces_reset(struct nl_prom_pieces *p)
{
	nl_buf_reset(&p->txt);
	p->n = 0;
	p->err = 0;
}

void nl_prom_pieces_free(struct nl_prom_pieces *p)
{
	nl_buf_free(&p->txt);
	p->n = 0;
	p->err = 0;
}

/* Start a piece; -1 when full. */
static int piece_begin(struct nl_prom_pieces *p)
{
	if (p->n >= NL_PROM_MAX_PIECES) {
		p->err = p->err ? p->err : -E2BIG;
		return -1;
	}
	p->off[p->n] = p->txt.len;
	return p->n;
}

static int piece_end(struct nl_prom_pieces *p, int i)
{
	if (i < 0 || p->txt.err) {
		p->err = p->err ? p->err : p->txt.err ? p->txt.err : -E2BIG;
		return 0;
	}
	p->len[i] = p->txt.len - p->off[i];
	return p->n++;
}

int nl_prom_piece_head(struct nl_prom_pieces *p, const char *prefix, const char *name, const char *suffix)
{
	int i = piece_begin(p);

	if (i >= 0) {
		nl_buf_puts(&p->txt, prefix);
		nl_buf_puts(&p->txt, name);
		if (suffix)
			nl_buf_puts(&p->txt, suffix);
		nl_buf_put(&p->txt, "{", 1);
	}
	return piece_end(p, i);
}

static void tail_label(struct nl_buf *t, const char *k, const char *v)
{
	nl_buf_put(t, ",", 1);
	nl_buf_puts(t, k);
	nl_buf_put(t, "=\"", 2);
	nl_prom_put_label_value(t, v);
	nl_buf_put(t, "\"", 1);
}

int nl_prom_piece_tail(struct nl_prom_pieces *p, const char *k1, const char *v1, const char *k2,
		       const char *v2)
{
	int i = piece_begin(p);

	if (i >= 0) {
		if (k1) {
			tail_label(&p->txt, k1, v1);
			if (k2)
				tail_label(&p->txt, k2, v2);
		}
		nl_buf_put(&p->txt, "} ", 2);
	}
	return piece_end(p, i);
}

/* The line up to its value; NULL (and @b's ->err set) on a failure. */
static char *row_begin(struct nl_buf *b, const struct nl_prom_pieces *p, int h, const char *lab,
		       size_t lab_len, int t, size_t value_max)
{
	char *w;

	if (p->err) {
		b->err = b->err ? b->err : p->err;
		return NULL;
	}
	w = nl_buf_room(b, p->len[h] + lab_len + p->len[t] + value_max + 1);
	if (!w)
		return NULL;
	w = nl_put_mem_at(w, p->txt.p + p->off[h], p->len[h]);
	w = nl_put_mem_at(w, lab, lab_len);
	return nl_put_mem_at(w, p->txt.p + p->off[t], p->len[t]);
}

/* The line's value and newline: @v as an integer, or ns as seconds. */
static void row_line(struct nl_buf *b, const struct nl_prom_pieces *p, int h, const char *lab,
		     size_t lab_len, int t, uint64_t v, bool seconds)
{
	char *w = row_begin(b, p, h, lab, lab_len, t, seconds ? NL_PUT_NS_AS_S_MAX : NL_PUT_U64_MAX);

	if (!w)
		return;
	w = seconds ? nl_buf_put_ns_as_s_at(w, v) : nl_buf_put_u64_at(w, v);
	*w++ = '\n';
	nl_buf_commit(b, w);
	nl_buf_drain_point(b);
}

void nl_prom_row_u64(struct nl_buf *b, const struct nl_prom_pieces *p, int h, const char *lab,
		     size_t lab_len, int t, uint64_t v)
{
	row_line(b, p, h, lab, lab_len, t, v, false);
}

void nl_prom_row_s(struct nl_buf *b, const struct nl_prom_pieces *p, int h, const char *lab,
		   size_t lab_len, int t, uint64_t ns)
{
	row_line(b, p, h, lab, lab_len, t, ns, true);
}
