/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The bottom of the Prometheus layer: the text exposition format's line
 * writers. Every family renderer (view_prom*.c) writes through these, so
 * the format lives in one place and the renderers never include each other.
 *
 * A sample line is written in three steps:
 *   nl_prom_open(b, "numalens_x", "_bucket")   numalens_x_bucket{
 *   nl_prom_label(b, "node", "0")              node="0"   (",node=..." after
 *                                                          another label)
 *   nl_prom_close_u64(b, 42)                   } 42\n
 * Label values are escaped here; names are the caller's constants.
 * Every writer that ends a line (close, sample, row) and every family
 * header is a drain point of @b (nl_buf_drain_point): a renderer never
 * reads back past a line's start.
 */
#ifndef NL_PROM_WRITE_H
#define NL_PROM_WRITE_H

#include <stdint.h>
#include "strbuf.h"

/* Append the "# HELP @name @help" and "# TYPE @name @type" lines that
 * open a metric family. */
void nl_prom_family(struct nl_buf *b, const char *name, const char *type, const char *help);

/* The same for the family named @prefix@name (e.g. "numalens_cgroup_" and
 * "cpu_seconds_total"). */
void nl_prom_family_pre(struct nl_buf *b, const char *prefix, const char *name, const char *type,
			const char *help);

/* Append @v to @b as a label value, escaping \ " and newline. */
void nl_prom_put_label_value(struct nl_buf *b, const char *v);

/* Open a labelled sample: "@name@suffix{" (@suffix may be NULL). */
void nl_prom_open(struct nl_buf *b, const char *name, const char *suffix);

/* Append the label @key="@v" (escaped), after a comma unless it is the
 * first label of the sample. */
void nl_prom_label(struct nl_buf *b, const char *key, const char *v);

/* The same for an integer value, and for @ns written as seconds. */
void nl_prom_label_u64(struct nl_buf *b, const char *key, uint64_t v);
void nl_prom_label_s(struct nl_buf *b, const char *key, uint64_t ns);

/* Close a labelled sample with its value: "} <v>\n". _s takes ns and
 * writes seconds; _dbl writes @v with @prec decimals; _s64 a signed count. */
void nl_prom_close_u64(struct nl_buf *b, uint64_t v);
void nl_prom_close_s64(struct nl_buf *b, int64_t v);
void nl_prom_close_s(struct nl_buf *b, uint64_t ns);
void nl_prom_close_dbl(struct nl_buf *b, double v, int prec);

/* A sample without labels: "@name <v>\n" (_s: @ns as seconds; _dbl with
 * @prec decimals). */
void nl_prom_sample_u64(struct nl_buf *b, const char *name, uint64_t v);
void nl_prom_sample_s(struct nl_buf *b, const char *name, uint64_t ns);
void nl_prom_sample_dbl(struct nl_buf *b, const char *name, double v, int prec);

/* A sample with one label: "@name{@label="@value"} <v>\n". */
void nl_prom_sample1_u64(struct nl_buf *b, const char *name, const char *label, const char *value,
			 uint64_t v);

/*
 * Row families (one line per cgroup or process and per label set) are
 * most of a scrape: ~150k lines at 2,000 cgroups. Their lines are written
 * from pieces built once per family:
 *   "<head><row labels><tail><value>\n"
 * a head is "<name>{", a tail the sample's own labels and "} ", e.g.
 * `,node="0"} `. A line is then one capacity check, three copies and a
 * number, with the same bytes as the open/label/close writers above.
 */
#define NL_PROM_MAX_PIECES 160

struct nl_prom_pieces {
	struct nl_buf txt;	/* the pieces, back to back */
	int n;
	int err;		/* -E2BIG past NL_PROM_MAX_PIECES, or -ENOMEM */
	size_t off[NL_PROM_MAX_PIECES], len[NL_PROM_MAX_PIECES];
};

/* Forget @p's pieces, keeping its memory. */
void nl_prom_pieces_reset(struct nl_prom_pieces *p);

/* Free @p's memory. */
void nl_prom_pieces_free(struct nl_prom_pieces *p);

/* Add the head "@prefix@name@suffix{" (@suffix may be NULL); returns its
 * index (0 after a failure, with ->err set). */
int nl_prom_piece_head(struct nl_prom_pieces *p, const char *prefix, const char *name, const char *suffix);

/* Add the tail `,@k1="@v1",@k2="@v2"} ` (values escaped; a NULL key and
 * what follows it left out, so both NULL give "} "); returns its index (0
 * after a failure, with ->err set). */
int nl_prom_piece_tail(struct nl_prom_pieces *p, const char *k1, const char *v1, const char *k2,
		       const char *v2);

/* Append the line "<head @h><@lab (@lab_len bytes)><tail @t><v>\n"; _s
 * takes ns and writes seconds. A failure of @p's (->err) becomes @b's. */
void nl_prom_row_u64(struct nl_buf *b, const struct nl_prom_pieces *p, int h, const char *lab,
		     size_t lab_len, int t, uint64_t v);
void nl_prom_row_s(struct nl_buf *b, const struct nl_prom_pieces *p, int h, const char *lab,
		   size_t lab_len, int t, uint64_t ns);

#endif
