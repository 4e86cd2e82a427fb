// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The ncurses TUI. Everything drawn comes from a private copy of the last
 * snapshot, so keys (views, sort, filter, resize) redraw at once without
 * waiting for the next interval and without the CLI keeping its snapshot.
 * Its own text is ASCII: it must read the same on a serial console, in a
 * VM guest and through a pty in the tests. Names (already cleaned, names.h)
 * may hold UTF-8: shown as such under a UTF-8 locale, each non-ASCII
 * character as '?' under any other.
 */
#include <curses.h>
#include <errno.h>
#include <math.h>
#include <locale.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "names.h"
#include "tui_pics.h"
#include "view_agent.h"
#include "view_fmt.h"
#include "view_tui.h"
#include "vmscan_figs.h"

#define MIN_COLS 40
#define MIN_LINES 8
/* title, sources, the node meters (g_meter_rows of them), view line,
 * column header */
#define HEAD_LINES (4 + g_meter_rows)
#define SPARK_W 12		/* cells of a sparkline column */
#define SPARK_SPAN_MS 60000	/* what a sparkline covers: the last minute */

/* Colour pairs, when the terminal has colours and NO_COLOR is not set. */
enum { PAIR_OK = 1, PAIR_WARN, PAIR_HIGH };
#define MAX_COLS 64
#define STACK 8
#define MIB (1024.0 * 1024.0)

struct nl_tui {
	SCREEN *scr;
	struct nl_view_opts opts;
	enum nl_tui_view view;
	enum nl_tui_view stack[STACK];	/* for 'b' (back) */
	int depth;
	struct nl_snapshot snap;
	bool have_snap;
	/* selection follows the row's identity across refreshes and re-sorts */
	pid_t sel_pid;
	uint64_t sel_cg;
	int sel_node;
	int sel_idx[3], top[3];		/* per list view: row index and scroll offset */
	bool detail_is_cg;
	pid_t detail_pid;
	uint64_t detail_cg;
	int text_top;			/* scroll offset of detail/help */
	bool prompt;
	char pbuf[256];
	int plen;
	char msg[160];
	volatile sig_atomic_t *stop;
	int *idx;			/* current row order */
	int nidx, idx_cap;
	bool color;			/* draw in colour (else bold marks what colour would) */
	bool meters;			/* the node meters in the header ('m' toggles) */
	struct nl_hist hist;		/* per cgroup: remote share and locality median */
	uint64_t hist_seq;		/* the snapshot last seen */
	uint64_t hist_last_ms;		/* when a sample was last recorded */
	struct timespec t0;		/* the history's clock starts here */
};

/* Rows the node meters take on this screen (set by draw()). */
static int g_meter_rows;

/* --- pure pieces --------------------------------------------------------- */

int nl_tui_layout(const struct nl_tui_col *cols, int n, int width, bool *shown)
{
	int used = -1, flex = -1;

	for (int i = 0; i < n; i++) {
		shown[i] = true;
		used += cols[i].width + 1;
	}
	while (used > width) {
		int drop = -1;

		for (int i = 0; i < n; i++)
			if (shown[i] && cols[i].prio > 0 &&
			    (drop < 0 || cols[i].prio >= cols[drop].prio))
				drop = i;
		if (drop < 0)
			break;	/* only prio-0 columns left: the caller clips */
		shown[drop] = false;
		used -= cols[drop].width + 1;
	}
	for (int i = 0; i < n; i++)
		if (shown[i] && cols[i].flex && flex < 0)
			flex = i;
	if (flex < 0)
		return 0;
	return cols[flex].width + (width > used ? width - used : 0);
}

char *nl_tui_fit(char *dst, const char *src, int width, bool left, bool keep_tail)
{
	size_t room = 4 * (size_t)(width > 0 ? width : 0) + 1, n;
	int used;

	if (width <= 0) {
		dst[0] = '\0';
		return dst;
	}
	if (nl_text_cols(src) <= width)
		return nl_text_pad(dst, room, src, width, left);
	/* cut by terminal cells, not bytes: a name's characters may take
	 * several bytes (and a wide one two cells, hence the padding) */
	if (width == 1) {
		snprintf(dst, room, "~");
	} else if (keep_tail) {
		size_t at = nl_text_tail(src, width - 1, &used);

		snprintf(dst, room, "~%*s%s", width - 1 - used, "", src + at);
	} else {
		n = nl_text_head(src, width - 1, &used);
		snprintf(dst, room, "%.*s%*s~", (int)n, src, width - 1 - used, "");
	}
	return dst;
}

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

/* --- drawing helpers ------------------------------------------------------ */

/* The terminal's locale encodes UTF-8 (set when the TUI opens). */
static bool utf8_term;

/* In place: each non-ASCII character of @buf becomes one '?' per cell it
 * takes (a non-UTF-8 terminal would show its bytes as several "M-x"
 * cells); never longer than @buf. */
static void ascii_only(char *buf)
{
	char *o = buf, ch[5];

	for (const char *p = buf; *p;) {
		int n = nl_utf8_seq((const unsigned char *)p, strnlen(p, 4));

		if (n == 1) {
			*o++ = *p++;
			continue;
		}
		n = n > 1 ? n : 1;
		memcpy(ch, p, (size_t)n);
		ch[n] = '\0';
		p += n;
		for (int k = nl_text_cols(ch); k > 0; k--)
			*o++ = '?';
	}
	*o = '\0';
}

/* Print @fmt at row @y, clipped to the screen width and cleared to the end. */
static void line_at(int y, attr_t attr, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;

	if (y < 0 || y >= LINES)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!utf8_term)
		ascii_only(buf);
	move(y, 0);
	clrtoeol();
	attron(attr);
	/* clip by cells: names hold multi-byte characters */
	addnstr(buf, (int)nl_text_head(buf, COLS, NULL));
	attroff(attr);
}

/* The attribute of level @l: its colour, or bold for "high" without
 * colour (the monochrome form still tells what needs attention). */
static attr_t level_attr(const struct nl_tui *t, enum nl_pic_level l)
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
static int put_cells(attr_t attr, const char *text)
{
	int y, x, room, n;

	getyx(stdscr, y, x);
	(void)y;
	room = COLS - x;
	if (room <= 0)
		return 0;
	n = (int)nl_text_head(text, room, NULL);
	attron(attr);
	addnstr(text, n);
	attroff(attr);
	return nl_text_cols(text) < room ? nl_text_cols(text) : room;
}

static const char *view_name(enum nl_tui_view v)
{
	switch (v) {
	case NL_TUI_VIEW_PROC: return "Processes";
	case NL_TUI_VIEW_CGROUP: return "Cgroups (tree)";
	case NL_TUI_VIEW_NODE: return "Nodes";
	case NL_TUI_VIEW_DETAIL: return "Detail";
	case NL_TUI_VIEW_HELP: return "Help";
	}
	return "?";
}

