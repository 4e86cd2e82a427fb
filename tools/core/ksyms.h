/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Kernel text ranges from /proc/kallsyms, for BPF programs that must
 * recognise a caller on the kernel stack (vmscan: proactive reclaim), and
 * a whole table of them to name the frames of a kernel stack.
 */
#ifndef NL_KSYMS_H
#define NL_KSYMS_H

#include <stdint.h>

/*
 * nl_ksym_ranges - text range [lo, hi) of each of the @n functions @names
 * in @kallsyms_path ("/proc/kallsyms" or a fixture of the same format).
 * hi is the next higher text symbol's address (kallsyms has no sizes).
 * A name that is absent (inlined, or addresses hidden by kptr_restrict,
 * which shows them as 0) gets lo = hi = 0; a name listed twice is taken
 * at its first line. Read through nl_ksym_table_load's reader, which
 * stops where the kernel's address-sorted run has ended every name.
 * Returns how many names were found, or -errno if the file cannot be read.
 */
int nl_ksym_ranges(const char *kallsyms_path, const char *const *names, int n,
		   uint64_t *lo, uint64_t *hi);

/* Every text symbol of a kallsyms file, sorted by address. */
struct nl_ksym_table;

/*
 * nl_ksym_table_load - read @kallsyms_path ("/proc/kallsyms" or a fixture).
 * Returns the table, or NULL with errno set (ENOENT: unreadable; ENODATA:
 * no text address in it, as kptr_restrict shows them all as 0).
 */
struct nl_ksym_table *nl_ksym_table_load(const char *kallsyms_path);

/*
 * nl_ksym_table_name - the function holding @addr (the highest symbol at or
 * below it) and @addr's offset into it in *@off (bytes). NULL when @addr is
 * below every symbol or @t is NULL.
 */
const char *nl_ksym_table_name(const struct nl_ksym_table *t, uint64_t addr, uint64_t *off);

/* nl_ksym_table_free - free; NULL is fine. */
void nl_ksym_table_free(struct nl_ksym_table *t);

#endif
