// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * view_tui: the pure pieces (column layout, fitting) directly, then the real
 * TUI in a pseudo-terminal: a child renders the fixture with TERM=xterm, the
 * parent types keys and reads the screen back through a small VT100/xterm
 * screen model (only what ncurses emits for xterm with idlok off).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include "snapshot_fixture.h"
#include "names.h"
#include "view_tui.h"

/* The node view's lines below its table: against the preferred node and
 * pages by zone (DMA32, Normal), which the shared fixture leaves at 0. */
static void fix_preferred_zones(struct nl_snapshot *s)
{
	struct nl_node *n0 = &s->nodes[0], *n1 = &s->nodes[1];

	n0->bpf_events_hit = 4080; n0->bpf_events_miss = 6; n0->bpf_events_foreign = 9;
	n1->bpf_events_hit = 880; n1->bpf_events_miss = 9; n1->bpf_events_foreign = 6;
	s->nr_zones = 2;
	strcpy(s->zone_names[0], "DMA32");
	strcpy(s->zone_names[1], "Normal");
	s->pgalloc[0] = 120; s->pgalloc[1] = 6101;
	n0->bpf_pages_by_zone[0] = 120; n0->bpf_pages_by_zone[1] = 4201;
	n1->bpf_pages_by_zone[1] = 1900;
	/* allocation latency, remote movable: 60 calls in [1, 2) us, 40 in [4, 8) us */
	s->alloc_lat.enabled = s->alloc_lat.available = true;
	s->alloc_lat.sample_every = 64;
	strcpy(s->alloc_lat.hook, "__alloc_frozen_pages_noprof (fentry)");
	s->alloc_lat.hist[1 * NL_LAT_NR_CLASSES + 2][10] = 60;
	s->alloc_lat.hist[1 * NL_LAT_NR_CLASSES + 2][12] = 40;
}

/* --- pure pieces ---------------------------------------------------------- */

static void test_layout(void **state)
{
	const struct nl_tui_col cols[] = {
		{ "PID", 7, 0, false, false },
		{ "A", 10, 1, false, false },
		{ "B", 10, 3, false, false },
		{ "C", 10, 3, false, false },
		{ "PATH", 10, 2, true, true },
	};
	bool shown[5];
	int flex;

	/* everything: 7+10+10+10+10 + 4 spaces = 51; 9 cells left go to PATH */
	flex = nl_tui_layout(cols, 5, 60, shown);
	for (int i = 0; i < 5; i++)
		assert_true(shown[i]);
	assert_int_equal(flex, 19);
	/* 50 cells: drop the rightmost of the prio-3 pair (C) first */
	flex = nl_tui_layout(cols, 5, 50, shown);
	assert_true(shown[2]);
	assert_false(shown[3]);
	assert_int_equal(flex, 10 + (50 - 40));
	/* 29 cells still hold PID, A and PATH (7 + 10 + 10 + 2) */
	flex = nl_tui_layout(cols, 5, 29, shown);
	assert_true(shown[0] && shown[1] && shown[4]);
	assert_false(shown[2] || shown[3]);
	assert_int_equal(flex, 10);
	/* 28 cells: PATH (prio 2) goes before A (prio 1) */
	flex = nl_tui_layout(cols, 5, 28, shown);
	assert_true(shown[0] && shown[1]);
	assert_false(shown[2] || shown[3] || shown[4]);
	assert_int_equal(flex, 0);
	/* too narrow even for prio 0: kept, the caller clips */
	nl_tui_layout(cols, 5, 3, shown);
	assert_true(shown[0]);
	assert_false(shown[1]);
}

static void test_fit(void **state)
{
	char b[32];

	assert_string_equal(nl_layout_fit(b, "abc", 5, true, false), "abc  ");
	assert_string_equal(nl_layout_fit(b, "abc", 5, false, false), "  abc");
	assert_string_equal(nl_layout_fit(b, "/system.slice/x", 8, true, true), "~slice/x");
	assert_string_equal(nl_layout_fit(b, "memhogmemhog", 6, true, false), "memho~");
	assert_string_equal(nl_layout_fit(b, "abc", 1, true, false), "~");
	assert_string_equal(nl_layout_fit(b, "abc", 0, true, false), "");
}

