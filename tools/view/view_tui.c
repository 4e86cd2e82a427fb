// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The ncurses TUI. Everything drawn comes from a private copy of the last
 * snapshot, so keys (views, sort, filter, resize) redraw at once without
 * waiting for the next interval and without the CLI keeping its snapshot.
 * Its own text is ASCII: it must read the same on a serial console, in a
 * VM guest and through a pty in the tests. Names (already cleaned, names.h)
 * may hold UTF-8: shown as such under a UTF-8 locale, each non-ASCII
 * character as '?' under any other.
 *
 * This file opens, renders and closes, draws the frame around the window
 * shown and waits for keys; the windows, the header and the keys have
 * files of their own (view_tui.h lists them).
 */
#include <errno.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "view_tui.h"
#include "tui_cgroups.h"
#include "tui_detail.h"
#include "tui_draw.h"
#include "tui_head.h"
#include "tui_help.h"
#include "tui_keys.h"
#include "tui_nodes.h"
#include "tui_procs.h"
#include "tui_state.h"

/* --- snapshot copy -------------------------------------------------------- */

static int snap_copy(struct nl_tui *t, const struct nl_snapshot *s)
{
	struct nl_snapshot c;
	int cap = s->nr_procs > s->nr_cgroups ? s->nr_procs : s->nr_cgroups;
	int e;

	if (cap > t->idx_cap) {
		int *idx = realloc(t->idx, (size_t)cap * sizeof(*idx));

		if (!idx)
			return -ENOMEM;
		t->idx = idx;
		t->idx_cap = cap;
	}
	e = nl_snapshot_copy(&c, s);
	if (e)
		return e;
	nl_snapshot_free(&t->snap);
	t->snap = c;
	t->have_snap = true;
	return 0;
}

/* --- top-level draw ------------------------------------------------------- */

/* Draw the whole screen again from the snapshot copy: header, the window
 * shown, footer (or "terminal too small"). */
static void draw(struct nl_tui *t)
{
	erase();
	if (COLS < MIN_COLS || LINES < MIN_LINES) {
		/* say so instead of drawing a garbled table */
		mvaddnstr(0, 0, "terminal too small", COLS);
		if (LINES > 1) {
			char b[64];

			snprintf(b, sizeof(b), "need %dx%d, have %dx%d", MIN_COLS, MIN_LINES, COLS, LINES);
			mvaddnstr(1, 0, b, COLS);
		}
		if (LINES > 2)
			mvaddnstr(2, 0, "q quits", COLS);
		refresh();
		return;
	}
	t->meter_rows = nl_tui_head_meter_rows(t);
	/* the meters never squeeze the body below a few rows */
	if (LINES - 5 - t->meter_rows < 4)
		t->meter_rows = 0;
	nl_tui_head_title(t);
	nl_tui_head_meters(t);
	if (t->view == NL_TUI_VIEW_HELP || t->view == NL_TUI_VIEW_DETAIL) {
		struct nl_tui_lines L = { 0 };

		if (t->view == NL_TUI_VIEW_HELP)
			nl_tui_help_build(&L);
		else
			nl_tui_detail_build(t, &L);
		nl_tui_detail_draw(t, &L);
		free(L.l);
	} else if (!t->have_snap) {
		nl_tui_draw_line(HEAD_LINES(t), 0, "  no data yet");
	} else if (t->view == NL_TUI_VIEW_PROC) {
		nl_tui_procs_draw(t);
	} else if (t->view == NL_TUI_VIEW_CGROUP) {
		nl_tui_cgroups_draw(t);
	} else {
		nl_tui_nodes_draw(t);
	}
	nl_tui_head_footer(t);
	refresh();
}

/* --- keys ----------------------------------------------------------------- */

enum nl_tui_action nl_tui_handle_key(struct nl_tui *t, int key)
{
	enum nl_tui_action a;
	bool redraw;

	if (!t)
		return NL_TUI_QUIT;
	a = nl_tui_keys_act(t, key, &redraw);
	if (redraw)
		draw(t);
	return a;
}

enum nl_tui_action nl_tui_poll_key(struct nl_tui *t, int timeout_ms)
{
	struct timespec start, now;

	if (!t)
		return NL_TUI_QUIT;
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		long left = 100;
		int key;

