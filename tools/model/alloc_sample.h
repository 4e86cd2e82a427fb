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

/* Allocations per second and CPU that are counted in full before the
 * automatic choice samples: at ~100 ns each, about 0.2% of a CPU. */
#define NL_ALLOC_FULL_RATE 20000.0

/* The sample period for the next interval. @fixed: the user's choice
 * (1 = every allocation, N = one in N), 0 = automatic: the smallest
 * power of two that keeps the counted allocations at or below
 * NL_ALLOC_FULL_RATE per CPU, from @pages allocated (the kernel's
 * pgalloc counters) over @interval_ns on @cpus CPUs; at most
 * NL_ALLOC_SAMPLE_MAX. Always >= 1. */
uint32_t nl_alloc_sample_next(uint32_t fixed, uint64_t pages, uint64_t interval_ns, int cpus);

/* The relative standard error of an estimate of @events allocations
 * (already weighted) counted at @period: sqrt((period - 1) / events),
 * the spread of a binomial thinning scaled back up; 0 when exact (period
 * <= 1) and 1 for an estimate of nothing seen. */
double nl_alloc_sample_error(uint32_t period, double events);

#endif
