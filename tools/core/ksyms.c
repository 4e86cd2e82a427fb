// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Function ranges from kallsyms; see ksyms.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ksyms.h"

static int is_text(char t)
{
	return t == 't' || t == 'T' || t == 'W' || t == 'w';
}

int nl_ksym_ranges(const char *kallsyms_path, const char *const *names, int n,
		   uint64_t *lo, uint64_t *hi)
{
	char line[512], *buf;
	uint64_t *addrs = NULL;
	size_t nr = 0, cap = 0;
	int found = 0;
	FILE *f;

	for (int i = 0; i < n; i++)
		lo[i] = hi[i] = 0;
	f = fopen(kallsyms_path, "re");
	if (!f)
		return -errno;
	/* One pass with a large buffer: the kernel formats all of kallsyms
	 * (120k+ lines) on every read of it, which took a noticeable part of
	 * numalens' start-up when it was read twice in 4 KiB pieces. Every
	 * text address is kept, so the next one above each function can be
	 * found afterwards whatever the file's order. */
	buf = malloc(1 << 16);
	if (buf)
		setvbuf(f, buf, _IOFBF, 1 << 16);
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *end, *name;
		uint64_t addr = strtoull(p, &end, 16);
		char type;

		if (end == p || *end != ' ' || !end[1] || end[2] != ' ')
			continue;
		type = end[1];
		if (!is_text(type) || !addr)
			continue;
		name = end + 3;
		name[strcspn(name, " \t\n")] = '\0';
		if (nr == cap) {
			size_t nc = cap ? cap * 2 : 1 << 16;
			uint64_t *na = realloc(addrs, nc * sizeof(*na));

			if (!na) {
				free(addrs);
				fclose(f);
				free(buf);
				return -ENOMEM;
			}
			addrs = na;
			cap = nc;
		}
		addrs[nr++] = addr;
		for (int i = 0; i < n; i++)
			if (!lo[i] && !strcmp(name, names[i]))
				lo[i] = addr;
	}
	fclose(f);
	free(buf);
	for (size_t k = 0; k < nr; k++)
		for (int i = 0; i < n; i++)
			if (lo[i] && addrs[k] > lo[i] && (!hi[i] || addrs[k] < hi[i]))
				hi[i] = addrs[k];
	free(addrs);
	for (int i = 0; i < n; i++) {
		if (lo[i] && !hi[i])
			hi[i] = lo[i] + 4096;	/* last symbol: one page */
		found += lo[i] != 0;
	}
	return found;
}
