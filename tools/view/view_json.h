/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* JSON rendering of a snapshot, exactly as documented in docs/json.md. */
#ifndef NL_VIEW_JSON_H
#define NL_VIEW_JSON_H

#include <stdio.h>
#include <cjson/cJSON.h>
#include "snapshot.h"
#include "view_sort.h"

/*
 * Build the docs/json.md object of @s. @o filters, orders and limits the
 * "processes" and "cgroups" arrays (NULL: all rows, CPU% order; cgroups
 * always in tree pre-order). Integer counters are emitted as exact decimal
 * integers even past 2^53 (timestamps in ns are), so reading them back
 * through a double-based parser may round. Returns a new tree the caller
 * frees with cJSON_Delete, or NULL on allocation failure.
 */
cJSON *nl_json_build(const struct nl_snapshot *s, const struct nl_view_opts *o);

/* nl_json_build printed on one line, malloc'd (caller frees), or NULL. */
char *nl_json_render(const struct nl_snapshot *s, const struct nl_view_opts *o);

/*
 * Write the object as one line (JSON Lines) to @out and flush. Returns 0,
 * -EINVAL for NULL args, -ENOMEM, or -EIO / -errno when writing failed.
 */
int nl_json_write(FILE *out, const struct nl_snapshot *s, const struct nl_view_opts *o);

#endif /* NL_VIEW_JSON_H */
