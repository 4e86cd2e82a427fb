/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The agent's text status of one cgroup: what --status and -v print. */
#ifndef NL_RECLAIM_REPORT_H
#define NL_RECLAIM_REPORT_H

#include <stdio.h>
#include "reclaim_agent.h"

/* Status of @c in the seed's `scan_weight=W N0=w0 ...` format plus
 * tickets, balance, draws and the agent's counters. */
void nl_ra_status(struct nl_ra *a, struct nl_ra_cg *c, FILE *f);

#endif
