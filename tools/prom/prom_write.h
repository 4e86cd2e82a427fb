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

#endif
