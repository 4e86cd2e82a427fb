// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Our effective capabilities; see caps.h. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/capability.h>

#include "caps.h"

bool nl_cap_effective(int cap)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2] = {};

	if (cap < 0 || cap >= 64 || syscall(SYS_capget, &h, d))
		return false;
	return d[cap / 32].effective & (1u << (cap % 32));
}

int nl_caps_missing(const int *caps, const char *const *names, int n, char *out, size_t len)
{
	int missing = 0;
	size_t o = 0;

	if (len)
		out[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (nl_cap_effective(caps[i]))
			continue;
		if (o < len)
			o += (size_t)snprintf(out + o, len - o, "%s%s", missing ? ", " : "", names[i]);
		missing++;
	}
	return missing;
}
