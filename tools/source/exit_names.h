/* Names of exited processes, from sched.bpf.c's `exits` ring buffer.
 *
 * A process that lived less than one interval is gone from /proc when the
 * collector meets its counts; its name came through the ring buffer when
 * it exited. This is a bounded, lossy cache of those names: the newest
 * NL_EXIT_NAMES_MAX are kept, older ones are forgotten (the process then
 * shows as exited without a name). */
#ifndef NL_EXIT_NAMES_H
#define NL_EXIT_NAMES_H

#include <stddef.h>
#include <stdint.h>

/* How many names are kept at most: twice what the ring buffer holds
 * (8,192 records), so the names drained during one collection do not push
 * out those it has yet to use. */
#define NL_EXIT_NAMES_MAX 16384

struct nl_exit_names;

/* nl_exit_names_open - cache the names of the ring buffer map @ring_fd.
 * Returns 0 and *@out, or a negative errno (ring_buffer__new's). */
int nl_exit_names_open(struct nl_exit_names **out, int ring_fd);

/* nl_exit_names_drain - move every record waiting in the ring buffer into
 * the cache. Returns the number of records read, or a negative errno. */
int nl_exit_names_drain(struct nl_exit_names *x);

/* nl_exit_names_take - copy the name of exited process @tgid into @out
 * (@len bytes, NUL-terminated) and forget it. Returns 0, or -ENOENT when
 * no name is cached for @tgid. */
int nl_exit_names_take(struct nl_exit_names *x, uint32_t tgid, char *out, size_t len);

/* nl_exit_names_put - cache @comm (16 bytes, maybe not NUL-terminated) as
 * the name of @tgid; the ring buffer callback and the unit tests use it. */
void nl_exit_names_put(struct nl_exit_names *x, uint32_t tgid, const char *comm);

/* nl_exit_names_new - an empty cache with no ring buffer (unit tests). */
struct nl_exit_names *nl_exit_names_new(void);

/* nl_exit_names_free - free the cache and its ring buffer; NULL is fine. */
void nl_exit_names_free(struct nl_exit_names *x);

#endif