/* TERM=dumb, unknown or unset: no full-screen view (the CLI falls back to
 * --batch); a terminal that addresses the cursor gets it. */
static void test_term_usable(void **state)
{
	assert_true(nl_tui_term_usable_as("xterm"));
	assert_true(nl_tui_term_usable_as("vt100"));
	assert_false(nl_tui_term_usable_as("dumb"));
	assert_false(nl_tui_term_usable_as("nl-no-such-terminal"));
	assert_false(nl_tui_term_usable_as(""));
	assert_false(nl_tui_term_usable_as(NULL));
}

static void test_open_not_a_tty(void **state)
{
	FILE *f = tmpfile();

	assert_non_null(f);
	errno = 0;
	assert_null(nl_tui_open_term("xterm", f, stdin, NULL));
	assert_int_equal(errno, ENOTTY);
	fclose(f);
}

/* --- a small xterm screen model ------------------------------------------ */

#define SR 60
#define SC 200

struct screen {
	int rows, cols;
	char cell[SR][SC];
	int r, c;		/* cursor; c == cols means "wrap pending" */
	int top, bot;		/* scroll region */
	int sr, sc;		/* saved cursor */
	char last;		/* for REP */
	int st;			/* parser state: 0 ground, 1 ESC, 2 CSI, 3 ESC ( etc. */
	char csi[64];
	int ncsi;
	char *raw;		/* everything received, for sequence checks */
	size_t nraw, capraw;
};

static void scr_clear(struct screen *s, int r0, int c0, int r1, int c1)
{
	for (int r = r0; r <= r1 && r < s->rows; r++)
		for (int c = (r == r0 ? c0 : 0); c < s->cols && (r < r1 || c <= c1); c++)
			s->cell[r][c] = ' ';
}

static void scr_init(struct screen *s, int rows, int cols)
{
	s->rows = rows;
	s->cols = cols;
	s->top = 0;
	s->bot = rows - 1;
	s->r = s->c = 0;
	scr_clear(s, 0, 0, rows - 1, cols - 1);
}

static void scr_scroll_up(struct screen *s)
{
	for (int r = s->top; r < s->bot; r++)
		memcpy(s->cell[r], s->cell[r + 1], SC);
	memset(s->cell[s->bot], ' ', SC);
}

static void scr_scroll_down(struct screen *s)
{
	for (int r = s->bot; r > s->top; r--)
		memcpy(s->cell[r], s->cell[r - 1], SC);
	memset(s->cell[s->top], ' ', SC);
}

static void scr_lf(struct screen *s)
{
	if (s->r == s->bot)
		scr_scroll_up(s);
	else if (s->r < s->rows - 1)
		s->r++;
}

static void scr_put(struct screen *s, char ch)
{
	if (s->c >= s->cols) {
		s->c = 0;
		scr_lf(s);
	}
	s->cell[s->r][s->c++] = ch;
	s->last = ch;
}

