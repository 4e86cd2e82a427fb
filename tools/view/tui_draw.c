// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The pieces every TUI window draws with: a line clipped to the screen,
 * cells up to its edge, the column table that drops what does not fit, the
 * shared figure cells with their alerts, and scrolling. Kept apart from
 * the windows so they all clip, fit and flag alike.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "names.h"
#include "view_fmt.h"
#include "tui_draw.h"
#include "tui_state.h"

/* The terminal's locale encodes UTF-8 (set when the TUI opens). */
static bool utf8_term;

void nl_tui_draw_set_utf8(bool on)
{
	utf8_term = on;
}

bool nl_tui_draw_utf8(void)
{
	return utf8_term;
}

/* In place: each non-ASCII character of @buf becomes one '?' per cell it
 * takes (a non-UTF-8 terminal would show its bytes as several "M-x"
 * cells); never longer than @buf. */
void nl_tui_draw_ascii(char *buf)
{
	char *o = buf, ch[5];

	for (const char *p = buf; *p;) {
		int n = nl_name_utf8_seq((const unsigned char *)p, strnlen(p, 4));

		if (n == 1) {
			*o++ = *p++;
			continue;
		}
		n = n > 1 ? n : 1;
		memcpy(ch, p, (size_t)n);
		ch[n] = '\0';
		p += n;
		for (int k = nl_name_text_cols(ch); k > 0; k--)
			*o++ = '?';
	}
	*o = '\0';
}

/* Print @fmt at row @y, clipped to the screen width and cleared to the end. */
void nl_tui_draw_line(int y, attr_t attr, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;

	if (y < 0 || y >= LINES)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!utf8_term)
		nl_tui_draw_ascii(buf);
	move(y, 0);
	clrtoeol();
	attron(attr);
	/* clip by cells: names hold multi-byte characters */
	addnstr(buf, (int)nl_name_text_head(buf, COLS, NULL));
	attroff(attr);
}

/* The attribute of level @l: its colour, or bold for "high" without
 * colour (the monochrome form still tells what needs attention). */
attr_t nl_tui_draw_level_attr(const struct nl_tui *t, enum nl_pic_level l)
{
	if (t->color)
		return COLOR_PAIR(l == NL_PIC_OK ? PAIR_OK : l == NL_PIC_WARN ? PAIR_WARN : PAIR_HIGH) |
		       (l == NL_PIC_HIGH ? A_BOLD : 0);
	return l == NL_PIC_HIGH ? A_BOLD : 0;
}

/* What an alert looks like: red and bold, or bold alone. */
static attr_t alert_attr(const struct nl_tui *t)
{
	return t->color ? COLOR_PAIR(PAIR_HIGH) | A_BOLD : A_BOLD;
}

/* Print @text at the cursor with @attr, at most up to the screen's right
 * edge; returns the cells written. */
int nl_tui_draw_cells(attr_t attr, const char *text)
{
	int y, x, room, n;

	getyx(stdscr, y, x);
	(void)y;
	room = COLS - x;
	if (room <= 0)
		return 0;
	n = (int)nl_name_text_head(text, room, NULL);
	attron(attr);
	addnstr(text, n);
	attroff(attr);
	return nl_name_text_cols(text) < room ? nl_name_text_cols(text) : room;
}

void nl_tui_draw_col(struct nl_tui_table *tb, const char *name, int width, int prio, bool flex,
		     bool left, int kind, int node)
{
	if (tb->n >= MAX_COLS)
		return;
	tb->cols[tb->n] = (struct nl_tui_col){ name, width, prio, flex, left };
	tb->kind[tb->n] = kind;
	tb->node[tb->n] = node;
	tb->n++;
}

/* Per-node column names live as long as the table. */
static char g_names[MAX_COLS][24];

const char *nl_tui_draw_node_col(int slot, const char *fmt, int nid)
{
	snprintf(g_names[slot % MAX_COLS], sizeof(g_names[0]), fmt, nid);
	return g_names[slot % MAX_COLS];
}

/* Write one row: @cell(kind, node) gives each cell's text and, through
 * its last argument, an attribute of its own (an alert) added to @attr. */
void nl_tui_draw_row(struct nl_tui_table *tb, int y, attr_t attr, nl_tui_cell_fn *cell,
		     struct nl_tui *t, const void *row)
{
	char c[512], fit[4 * 511 + 1];	/* fit: 4 bytes a cell at most */
	bool first = true;

	if (y < 0 || y >= LINES)
		return;
	move(y, 0);
	clrtoeol();
	for (int i = 0; i < tb->n; i++) {
		attr_t own = 0;
		int w;

		if (!tb->shown[i])
			continue;
		w = tb->cols[i].flex ? tb->flexw : tb->cols[i].width;
		if (w > 511)
			w = 511;
		if (row)
			cell(t, row, tb->kind[i], tb->node[i], c, sizeof(c), &own);
		else
			snprintf(c, sizeof(c), "%s", tb->cols[i].name);
		nl_layout_fit(fit, c, w, tb->cols[i].left, tb->cols[i].flex && tb->kind[i] != 0);
		if (!utf8_term)
			nl_tui_draw_ascii(fit);
		if (!first)
			nl_tui_draw_cells(attr, " ");
		first = false;
		nl_tui_draw_cells(attr | own, fit);
	}
	/* a selected row stays highlighted to the right edge; a row that
	 * filled the width left the cursor on the next line, which must not
	 * be painted */
	if (attr & A_REVERSE) {
		int cy, cx;

		getyx(stdscr, cy, cx);
		attron(attr);
		for (; cy == y && cx < COLS; cx++)
			addch(' ');
		attroff(attr);
	}
}