static void draw_title(struct nl_tui *t)
{
	const struct nl_snapshot *s = &t->snap;
	char ts[32] = "--:--:--", filt[512] = "";
	time_t sec = (time_t)(s->timestamp_ns / 1000000000ull);
	struct tm tm;

	if (t->have_snap && localtime_r(&sec, &tm))
		strftime(ts, sizeof(ts), "%H:%M:%S", &tm);
	line_at(0, A_BOLD, "numalens top  seq %llu  %s  interval %.2f s  kernel %s",
		(unsigned long long)s->seq, ts, s->interval_ns / 1e9,
		s->kernel[0] ? s->kernel : "?");
	if (!t->have_snap) {
		line_at(1, 0, "waiting for the first interval...");
	} else {
		char missing[sizeof(s->src.missing)], loc[64];

		/* on one node there is nothing to be remote from: locality is
		 * moot (the kernel runs no NUMA balancing there), so neither
		 * it nor its missing entries are shown; elsewhere the field
		 * says why it is off, with the fix, once */
		nl_missing_without(missing, sizeof(missing), s->src.missing,
				   s->nr_nodes == 1 ? "locality:" : "locality: NUMA balancing is off");
		if (s->nr_nodes == 1)
			snprintf(loc, sizeof(loc), "one node: every page is local");
		else
			snprintf(loc, sizeof(loc), "locality: %s", nl_locality_source_ok(s) ? "on" :
				 (s->src.numa_balancing ? "unavail (no sched program)" :
				  "off (sysctl kernel.numa_balancing=1 turns it on)"));
		char alloc[32];

		/* sampled: the allocation figures are estimates (--exact) */
		if (s->src.alloc && s->src.alloc_sample_period > 1)
			snprintf(alloc, sizeof(alloc), "sampled 1/%u", s->src.alloc_sample_period);
		else
			snprintf(alloc, sizeof(alloc), "%s", s->src.alloc ? "on" : "off");
		line_at(1, 0, "%s  alloc: %s  migrate: %s  %s%s", loc,
			alloc, s->src.migrate ? "on" : "off",
			missing[0] ? "missing: " : "", missing);
	}
	if (t->opts.filter.pid > 0)
		snprintf(filt, sizeof(filt), "  filter: pid %d", (int)t->opts.filter.pid);
	else if (t->opts.filter.cgroup[0] || t->opts.filter.comm[0]) {
		/* typed text, shown cleaned like every name: -c may hold escape sequences */
		const char *typed = t->opts.filter.cgroup[0] ? t->opts.filter.cgroup : t->opts.filter.comm;
		char shown[448];	/* 100 columns of up to 4 bytes, "..." */

		nl_name_clean(shown, sizeof(shown), typed, strlen(typed), 0, NULL);
		if (nl_text_cols(shown) > 100)	/* a header line */
			strcpy(shown + nl_text_head(shown, 100, NULL), "...");
		snprintf(filt, sizeof(filt), "  filter: %s %s", t->opts.filter.cgroup[0] ? "cgroup" : "name",
			 shown);
	}
	line_at(2 + g_meter_rows, A_BOLD, "[%s]  sort: %s (key %d)%s", view_name(t->view),
		nl_sort_key_name(t->opts.sort), t->opts.sort + 1, filt);
}

/* --- node meters ---------------------------------------------------------- */

/* A node's CPU busy and memory used, as fractions (NaN: unknown). */
static double node_cpu_frac(const struct nl_node *n)
{
	return isfinite(n->cpu_busy_pct) ? n->cpu_busy_pct / 100.0 : NAN;
}

static double node_mem_frac(const struct nl_node *n)
{
	return n->mem_total_bytes ? (double)n->mem_used_bytes / (double)n->mem_total_bytes : NAN;
}

/* Meter blocks per row at this width for @nr nodes (up to 8: a block of
 * about 40 cells each; more nodes fold into one tick per node). */
static int meter_per_row(int nr)
{
	int k = (COLS + 1) / 40;

	if (k < 1)
		k = 1;
	return k < nr ? k : nr;
}

/* Rows the meters need on this screen: 0 when off or without nodes. */
static int meter_rows(const struct nl_tui *t)
{
	int nr = t->snap.nr_nodes, w = COLS - 6;

	if (!t->meters || !t->have_snap || nr <= 0 || t->view == NL_TUI_VIEW_HELP)
		return 0;
	if (nr <= NL_PIC_MAX_NODES)
		return (nr + meter_per_row(nr) - 1) / meter_per_row(nr);
	return 2 * ((nr + w - 1) / (w > 0 ? w : 1));
}

/* Up to 8 nodes: "N0 cpu[|||   37%] mem[||||| 62%]" blocks, coloured by
 * level (green below 60%, yellow below 85%, red above). */
static void draw_meter_blocks(const struct nl_tui *t, int y0)
{
	const struct nl_snapshot *s = &t->snap;
	int per = meter_per_row(s->nr_nodes), bw = (COLS + 1) / per - 1, mw = (bw - 12) / 2;
	char m[64], lab[16];

	if (mw > 30)
		mw = 30;
	for (int i = 0; i < s->nr_nodes; i++) {
		const struct nl_node *n = &s->nodes[i];
		int y = y0 + i / per, x = (i % per) * (bw + 1);
		double c = node_cpu_frac(n), mf = node_mem_frac(n);

		if (y >= LINES - 1)
			return;
		if (i % per == 0) {
			move(y, 0);
			clrtoeol();
		}
		move(y, x);
		snprintf(lab, sizeof(lab), "N%-2d ", n->nid % 1000);
		put_cells(A_BOLD, lab);
		put_cells(0, "cpu");
		put_cells(level_attr(t, nl_pic_level(c)), nl_pic_meter(m, sizeof(m), mw, c));
		put_cells(0, " mem");
		put_cells(level_attr(t, nl_pic_level(mf)), nl_pic_meter(m, sizeof(m), mw, mf));
	}
}

/* More than 8 nodes: per row of nodes, "cpu% " and "mem% " lines of one
 * tick per node, coloured by level, folded over as many rows as the width
 * needs. */
static void draw_meter_ticks(const struct nl_tui *t, int y0)
{
	const struct nl_snapshot *s = &t->snap;
	int w = COLS - 6, y = y0;

	for (int first = 0; first < s->nr_nodes && w > 0; first += w) {
		for (int what = 0; what < 2; what++, y++) {
			if (y >= LINES - 1)
				return;
			move(y, 0);
			clrtoeol();
			put_cells(A_BOLD, what ? "mem% " : "cpu% ");
			for (int i = first; i < s->nr_nodes && i < first + w; i++) {
				double f = what ? node_mem_frac(&s->nodes[i]) : node_cpu_frac(&s->nodes[i]);

				put_cells(level_attr(t, nl_pic_level(f)), nl_pic_tick(f, utf8_term));
			}
		}
	}
}

static void draw_meters(const struct nl_tui *t)
{
	if (!g_meter_rows)
		return;
	if (t->snap.nr_nodes <= NL_PIC_MAX_NODES)
		draw_meter_blocks(t, 2);
	else
		draw_meter_ticks(t, 2);
}

static void draw_footer(struct nl_tui *t)
{
	if (t->prompt)
		line_at(LINES - 1, A_BOLD, "filter (pid, name or /cgroup, empty clears): %s_", t->pbuf);
	else if (t->msg[0])
		line_at(LINES - 1, A_BOLD, "%s", t->msg);
	else
		line_at(LINES - 1, A_REVERSE, "%s", COLS >= 92 ?
			"q quit  h procs  c cgroups  n nodes  d detail  b back  / filter  1-9 sort  m meters  ? help" :
			"q quit  h c n views  d detail  b back  / filter  1-9 sort  m meters  ? help");
}

/* A table: columns plus, per column, what it shows and for which node. */
struct table {
	struct nl_tui_col cols[MAX_COLS];
	int kind[MAX_COLS];
	int node[MAX_COLS];	/* index into snap.nodes for per-node columns */
	bool shown[MAX_COLS];
	int n, flexw;
};