static int clampi(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static void scr_csi(struct screen *s, char fin)
{
	int p[8] = { 0 }, np = 0;
	bool priv = s->csi[0] == '?' || s->csi[0] == '>' || s->csi[0] == '!';
	char *q = s->csi + (priv ? 1 : 0);

	s->csi[s->ncsi] = '\0';
	while (*q && np < 8) {
		p[np++] = (int)strtol(q, &q, 10);
		if (*q == ';')
			q++;
		else
			break;
	}
	int n = p[0] ? p[0] : 1;
	if (priv) {
		/* 1049h: switch to the alternate screen, which starts cleared */
		if (fin == 'h' && p[0] == 1049)
			scr_clear(s, 0, 0, s->rows - 1, s->cols - 1);
		return;
	}
	switch (fin) {
	case 'H': case 'f':
		s->r = clampi((p[0] ? p[0] : 1) - 1, 0, s->rows - 1);
		s->c = clampi((np > 1 && p[1] ? p[1] : 1) - 1, 0, s->cols - 1);
		break;
	case 'A': s->r = clampi(s->r - n, 0, s->rows - 1); break;
	case 'B': s->r = clampi(s->r + n, 0, s->rows - 1); break;
	case 'C': s->c = clampi(s->c + n, 0, s->cols - 1); break;
	case 'D': s->c = clampi((s->c >= s->cols ? s->cols - 1 : s->c) - n, 0, s->cols - 1); break;
	case 'G': s->c = clampi(n - 1, 0, s->cols - 1); break;
	case 'd': s->r = clampi(n - 1, 0, s->rows - 1); break;
	case 'K': {
		int c = s->c >= s->cols ? s->cols - 1 : s->c;

		if (p[0] == 0)
			scr_clear(s, s->r, c, s->r, s->cols - 1);
		else if (p[0] == 1)
			scr_clear(s, s->r, 0, s->r, c);
		else
			scr_clear(s, s->r, 0, s->r, s->cols - 1);
		break;
	}
	case 'J':
		if (p[0] == 0)
			scr_clear(s, s->r, s->c >= s->cols ? s->cols - 1 : s->c, s->rows - 1, s->cols - 1);
		else if (p[0] == 1)
			scr_clear(s, 0, 0, s->r, s->c);
		else
			scr_clear(s, 0, 0, s->rows - 1, s->cols - 1);
		break;
	case 'X':
		for (int i = 0; i < n && s->c + i < s->cols; i++)
			s->cell[s->r][s->c + i] = ' ';
		break;
	case 'b':
		for (int i = 0; i < n; i++)
			scr_put(s, s->last);
		break;
	case 'r':
		s->top = clampi((p[0] ? p[0] : 1) - 1, 0, s->rows - 1);
		s->bot = clampi((np > 1 && p[1] ? p[1] : s->rows) - 1, s->top, s->rows - 1);
		s->r = s->c = 0;
		break;
	case 'S': for (int i = 0; i < n; i++) scr_scroll_up(s); break;
	case 'T': for (int i = 0; i < n; i++) scr_scroll_down(s); break;
	case 'L':
		for (int i = 0; i < n; i++) {
			int t = s->top;
			s->top = s->r;
			scr_scroll_down(s);
			s->top = t;
		}
		break;
	case 'M':
		for (int i = 0; i < n; i++) {
			int t = s->top;
			s->top = s->r;
			scr_scroll_up(s);
			s->top = t;
		}
		break;
	case 'P':
		for (int c = s->c; c < s->cols; c++)
			s->cell[s->r][c] = c + n < s->cols ? s->cell[s->r][c + n] : ' ';
		break;
	case '@':
		for (int c = s->cols - 1; c >= s->c; c--)
			s->cell[s->r][c] = c - n >= s->c ? s->cell[s->r][c - n] : ' ';
		break;
	default:
		break;	/* m (attributes), h/l modes, ... do not change the text */
	}
}

static void scr_feed(struct screen *s, const char *buf, size_t len)
{
	if (s->nraw + len + 1 > s->capraw) {
		s->capraw = (s->nraw + len + 1) * 2;
		s->raw = realloc(s->raw, s->capraw);
		assert_non_null(s->raw);
	}
	memcpy(s->raw + s->nraw, buf, len);
	s->nraw += len;
	s->raw[s->nraw] = '\0';

	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)buf[i];

		switch (s->st) {
		case 1:		/* after ESC */
			s->st = 0;
			if (ch == '[') {
				s->st = 2;
				s->ncsi = 0;
			} else if (ch == '(' || ch == ')' || ch == '*' || ch == '+') {
				s->st = 3;
			} else if (ch == '7') {
				s->sr = s->r;
				s->sc = s->c;
			} else if (ch == '8') {
				s->r = s->sr;
				s->c = s->sc;
			} else if (ch == 'M') {
				if (s->r == s->top)
					scr_scroll_down(s);
				else if (s->r > 0)
					s->r--;
			} else if (ch == 'D') {
				scr_lf(s);
			} else if (ch == 'E') {
				s->c = 0;
				scr_lf(s);
			}
			continue;
		case 2:		/* CSI parameters until a final byte */
			if (ch >= 0x40 && ch <= 0x7e) {
				s->st = 0;
				scr_csi(s, (char)ch);
			} else if (s->ncsi < (int)sizeof(s->csi) - 1) {
				s->csi[s->ncsi++] = (char)ch;
			}
			continue;
		case 3:		/* charset designation: one more byte */
			s->st = 0;
			continue;
		}
		if (ch == 27)
			s->st = 1;
		else if (ch == '\r')
			s->c = 0;
		else if (ch == '\n' || ch == '\v' || ch == '\f')
			scr_lf(s);
		else if (ch == '\b')
			s->c = s->c > 0 ? (s->c >= s->cols ? s->cols - 1 : s->c - 1) : 0;
		else if (ch == '\t')
			s->c = clampi((s->c / 8 + 1) * 8, 0, s->cols - 1);
		else if (ch >= 32 && ch < 127)
			scr_put(s, (char)ch);
		else if (ch >= 0xc2 && ch <= 0xf4) {
			/* UTF-8: one 'U' per cell the character takes */
			char u[5] = { 0 };
			int n = ch >= 0xf0 ? 4 : ch >= 0xe0 ? 3 : 2;

			if (i + (size_t)n > len)
				break;	/* split across reads: not in these tests */
			memcpy(u, buf + i, (size_t)n);
			i += (size_t)n - 1;
			for (int k = nl_name_text_cols(u); k > 0; k--)
				scr_put(s, 'U');
		}
	}
}

