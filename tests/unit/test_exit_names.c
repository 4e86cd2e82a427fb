// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* exit_names.c: the cache of exited processes' names (put, take once, a
 * reused pid, the oldest forgotten past NL_EXIT_NAMES_MAX, names of 16
 * bytes with no NUL) and the reading of the BPF exit ring's slots. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <sys/syscall.h>
#include <linux/bpf.h>
#include "exit_names.h"

static void put(struct nl_exit_names *x, uint32_t tgid, const char *name)
{
	char c[16] = { 0 };

	memcpy(c, name, strnlen(name, sizeof(c)));
	nl_exit_names_put(x, tgid, c);
}

static void test_take_once(void **state)
{
	struct nl_exit_names *x = nl_exit_names_new();
	char out[32];

	(void)state;
	assert_non_null(x);
	put(x, 42, "short-job");
	put(x, 43, "other");
	assert_int_equal(nl_exit_names_take(x, 42, out, sizeof(out)), 0);
	assert_string_equal(out, "short-job");
	assert_int_equal(nl_exit_names_take(x, 42, out, sizeof(out)), -ENOENT);
	assert_int_equal(nl_exit_names_take(x, 44, out, sizeof(out)), -ENOENT);
	assert_int_equal(nl_exit_names_take(x, 43, out, sizeof(out)), 0);
	assert_string_equal(out, "other");
	assert_int_equal(nl_exit_names_take(NULL, 43, out, sizeof(out)), -ENOENT);
	nl_exit_names_free(x);
}

/* the kernel's comm fills 16 bytes with no NUL when it is 15 chars + NUL;
 * a record may carry 16 non-NUL bytes: the name is cut, never overrun */
static void test_full_width(void **state)
{
	struct nl_exit_names *x = nl_exit_names_new();
	char out[32];

	(void)state;
	nl_exit_names_put(x, 7, "0123456789abcdefXYZ");
	assert_int_equal(nl_exit_names_take(x, 7, out, sizeof(out)), 0);
	assert_string_equal(out, "0123456789abcdef");
	put(x, 8, "abc");
	assert_int_equal(nl_exit_names_take(x, 8, out, 3), 0);	/* short buffer */
	assert_string_equal(out, "ab");
	nl_exit_names_free(x);
}

static void test_pid_reuse(void **state)
{
	struct nl_exit_names *x = nl_exit_names_new();
	char out[32];

	(void)state;
	put(x, 100, "first");
	put(x, 100, "second");
	assert_int_equal(nl_exit_names_take(x, 100, out, sizeof(out)), 0);
	assert_string_equal(out, "second");
	assert_int_equal(nl_exit_names_take(x, 100, out, sizeof(out)), -ENOENT);
	nl_exit_names_free(x);
}

/* past NL_EXIT_NAMES_MAX names the oldest go; the newest MAX stay (those
 * that lost their index slot to a collision are the only other losses:
 * none here, pids are consecutive) */
static void test_oldest_forgotten(void **state)
{
	struct nl_exit_names *x = nl_exit_names_new();
	const uint32_t extra = 1000, base = 5000;
	char out[32], want[16];
	uint32_t kept = 0;

	(void)state;
	for (uint32_t i = 0; i < NL_EXIT_NAMES_MAX + extra; i++) {
		snprintf(want, sizeof(want), "p%u", base + i);
		put(x, base + i, want);
	}
	for (uint32_t i = 0; i < extra; i++)
		assert_int_equal(nl_exit_names_take(x, base + i, out, sizeof(out)), -ENOENT);
	for (uint32_t i = extra; i < NL_EXIT_NAMES_MAX + extra; i++) {
		snprintf(want, sizeof(want), "p%u", base + i);
		if (!nl_exit_names_take(x, base + i, out, sizeof(out))) {
			assert_string_equal(out, want);
			kept++;
		}
	}
	assert_int_equal(kept, NL_EXIT_NAMES_MAX);
	nl_exit_names_free(x);
}

/* pids that all hash near each other: lookups stay bounded and a hit is
 * never another pid's name */
static void test_collisions(void **state)
{
	struct nl_exit_names *x = nl_exit_names_new();
	char out[32], want[16];
	uint32_t kept = 0;

	(void)state;
	for (uint32_t i = 0; i < 3 * NL_EXIT_NAMES_MAX; i++) {
		snprintf(want, sizeof(want), "q%u", i);
		put(x, i * 2 * NL_EXIT_NAMES_MAX, want);	/* same home slot */
	}
	for (uint32_t i = 0; i < 3 * NL_EXIT_NAMES_MAX; i++) {
		snprintf(want, sizeof(want), "q%u", i);
		if (!nl_exit_names_take(x, i * 2 * NL_EXIT_NAMES_MAX, out, sizeof(out))) {
			assert_string_equal(out, want);
			kept++;
		}
	}
	assert_true(kept >= 1 && kept <= 32);
	nl_exit_names_free(x);
}

/* A copy of the exit ring: record @n (since load) in its slot, whole. */
static void ring_rec(struct nl_comm *recs, uint64_t n, uint32_t tgid, const char *name)
{
	struct nl_comm *c = &recs[n % NL_EXIT_RING];

	memset(c, 0, sizeof(*c));
	c->tgid = tgid;
	c->seq = (uint32_t)(n + 1);
	memcpy(c->comm, name, strnlen(name, sizeof(c->comm)));
}

/* Only whole records of the positions asked for are taken: a slot still
 * being written (seq 0), one left from the previous lap, and one a later
 * lap overwrote are skipped, never read as another process's name. */
