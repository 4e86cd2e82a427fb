/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The opt-in views of top in plain text: miss and remote attribution
 * (--alloc-stacks) and page lifetime (--page-lifetime), printed after the
 * cgroups when asked for.
 */
#ifndef NL_VIEW_OPTIN_H
#define NL_VIEW_OPTIN_H

#include <stdio.h>
#include "snapshot.h"

/* nl_optin_write - the opt-in sections of @s that were asked for
 * (nothing otherwise). Write errors show in @out's error flag. */
void nl_optin_write(FILE *out, const struct nl_snapshot *s);

#endif