/* Row @r as a string (trailing blanks kept). */
static const char *scr_row(struct screen *s, int r)
{
	static char line[SC + 1];

	memcpy(line, s->cell[r], s->cols);
	line[s->cols] = '\0';
	return line;
}

/* Row index holding @text, or -1. */
static int scr_find(struct screen *s, const char *text)
{
	for (int r = 0; r < s->rows; r++)
		if (strstr(scr_row(s, r), text))
			return r;
	return -1;
}

static void scr_dump(struct screen *s)
{
	for (int r = 0; r < s->rows; r++)
		print_message("|%s|\n", scr_row(s, r));
}

/* --- driving the child ---------------------------------------------------- */

struct pty {
	int fd;
	pid_t pid;
	struct screen scr;
};

static void pty_pump(struct pty *p, int ms)
{
	struct pollfd pfd = { p->fd, POLLIN, 0 };
	char buf[4096];

	while (poll(&pfd, 1, ms) > 0) {
		ssize_t n = read(p->fd, buf, sizeof(buf));

		if (n <= 0)
			break;
		scr_feed(&p->scr, buf, (size_t)n);
		ms = 30;	/* drain what follows a burst, then settle */
	}
}

/* How long a pty test waits for its child before it gives up: only a
 * hang ever reaches it, so it is generous (a loaded host with ASan is slow). */
#define PTY_WAIT_S 60

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Wait until the screen shows @text (@present) or stops showing it. */
static void wait_screen(struct pty *p, const char *text, bool present)
{
	double end = now_s() + PTY_WAIT_S;

	while (now_s() < end) {
		pty_pump(p, 50);
		if ((scr_find(&p->scr, text) >= 0) == present)
			return;
	}
	scr_dump(&p->scr);
	fail_msg("screen %s \"%s\" after %d s", present ? "never showed" : "still shows", text, PTY_WAIT_S);
}

static void type(struct pty *p, const char *keys)
{
	assert_int_equal(write(p->fd, keys, strlen(keys)), (ssize_t)strlen(keys));
}

static void resize(struct pty *p, int rows, int cols)
{
	struct winsize ws = { .ws_row = rows, .ws_col = cols };

	/* the kernel sends SIGWINCH to the child's foreground process group */
	assert_int_equal(ioctl(p->fd, TIOCSWINSZ, &ws), 0);
	scr_init(&p->scr, rows, cols);
}

/* What the next child runs under: a locale (LC_ALL) and a name for the
 * fixture's first process (NULL: as built). */
static const char *child_locale, *child_comm;

