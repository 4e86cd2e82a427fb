/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The command line of `numalens export`: its help, its options and their
 * checks, kept apart from the serving so cmd_export.c reads as the run of
 * the exporter.
 */
#ifndef NL_EXPORT_OPTS_H
#define NL_EXPORT_OPTS_H

#include <stdbool.h>
#include <stdint.h>
#include "view_prom.h"

/* Not taken by any exporter we know of; see README "numalens export". */
#define NL_EXPORT_DEFAULT_LISTEN ":10072"
#define NL_EXPORT_MAX_PATTERNS 32
#define NL_EXPORT_MAX_LISTEN 8

/* What the command line asks of `numalens export`. */
struct nl_export_args {
	const char *listen[NL_EXPORT_MAX_LISTEN];	/* --web.listen-address / --listen */
	int nr_listen;
	const char *web_config;		/* --web.config.file */
	bool tls, basic_auth;		/* what the web configuration asks */
	const char *btf;	/* --btf */
	double interval, grace;
	int cg_mode;
	bool no_class, verbose, self_cost;
	uint32_t alloc_sample;	/* --alloc-sample / --exact: 0 = auto */
	bool json;		/* -j: the start-up facts as JSON on stdout */
	unsigned max_conns, max_per_addr;
	double header_timeout;	/* --header-timeout; 0 = the server's default */
	const char *patterns[NL_EXPORT_MAX_PATTERNS];
	struct nl_prom_opts po;
	int synth_cgroups, synth_nodes;	/* --synthetic: 0 = off */
};

/* Parse @argv into @a, defaults first (every interface on :10072, 5 s,
 * the root cgroup only). Bad usage exits with NL_EXIT_USAGE and a one-line
 * message; --help and --usage exit 0. */
void nl_export_opts_parse(int argc, char **argv, struct nl_export_args *a);

#endif /* NL_EXPORT_OPTS_H */
