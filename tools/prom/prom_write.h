/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The bottom of the Prometheus layer: the text exposition format's line
 * writers (family header, escaped label value, samples). Every family
 * renderer (view_prom*.c) writes through these, so the format lives in one
 * place and the renderers never include each other.
 */
#ifndef NL_PROM_WRITE_H
#define NL_PROM_WRITE_H

#include "strbuf.h"

/* Append the "# HELP @name @help" and "# TYPE @name @type" lines that
 * open a metric family. */
void nl_prom_family(struct nl_buf *b, const char *name, const char *type, const char *help);

/* Append @v to @b as a label value, escaping \ " and newline. */
void nl_prom_put_label_value(struct nl_buf *b, const char *v);

#endif
