// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The keys: switching windows (with a short stack for 'b'), moving the
 * selection, the filter prompt, sorting, and the wait for keys between
 * intervals. Each key acts on the snapshot copy and redraws at once.
 */
#include <string.h>
#include "tui_keys.h"
#include "tui_cgroups.h"
#include "tui_draw.h"
#include "tui_procs.h"
#include "tui_state.h"

static void go(struct nl_tui *t, enum nl_tui_view v)
{
	if (v == t->view)
		return;
	if (t->depth == STACK) {
		memmove(t->stack, t->stack + 1, (STACK - 1) * sizeof(t->stack[0]));
		t->depth--;
	}
	t->stack[t->depth++] = t->view;
	t->view = v;
	t->text_top = 0;
}

static void back(struct nl_tui *t)
{
	t->view = t->depth ? t->stack[--t->depth] : NL_TUI_VIEW_PROC;
	t->text_top = 0;
}

static void open_detail(struct nl_tui *t)
{
	if (t->view == NL_TUI_VIEW_PROC) {
		if (nl_tui_procs_order(t) <= 0)
			return;
		t->detail_is_cg = false;
		t->detail_pid = t->sel_pid;
	} else if (t->view == NL_TUI_VIEW_CGROUP) {
		if (nl_tui_cgroups_order(t) <= 0)
			return;
		t->detail_is_cg = true;
		t->detail_cg = t->sel_cg;
	} else {
		return;
	}
	go(t, NL_TUI_VIEW_DETAIL);
}

/* Move the selection (or scroll the text views) by @d rows. */
static void move_sel(struct nl_tui *t, int d)
{
	int v;

	if (t->view == NL_TUI_VIEW_DETAIL || t->view == NL_TUI_VIEW_HELP) {
		t->text_top += d;
		if (t->text_top < 0)
			t->text_top = 0;
		return;
	}
	v = t->view == NL_TUI_VIEW_PROC ? 0 : t->view == NL_TUI_VIEW_CGROUP ? 1 : 2;
	if (v == 0)
		nl_tui_procs_order(t);
	else if (v == 1)
		nl_tui_cgroups_order(t);
	else
		t->nidx = t->snap.nr_nodes;
	long k = (long)t->sel_idx[v] + d;
	if (k >= t->nidx)
		k = t->nidx - 1;
	if (k < 0)
		k = 0;
	t->sel_idx[v] = (int)k;
	nl_tui_draw_fix_scroll(t, v, t->nidx);
	if (v == 0 && t->nidx)
		t->sel_pid = t->snap.procs[t->idx[k]].pid;
	else if (v == 1 && t->nidx)
		t->sel_cg = t->snap.cgroups[t->idx[k]].id;
}

static void prompt_key(struct nl_tui *t, int key)
{
	struct nl_filter f;
	int err;

	switch (key) {
	case '\n': case '\r': case KEY_ENTER:
		t->prompt = false;
		err = nl_sort_filter_parse(&f, t->pbuf);
		if (err)
			snprintf(t->msg, sizeof(t->msg), "bad filter \"%.60s\": type a pid, a part of a"
				 " process name, or a cgroup path starting with /", t->pbuf);
		else
			t->opts.filter = f;
		break;
	case 27:
		t->prompt = false;
		break;
	case KEY_BACKSPACE: case 127: case 8:
		/* a whole character: its UTF-8 continuation bytes, then its lead */
		while (t->plen && ((unsigned char)t->pbuf[t->plen - 1] & 0xc0) == 0x80)
			t->pbuf[--t->plen] = '\0';
		if (t->plen)
			t->pbuf[--t->plen] = '\0';
		break;
	default:
		/* getch() hands a UTF-8 character over byte by byte (128-255;
		 * ncurses' own key codes start above 255): taken as they come, so
		 * a name with non-ASCII letters can be typed */
		if (key >= 32 && key <= 255 && key != 127 && t->plen < (int)sizeof(t->pbuf) - 1) {
			t->pbuf[t->plen++] = (char)key;
			t->pbuf[t->plen] = '\0';
		}
	}
}

/* Rows a page key moves: a screenful less one, so a row stays in sight. */
static int page(const struct nl_tui *t)
{
	return nl_tui_draw_body_rows(t) > 1 ? nl_tui_draw_body_rows(t) - 1 : 1;
}

enum nl_tui_action nl_tui_keys_act(struct nl_tui *t, int key, bool *redraw)
{
	enum nl_tui_action a = NL_TUI_NONE;
	int sk;

	*redraw = true;
	if (t->prompt) {
		prompt_key(t, key);
		return NL_TUI_NONE;
	}
	t->msg[0] = '\0';
	switch (key) {
	case 'q': case 'Q':
		*redraw = false;
		return NL_TUI_QUIT;
	case 'h': case 'H': go(t, NL_TUI_VIEW_PROC); break;
	case 'c': case 'C': go(t, NL_TUI_VIEW_CGROUP); break;
	case 'n': case 'N': go(t, NL_TUI_VIEW_NODE); break;
	case '?': go(t, NL_TUI_VIEW_HELP); break;
	case 'b': case 'B': case 27: back(t); break;
	case 'd': case 'D': case '\n': case '\r': case KEY_ENTER: open_detail(t); break;
	case 'j': case KEY_DOWN: move_sel(t, 1); break;
	case 'k': case KEY_UP: move_sel(t, -1); break;
	case KEY_NPAGE: case ' ': move_sel(t, page(t)); break;
	case KEY_PPAGE: move_sel(t, -page(t)); break;
	case KEY_HOME: case 'g': move_sel(t, -(1 << 28)); break;
	case KEY_END: case 'G': move_sel(t, 1 << 28); break;
	case '/':
		t->prompt = true;
		t->plen = 0;
		t->pbuf[0] = '\0';
		break;
	case 'r': case 'R': a = NL_TUI_REFRESH; break;
	case 'm': case 'M': t->meters = !t->meters; break;
	case KEY_RESIZE: break;		/* ncurses updated LINES/COLS: just redraw */
	default:
		sk = nl_sort_key_from_char(key);
		if (sk >= 0) {
			t->opts.sort = sk;
		} else {
			*redraw = false;	/* unknown key: no redraw flicker */
			return NL_TUI_NONE;
		}
	}
	return a;
}
