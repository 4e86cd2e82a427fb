/*
 * nlcaps: run a command with only the named capabilities, for the VM
 * guest, whose busybox has no setpriv or capsh.
 *   usage: nlcaps CAP[,CAP...]|none -- COMMAND [ARG...]
 * CAP names as in capabilities(7) without the prefix, lower case
 * (bpf,perfmon,sys_admin). Run as root: every other capability is dropped
 * from the bounding set and the inheritable set, so that after execve the
 * command (uid 0) holds exactly the named ones in its permitted and
 * effective sets, as `setpriv --bounding-set=-all,+CAP...` gives on the
 * host. Exit: the command's; 2 bad arguments; 1 a prctl/capset/exec
 * failed (said on stderr, one line).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/capability.h>

static const struct { const char *name; int cap; } names[] = {
	{ "bpf", CAP_BPF }, { "perfmon", CAP_PERFMON }, { "sys_admin", CAP_SYS_ADMIN },
	{ "sys_nice", CAP_SYS_NICE }, { "sys_ptrace", CAP_SYS_PTRACE },
	{ "sys_resource", CAP_SYS_RESOURCE }, { "dac_read_search", CAP_DAC_READ_SEARCH },
	{ "dac_override", CAP_DAC_OVERRIDE }, { "syslog", CAP_SYSLOG },
	{ "net_bind_service", CAP_NET_BIND_SERVICE },
};

int main(int argc, char **argv)
{
	unsigned long long keep = 0;
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2] = {};
	char *list, *tok, *save = NULL;

	if (argc < 4 || strcmp(argv[2], "--")) {
		fprintf(stderr, "usage: nlcaps CAP[,CAP...]|none -- COMMAND [ARG...]\n");
		return 2;
	}
	list = strdup(argv[1]);
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t i;

		if (!strcmp(tok, "none"))
			continue;
		for (i = 0; i < sizeof(names) / sizeof(names[0]) && strcmp(names[i].name, tok); i++)
			;
		if (i == sizeof(names) / sizeof(names[0])) {
			fprintf(stderr, "nlcaps: unknown capability '%s'\n", tok);
			return 2;
		}
		keep |= 1ULL << names[i].cap;
	}
	for (int c = 0; c <= 63; c++) {
		if (keep & (1ULL << c))
			continue;
		if (prctl(PR_CAPBSET_DROP, c, 0, 0, 0) && errno != EINVAL) {
			fprintf(stderr, "nlcaps: dropping capability %d from the bounding set: %s\n", c, strerror(errno));
			return 1;
		}
	}
	if (syscall(SYS_capget, &h, d)) {
		fprintf(stderr, "nlcaps: capget: %s\n", strerror(errno));
		return 1;
	}
	d[0].inheritable &= (unsigned)keep;
	d[1].inheritable &= (unsigned)(keep >> 32);
	if (syscall(SYS_capset, &h, d)) {
		fprintf(stderr, "nlcaps: capset: %s\n", strerror(errno));
		return 1;
	}
	execvp(argv[3], argv + 3);
	fprintf(stderr, "nlcaps: cannot run %s: %s\n", argv[3], strerror(errno));
	return 1;
}