		if (t->stop && *t->stop)
			return NL_TUI_QUIT;
		if (timeout_ms >= 0) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			long el = (now.tv_sec - start.tv_sec) * 1000 +
				  (now.tv_nsec - start.tv_nsec) / 1000000;
			left = timeout_ms - el;
			if (left <= 0 && timeout_ms > 0)
				return NL_TUI_NONE;
			if (left > 100)
				left = 100;
			if (left < 0)
				left = 0;
		}
		timeout((int)left);
		key = getch();
		if (key != ERR) {
			enum nl_tui_action a = nl_tui_handle_key(t, key);

			if (a != NL_TUI_NONE)
				return a;
		} else if (timeout_ms == 0) {
			return NL_TUI_NONE;
		}
		if (t->stop && *t->stop)
			return NL_TUI_QUIT;
	}
}

/* --- lifetime ------------------------------------------------------------- */

struct nl_tui *nl_tui_open_term(const char *term, FILE *out, FILE *in,
				const struct nl_view_opts *init)
{
	struct nl_tui *t;

	if (!out || !in) {
		errno = EINVAL;
		return NULL;
	}
	if (!isatty(fileno(out))) {
		errno = ENOTTY;
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		errno = ENOMEM;
		return NULL;
	}
	if (init)
		t->opts = *init;
	else
		nl_view_opts_default(&t->opts);
	/* ncursesw draws multi-byte characters only under the user's locale;
	 * numbers keep '.' (LC_NUMERIC "C") as in the other views */
	setlocale(LC_ALL, "");
	setlocale(LC_NUMERIC, "C");
	/* by the locale's name: <langinfo.h> would pull in the system's
	 * nl_types.h, which bpf/nl_types.h shadows on our include path */
	const char *ct = setlocale(LC_CTYPE, NULL);

	nl_tui_draw_set_utf8(ct && (strcasestr(ct, "UTF-8") || strcasestr(ct, "utf8")));
	t->scr = newterm(term, out, in);
	if (!t->scr) {
		free(t);
		errno = ENOENT;	/* newterm fails on an unknown terminal type */
		return NULL;
	}
	set_term(t->scr);
	/* NO_COLOR (no-color.org): set and not empty turns colour off */
	const char *nc = getenv("NO_COLOR");

	t->color = has_colors() && !(nc && *nc);
	if (t->color && start_color() == OK) {
		/* the terminal's own background where it can keep it, else black */
		short bg = use_default_colors() == OK ? -1 : COLOR_BLACK;

		init_pair(PAIR_OK, COLOR_GREEN, bg);
		init_pair(PAIR_WARN, COLOR_YELLOW, bg);
		init_pair(PAIR_HIGH, COLOR_RED, bg);
	} else {
		t->color = false;
	}
	t->meters = true;
	clock_gettime(CLOCK_MONOTONIC, &t->t0);
	cbreak();
	noecho();
	nonl();			/* Enter arrives as '\r' and is handled as such */
	keypad(stdscr, TRUE);
	intrflush(stdscr, FALSE);
	set_escdelay(50);	/* Esc as "back" must not feel sluggish */
	curs_set(0);
	/* plain redraws only: no insert/delete line tricks the pty test (and
	 * dumb serial consoles) would have to emulate */
	idlok(stdscr, FALSE);
	idcok(stdscr, FALSE);
	draw(t);
	return t;
}

struct nl_tui *nl_tui_open(const struct nl_view_opts *init)
{
	return nl_tui_open_term(NULL, stdout, stdin, init);
}

int nl_tui_render(struct nl_tui *t, const struct nl_snapshot *s)
{
	int err;

	if (!t || !s)
		return -EINVAL;
	err = snap_copy(t, s);
	set_term(t->scr);
	nl_tui_cgroups_record(t);
	draw(t);
	return err;
}

void nl_tui_set_stop_flag(struct nl_tui *t, volatile sig_atomic_t *flag)
{
	if (t)
		t->stop = flag;
}

void nl_tui_focus(const struct nl_tui *t, pid_t *pid, const char **comm)
{
	*pid = t && t->view == NL_TUI_VIEW_DETAIL && !t->detail_is_cg ? t->detail_pid : 0;
	*comm = t ? t->opts.filter.comm : "";
}

enum nl_tui_view nl_tui_current_view(const struct nl_tui *t)
{
	return t ? t->view : NL_TUI_VIEW_PROC;
}

void nl_tui_close(struct nl_tui *t)
{
	if (!t)
		return;
	set_term(t->scr);
	curs_set(1);
	endwin();
	delscreen(t->scr);
	nl_snapshot_free(&t->snap);
	nl_hist_free(&t->hist);
	free(t->idx);
	free(t);
}
