/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Capabilities of this process, so that a command short of one can name it
 * instead of passing the kernel's bare EPERM on. Checked by capability,
 * never by uid: root under a reduced bounding set (a systemd unit, a
 * container) lacks what it lacks.
 */
#ifndef NL_CAPS_H
#define NL_CAPS_H

#include <stdbool.h>
#include <stddef.h>

/* nl_cap_effective - whether capability @cap (CAP_*) is in our effective set. */
bool nl_cap_effective(int cap);

/*
 * nl_caps_missing - the names of those of @caps (@n CAP_* numbers, names in
 * @names) not in our effective set, joined by ", " into @out (@len bytes;
 * "" when none is missing). Returns how many are missing.
 */
int nl_caps_missing(const int *caps, const char *const *names, int n, char *out, size_t len);

#endif /* NL_CAPS_H */
