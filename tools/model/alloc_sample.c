// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <math.h>

#include "alloc_sample.h"

uint32_t nl_alloc_sample_next(uint32_t fixed, uint64_t allocs, uint64_t interval_ns)
{
	double rate;
	uint32_t p = 1;

	if (fixed)
		return fixed;
	if (!interval_ns)
		return 1;
	rate = (double)allocs * 1e9 / (double)interval_ns;
	while (p < NL_ALLOC_SAMPLE_MAX && rate / p > NL_ALLOC_FULL_RATE)
		p <<= 1;
	return p;
}

double nl_alloc_sample_error(uint32_t period, double events)
{
	if (period <= 1)
		return 0;
	if (events <= 0)
		return -1;
	return sqrt((double)(period - 1) / events);
}