static void tcol(struct table *tb, const char *name, int width, int prio, bool flex,
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

static const char *node_col(int slot, const char *fmt, int nid)
{
	snprintf(g_names[slot % MAX_COLS], sizeof(g_names[0]), fmt, nid);
	return g_names[slot % MAX_COLS];
}

/* Write one row: @cell(kind, node) gives each cell's text and, through
 * its last argument, an attribute of its own (an alert) added to @attr. */
static void draw_row(struct table *tb, int y, attr_t attr,
		     void (*cell)(struct nl_tui *, const void *, int, int, char *, size_t, attr_t *),
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
		nl_tui_fit(fit, c, w, tb->cols[i].left, tb->cols[i].flex && tb->kind[i] != 0);
		if (!utf8_term)
			ascii_only(fit);
		if (!first)
			put_cells(attr, " ");
		first = false;
		put_cells(attr | own, fit);
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
		hit = nl_remote_ratio(&f->alloc, &r) && lround(r * 1000) >= t->opts.alert_remote_pct * 10L;
	else
		hit = nl_locality_source_ok(&t->snap) && f->loc.available && isfinite(f->loc.mean) &&
		      lround(f->loc.mean * 1000) <= t->opts.alert_locality_pct * 10L;
	if (!hit)
		return;
	*own = alert_attr(t);
	if (strlen(b) + 2 <= sz)
		strcat(b, "!");
}

/* Rows that fit between the header and the footer. */
static int body_rows(void)
{
	return LINES - HEAD_LINES - 1;
}

/* Clamp the selection of list @v to @n rows and scroll it into view. */
static void fix_scroll(struct nl_tui *t, int v, int n)
{
	int h = body_rows();

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

/* The figure columns the process and cgroup views share, drawn by one
 * function so both views format and flag them alike. Kind 0 is left
 * to the cgroup path, which is fitted keeping its tail. */
enum { FC_CPU = 1, FC_RUN, FC_RMT, FC_LCL, FC_RMTPCT, FC_LOC, FC_END };

/* One shared figure cell of @f; false when @kind is not one of them. */
static bool figs_cell(struct nl_tui *t, const struct nl_figs *f, int kind, int ni, char *b,
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
			snprintf(b, sz, "%.1f", nl_pct(f->run_ns_by_node[nid], f->run_ns));
		break;
	case FC_RMT: nl_fmt_num(b, sz, nl_rate(f->alloc.pages_remote, s->interval_ns)); break;
	case FC_LCL: nl_fmt_num(b, sz, nl_rate(f->alloc.pages_local, s->interval_ns)); break;
	case FC_RMTPCT:
		if (nl_remote_ratio(&f->alloc, &r))
			snprintf(b, sz, "%.1f", r * 100);
		else
			snprintf(b, sz, "n/a");
		mark_alert(t, f, true, b, sz, own);
		break;
	case FC_LOC:
		nl_fmt_locality(b, sz, &f->loc, nl_locality_source_ok(s));
		mark_alert(t, f, false, b, sz, own);
		break;
	default:
		return false;
	}
	return true;
}

/* --- process view --------------------------------------------------------- */

enum { PC_PID = FC_END, PC_COMM, PC_RSS, PC_RSSN, PC_MIGR, PC_CGROUP };

static void proc_cell(struct nl_tui *t, const void *row, int kind, int ni, char *b, size_t sz,
		      attr_t *own)
{
	const struct nl_snapshot *s = &t->snap;
	const struct nl_proc *p = row;
	int nid = ni >= 0 ? s->nodes[ni].nid : 0;
	bool nid_ok = nid >= 0 && nid < NL_MAX_NODES;
	uint64_t rss;

	if (figs_cell(t, &p->f, kind, ni, b, sz, own))
		return;
	switch (kind) {
	case PC_PID: snprintf(b, sz, "%d", (int)p->pid); break;
	case PC_COMM: snprintf(b, sz, "%s%s", p->comm, p->alive ? "" : "*"); break;
	case PC_RSS:
		if (nl_proc_rss_pages(p, s->nr_nodes, &rss))
			snprintf(b, sz, "%.1f", rss * (double)s->page_size / MIB);
		else
			snprintf(b, sz, "-");
		break;
	case PC_RSSN:
		if (!p->rss_known || !nid_ok)
			snprintf(b, sz, "-");
		else
			snprintf(b, sz, "%.1f", p->rss_pages_by_node[nid] * (double)s->page_size / MIB);
		break;
	case PC_MIGR: nl_fmt_num(b, sz, (double)nl_migrated_pages(&p->f)); break;
	case PC_CGROUP: snprintf(b, sz, "%s", p->cgroup_path[0] ? p->cgroup_path : "?"); break;
	default: b[0] = '\0';
	}
}

static void proc_table(struct nl_tui *t, struct table *tb)
{
	const struct nl_snapshot *s = &t->snap;
	int slot = 0;

	tb->n = 0;
	tcol(tb, "PID", 7, 0, false, false, PC_PID, -1);
	tcol(tb, "COMM", 15, 0, false, true, PC_COMM, -1);
	tcol(tb, "CPU%", 6, 0, false, false, FC_CPU, -1);
	for (int i = 0; i < s->nr_nodes && i < 8; i++)
		tcol(tb, node_col(slot++, "RUN%%N%d", s->nodes[i].nid), 7, 4, false, false, FC_RUN, i);
	tcol(tb, "LCL/s", 6, 1, false, false, FC_LCL, -1);	/* the batch text's order and names */
	tcol(tb, "RMT/s", 6, 1, false, false, FC_RMT, -1);
	tcol(tb, "RMT%", 6, 1, false, false, FC_RMTPCT, -1);
	tcol(tb, "LOCALITY", 8, 1, false, false, FC_LOC, -1);
	tcol(tb, "RSS_MiB", 8, 3, false, false, PC_RSS, -1);
	for (int i = 0; i < s->nr_nodes && i < 8; i++)
		tcol(tb, node_col(slot++, "RSS_N%d", s->nodes[i].nid), 8, 5, false, false, PC_RSSN, i);
	tcol(tb, "MIGR", 6, 3, false, false, PC_MIGR, -1);
	tcol(tb, "CGROUP", 10, 2, true, true, PC_CGROUP, -1);
	tb->flexw = nl_tui_layout(tb->cols, tb->n, COLS, tb->shown);
}

static int order_procs(struct nl_tui *t)
{
	int n = nl_sort_procs(&t->snap, t->opts.sort, &t->opts.filter, t->idx);

	if (n < 0)
		n = 0;
	if (t->opts.top_n > 0 && n > t->opts.top_n)
		n = t->opts.top_n;
	t->nidx = n;
	/* The selection keeps its row, not its process: following a process
	 * that went idle would scroll the busiest rows off the screen. */
	fix_scroll(t, 0, n);
	if (n)
		t->sel_pid = t->snap.procs[t->idx[t->sel_idx[0]]].pid;
	return n;
}

static void draw_procs(struct nl_tui *t)
{
	struct table tb;
	int n = order_procs(t), h = body_rows();

	proc_table(t, &tb);
	draw_row(&tb, HEAD_LINES - 1, A_BOLD | A_UNDERLINE, proc_cell, t, NULL);
	for (int k = t->top[0], y = HEAD_LINES; k < n && y < HEAD_LINES + h; k++, y++)
		draw_row(&tb, y, k == t->sel_idx[0] ? A_REVERSE : 0, proc_cell, t,
			 &t->snap.procs[t->idx[k]]);
	/* a typed pid is matched as typed: a thread id matches no process row */
	if (!n && t->opts.filter.pid > 0)
		line_at(HEAD_LINES, 0, "  no process %d: it has exited, or it is a thread id (type its "
			"process id; / then Enter clears the filter)", (int)t->opts.filter.pid);
	else if (!n)
		line_at(HEAD_LINES, 0, "  no process matches%s",
			nl_filter_active(&t->opts.filter) ? " the filter (/ then Enter clears it)" : "");
}

/* --- cgroup view ---------------------------------------------------------- */

enum { CC_NAME = 0, CC_BAR = FC_END, CC_EXEC, CC_MEM, CC_MIGR, CC_MOVES, CC_RCLM, CC_AGT,
       CC_SPARK_RMT, CC_SPARK_LOC };

/* Milliseconds on the history's clock. */
static uint64_t hist_now_ms(const struct nl_tui *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)((now.tv_sec - t->t0.tv_sec) * 1000 + (now.tv_nsec - t->t0.tv_nsec) / 1000000) + 1;
}

/* Record each cgroup's remote share of allocations and locality median
 * of a snapshot not recorded yet (the sparklines' history). */