/* The child: the real TUI on the pty slave, driven like the CLI does. */
static void child(void)
{
	struct nl_snapshot s;
	struct nl_tui *t;

	setenv("TERM", "xterm", 1);
	unsetenv("LINES");
	unsetenv("COLUMNS");
	if (child_locale)
		setenv("LC_ALL", child_locale, 1);
	if (fix_build(&s, true))
		_exit(2);
	fix_preferred_zones(&s);
	strcpy(s.procs[2].mempolicy.task, "bind:0");	/* pid 300, "remote" */
	strcpy(s.procs[2].mempolicy.vma, "interleave:0-1");
	/* /work as the model reads a pod's cgroup: the tree shows its short form */
	nl_cgident_parse("/kubepods/pod1a2b3c4d-5e6f-4a0b-8c9d-0e1f2a3b4c5d", &s.cgroups[1].ident);
	if (child_comm)
		snprintf(s.procs[0].comm, sizeof(s.procs[0].comm), "%s", child_comm);
	t = nl_tui_open_term("xterm", stdout, stdin, NULL);
	if (!t)
		_exit(3);
	nl_tui_render(t, &s);
	for (;;) {
		enum nl_tui_action a = nl_tui_poll_key(t, 1000);

		if (a == NL_TUI_QUIT)
			break;
		if (a == NL_TUI_REFRESH) {
			s.seq++;
			nl_tui_render(t, &s);
		}
	}
	nl_tui_close(t);
	nl_snapshot_free(&s);
	_exit(0);
}

