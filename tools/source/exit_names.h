/* Names of exited processes, from sched.bpf.c's `exit_ring`.
 *
 * A process that lived less than one interval is gone from /proc when the
 * collector meets its counts; its name came through the exit ring when
 * it exited. This is a bounded, lossy cache of those names: the newest
 * NL_EXIT_NAMES_MAX are kept, older ones are forgotten (the process then
 * shows as exited without a name). */
#ifndef NL_EXIT_NAMES_H
#define NL_EXIT_NAMES_H

#include <stddef.h>
#include <stdint.h>
#include "nl_types.h"

/* How many names are kept at most: several times what the BPF ring holds
 * (NL_EXIT_RING), so the names drained during one collection do not push
 * out those it has yet to use. */
#define NL_EXIT_NAMES_MAX 16384

struct nl_exit_names;

/* nl_exit_names_open - cache the names of the exit ring @ring_fd (an
 * array of struct nl_comm, NL_EXIT_RING slots) whose write and read
 * positions are in the array @pos_fd (u64 [0] next write, [1] next read).
 * Returns 0 and *@out, or -ENOMEM. */
int nl_exit_names_open(struct nl_exit_names **out, int ring_fd, int pos_fd);

/* nl_exit_names_drain - move every whole record written since the last
 * drain into the cache, and tell the BPF side they are read. Returns the
 * number of names taken, or a negative errno from the map calls. */
int nl_exit_names_drain(struct nl_exit_names *x);

/* nl_exit_names_take - copy the name of exited process @tgid into @out
 * (@len bytes, NUL-terminated) and forget it. Returns 0, or -ENOENT when
 * no name is cached for @tgid. */
int nl_exit_names_take(struct nl_exit_names *x, uint32_t tgid, char *out, size_t len);

/* nl_exit_names_lookup - nl_exit_names_take after a drain, so that a
 * process that exited since the last drain is named by its own record,
 * not by an older one of the same pid still cached (a pid reused between
 * two collections). Returns 0, or -ENOENT when no name is known. */
int nl_exit_names_lookup(struct nl_exit_names *x, uint32_t tgid, char *out, size_t len);

/* nl_exit_names_put - cache @comm (16 bytes, maybe not NUL-terminated) as
 * the name of @tgid; the drain and the unit tests use it. */
void nl_exit_names_put(struct nl_exit_names *x, uint32_t tgid, const char *comm);

/* nl_exit_names_put_ring - cache the names of positions [@tail, @head)
 * of @recs, a copy of the exit ring whose first @count slots were read:
 * a record is taken only when its seq says it is whole and is the one of
 * that position (a slot being written, or overwritten by a later lap, is
 * skipped). Returns the number of names taken. */
int nl_exit_names_put_ring(struct nl_exit_names *x, const struct nl_comm *recs, uint32_t count,
			   uint64_t tail, uint64_t head);

/* nl_exit_names_new - an empty cache with no exit ring (unit tests). */
struct nl_exit_names *nl_exit_names_new(void);

/* nl_exit_names_free - free the cache (not the maps); NULL is fine. */
void nl_exit_names_free(struct nl_exit_names *x);

#endif