static void hist_record(struct nl_tui *t)
{
	const struct nl_snapshot *s = &t->snap;
	uint64_t now = hist_now_ms(t);
	bool loc_ok = nl_locality_source_ok(s);

	if (!t->have_snap || s->seq == t->hist_seq)
		return;
	t->hist_seq = s->seq;
	/* at most one sample per 1/NL_HIST_SAMPLES of the span, so that a
	 * short -d still leaves a whole minute in the ring */
	if (t->hist_last_ms && now - t->hist_last_ms < SPARK_SPAN_MS / NL_HIST_SAMPLES)
		return;
	t->hist_last_ms = now;
	for (int i = 0; i < s->nr_cgroups; i++) {
		const struct nl_cgroup *c = &s->cgroups[i];
		double v[NL_HIST_VALUES], r;

		v[0] = nl_remote_ratio(&c->f.alloc, &r) ? r : NAN;
		v[1] = loc_ok && c->f.loc.available ? nl_locality_median(c->f.loc.bucket_ns) : NAN;
		if (nl_hist_add(&t->hist, c->id, now, v))
			break;	/* out of memory: the sparklines stop growing */
	}
	nl_hist_prune(&t->hist, now, 2 * SPARK_SPAN_MS);
}

/* Pages freed per second by reclaim, all contexts; "-" without vmscan. */
static void fmt_reclaim(char *b, size_t sz, const struct nl_snapshot *s, const struct nl_vs_page_figs *d,
			const struct nl_vs_page_figs *t)
{
	struct nl_vs_summary sum;

	if (!d) {
		snprintf(b, sz, "-");
		return;
	}
	nl_vs_summarize(d, t, &sum);
	nl_fmt_num(b, sz, nl_rate(sum.freed, s->interval_ns));
}

static void cg_cell(struct nl_tui *t, const void *row, int kind, int ni, char *b, size_t sz,
		    attr_t *own)
{
	const struct nl_snapshot *s = &t->snap;
	const struct nl_cgroup *c = row;
	int nid = ni >= 0 ? s->nodes[ni].nid : 0;
	bool nid_ok = nid >= 0 && nid < NL_MAX_NODES;
	char bar[16], rn[NL_UNIT_NAME_MAX];
	int depth = c->depth < 0 ? 0 : c->depth > 20 ? 20 : c->depth;

	if (figs_cell(t, &c->f, kind, ni, b, sz, own))
		return;
	switch (kind) {
	case CC_NAME:
		snprintf(b, sz, "%*s%s%s", 2 * depth, "", nl_cgroup_row_name(c, rn, sizeof(rn)),
			 c->removed ? " (removed)" : "");
		break;
	case CC_SPARK_RMT: case CC_SPARK_LOC:
		nl_hist_spark(b, sz, nl_hist_find(&t->hist, c->id), kind == CC_SPARK_LOC, hist_now_ms(t),
			      SPARK_SPAN_MS, SPARK_W, utf8_term);
		break;
	case CC_BAR:
		snprintf(b, sz, "|%s|", nl_fmt_locbar(bar, sizeof(bar), &c->f.loc,
						      nl_locality_source_ok(s)));
		break;
	case CC_EXEC:
		if (!nid_ok)
			snprintf(b, sz, "-");
		else
			snprintf(b, sz, "%.0f", c->f.run_ns_by_node[nid] / 1e6);
		break;
	case CC_MEM:	/* as the batch view: memory.numa_stat anon+file MiB */
		if (!c->numa_stat_known)
			snprintf(b, sz, "-");
		else
			snprintf(b, sz, "%.1f", (nl_sum_nodes(c->anon_bytes_by_node, NL_MAX_NODES) +
						 nl_sum_nodes(c->file_bytes_by_node, NL_MAX_NODES)) / MIB);
		break;
	case CC_MIGR: nl_fmt_num(b, sz, (double)nl_migrated_pages(&c->f)); break;
	case CC_MOVES: nl_fmt_num(b, sz, (double)(c->f.mig.move_numa + c->f.mig.swap_numa)); break;
	case CC_RCLM: {
		const struct nl_vmscan_figs *v = nl_vs_cgroup(s, c);

		fmt_reclaim(b, sz, s, v ? v->pages : NULL, v ? v->pages_total : NULL);
		break;
	}
	case CC_AGT: nl_agent_fmt_rate(b, sz, s, c, true); break;
	default: b[0] = '\0';
	}
}

static void cg_table(struct nl_tui *t, struct table *tb)
{
	const struct nl_snapshot *s = &t->snap;
	int slot = 0;

	tb->n = 0;
	tcol(tb, "CGROUP", 16, 0, true, true, CC_NAME, -1);
	tcol(tb, "CPU%", 6, 0, false, false, FC_CPU, -1);
	for (int i = 0; i < s->nr_nodes && i < 8; i++)
		tcol(tb, node_col(slot++, "RUN%%N%d", s->nodes[i].nid), 7, 4, false, false, FC_RUN, i);
	tcol(tb, "LCL/s", 6, 1, false, false, FC_LCL, -1);	/* the batch text's order and names */
	tcol(tb, "RMT/s", 6, 1, false, false, FC_RMT, -1);
	tcol(tb, "RMT%", 6, 1, false, false, FC_RMTPCT, -1);
	tcol(tb, "RMT%_1m", SPARK_W, 2, false, true, CC_SPARK_RMT, -1);
	tcol(tb, "LOCALITY", 8, 1, false, false, FC_LOC, -1);
	tcol(tb, "LOC_1m", SPARK_W, 2, false, true, CC_SPARK_LOC, -1);
	tcol(tb, "LOCBAR", NL_LOCBAR_WIDTH + 2, 3, false, true, CC_BAR, -1);
	for (int i = 0; i < s->nr_nodes && i < 8; i++)
		tcol(tb, node_col(slot++, "EXEC_MS_N%d", s->nodes[i].nid), 11, 5, false, false, CC_EXEC, i);
	tcol(tb, "MEM", 8, 3, false, false, CC_MEM, -1);
	tcol(tb, "MIGR", 6, 3, false, false, CC_MIGR, -1);
	tcol(tb, "MOVES", 5, 4, false, false, CC_MOVES, -1);
	tcol(tb, "RCLM/s", 6, 3, false, false, CC_RCLM, -1);
	tcol(tb, "AGT/s", 5, 3, false, false, CC_AGT, -1);
	tb->flexw = nl_tui_layout(tb->cols, tb->n, COLS, tb->shown);
}

static int order_cgroups(struct nl_tui *t)
{
	int n = nl_sort_cgroups(&t->snap, t->opts.sort, &t->opts.filter, true, t->idx);

	if (n < 0)
		n = 0;
	if (t->opts.top_n > 0 && n > t->opts.top_n)
		n = t->opts.top_n;
	t->nidx = n;
	fix_scroll(t, 1, n);
	if (n)
		t->sel_cg = t->snap.cgroups[t->idx[t->sel_idx[1]]].id;
	return n;
}

static void draw_cgroups(struct nl_tui *t)
{
	struct table tb;
	int n = order_cgroups(t), h = body_rows();

	cg_table(t, &tb);
	draw_row(&tb, HEAD_LINES - 1, A_BOLD | A_UNDERLINE, cg_cell, t, NULL);
	for (int k = t->top[1], y = HEAD_LINES; k < n && y < HEAD_LINES + h; k++, y++)
		draw_row(&tb, y, k == t->sel_idx[1] ? A_REVERSE : 0, cg_cell, t,
			 &t->snap.cgroups[t->idx[k]]);
	if (!n)
		line_at(HEAD_LINES, 0, "  no cgroup matches (a path filter takes whole components: /nu is not /nu-x)");
}

/* --- node view ------------------------------------------------------------ */

enum { NC_NODE = 1, NC_CPUS, NC_CPU, NC_USED, NC_FREE, NC_HIT, NC_MISS, NC_FOREIGN,
       NC_LOCAL, NC_BPFLOCAL, NC_OTHER, NC_BPFOTHER, NC_BPFPAGES, NC_RCLM };

