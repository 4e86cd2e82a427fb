/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The agent's refault guard, free of I/O so it can be unit-tested: pages
 * it evicts that the workload faults back in were not cold, so while that
 * happens it stops reclaiming ahead of the limit.
 */
#ifndef NL_RECLAIM_REFAULT_H
#define NL_RECLAIM_REFAULT_H

#include <stdbool.h>
#include <stdint.h>

/* Refault guard: pages the agent evicts that come back were not cold.
 * Over each window of at least one second, when the memcg's refaults
 * exceed half the pages the agent freed in it, the agent stops reclaiming
 * ahead of the limit and answers no limit event (the kernel's own limit
 * reclaim takes what a charge needs) for a back-off that
 * starts at 2 s and doubles up to 30 s while it keeps happening; a window
 * in which the agent freed pages that mostly stayed out resets it. */
struct nl_refault_guard {
	double win_s;		/* start of the current window */
	uint64_t ref0, freed0;	/* refaults and agent pages at its start */
	double until_s;		/* paused until this time */
	double backoff_s;
	bool have;
	uint64_t trips;		/* times it paused */
};

/* Refaults the workload waited on, out of deltas over one tick (pages,
 * faults): the anon refaults @d_anon when the agent evicts anon
 * (@anon_in; each one is a swap-in fault), plus the file refaults
 * @d_file up to the major faults @d_maj left after the anon ones (page
 * cache that came back through a fault that waited for I/O). Page cache
 * read back by read(2) or brought in ahead by readahead costs no fault
 * and does not count: evicting it ahead of the limit is what the kernel
 * would do at the limit anyway. */
uint64_t nl_refault_cost(uint64_t d_anon, uint64_t d_file, uint64_t d_maj, bool anon_in);

/* Feed the memcg's refault total @refaults and the agent's freed-pages
 * total @freed at @now_s (seconds, monotonic), at most once per window
 * counted. Returns true while the agent must not reclaim ahead. */
bool nl_refault_guard_update(struct nl_refault_guard *g, double now_s, uint64_t refaults,
			     uint64_t freed);

#endif
