/* Names of exited processes: see exit_names.h.
 *
 * The names sit in a ring of NL_EXIT_NAMES_MAX slots (the newest replaces
 * the oldest) and an open-addressing index tgid -> slot, twice as large,
 * probed at most PROBES times so that a lookup stays cheap however the
 * index has aged; an entry that finds no room within PROBES replaces the
 * one at its home slot (a lost name, never a wrong one: every hit is
 * checked against the ring slot's own tgid). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include "nl_types.h"
#include "exit_names.h"

#define INDEX_SLOTS (2 * NL_EXIT_NAMES_MAX)
#define PROBES 32
#define EMPTY (-1)
#define GONE (-2)	/* was used: a lookup probes on past it */

struct name_slot {
	uint32_t tgid;
	bool used;
	char comm[16];
};

struct nl_exit_names {
	int ring_fd, pos_fd;		/* sched's exit_ring, exit_pos; -1: none */
	uint32_t keys[NL_EXIT_RING];	/* one batch read of the ring */
	struct nl_comm recs[NL_EXIT_RING];
	uint32_t head;			/* next ring slot to write */
	struct name_slot ring[NL_EXIT_NAMES_MAX];
	int32_t index[INDEX_SLOTS];	/* ring slot, EMPTY or GONE */
};

static uint32_t home(uint32_t tgid)
{
	return (tgid * 2654435761u) % INDEX_SLOTS;	/* Knuth's multiplicative hash */
}

/* Index position holding ring slot @pos, or -1. */
static int find_pos(const struct nl_exit_names *x, uint32_t tgid, int32_t pos)
{
	for (uint32_t i = 0, h = home(tgid); i < PROBES; i++, h = (h + 1) % INDEX_SLOTS) {
		if (x->index[h] == EMPTY)
			return -1;
		if (x->index[h] == pos)
			return (int)h;
	}
	return -1;
}

/* Index position of @tgid's name, or -1. */
static int find_tgid(const struct nl_exit_names *x, uint32_t tgid)
{
	for (uint32_t i = 0, h = home(tgid); i < PROBES; i++, h = (h + 1) % INDEX_SLOTS) {
		int32_t p = x->index[h];

		if (p == EMPTY)
			return -1;
		if (p >= 0 && x->ring[p].used && x->ring[p].tgid == tgid)
			return (int)h;
	}
	return -1;
}

/* Forget the name at index position @h (its ring slot too). */
static void forget(struct nl_exit_names *x, int h)
{
	x->ring[x->index[h]].used = false;
	x->index[h] = GONE;
}

struct nl_exit_names *nl_exit_names_new(void)
{
	struct nl_exit_names *x = calloc(1, sizeof(*x));

	if (!x)
		return NULL;
	x->ring_fd = x->pos_fd = -1;
	for (int i = 0; i < INDEX_SLOTS; i++)
		x->index[i] = EMPTY;
	return x;
}

void nl_exit_names_put(struct nl_exit_names *x, uint32_t tgid, const char *comm)
{
	int32_t pos = (int32_t)(x->head++ % NL_EXIT_NAMES_MAX);
	struct name_slot *s = &x->ring[pos];
	uint32_t h = home(tgid);
	int old;

	if (s->used && (old = find_pos(x, s->tgid, pos)) >= 0)
		forget(x, old);
	s->used = false;
	if ((old = find_tgid(x, tgid)) >= 0)	/* a reused pid: the newer name wins */
		forget(x, old);
	bool room = false;

	for (int i = 0; i < PROBES; i++, h = (h + 1) % INDEX_SLOTS)
		if (x->index[h] < 0) {
			room = true;
			break;
		}
	if (!room) {		/* none within PROBES: take the home slot */
		h = home(tgid);
		forget(x, (int)h);
	}
	s->tgid = tgid;
	memcpy(s->comm, comm, sizeof(s->comm));
	s->used = true;
	x->index[h] = pos;
}

int nl_exit_names_take(struct nl_exit_names *x, uint32_t tgid, char *out, size_t len)
{
	int h = x ? find_tgid(x, tgid) : -1;
	char c[sizeof(x->ring[0].comm) + 1];

	if (h < 0)
		return -ENOENT;
	memcpy(c, x->ring[x->index[h]].comm, sizeof(c) - 1);
	c[sizeof(c) - 1] = '\0';
	forget(x, h);
	if (len) {
		strncpy(out, c, len - 1);
		out[len - 1] = '\0';
	}
	return 0;
}

int nl_exit_names_open(struct nl_exit_names **out, int ring_fd, int pos_fd)
{
	struct nl_exit_names *x = nl_exit_names_new();

	if (!x)
		return -ENOMEM;
	x->ring_fd = ring_fd;
	x->pos_fd = pos_fd;
	*out = x;
	return 0;
}

int nl_exit_names_put_ring(struct nl_exit_names *x, const struct nl_comm *recs, uint32_t count,
			   uint64_t tail, uint64_t head)
{
	int n = 0;

	/* CPUs that exit at once may pass the full mark by one record each:
	 * the oldest of those are overwritten (their seq no longer matches) */
	if (head - tail > 2 * NL_EXIT_RING)
		tail = head - NL_EXIT_RING;
	for (uint64_t i = tail; i != head; i++) {
		const struct nl_comm *c = &recs[i % NL_EXIT_RING];

		/* not yet whole, or overwritten: that name is lost */
		if (i % NL_EXIT_RING >= count || c->seq != (uint32_t)(i + 1))
			continue;
		nl_exit_names_put(x, c->tgid, c->comm);
		n++;
	}
	return n;
}

int nl_exit_names_drain(struct nl_exit_names *x)
{
	uint32_t k_head = 0, k_tail = 1, count = NL_EXIT_RING, batch;
	uint64_t head, tail;
	int n;

	if (!x || x->ring_fd < 0)
		return 0;
	if (bpf_map_lookup_elem(x->pos_fd, &k_head, &head) ||
	    bpf_map_lookup_elem(x->pos_fd, &k_tail, &tail))
		return -errno;
	if (head == tail)
		return 0;
	/* the whole ring in one call: 24 KiB, cheaper than a call a slot */
	if (bpf_map_lookup_batch(x->ring_fd, NULL, &batch, x->keys, x->recs, &count, NULL) &&
	    errno != ENOENT)
		return -errno;
	n = nl_exit_names_put_ring(x, x->recs, count, tail, head);
	if (bpf_map_update_elem(x->pos_fd, &k_tail, &head, BPF_ANY))
		return -errno;
	return n;
}

int nl_exit_names_lookup(struct nl_exit_names *x, uint32_t tgid, char *out, size_t len)
{
	/* drain first: taking a cached name first gave a pid's previous
	 * owner's name when the newer owner had exited since the drain done
	 * at the map read (a pid reused while numalens was collecting). An
	 * empty ring costs two lookups. */
	nl_exit_names_drain(x);
	return nl_exit_names_take(x, tgid, out, len);
}

void nl_exit_names_free(struct nl_exit_names *x)
{
	free(x);
}