/* The remote share and locality alerts of @f: '!' after the figure in
 * @b and the alert attribute in *@own; @is_rmt picks the remote share,
 * else the locality. */
static void mark_alert(const struct nl_tui *t, const struct nl_figs *f, bool is_rmt, char *b,
		       size_t sz, attr_t *own)
{
	double r;
	bool hit;

	/* compared as shown (one decimal), so "25.0" at --alert-remote 25
	 * is marked whatever the next digits were */
	if (is_rmt)
		hit = nl_fmt_remote_ratio(&f->alloc, &r) && lround(r * 1000) >= t->opts.alert_remote_pct * 10L;
	else
		hit = nl_fmt_locality_source_ok(&t->snap) && f->loc.available && isfinite(f->loc.mean) &&
		      lround(f->loc.mean * 1000) <= t->opts.alert_locality_pct * 10L;
	if (!hit)
		return;
	*own = alert_attr(t);
	if (strlen(b) + 2 <= sz)
		strcat(b, "!");
}

/* Rows that fit between the header and the footer. */
int nl_tui_draw_body_rows(const struct nl_tui *t)
{
	return LINES - HEAD_LINES(t) - 1;
}

int nl_tui_draw_cut(struct nl_tui *t, int v, int n)
{
	if (n < 0)
		n = 0;
	if (t->opts.top_n > 0 && n > t->opts.top_n)
		n = t->opts.top_n;
	t->nidx = n;
	nl_tui_draw_fix_scroll(t, v, n);
	return n;
}

void nl_tui_draw_list(struct nl_tui *t, struct nl_tui_table *tb, int v, int n, nl_tui_cell_fn *cell,
		      const void *rows, size_t stride)
{
	int h = nl_tui_draw_body_rows(t);

	nl_tui_draw_row(tb, HEAD_LINES(t) - 1, A_BOLD | A_UNDERLINE, cell, t, NULL);
	for (int k = t->top[v], y = HEAD_LINES(t); k < n && y < HEAD_LINES(t) + h; k++, y++)
		nl_tui_draw_row(tb, y, k == t->sel_idx[v] ? A_REVERSE : 0, cell, t,
				(const char *)rows + (size_t)t->idx[k] * stride);
}

/* Clamp the selection of list @v to @n rows and scroll it into view. */
void nl_tui_draw_fix_scroll(struct nl_tui *t, int v, int n)
{
	int h = nl_tui_draw_body_rows(t);

	if (t->sel_idx[v] >= n)
		t->sel_idx[v] = n - 1;
	if (t->sel_idx[v] < 0)
		t->sel_idx[v] = 0;
	if (t->top[v] > t->sel_idx[v])
		t->top[v] = t->sel_idx[v];
	if (h > 0 && t->sel_idx[v] >= t->top[v] + h)
		t->top[v] = t->sel_idx[v] - h + 1;
	/* never leave blank rows below the list when it shrank or after End */
	if (h > 0 && t->top[v] > n - h)
		t->top[v] = n - h;
	if (t->top[v] < 0)
		t->top[v] = 0;
}

/* One shared figure cell of @f; false when @kind is not one of them. */
bool nl_tui_draw_figs_cell(struct nl_tui *t, const struct nl_figs *f, int kind, int ni, char *b,
			   size_t sz, attr_t *own)
{
	const struct nl_snapshot *s = &t->snap;
	int nid = ni >= 0 ? s->nodes[ni].nid : 0;
	double r;

	switch (kind) {
	case FC_CPU: snprintf(b, sz, "%.1f", f->cpu_pct); break;
	case FC_RUN:
		if (nid < 0 || nid >= NL_MAX_NODES || !f->run_ns)
			snprintf(b, sz, "-");
		else
			snprintf(b, sz, "%.1f", nl_fmt_pct(f->run_ns_by_node[nid], f->run_ns));
		break;
	case FC_RMT: nl_fmt_num(b, sz, nl_fmt_rate(f->alloc.pages_remote, s->interval_ns)); break;
	case FC_LCL: nl_fmt_num(b, sz, nl_fmt_rate(f->alloc.pages_local, s->interval_ns)); break;
	case FC_RMTPCT:
		if (nl_fmt_remote_ratio(&f->alloc, &r))
			snprintf(b, sz, "%.1f", r * 100);
		else
			snprintf(b, sz, "n/a");
		mark_alert(t, f, true, b, sz, own);
		break;
	case FC_LOC:
		nl_fmt_locality(b, sz, &f->loc, nl_fmt_locality_source_ok(s));
		mark_alert(t, f, false, b, sz, own);
		break;
	default:
		return false;
	}
	return true;
}

/* Pages freed per second by reclaim, all contexts; "-" without vmscan. */
void nl_tui_draw_reclaim(char *b, size_t sz, const struct nl_snapshot *s,
			 const struct nl_vs_page_figs *d, const struct nl_vs_page_figs *tot)
{
	struct nl_vs_summary sum;

	if (!d) {
		snprintf(b, sz, "-");
		return;
	}
	nl_vmscan_figs_summarize(d, tot, &sum);
	nl_fmt_num(b, sz, nl_fmt_rate(sum.freed, s->interval_ns));
}
