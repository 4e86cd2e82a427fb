// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Prometheus text-format writers shared by every family renderer; see
 * prom_write.h. */
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

void nl_prom_family(struct nl_buf *b, const char *name, const char *type, const char *help)
{
	nl_buf_puts(b, "# HELP ");
	nl_buf_puts(b, name);
	nl_buf_put(b, " ", 1);
	nl_buf_puts(b, help);
	nl_buf_puts(b, "\n# TYPE ");
	nl_buf_puts(b, name);
	nl_buf_put(b, " ", 1);
	nl_buf_puts(b, type);
	nl_buf_put(b, "\n", 1);
}