static void node_cell(struct nl_tui *t, const void *row, int kind, int ni, char *b, size_t sz,
		      attr_t *own)
{
	const struct nl_node *n = row;
	const struct nl_numastat *ns = &n->numastat;

	switch (kind) {
	case NC_NODE: snprintf(b, sz, "%d", n->nid); break;
	case NC_CPUS: snprintf(b, sz, "%s", n->cpulist[0] ? n->cpulist : "-"); break;
	case NC_CPU:
		if (isfinite(n->cpu_busy_pct))
			snprintf(b, sz, "%.1f", n->cpu_busy_pct);
		else
			snprintf(b, sz, "-");	/* no online CPU */
		break;
	case NC_USED: snprintf(b, sz, "%.0f", n->mem_used_bytes / MIB); break;
	case NC_FREE: snprintf(b, sz, "%.0f", n->mem_free_bytes / MIB); break;
	case NC_HIT: nl_fmt_num(b, sz, (double)ns->numa_hit); break;
	case NC_MISS: nl_fmt_num(b, sz, (double)ns->numa_miss); break;
	case NC_FOREIGN: nl_fmt_num(b, sz, (double)ns->numa_foreign); break;
	case NC_LOCAL: nl_fmt_num(b, sz, (double)ns->local_node); break;
	case NC_BPFLOCAL: nl_fmt_num(b, sz, (double)n->bpf_events_local); break;
	case NC_OTHER: nl_fmt_num(b, sz, (double)ns->other_node); break;
	case NC_BPFOTHER: nl_fmt_num(b, sz, (double)n->bpf_events_other); break;
	case NC_BPFPAGES: nl_fmt_num(b, sz, (double)n->bpf_pages); break;
	case NC_RCLM:
		fmt_reclaim(b, sz, &t->snap, t->snap.src.vmscan ? n->vmscan : NULL, n->vmscan_total);
		break;
	default: b[0] = '\0';
	}
}

/* "DMA32 1.2% Normal 98.8%": each zone's share of @pages (NULL names the
 * zones only when they have pages). */
static void fmt_zone_shares(char *b, size_t sz, const struct nl_snapshot *s, const uint64_t *pages)
{
	uint64_t sum = 0;
	size_t l = 0;

	b[0] = '\0';
	for (int z = 0; z < s->nr_zones; z++)
		sum += pages[z];
	if (!sum) {
		snprintf(b, sz, "no pages");
		return;
	}
	for (int z = 0; z < s->nr_zones && l < sz; z++)
		if (pages[z])
			l += (size_t)snprintf(b + l, sz - l, "%s%s %.1f%%", l ? " " : "", s->zone_names[z],
					      nl_pct(pages[z], sum));
}

/* Upper edge (ns) of the log2 bucket holding quantile @q of the calls
 * of place @p, all classes; 0 when none. */
static uint64_t lat_quantile_ns(const struct nl_alloc_latency *l, int p, double q, uint64_t *n)
{
	uint64_t sum[NL_LAT_BUCKETS] = { 0 }, cum = 0;

	*n = 0;
	for (int c = 0; c < NL_LAT_NR_CLASSES; c++)
		for (int b = 0; b < NL_LAT_BUCKETS; b++) {
			sum[b] += l->hist[p * NL_LAT_NR_CLASSES + c][b];
			*n += l->hist[p * NL_LAT_NR_CLASSES + c][b];
		}
	for (int b = 0; b < NL_LAT_BUCKETS && *n; b++) {
		cum += sum[b];
		if ((double)cum >= q * (double)*n)
			return 2ull << b;
	}
	return 0;
}

/* The opt-in allocation latency (--alloc-latency): per placement, the
 * timed calls and the bucket edges under which half and 99% of them
 * finished; or why the kernel cannot show it. */
static void draw_alloc_latency(const struct nl_alloc_latency *l, int *y, int end)
{
	static const char *const places[NL_LAT_NR_PLACES] = { "local", "remote", "failed" };
	char b[200];
	size_t len = 0;

	if (!l->available) {
		line_at((*y)++, 0, "alloc latency: unavailable: %s", l->unavailable);
		return;
	}
	line_at((*y)++, 0, "alloc latency, 1 call in %u timed at %s:", l->sample_every, l->hook);
	b[0] = '\0';
	for (int p = 0; p < NL_LAT_NR_PLACES && len < sizeof(b); p++) {
		uint64_t n, p50 = lat_quantile_ns(l, p, 0.5, &n), p99 = lat_quantile_ns(l, p, 0.99, &n);

		len += (size_t)snprintf(b + len, sizeof(b) - len, "%s%s %llu", len ? "   " : "  ", places[p],
					(unsigned long long)n);
		if (n && len < sizeof(b))
			len += (size_t)snprintf(b + len, sizeof(b) - len, " p50<%.1fus p99<%.1fus",
						p50 / 1e3, p99 / 1e3);
	}
	if (*y < end)
		line_at((*y)++, 0, "%s", b);
}

/* The opt-in miss and remote attribution (--alloc-stacks): the three
 * sites with most sampled allocations since start, each on one line with
 * its innermost frames (the text and JSON views have them all). */
static void draw_alloc_stacks(const struct nl_alloc_stacks *a, int *y, int end)
{
	if (!a->available) {
		line_at((*y)++, 0, "alloc stacks: unavailable: %s", a->unavailable);
		return;
	}
	line_at((*y)++, 0, "alloc stacks, remote or miss, 1 in %u sampled, since start: %llu sampled, %d sites",
		a->sample_every, (unsigned long long)a->sampled, a->nr_keys);
	for (int i = 0; i < a->nr && i < 3 && *y < end; i++) {
		const struct nl_alloc_site *s = &a->top[i];
		char fr[160];
		size_t len = 0;

		fr[0] = '\0';
		for (int f = 0; f < s->nr_frames && len < sizeof(fr); f++)
			len += (size_t)snprintf(fr + len, sizeof(fr) - len, "%s%s", f ? " < " : "", s->frames[f]);
		line_at((*y)++, 0, "  %4.1f%% %s %s%s o%u: %s",
			a->sampled ? 100.0 * (double)s->events / (double)a->sampled : 0.0,
			(s->kind & NL_STK_REMOTE) ? ((s->kind & NL_STK_MISS) ? "remote+miss" : "remote") : "miss",
			nl_class_name(s->class), s->thp ? " thp" : "", s->order, fr);
	}
}

/* The opt-in page lifetime (--page-lifetime): per placement, the pages
 * freed this interval and the bucket edge under which half of them died. */
static void draw_page_lifetime(const struct nl_page_lifetime *l, int *y, int end)
{
	static const char *const places[NL_LIFE_NR_PLACES] = { "local", "remote" };
	char b[200];
	size_t len = 0;

	if (!l->available) {
		line_at((*y)++, 0, "page lifetime: unavailable: %s", l->unavailable);
		return;
	}
	b[0] = '\0';
	for (int p = 0; p < NL_LIFE_NR_PLACES && len < sizeof(b); p++) {
		uint64_t sum[NL_LIFE_BUCKETS] = { 0 }, n = 0, cum = 0, p50 = 0;

		for (int c = 0; c < NL_LIFE_NR_CLASSES; c++)
			for (int k = 0; k < NL_LIFE_BUCKETS; k++) {
				sum[k] += l->hist[p * NL_LIFE_NR_CLASSES + c][k];
				n += l->hist[p * NL_LIFE_NR_CLASSES + c][k];
			}
		for (int k = 0; k < NL_LIFE_BUCKETS && n && !p50; k++) {
			cum += sum[k];
			if (2 * cum >= n)
				p50 = 2ull << k;
		}
		len += (size_t)snprintf(b + len, sizeof(b) - len, "  %s %llu freed", places[p],
					(unsigned long long)n);
		if (n && len < sizeof(b))
			len += (size_t)snprintf(b + len, sizeof(b) - len, " p50<%.3gms", (double)p50 / 1e6);
	}
	line_at((*y)++, 0, "page lifetime, 1 allocation in %u timed, this interval:%s", l->sample_every, b);
}