static void test_pty_session(void **state)
{
	struct winsize ws = { .ws_row = 30, .ws_col = 130 };
	struct pty p = { 0 };
	int r1, r2, status;

	scr_init(&p.scr, 30, 130);
	p.pid = forkpty(&p.fd, NULL, NULL, &ws);
	if (p.pid < 0)
		skip();		/* no pty support here (reported, not a pass) */
	if (p.pid == 0)
		child();

	/* home: process view, sorted by CPU% */
	wait_screen(&p, "[Processes]", true);
	wait_screen(&p, "sleeper", true);
	r1 = scr_find(&p.scr, "memhog");
	r2 = scr_find(&p.scr, "remote");
	assert_true(r1 > 0 && r1 < r2 && r2 < scr_find(&p.scr, "sleeper"));
	assert_non_null(strstr(scr_row(&p.scr, r1), "150.0"));
	assert_non_null(strstr(scr_row(&p.scr, r1), "90.6%"));
	assert_non_null(strstr(scr_row(&p.scr, r1), "/work/a"));
	assert_non_null(strstr(scr_row(&p.scr, scr_find(&p.scr, "sleeper")), "n/a"));
	assert_true(scr_find(&p.scr, "LOCALITY") < r1);
	{	/* the batch text's column order: local before remote */
		const char *head = scr_row(&p.scr, scr_find(&p.scr, "LOCALITY"));

		assert_non_null(strstr(head, "LCL/s"));
		assert_true(strstr(head, "LCL/s") < strstr(head, "RMT/s"));
	}

	if (getenv("NL_TUI_DUMP"))
		scr_dump(&p.scr);

	/* 9: sort by pid */
	type(&p, "9");
	wait_screen(&p, "sort: PID", true);
	assert_true(scr_find(&p.scr, "sleeper") < scr_find(&p.scr, "remote"));
	type(&p, "5");
	wait_screen(&p, "sort: CPU%", true);

	/* c: cgroup tree with indentation and locality bars */
	type(&p, "c");
	wait_screen(&p, "[Cgroups (tree)]", true);
	wait_screen(&p, "|      :*|", true);
	assert_true(scr_find(&p.scr, "    a ") > scr_find(&p.scr, "  pod:1a2b3c4d "));
	assert_non_null(strstr(scr_row(&p.scr, scr_find(&p.scr, "  pod:1a2b3c4d ")), "155.0"));
	assert_true(scr_find(&p.scr, "  work ") < 0);
	assert_non_null(strstr(scr_row(&p.scr, scr_find(&p.scr, "    b ")), "|n/a     |"));
	/* the last minute's sparklines, and the batch view's MEM column
	 * ("-": no numa_stat); MOVES gives way to the sparklines at 130 */
	wait_screen(&p, "RMT%_1m", true);
	assert_non_null(strstr(scr_row(&p.scr, scr_find(&p.scr, "RMT%_1m")), " LOC_1m "));
	assert_non_null(strstr(scr_row(&p.scr, scr_find(&p.scr, "RMT%_1m")), " MEM "));
	/* the node meters above the table, one block per node */
	assert_true(scr_find(&p.scr, "N0  cpu[") >= 0);
	assert_true(scr_find(&p.scr, "N1  cpu[") >= 0);
	/* remote share past the alert (25%): marked in any colour mode */
	assert_non_null(strstr(scr_row(&p.scr, scr_find(&p.scr, "  other ")), " 90.0!"));

	/* n: nodes, numastat beside BPF */
	type(&p, "n");
	wait_screen(&p, "[Nodes]", true);
	wait_screen(&p, "BPF_LOCAL", true);
	r1 = scr_find(&p.scr, "0-1");
	assert_true(r1 > 0);
	assert_non_null(strstr(scr_row(&p.scr, r1), "4100"));
	assert_non_null(strstr(scr_row(&p.scr, r1), "3990"));
	/* below the table: hit/miss/foreign and zone shares per node */
	wait_screen(&p, "kernel pgalloc, all nodes: DMA32 1.9% Normal 98.1%", true);
	r1 = scr_find(&p.scr, "  node 0 ");
	assert_true(r1 > 0);
	assert_non_null(strstr(scr_row(&p.scr, r1), "hit 4080"));
	assert_non_null(strstr(scr_row(&p.scr, r1), "foreign 9"));
	assert_non_null(strstr(scr_row(&p.scr, r1), "DMA32 2.8% Normal 97.2%"));
	assert_non_null(strstr(scr_row(&p.scr, scr_find(&p.scr, "  node 1 ")), "Normal 100.0%"));
	wait_screen(&p, "remote 100 p50<2.0us p99<8.2us", true);

	/* ?: help, then b back to nodes */
	type(&p, "?");
	wait_screen(&p, "[Help]", true);
	wait_screen(&p, "quit", true);
	assert_true(scr_find(&p.scr, "cgroup tree view") > 0);
	type(&p, "b");
	wait_screen(&p, "[Nodes]", true);

	/* h, move down to pid 300, detail */
	type(&p, "hj");
	wait_screen(&p, "[Processes]", true);
	type(&p, "d");
	wait_screen(&p, "PROCESS 300 remote", true);
	wait_screen(&p, "remote 90.0%", true);
	wait_screen(&p, "against the preferred node", true);
	wait_screen(&p, "Memory policy bind:0; a mapping sets interleave:0-1", true);
	assert_true(scr_find(&p.scr, "12.5-25%") > 0);	/* its only bucket, drawn */
	type(&p, "b");
	wait_screen(&p, "[Processes]", true);

	/* Enter on a cgroup opens its detail */
	type(&p, "cj\r");
	wait_screen(&p, "CGROUP /work ", true);
	wait_screen(&p, "Pod uid 1a2b3c4d-5e6f-4a0b-8c9d-0e1f2a3b4c5d", true);	/* the whole uid */
	if (getenv("NL_TUI_DUMP"))
		scr_dump(&p.scr);
	type(&p, "h");

	/* /: filter by pid, then clear */
	type(&p, "/200\r");
	wait_screen(&p, "filter: pid 200", true);
	wait_screen(&p, "memhog", false);
	assert_true(scr_find(&p.scr, "sleeper") > 0);
	type(&p, "/\r");
	wait_screen(&p, "memhog", true);
	/* a name filter: a part of the process name */
	type(&p, "/hog\r");
	wait_screen(&p, "filter: name hog", true);
	wait_screen(&p, "sleeper", false);
	assert_true(scr_find(&p.scr, "memhog") > 0);
	type(&p, "/\r");
	wait_screen(&p, "sleeper", true);
	type(&p, "/0\r");
	wait_screen(&p, "bad filter", true);

	/* resizes: narrower drops columns but keeps the essentials */
	resize(&p, 20, 60);
	wait_screen(&p, "memhog", true);
	r1 = scr_find(&p.scr, "memhog");
	assert_non_null(strstr(scr_row(&p.scr, r1), "150.0"));
	resize(&p, 5, 30);
	wait_screen(&p, "terminal too small", true);
	if (getenv("NL_TUI_DUMP"))
		scr_dump(&p.scr);
	/* 80x24: the node view keeps the remote figures and the footer its
	 * last key; the help is longer than the screen and scrolls to its end */
	resize(&p, 24, 80);
	type(&p, "n");
	wait_screen(&p, "[Nodes]", true);
	wait_screen(&p, "OTHER_NODE", true);
	r1 = scr_find(&p.scr, "OTHER_NODE");
	assert_non_null(strstr(scr_row(&p.scr, r1), "BPF_OTHER"));
	assert_non_null(strstr(scr_row(&p.scr, r1), "RCLM/s"));
	assert_non_null(strstr(scr_row(&p.scr, scr_find(&p.scr, "0-1")), "106"));	/* other_node */
	assert_true(scr_find(&p.scr, "? help") > 0);
	type(&p, "?");
	wait_screen(&p, "[Help]", true);
	wait_screen(&p, "a reclaim agent in a dry run", false);
	type(&p, "G");
	wait_screen(&p, "a reclaim agent in a dry run", true);
	assert_true(scr_find(&p.scr, "name*") > 0);	/* the exited marker explained */
	type(&p, "h");
	wait_screen(&p, "[Processes]", true);

	resize(&p, 30, 130);
	wait_screen(&p, "[Processes]", true);
	wait_screen(&p, "memhog", true);

	/* r: the CLI gets a refresh and renders the next interval */
	type(&p, "r");
	wait_screen(&p, "seq 8", true);

	/* q: exits cleanly and restores the terminal */
	size_t before = p.scr.nraw;
	type(&p, "q");
	double end = now_s() + PTY_WAIT_S;
	while (waitpid(p.pid, &status, WNOHANG) == 0 && now_s() < end)
		pty_pump(&p, 50);
	pty_pump(&p, 50);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	/* rmcup (leave the alternate screen) and cursor shown again */
	assert_non_null(strstr(p.scr.raw + before, "\033[?1049l"));
	assert_non_null(strstr(p.scr.raw + before, "\033[?25h"));
	close(p.fd);
	free(p.scr.raw);
}

