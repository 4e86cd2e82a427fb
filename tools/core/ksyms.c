// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Function ranges from kallsyms; see ksyms.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "ksyms.h"

static int is_text(char t)
{
	return t == 't' || t == 'T' || t == 'W' || t == 'w';
}

int nl_ksym_ranges(const char *kallsyms_path, const char *const *names, int n,
		   uint64_t *lo, uint64_t *hi)
{
	char line[512], name[256], type;
	uint64_t addr;
	int found = 0;
	FILE *f;

	for (int i = 0; i < n; i++)
		lo[i] = hi[i] = 0;
	f = fopen(kallsyms_path, "re");
	if (!f)
		return -errno;
	/* pass 1: start addresses; pass 2: the next text symbol above each */
	for (int pass = 0; pass < 2; pass++) {
		rewind(f);
		while (fgets(line, sizeof(line), f)) {
			if (sscanf(line, "%" SCNx64 " %c %255s", &addr, &type, name) != 3 ||
			    !is_text(type) || !addr)
				continue;
			for (int i = 0; i < n; i++) {
				if (pass == 0 && !lo[i] && !strcmp(name, names[i]))
					lo[i] = addr;
				else if (pass == 1 && lo[i] && addr > lo[i] && (!hi[i] || addr < hi[i]))
					hi[i] = addr;
			}
		}
	}
	fclose(f);
	for (int i = 0; i < n; i++) {
		if (lo[i] && !hi[i])
			hi[i] = lo[i] + 4096;	/* last symbol: one page */
		found += lo[i] != 0;
	}
	return found;
}
