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
#include <bpf/libbpf.h>
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
	struct ring_buffer *rb;
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

	if (x)
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

static int on_record(void *ctx, void *data, size_t size)
{
	const struct nl_comm *c = data;

	if (size >= sizeof(*c))
		nl_exit_names_put(ctx, c->tgid, c->comm);
	return 0;
}

int nl_exit_names_open(struct nl_exit_names **out, int ring_fd)
{
	struct nl_exit_names *x = nl_exit_names_new();

	if (!x)
		return -ENOMEM;
	x->rb = ring_buffer__new(ring_fd, on_record, x, NULL);
	if (!x->rb) {
		int e = -errno;

		free(x);
		return e ? e : -ENOMEM;
	}
	*out = x;
	return 0;
}

int nl_exit_names_drain(struct nl_exit_names *x)
{
	return x && x->rb ? ring_buffer__consume(x->rb) : 0;
}

void nl_exit_names_free(struct nl_exit_names *x)
{
	if (!x)
		return;
	ring_buffer__free(x->rb);
	free(x);
}
