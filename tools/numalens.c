// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * numalens: NUMA locality made visible, without a PMU.
 * The one CLI: this file only dispatches to the subcommands, one
 * tools/cmd_<name>.c each (declared in cli.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"

/* ---- main --------------------------------------------------------------- */

static const struct {
	const char *name;
	int (*fn)(int, char **);
	const char *help;
} cmds[] = {
	{ "top", nl_cmd_top, "live NUMA locality per process, cgroup and node (numatop-like)" },
	{ "export", nl_cmd_export, "serve the same figures as Prometheus metrics over HTTP (/metrics)" },
	{ "vmscan", nl_cmd_vmscan, "page reclaim per cgroup, node and context (memory.vmscan_stat-like)" },
	{ "reclaim", nl_cmd_reclaim, "background reclaim of cgroups from a BPF-drawn victim node" },
};

static void usage(FILE *f)
{
	fprintf(f, "Usage: numalens COMMAND [OPTION...]\n"
		   "NUMA locality made visible from BPF tracepoints, without a PMU.\n\n"
		   "Commands:\n");
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  %-8s %s\n", cmds[i].name, cmds[i].help);
	fprintf(f, "\n'numalens COMMAND --help' describes a command's options, "
		   "'man numalens-COMMAND' more.\n"
		   "Needs CAP_BPF and CAP_PERFMON (root has them; another user also needs\n"
		   "CAP_DAC_READ_SEARCH) and a kernel with BTF: docs/kernel.md, \"Capabilities\".\n");
}

int main(int argc, char **argv)
{
	/* A closed stdin/stdout/stderr would be reused by the next open():
	 * a BPF map or perf fd on 1, and the reports written into it. Put
	 * /dev/null there first (output to a closed stdout is then lost, as
	 * with `>/dev/null`, instead of failing with EINVAL). */
	for (int fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF && open("/dev/null", O_RDWR) != fd)
			return NL_EXIT_FAIL;
	argp_err_exit_status = NL_EXIT_USAGE;
	if (argc < 2) {
		usage(stderr);
		return NL_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("numalens %s\n", NL_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name)) {
			char prog[64];

			snprintf(prog, sizeof(prog), "numalens %s", cmds[i].name);
			argv[1] = prog;
			return cmds[i].fn(argc - 1, argv + 1);
		}
	fprintf(stderr, "numalens: unknown command '%s' (see 'numalens --help')\n", nl_cli_shown(argv[1]));
	return NL_EXIT_USAGE;
}
