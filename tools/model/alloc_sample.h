/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * alloc_sample: how many page allocations the BPF side counts in full.
 * Counting every allocation by task, cgroup and node costs a few cache
 * misses each; on an allocation-heavy host that is a tax on the workload
 * numalens watches. Above a rate, one allocation in a period is counted,
 * standing for the period's worth, and the figures become estimates with
 * a known error.
 */
#ifndef NL_ALLOC_SAMPLE_H
#define NL_ALLOC_SAMPLE_H

#include <stdint.h>

/* The largest period the automatic choice takes (a power of two). */
#define NL_ALLOC_SAMPLE_MAX 256u

/* Allocations per second, host-wide, that are counted in full before the
 * automatic choice samples: at ~100 ns each, about 0.2% of a CPU even
 * when one CPU makes them all (a single allocating thread is the case
 * that pays most: averaged over the CPUs its rate would look small). */
#define NL_ALLOC_FULL_RATE 20000.0

/* The sample period for the next interval. @fixed: the user's choice
 * (1 = every allocation, N = one in N), 0 = automatic: the smallest
 * power of two that keeps the counted allocations at or below
 * NL_ALLOC_FULL_RATE, from @allocs allocator calls (the kernel's
 * numastat) over @interval_ns; at most NL_ALLOC_SAMPLE_MAX. Always >= 1. */
uint32_t nl_alloc_sample_next(uint32_t fixed, uint64_t allocs, uint64_t interval_ns);

/* The relative standard error of an estimate of @events allocations
 * (already weighted) counted at @period: sqrt((period - 1) / events),
 * the spread of a binomial thinning scaled back up; 0 when exact (period
 * <= 1); -1 (no relative error) for an estimate of none seen. */
double nl_alloc_sample_error(uint32_t period, double events);

#endif