static void test_ring_records(void **state)
{
	static struct nl_comm recs[NL_EXIT_RING];
	struct nl_exit_names *x = nl_exit_names_new();
	uint64_t base = 5 * (uint64_t)NL_EXIT_RING - 2;	/* positions wrap the ring */
	char out[32];

	(void)state;
	assert_non_null(x);
	ring_rec(recs, base - NL_EXIT_RING + 3, 99, "last-lap");	/* slot of base + 3, unwritten since */
	ring_rec(recs, base, 10, "first");
	ring_rec(recs, base + 1, 11, "being-written");
	recs[(base + 1) % NL_EXIT_RING].seq = 0;
	ring_rec(recs, base + 2, 12, "after-wrap");
	ring_rec(recs, base + 4 + NL_EXIT_RING, 13, "next-lap");	/* overwrote base + 4 */
	assert_int_equal(nl_exit_names_put_ring(x, recs, NL_EXIT_RING, base, base + 5), 2);
	assert_int_equal(nl_exit_names_take(x, 10, out, sizeof(out)), 0);
	assert_string_equal(out, "first");
	assert_int_equal(nl_exit_names_take(x, 12, out, sizeof(out)), 0);
	assert_string_equal(out, "after-wrap");
	assert_int_equal(nl_exit_names_take(x, 11, out, sizeof(out)), -ENOENT);
	assert_int_equal(nl_exit_names_take(x, 99, out, sizeof(out)), -ENOENT);
	assert_int_equal(nl_exit_names_take(x, 13, out, sizeof(out)), -ENOENT);
	/* nothing new: nothing taken; a short read takes no slot past it */
	assert_int_equal(nl_exit_names_put_ring(x, recs, NL_EXIT_RING, base + 5, base + 5), 0);
	assert_int_equal(nl_exit_names_put_ring(x, recs, (uint32_t)(base % NL_EXIT_RING), base, base + 1), 0);
	nl_exit_names_free(x);
}

/* The kernel side of the exit ring, made with bpf(2) itself: tests reach
 * libbpf only through the source layer, and these maps stand in for the
 * ones the BPF object would create. fd, or -1 with errno. */
static int map_create(const char *name, uint32_t key_size, uint32_t value_size, uint32_t entries)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_ARRAY;
	a.key_size = key_size;
	a.value_size = value_size;
	a.max_entries = entries;
	strncpy(a.map_name, name, sizeof(a.map_name) - 1);
	return (int)syscall(__NR_bpf, BPF_MAP_CREATE, &a, sizeof(a));
}

/* One array slot written; 0, or -1 with errno. */
static int map_put(int fd, const void *key, const void *value)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_fd = (uint32_t)fd;
	a.key = (uint64_t)(uintptr_t)key;
	a.value = (uint64_t)(uintptr_t)value;
	a.flags = BPF_ANY;
	return (int)syscall(__NR_bpf, BPF_MAP_UPDATE_ELEM, &a, sizeof(a));
}

/* Set the exit ring's write position (pos[0]) and read one (pos[1]). */
static void set_pos(int pos_fd, uint64_t head, uint64_t tail)
{
	uint32_t k0 = 0, k1 = 1;

	assert_int_equal(map_put(pos_fd, &k0, &head), 0);
	assert_int_equal(map_put(pos_fd, &k1, &tail), 0);
}

/* A pid reused while numalens collects: the first owner's name was
 * drained at the map read, the second owner exited after it. The lookup
 * gives the second's name (the one whose counts are read now), not the
 * first's still in the cache. Needs BPF array maps (root). */
static void test_lookup_after_reuse(void **state)
{
	struct nl_exit_names *x = NULL;
	struct nl_comm rec = { 0 };
	uint32_t slot;
	char out[32];
	int ring_fd, pos_fd;

	(void)state;
	ring_fd = map_create("t_exit_ring", sizeof(uint32_t), sizeof(struct nl_comm), NL_EXIT_RING);
	pos_fd = map_create("t_exit_pos", sizeof(uint32_t), sizeof(uint64_t), 2);
	if (ring_fd < 0 || pos_fd < 0)
		skip();		/* no BPF here: not root, or no bpf() */
	assert_int_equal(nl_exit_names_open(&x, ring_fd, pos_fd), 0);
	rec.tgid = 300;
	rec.seq = 1;
	memcpy(rec.comm, "reuse-A", 7);
	slot = 0;
	assert_int_equal(map_put(ring_fd, &slot, &rec), 0);
	set_pos(pos_fd, 1, 0);
	assert_int_equal(nl_exit_names_drain(x), 1);	/* the map read's drain */
	memset(rec.comm, 0, sizeof(rec.comm));
	memcpy(rec.comm, "reuse-B", 7);
	rec.seq = 2;
	slot = 1;
	assert_int_equal(map_put(ring_fd, &slot, &rec), 0);
	set_pos(pos_fd, 2, 1);
	assert_int_equal(nl_exit_names_lookup(x, 300, out, sizeof(out)), 0);
	assert_string_equal(out, "reuse-B");
	assert_int_equal(nl_exit_names_lookup(x, 300, out, sizeof(out)), -ENOENT);
	nl_exit_names_free(x);
	close(ring_fd);
	close(pos_fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_take_once),
		cmocka_unit_test(test_full_width),
		cmocka_unit_test(test_pid_reuse),
		cmocka_unit_test(test_oldest_forgotten),
		cmocka_unit_test(test_collisions),
		cmocka_unit_test(test_ring_records),
		cmocka_unit_test(test_lookup_after_reuse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
