// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Function ranges from kallsyms; see ksyms.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
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

/*
 * When nl_ksym_ranges() may stop reading: the kernel lists its own
 * symbols first, sorted by address, and modules and BPF programs lie
 * outside its image. So once every name was found in that sorted run,
 * each followed by a higher text address in it, the rest of the file
 * (two thirds of it on 6.18, for these names, and the kernel formats
 * every line it hands out) cannot change a range. Lines out of order
 * before that (not the kernel's sorted run, or a fixture) read on to the
 * end, as the whole file decides then.
 */
struct stop_rule {
	const char *const *names;
	int n;
	uint64_t *lo;		/* first address of names[i], 0 = not yet */
	bool *ended;		/* a higher text address followed names[i] */
	uint64_t last;		/* the previous text address */
	bool unsorted;		/* a text address went down: read it all */
};

/* Note text symbol @name at @addr in @r; true when reading may stop. */
static bool stop_after(struct stop_rule *r, const char *name, uint64_t addr)
{
	bool all = true;

	if (addr < r->last)
		r->unsorted = true;
	r->last = addr;
	if (r->unsorted)
		return false;
	for (int i = 0; i < r->n; i++) {
		if (!r->lo[i] && !strcmp(name, r->names[i]))
			r->lo[i] = addr;
		else if (r->lo[i] && addr > r->lo[i])
			r->ended[i] = true;
		all = all && r->ended[i];
	}
	return all;
}

/* Every text symbol of @kallsyms_path, in file order, or sorted by
 * address when @sorted, up to where @stop says the rest cannot matter
 * (NULL: all of it); NULL with errno set (nl_ksym_table_load). */
static struct nl_ksym_table *table_read(const char *kallsyms_path, bool sorted,
					struct stop_rule *stop)
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
	/* One pass with a large buffer: the kernel formats all of kallsyms
	 * (120k+ lines) on every read of it, which took a noticeable part of
	 * numalens' start-up when it was read twice in 4 KiB pieces. */
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
		if (stop && stop_after(stop, name, addr))
			break;
	}
	fclose(f);
	free(buf);
	if (!t->nr) {
		nl_ksym_table_free(t);
		errno = ENODATA;
		return NULL;
	}
	if (sorted)
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

struct nl_ksym_table *nl_ksym_table_load(const char *kallsyms_path)
{
	return table_read(kallsyms_path, true, NULL);
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

int nl_ksym_ranges(const char *kallsyms_path, const char *const *names, int n,
		   uint64_t *lo, uint64_t *hi)
{
	uint64_t *seen = n > 0 ? calloc((size_t)n, sizeof(*seen)) : NULL;
	bool *ended = n > 0 ? calloc((size_t)n, sizeof(*ended)) : NULL;
	struct stop_rule stop = { .names = names, .n = n, .lo = seen, .ended = ended };
	struct nl_ksym_table *t;
	int found = 0, err;

	for (int i = 0; i < n; i++)
		lo[i] = hi[i] = 0;
	/* in file order, unsorted: a few names need no sort of 100k+
	 * symbols, and a name listed twice (static functions of two files)
	 * is taken at its first line */
	/* without memory for the stop rule: the whole file */
	t = table_read(kallsyms_path, false, seen && ended ? &stop : NULL);
	err = t ? 0 : errno;
	free(seen);
	free(ended);
	if (!t)
		return err == ENODATA ? 0 : -err;
	for (size_t k = 0; k < t->nr; k++)
		for (int i = 0; i < n; i++)
			if (!lo[i] && !strcmp(t->names + t->syms[k].name, names[i]))
				lo[i] = t->syms[k].addr;
	/* the end is the next higher text address, wherever it is listed
	 * (kallsyms has no sizes; modules follow the core kernel unsorted) */
	for (size_t k = 0; k < t->nr; k++)
		for (int i = 0; i < n; i++)
			if (lo[i] && t->syms[k].addr > lo[i] && (!hi[i] || t->syms[k].addr < hi[i]))
				hi[i] = t->syms[k].addr;
	nl_ksym_table_free(t);
	for (int i = 0; i < n; i++) {
		if (lo[i] && !hi[i])
			hi[i] = lo[i] + 4096;	/* last symbol: one page */
		found += lo[i] != 0;
	}
	return found;
}