/* Below the node table: this interval's hit/miss/foreign against the
 * preferred node (BPF) and each node's pages by zone, with the kernel's
 * pgalloc split (all nodes) to check them against. */
static void draw_node_preferred(const struct nl_snapshot *s, int *y, int end)
{
	char hit[16], miss[16], fgn[16], zones[160];

	if (*y < end)
		line_at((*y)++, 0, "BPF, against the preferred node (events) and pages by zone, this interval:");
	for (int k = 0; k < s->nr_nodes && *y < end; k++) {
		const struct nl_node *n = &s->nodes[k];

		nl_fmt_num(hit, sizeof(hit), (double)n->bpf_events_hit);
		nl_fmt_num(miss, sizeof(miss), (double)n->bpf_events_miss);
		nl_fmt_num(fgn, sizeof(fgn), (double)n->bpf_events_foreign);
		if (s->nr_zones)
			fmt_zone_shares(zones, sizeof(zones), s, n->bpf_pages_by_zone);
		else
			snprintf(zones, sizeof(zones), "zones unknown");
		line_at((*y)++, 0, "  node %-3d hit %-7s miss %-7s foreign %-7s %s", n->nid, hit, miss, fgn, zones);
	}
	if (s->nr_zones && *y < end) {
		fmt_zone_shares(zones, sizeof(zones), s, s->pgalloc);
		line_at((*y)++, 0, "  kernel pgalloc, all nodes: %s", zones);
	}
	if (s->alloc_lat.enabled && *y < end)
		draw_alloc_latency(&s->alloc_lat, y, end);
	if (s->alloc_stacks.enabled && *y < end)
		draw_alloc_stacks(&s->alloc_stacks, y, end);
	if (s->page_life.enabled && *y < end)
		draw_page_lifetime(&s->page_life, y, end);
}

static void draw_nodes(struct nl_tui *t)
{
	const struct nl_snapshot *s = &t->snap;
	struct table tb = { .n = 0 };
	int h = body_rows(), y = HEAD_LINES;

	/* Priorities keep the local/remote pairs and RCLM/s at 80 columns:
	 * they answer "is this node's memory served remotely"; memory sizes
	 * and the other numastat counters give way first. */
	tcol(&tb, "NODE", 4, 0, false, false, NC_NODE, -1);
	tcol(&tb, "CPUS", 9, 2, true, true, NC_CPUS, -1);
	tcol(&tb, "CPU%", 6, 0, false, false, NC_CPU, -1);
	tcol(&tb, "USED_MiB", 8, 2, false, false, NC_USED, -1);
	tcol(&tb, "FREE_MiB", 8, 2, false, false, NC_FREE, -1);
	tcol(&tb, "NUMA_HIT", 8, 3, false, false, NC_HIT, -1);
	tcol(&tb, "MISS", 6, 3, false, false, NC_MISS, -1);
	tcol(&tb, "FOREIGN", 7, 3, false, false, NC_FOREIGN, -1);
	tcol(&tb, "LOCAL_NODE", 10, 1, false, false, NC_LOCAL, -1);
	tcol(&tb, "BPF_LOCAL", 9, 1, false, false, NC_BPFLOCAL, -1);
	tcol(&tb, "OTHER_NODE", 10, 1, false, false, NC_OTHER, -1);
	tcol(&tb, "BPF_OTHER", 9, 1, false, false, NC_BPFOTHER, -1);
	tcol(&tb, "BPF_PAGES", 9, 3, false, false, NC_BPFPAGES, -1);
	tcol(&tb, "RCLM/s", 6, 1, false, false, NC_RCLM, -1);
	tb.flexw = nl_tui_layout(tb.cols, tb.n, COLS, tb.shown);
	draw_row(&tb, HEAD_LINES - 1, A_BOLD | A_UNDERLINE, node_cell, t, NULL);
	fix_scroll(t, 2, s->nr_nodes);
	for (int k = t->top[2]; k < s->nr_nodes && y < HEAD_LINES + h; k++, y++)
		draw_row(&tb, y, 0, node_cell, t, &s->nodes[k]);
	if (y < HEAD_LINES + h)
		line_at(y++, 0, "numastat: sysfs deltas (allocator calls); BPF: mm_page_alloc events%s",
			s->src.vm_numa_stat ? "" : "  (vm.numa_stat off: numastat not comparable)");
	if (s->src.alloc)
		draw_node_preferred(s, &y, HEAD_LINES + h);
}

/* --- detail and help: scrollable text ------------------------------------ */

struct lines {
	char (*l)[256];
	int n, cap;
};

