// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Prometheus text-format writers shared by every family renderer; see
 * prom_write.h. */
#include <inttypes.h>
#include "prom_write.h"

void nl_prom_put_label_value(struct nl_buf *b, const char *v)
{
	const char *run = v;

	for (; *v; v++) {
		const char *esc = *v == '\\' ? "\\\\" : *v == '"' ? "\\\"" : *v == '\n' ? "\\n" : NULL;

		if (!esc)
			continue;
		nl_buf_put(b, run, (size_t)(v - run));
		nl_buf_put(b, esc, 2);
		run = v + 1;
	}
	nl_buf_put(b, run, (size_t)(v - run));
}

void nl_prom_family_pre(struct nl_buf *b, const char *prefix, const char *name, const char *type,
			const char *help)
{
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
}

void nl_prom_close_s64(struct nl_buf *b, int64_t v)
{
	nl_buf_printf(b, "} %" PRId64 "\n", v);
}

void nl_prom_close_s(struct nl_buf *b, uint64_t ns)
{
	nl_buf_put(b, "} ", 2);
	nl_buf_put_ns_as_s(b, ns);
	nl_buf_put(b, "\n", 1);
}

void nl_prom_close_dbl(struct nl_buf *b, double v, int prec)
{
	nl_buf_printf(b, "} %.*f\n", prec, v);
}

void nl_prom_sample_u64(struct nl_buf *b, const char *name, uint64_t v)
{
	nl_buf_puts(b, name);
	nl_buf_put(b, " ", 1);
	nl_buf_put_u64(b, v);
	nl_buf_put(b, "\n", 1);
}

void nl_prom_sample_s(struct nl_buf *b, const char *name, uint64_t ns)
{
	nl_buf_puts(b, name);
	nl_buf_put(b, " ", 1);
	nl_buf_put_ns_as_s(b, ns);
	nl_buf_put(b, "\n", 1);
}

void nl_prom_sample_dbl(struct nl_buf *b, const char *name, double v, int prec)
{
	nl_buf_printf(b, "%s %.*f\n", name, prec, v);
}

void nl_prom_sample1_u64(struct nl_buf *b, const char *name, const char *label, const char *value,
			 uint64_t v)
{
	nl_prom_open(b, name, NULL);
	nl_prom_label(b, label, value);
	nl_prom_close_u64(b, v);
}