/* A cleaned name with a wide character: drawn as UTF-8 under a UTF-8
 * locale, as one '?' per cell under C, and in both the figures after the
 * COMM column stay under their header. */
static void utf8_name_under(const char *locale, const char *shown)
{
	struct winsize ws = { .ws_row = 30, .ws_col = 130 };
	struct pty p = { 0 };
	int status;

	scr_init(&p.scr, 30, 130);
	child_locale = locale;
	child_comm = "inner-job-\xe5\x90\x8c";
	p.pid = forkpty(&p.fd, NULL, NULL, &ws);
	if (p.pid < 0)
		skip();
	if (p.pid == 0)
		child();
	child_locale = child_comm = NULL;
	wait_screen(&p, shown, true);
	int r = scr_find(&p.scr, shown), h = scr_find(&p.scr, "COMM");
	char row[SC + 1], head[SC + 1];

	assert_true(h >= 0 && r > h);
	snprintf(row, sizeof(row), "%s", scr_row(&p.scr, r));
	snprintf(head, sizeof(head), "%s", scr_row(&p.scr, h));
	/* CPU% is right-aligned: "150.0" ends where "CPU%" ends */
	assert_int_equal(strstr(row, "150.0") - row + 5, strstr(head, "CPU%") - head + 4);
	if (!strcmp(shown, "inner-job-UU"))
		assert_non_null(strstr(p.scr.raw, "inner-job-\xe5\x90\x8c"));
	type(&p, "q");
	double end = now_s() + PTY_WAIT_S;
	while (waitpid(p.pid, &status, WNOHANG) == 0 && now_s() < end)
		pty_pump(&p, 50);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(p.fd);
	free(p.scr.raw);
}

static void test_pty_utf8_name(void **state)
{
	utf8_name_under("C.UTF-8", "inner-job-UU");
	utf8_name_under("C", "inner-job-?? ");
}

/* What the window looks at goes to the collector (nl_tui_focus): the
 * detail window's process, the name filter; nothing on the list views. */