static void addl(struct lines *L, const char *fmt, ...)
{
	va_list ap;

	if (L->n == L->cap) {
		int cap = L->cap ? 2 * L->cap : 64;
		char (*l)[256] = realloc(L->l, (size_t)cap * sizeof(*l));

		if (!l)
			return;
		L->l = l;
		L->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(L->l[L->n++], sizeof(L->l[0]), fmt, ap);
	va_end(ap);
}

/* The placement picture of a process (@p) or cgroup (@c): its CPU time
 * per node this interval against its resident memory per node (numa_maps,
 * or memory.numa_stat for a cgroup) and this interval's allocations, with
 * the SLIT (tui_pics.h). */
static void detail_place(struct nl_tui *t, struct lines *L, const struct nl_figs *f,
			 const struct nl_proc *p, const struct nl_cgroup *c)
{
	const struct nl_snapshot *s = &t->snap;
	struct nl_pic_place pp = { 0 };
	double cpu[NL_MAX_NODES], mem[NL_MAX_NODES], al[NL_MAX_NODES], w[NL_MAX_NODES];
	double msum = 0, asum = 0;
	int pos[NL_PIC_MAX_NODES], nr = s->nr_nodes < NL_MAX_NODES ? s->nr_nodes : NL_MAX_NODES;
	char out[NL_PIC_MAX_NODES + 8][256];

	for (int i = 0; i < nr; i++) {
		int nid = s->nodes[i].nid;
		bool ok = nid >= 0 && nid < NL_MAX_NODES;

		cpu[i] = f->run_ns && ok ? (double)f->run_ns_by_node[nid] / (double)f->run_ns : NAN;
		if (p && p->rss_known && ok)
			mem[i] = (double)p->rss_pages_by_node[nid];
		else if (c && c->numa_stat_known && ok)
			mem[i] = (double)(c->anon_bytes_by_node[nid] + c->file_bytes_by_node[nid]);
		else
			mem[i] = NAN;
		al[i] = ok ? (double)f->alloc.pages_by_node[nid] : 0;
		msum += isnan(mem[i]) ? 0 : mem[i];
		asum += al[i];
	}
	for (int i = 0; i < nr; i++) {
		mem[i] = msum > 0 ? mem[i] / msum : NAN;
		al[i] = asum > 0 ? al[i] / asum : NAN;
		w[i] = (isnan(cpu[i]) ? 0 : cpu[i]) + (isnan(mem[i]) ? 0 : mem[i]);
	}
	pp.nr_nodes = nr;
	pp.n = nl_pic_pick_nodes(w, nr, pos);
	for (int i = 0; i < pp.n; i++) {
		pp.nid[i] = s->nodes[pos[i]].nid;
		pp.cpu[i] = cpu[pos[i]];
		pp.mem[i] = mem[pos[i]];
		pp.alloc[i] = al[pos[i]];
	}
	for (int i = 0; i < pp.n; i++)
		for (int j = 0; j < pp.n; j++)
			pp.dist[i][j] = pp.nid[j] >= 0 && pp.nid[j] < NL_MAX_NODES ?
					s->nodes[pos[i]].distance[pp.nid[j]] : 0;
	int n = nl_pic_place_lines(out, (int)(sizeof(out) / sizeof(out[0])), &pp, utf8_term);

	for (int i = 0; i < n; i++)
		addl(L, "%s", out[i]);
	addl(L, "");
}

static void detail_figs(struct nl_tui *t, struct lines *L, const struct nl_figs *f,
			const struct nl_proc *p, const struct nl_cgroup *c)
{
	const struct nl_snapshot *s = &t->snap;
	char loc[16], bar[64], num[16];
	uint64_t locsum = 0;
	double r;
	const struct nl_alloc_figs *a = &f->alloc;
	const struct nl_migrate_figs *m = &f->mig;

	addl(L, "CPU %.1f%%  run %.3f s this interval, %.3f s since start", f->cpu_pct,
	     f->run_ns / 1e9, f->run_ns_total / 1e9);
	addl(L, "");
	detail_place(t, L, f, p, c);
	addl(L, "%4s %7s %10s %10s %12s %12s", "NODE", "RUN%", "RUN_ms", p ? "RSS_MiB" : "MEM_MiB",
	     "ALLOC_pages", "ALLOC_pg/s");
	for (int i = 0; i < s->nr_nodes; i++) {
		int nid = s->nodes[i].nid;
		char mem[24] = "-";

		if (nid < 0 || nid >= NL_MAX_NODES)
			continue;
		if (p && p->rss_known)
			snprintf(mem, sizeof(mem), "%.1f",
				 p->rss_pages_by_node[nid] * (double)s->page_size / MIB);
		else if (c && c->numa_stat_known)
			snprintf(mem, sizeof(mem), "%.1f",
				 (c->anon_bytes_by_node[nid] + c->file_bytes_by_node[nid]) / MIB);
		addl(L, "%4d %7.1f %10.1f %10s %12llu %12.1f", nid,
		     nl_pct(f->run_ns_by_node[nid], f->run_ns), f->run_ns_by_node[nid] / 1e6, mem,
		     (unsigned long long)a->pages_by_node[nid],
		     nl_rate(a->pages_by_node[nid], s->interval_ns));
	}
	addl(L, "");
	if (nl_remote_ratio(a, &r))
		snprintf(num, sizeof(num), "%.1f%%", r * 100);
	else
		snprintf(num, sizeof(num), "n/a");
	addl(L, "Allocations (pages; events = allocator calls): local %llu  remote %llu  remote %s"
	     "  events local %llu remote %llu  failed %llu",
	     (unsigned long long)a->pages_local, (unsigned long long)a->pages_remote, num,
	     (unsigned long long)a->events_local, (unsigned long long)a->events_remote,
	     (unsigned long long)a->fail_events);
	addl(L, "  by class: kernel %llu  reclaimable %llu  movable %llu  (anon %llu  file %llu"
	     "  shmem %llu  unclassified %llu)",
	     (unsigned long long)a->pages_by_class[NL_CLASS_KERNEL],
	     (unsigned long long)a->pages_by_class[NL_CLASS_RECLAIMABLE],
	     (unsigned long long)a->pages_by_class[NL_CLASS_MOVABLE],
	     (unsigned long long)a->pages_by_class[NL_CLASS_ANON],
	     (unsigned long long)a->pages_by_class[NL_CLASS_FILE],
	     (unsigned long long)a->pages_by_class[NL_CLASS_SHMEM],
	     (unsigned long long)a->pages_unclassified);
	addl(L, "  since start: local %llu  remote %llu pages",
	     (unsigned long long)a->pages_local_total, (unsigned long long)a->pages_remote_total);
	addl(L, "  against the preferred node (events): hit %llu  miss %llu;  since start hit %llu  miss %llu",
	     (unsigned long long)a->events_hit, (unsigned long long)a->events_miss,
	     (unsigned long long)a->events_hit_total, (unsigned long long)a->events_miss_total);
	addl(L, "");
	addl(L, "NUMA-fault locality (CPU time per bucket this interval): mean %s",
	     nl_fmt_locality(loc, sizeof(loc), &f->loc, nl_locality_source_ok(s)));
	for (int b = 0; b < NL_LOC_BUCKETS; b++)
		locsum += f->loc.bucket_ns[b];
	if (f->loc.available && locsum) {
		int w = COLS - 36;

		if (w > 40)
			w = 40;
		if (w < 4)
			w = 4;
		for (int b = 0; b < NL_LOC_BUCKETS; b++)
			addl(L, "  %-10s |%s| %5.1f%% %9.1f ms", nl_bucket_label(b),
			     nl_fmt_hbar(bar, w, (double)f->loc.bucket_ns[b] / locsum),
			     nl_pct(f->loc.bucket_ns[b], locsum), f->loc.bucket_ns[b] / 1e6);
	}
	/* with NUMA balancing off every slice is "no-fault": say nothing then */
	if (nl_locality_source_ok(s))
		addl(L, "  no-fault run time %.1f ms", f->loc.nofault_ns / 1e6);
	addl(L, "");
	addl(L, "Migrations: task moves %llu  swaps %llu  failed moves %llu;"
	     " pages migrated %llu  failed %llu (NUMA misplaced %llu / %llu)",
	     (unsigned long long)m->move_numa, (unsigned long long)m->swap_numa,
	     (unsigned long long)m->stick_numa, (unsigned long long)m->pages_ok,
	     (unsigned long long)m->pages_fail, (unsigned long long)m->numa_misplaced_ok,
	     (unsigned long long)m->numa_misplaced_fail);
	addl(L, "  since start: moves %llu  swaps %llu  pages %llu  failed %llu",
	     (unsigned long long)m->move_numa_total, (unsigned long long)m->swap_numa_total,
	     (unsigned long long)m->pages_ok_total, (unsigned long long)m->pages_fail_total);
}

static void build_detail(struct nl_tui *t, struct lines *L)
{
	const struct nl_snapshot *s = &t->snap;

	if (!t->detail_is_cg) {
		for (int i = 0; i < s->nr_procs; i++) {
			const struct nl_proc *p = &s->procs[i];

			if (p->pid != t->detail_pid)
				continue;
			addl(L, "PROCESS %d %s  cgroup %s%s", (int)p->pid, p->comm, p->cgroup_path,
			     p->alive ? "" : "  (exited)");
			if (p->rss_known && p->mempolicy.task[0])
				addl(L, "Memory policy %s%s%s", p->mempolicy.task,
				     p->mempolicy.vma[0] ? "; a mapping sets " : "", p->mempolicy.vma);
			else
				addl(L, "Memory policy -  (numa_maps not read)");
			detail_figs(t, L, &p->f, p, NULL);
			return;
		}
		addl(L, "process %d is gone (exited and evicted); b goes back", (int)t->detail_pid);
		return;
	}
	for (int i = 0; i < s->nr_cgroups; i++) {
		const struct nl_cgroup *c = &s->cgroups[i];

		if (c->id != t->detail_cg)
			continue;
		addl(L, "CGROUP %s  id %llu%s  (own tasks + descendants)", c->path,
		     (unsigned long long)c->id, c->removed ? "  (removed)" : "");
		/* the whole ids the tree's short form stands for */
		if (c->ident.pod_uid[0])
			addl(L, "Pod uid %s", c->ident.pod_uid);
		if (c->ident.container_id[0])
			addl(L, "Container %s%s%s", nl_ctr_runtime_name(c->ident.runtime) ?: "",
			     nl_ctr_runtime_name(c->ident.runtime) ? "://" : "", c->ident.container_id);
		if (c->ident.unit[0])
			addl(L, "Systemd unit %s", c->ident.unit);
		detail_figs(t, L, &c->f, NULL, c);
		return;
	}
	addl(L, "cgroup %llu is gone; b goes back", (unsigned long long)t->detail_cg);
}

/* Help fits 80 columns; longer than a 24-line screen, it scrolls like the
 * detail view (the footer says how). */
static void build_help(struct lines *L)
{
	addl(L, "Keys  (Up Down j k PgUp PgDn Home End scroll this help; b or Esc leaves it)");
	addl(L, "  q        quit");
	addl(L, "  h        home: process view");
	addl(L, "  c        cgroup tree view");
	addl(L, "  n        node view");
	addl(L, "  Enter d  detail of the selected process or cgroup");
	addl(L, "  b Esc    back to the previous view");
	addl(L, "  Up Down j k PgUp PgDn Home End   move the selection / scroll");
	addl(L, "  1..9     sort by:");
	for (int k = 0; k < NL_NR_SORT_KEYS; k++)
		addl(L, "             %d  %-8s %s", k + 1, nl_sort_key_name(k), nl_sort_key_about(k));
	addl(L, "  /        filter: a pid, a part of a process name, or a cgroup path");
	addl(L, "           prefix of whole components (/nu: /nu and /nu/x, not /nu-x)");
	addl(L, "           such as /system.slice; empty clears");
	addl(L, "  r        refresh now");
	addl(L, "  m        node meters on / off");
	addl(L, "  ?        this help");
	addl(L, "");
	addl(L, "Columns");
	addl(L, "  CPU%%      on-CPU time / interval (100 = one CPU)");
	addl(L, "  RUN%%Nn    share of that time on node n");
	addl(L, "  LCL/s     pages/s allocated on the allocating CPU's node");
	addl(L, "  RMT/s     pages/s allocated on another node; RMT%% = remote share");
	addl(L, "  LOCALITY  CPU-time-weighted NUMA-fault locality");
	addl(L, "  LOCBAR    time per 12.5%% locality bucket, \" .:-=+*#@\" = none .. all");
	addl(L, "  RSS_Nn    resident MiB on node n; MEM = memory.numa_stat anon+file MiB");
	addl(L, "  MIGR      pages migrated; MOVES = NUMA task moves + swaps");
	addl(L, "  RCLM/s    pages freed by reclaim per second; AGT/s = by a reclaim agent");
	addl(L, "  Nodes: numastat columns are sysfs deltas (allocator calls); BPF_ columns");
	addl(L, "         are the mm_page_alloc events numalens counted for the same node");
	addl(L, "");
	addl(L, "Pictures");
	addl(L, "  meters    per node: CPU busy and memory used; green below 60%%,");
	addl(L, "            yellow below 85%%, red above (bold without colour). Up to 8");
	addl(L, "            nodes as bars, more as one tick per node");
	addl(L, "  RMT%%_1m   the last minute of a cgroup's remote share of allocations,");
	addl(L, "  LOC_1m    and of its fault-locality median: low to high, oldest left;");
	addl(L, "            a blank cell had nothing to show");
	addl(L, "  detail    where the process or cgroup runs (rows) against where its");
	addl(L, "            memory sits (columns), shaded by the product of the two");
	addl(L, "            shares, with the SLIT distances and the expected distance");
	addl(L, "            per access if accesses follow the memory (1.00x = local)");
	addl(L, "  value!    RMT%% at or above --alert-remote, or LOCALITY at or below");
	addl(L, "            --alert-locality (red, or bold without colour; NO_COLOR=1");
	addl(L, "            turns colour off)");
	addl(L, "");
	addl(L, "Markers");
	addl(L, "  name*     the process exited during the interval (its last figures)");
	addl(L, "  (removed) the cgroup was deleted; its counts stay in its parents");
	addl(L, "  ~         a name or path cut to fit the column");
	addl(L, "  pod:1a2b3c4d/ctr:0123456789ab  a Kubernetes pod (uid's first 8 hex digits)");
	addl(L, "            and its container (id's first 12); Enter shows the whole ids");
	addl(L, "  ? CGROUP  the process ended before its cgroup was read (it lived less");
	addl(L, "            than one interval); its cgroup's row counts it all the same");
	addl(L, "  n/a       no NUMA hinting faults (or no allocations) in the interval");
	addl(L, "  unavail   locality cannot be measured here (kernel.numa_balancing=0)");
	addl(L, "  -         not known (unreadable numa_maps, no vmscan program, no agent)");
	addl(L, "  dry       a reclaim agent in a dry run manages this cgroup");
}

static void draw_text(struct nl_tui *t, struct lines *L)
{
	int h = LINES - (HEAD_LINES - 1) - 1;

	if (t->text_top > L->n - h)
		t->text_top = L->n - h;
	if (t->text_top < 0)
		t->text_top = 0;
	for (int i = 0; i < h; i++) {
		int k = t->text_top + i;

		line_at(HEAD_LINES - 1 + i, k == 0 ? A_BOLD : 0, "%s", k < L->n ? L->l[k] : "");
	}
}

/* --- top-level draw ------------------------------------------------------- */

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
	g_meter_rows = meter_rows(t);
	/* the meters never squeeze the body below a few rows */
	if (LINES - 5 - g_meter_rows < 4)
		g_meter_rows = 0;
	draw_title(t);
	draw_meters(t);
	if (t->view == NL_TUI_VIEW_HELP || t->view == NL_TUI_VIEW_DETAIL) {
		struct lines L = { 0 };

		if (t->view == NL_TUI_VIEW_HELP)
			build_help(&L);
		else
			build_detail(t, &L);
		draw_text(t, &L);
		free(L.l);
	} else if (!t->have_snap) {
		line_at(HEAD_LINES, 0, "  no data yet");
	} else if (t->view == NL_TUI_VIEW_PROC) {
		draw_procs(t);
	} else if (t->view == NL_TUI_VIEW_CGROUP) {
		draw_cgroups(t);
	} else {
		draw_nodes(t);
	}
	draw_footer(t);
	refresh();
}

