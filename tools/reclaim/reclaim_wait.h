/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The agent's waits between ticks: the limit hook's ring buffer wakes it
 * when a managed memcg enters limit reclaim, and the draws that arrived
 * get their step at once (reclaim_hook.h), between ticks and between the
 * steps of a pass; near the high watermark usage is looked at every
 * 50 ms, so a pass starts as soon as it is crossed.
 */
#ifndef NL_RECLAIM_WAIT_H
#define NL_RECLAIM_WAIT_H

#include <signal.h>
#include "reclaim_agent.h"

/* Wait on @lot's ring buffer for @ra (stored: one agent per process);
 * sets ra->between_steps so passes answer draws between their steps.
 * The waits end early once *@stop is set (a signal). */
void nl_wait_init(struct nl_ra *ra, struct nl_lot_bpf *lot, volatile sig_atomic_t *stop);

/* Wait up to @d seconds, woken early by limit-path draws (the ring
 * buffer's epoll), and step on them at once; near high, return as soon as
 * a cgroup's usage is over it. Sleeps when the ring buffer cannot be
 * polled. */
void nl_wait(struct nl_ra *ra, double d);

#endif