static void test_pty_focus(void **state)
{
	struct winsize ws = { .ws_row = 30, .ws_col = 130 };
	struct pty p = { 0 };
	int status;

	scr_init(&p.scr, 30, 130);
	p.pid = forkpty(&p.fd, NULL, NULL, &ws);
	if (p.pid < 0)
		skip();
	if (p.pid == 0) {
		struct nl_snapshot s;
		const char *comm;
		pid_t pid;
		int bad = 0;

		fix_build(&s, true);
		struct nl_tui *t = nl_tui_open_term("xterm", stdout, stdin, NULL);
		if (!t)
			_exit(3);
		nl_tui_render(t, &s);
		nl_tui_focus(t, &pid, &comm);
		bad |= pid != 0 || comm[0];
		nl_tui_handle_key(t, 'j');	/* CPU order: memhog, remote, sleeper */
		nl_tui_handle_key(t, 'd');
		nl_tui_focus(t, &pid, &comm);
		bad |= (pid != 300) << 1;
		nl_tui_handle_key(t, 'b');
		for (const char *k = "/sleep\r"; *k; k++)
			nl_tui_handle_key(t, *k);
		nl_tui_focus(t, &pid, &comm);
		bad |= (pid != 0 || strcmp(comm, "sleep")) << 2;
		/* non-ASCII letters arrive byte by byte; backspace takes a
		 * whole character ("é" is two bytes) */
		for (const char *k = "/caf\xc3\xa9x\x7f\r"; *k; k++)
			nl_tui_handle_key(t, (unsigned char)*k);
		nl_tui_focus(t, &pid, &comm);
		bad |= (strcmp(comm, "caf\xc3\xa9") != 0) << 3;
		for (const char *k = "/caf\xc3\xa9\x7f\r"; *k; k++)
			nl_tui_handle_key(t, (unsigned char)*k);
		nl_tui_focus(t, &pid, &comm);
		bad |= (strcmp(comm, "caf") != 0) << 4;
		nl_tui_close(t);
		_exit(bad ? 10 + bad : 42);
	}
	double end = now_s() + PTY_WAIT_S;
	while (waitpid(p.pid, &status, WNOHANG) == 0 && now_s() < end)
		pty_pump(&p, 50);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 42);
	close(p.fd);
	free(p.scr.raw);
}

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	stop = 1;
}

static void test_pty_stop_flag(void **state)
{
	struct winsize ws = { .ws_row = 24, .ws_col = 100 };
	struct pty p = { 0 };
	int status;

	scr_init(&p.scr, 24, 100);
	p.pid = forkpty(&p.fd, NULL, NULL, &ws);
	if (p.pid < 0)
		skip();
	if (p.pid == 0) {
		/* the CLI's SIGTERM path: a handler raises a flag, poll_key quits */
		struct sigaction sa = { 0 };
		struct nl_snapshot s;

		fix_build(&s, false);
		snprintf(s.src.missing, sizeof(s.src.missing), "%s",
			 "locality: NUMA balancing is off (kernel.numa_balancing=0); vmscan: x");
		struct nl_tui *t = nl_tui_open_term("xterm", stdout, stdin, NULL);
		if (!t)
			_exit(3);
		nl_tui_set_stop_flag(t, &stop);
		/* installed after open: it replaces ncurses' own handler */
		sa.sa_handler = on_term;
		sigaction(SIGTERM, &sa, NULL);
		nl_tui_render(t, &s);
		while (nl_tui_poll_key(t, -1) != NL_TUI_QUIT)
			;
		nl_tui_close(t);
		_exit(42);
	}
	wait_screen(&p, "memhog", true);
	/* balancing off: locality is "unavail", never a number */
	assert_non_null(strstr(scr_row(&p.scr, scr_find(&p.scr, "memhog")), "unavail"));
	/* the header says how to turn locality on, once */
	wait_screen(&p, "locality: off (sysctl kernel.numa_balancing=1", true);
	wait_screen(&p, "migrate: on  missing: vmscan:", true);
	assert_null(strstr(scr_row(&p.scr, scr_find(&p.scr, "locality: off")), "NUMA balancing is off"));
	size_t before = p.scr.nraw;
	kill(p.pid, SIGTERM);
	double end = now_s() + PTY_WAIT_S;
	while (waitpid(p.pid, &status, WNOHANG) == 0 && now_s() < end)
		pty_pump(&p, 50);
	pty_pump(&p, 50);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 42);
	assert_non_null(strstr(p.scr.raw + before, "\033[?1049l"));
	close(p.fd);
	free(p.scr.raw);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_fit),
		cmocka_unit_test(test_term_usable),
		cmocka_unit_test(test_open_not_a_tty),
		cmocka_unit_test(test_pty_session),
		cmocka_unit_test(test_pty_stop_flag),
		cmocka_unit_test(test_pty_focus),
		cmocka_unit_test(test_pty_utf8_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
