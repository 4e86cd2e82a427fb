/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Plain-text rendering of a snapshot, for `numalens top --batch`. */
#ifndef NL_VIEW_TEXT_H
#define NL_VIEW_TEXT_H

#include <stdio.h>
#include "snapshot.h"
#include "view_sort.h"

/*
 * Write one readable snapshot to @out: a header (time, interval, kernel,
 * sources and what is missing), the node table, the process table and the
 * cgroup tree. The columns are explained by nl_text_write_legend, once. @o picks the sort
 * key, the filter and the top-N limit (NULL: defaults, see
 * nl_view_opts_default). Ends with a blank line and flushes @out.
 * Returns 0, or a negative errno (-EINVAL for NULL args, -EIO / the
 * stream's errno when writing failed, -ENOMEM).
 */
int nl_text_write(FILE *out, const struct nl_snapshot *s, const struct nl_view_opts *o);

/*
 * Write the legend of the text snapshots to @out: every column and marker
 * of the node, process and cgroup tables. @page_size in bytes (named in
 * the allocation units). Returns 0, -EINVAL for a NULL @out, or a
 * negative errno when writing failed.
 */
int nl_text_write_legend(FILE *out, long page_size);

#endif /* NL_VIEW_TEXT_H */
