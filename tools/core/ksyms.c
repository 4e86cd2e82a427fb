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

/* The address and name of a text symbol on kallsyms line @line (the name
 * cut at its end, in place), or NULL for any other line (data, hidden
 * address 0, malformed). */
static const char *text_symbol(char *line, uint64_t *addr)
{
	char *end, *name;

	*addr = strtoull(line, &end, 16);
	if (end == line || *end != ' ' || !end[1] || end[2] != ' ' || !is_text(end[1]) || !*addr)
		return NULL;
	name = end + 3;
	name[strcspn(name, " \t\n")] = '\0';
	return name;
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
		uint64_t addr;
		const char *name = text_symbol(line, &addr);

		if (!name)
			continue;
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

struct nl_ksym {
	uint64_t addr;
	uint32_t name;	/* offset into the table's names */
};

struct nl_ksym_table {
	struct nl_ksym *syms;
	size_t nr;
	char *names;
};

static int ksym_cmp(const void *a, const void *b)
{
	const struct nl_ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

struct nl_ksym_table *nl_ksym_table_load(const char *kallsyms_path)
{
	struct nl_ksym_table *t = calloc(1, sizeof(*t));
	size_t cap = 0, ncap = 0, nlen = 0;
	char line[512], *buf = NULL;
	FILE *f;
	int err = ENOMEM;

	if (!t)
		return NULL;
	f = fopen(kallsyms_path, "re");
	if (!f) {
		err = errno;
		goto fail;
	}
	buf = malloc(1 << 16);
	if (buf)
		setvbuf(f, buf, _IOFBF, 1 << 16);
	while (fgets(line, sizeof(line), f)) {
		uint64_t addr;
		const char *name = text_symbol(line, &addr);
		size_t l;

		if (!name)
			continue;
		l = strlen(name) + 1;
		if (t->nr == cap) {
			size_t nc = cap ? cap * 2 : 1 << 16;
			struct nl_ksym *ns = realloc(t->syms, nc * sizeof(*ns));

			if (!ns)
				goto fail_file;
			t->syms = ns;
			cap = nc;
		}
		if (nlen + l > ncap) {
			size_t nc = ncap ? ncap * 2 : 1 << 20;
			char *nn = realloc(t->names, nc);

			if (!nn)
				goto fail_file;
			t->names = nn;
			ncap = nc;
		}
		memcpy(t->names + nlen, name, l);
		t->syms[t->nr].addr = addr;
		t->syms[t->nr].name = (uint32_t)nlen;
		t->nr++;
		nlen += l;
	}
	fclose(f);
	free(buf);
	if (!t->nr) {
		nl_ksym_table_free(t);
		errno = ENODATA;
		return NULL;
	}
	qsort(t->syms, t->nr, sizeof(*t->syms), ksym_cmp);
	return t;
fail_file:
	fclose(f);
fail:
	free(buf);
	nl_ksym_table_free(t);
	errno = err;
	return NULL;
}

const char *nl_ksym_table_name(const struct nl_ksym_table *t, uint64_t addr, uint64_t *off)
{
	size_t lo = 0, hi;

	if (!t || !t->nr || addr < t->syms[0].addr)
		return NULL;
	hi = t->nr;
	/* the last symbol at or below addr: syms[lo].addr <= addr < syms[hi].addr */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	if (off)
		*off = addr - t->syms[lo].addr;
	return t->names + t->syms[lo].name;
}

void nl_ksym_table_free(struct nl_ksym_table *t)
{
	if (!t)
		return;
	free(t->syms);
	free(t->names);
	free(t);
}