/* --- keys ----------------------------------------------------------------- */

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
		if (order_procs(t) <= 0)
			return;
		t->detail_is_cg = false;
		t->detail_pid = t->sel_pid;
	} else if (t->view == NL_TUI_VIEW_CGROUP) {
		if (order_cgroups(t) <= 0)
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
		order_procs(t);
	else if (v == 1)
		order_cgroups(t);
	else
		t->nidx = t->snap.nr_nodes;
	long k = (long)t->sel_idx[v] + d;
	if (k >= t->nidx)
		k = t->nidx - 1;
	if (k < 0)
		k = 0;
	t->sel_idx[v] = (int)k;
	fix_scroll(t, v, t->nidx);
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
		err = nl_filter_parse(&f, t->pbuf);
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

enum nl_tui_action nl_tui_handle_key(struct nl_tui *t, int key)
{
	enum nl_tui_action a = NL_TUI_NONE;
	int sk;

	if (!t)
		return NL_TUI_QUIT;
	if (t->prompt) {
		prompt_key(t, key);
		draw(t);
		return NL_TUI_NONE;
	}
	t->msg[0] = '\0';
	switch (key) {
	case 'q': case 'Q': return NL_TUI_QUIT;
	case 'h': case 'H': go(t, NL_TUI_VIEW_PROC); break;
	case 'c': case 'C': go(t, NL_TUI_VIEW_CGROUP); break;
	case 'n': case 'N': go(t, NL_TUI_VIEW_NODE); break;
	case '?': go(t, NL_TUI_VIEW_HELP); break;
	case 'b': case 'B': case 27: back(t); break;
	case 'd': case 'D': case '\n': case '\r': case KEY_ENTER: open_detail(t); break;
	case 'j': case KEY_DOWN: move_sel(t, 1); break;
	case 'k': case KEY_UP: move_sel(t, -1); break;
	case KEY_NPAGE: case ' ': move_sel(t, body_rows() > 1 ? body_rows() - 1 : 1); break;
	case KEY_PPAGE: move_sel(t, -(body_rows() > 1 ? body_rows() - 1 : 1)); break;
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
		if (sk >= 0)
			t->opts.sort = sk;
		else
			return NL_TUI_NONE;	/* unknown key: no redraw flicker */
	}
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

	utf8_term = ct && (strcasestr(ct, "UTF-8") || strcasestr(ct, "utf8"));
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
	hist_record(t);
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
