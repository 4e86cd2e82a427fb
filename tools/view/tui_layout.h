/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The TUI's table layout as pure functions, without ncurses: which columns
 * fit a width, and text fitted to a column by terminal cells. Apart from
 * the drawing so the tests (and view_tui.h's users) need no curses.h.
 */
#ifndef NL_TUI_LAYOUT_H
#define NL_TUI_LAYOUT_H

#include <stdbool.h>

/* One table column. Lower @prio survives longer when space runs out; prio 0
 * is never dropped. A @flex column takes the width left over (at least
 * @width). */
struct nl_tui_col {
	const char *name;
	int width;
	int prio;
	bool flex;
	bool left;		/* left-aligned (text) instead of right (numbers) */
};

/*
 * Decide which of @n columns fit in @width terminal cells, one space between
 * columns. Drops the highest-@prio columns first (rightmost first on ties).
 * Sets @shown[i]; returns the width of the flex column (0 if none is shown),
 * which absorbs the remaining space.
 */
int nl_tui_layout(const struct nl_tui_col *cols, int n, int width, bool *shown);

/*
 * Copy @src (cleaned text, names.h) into @dst (room for 4 * @width + 1
 * bytes) fitted to exactly @width cells: padded with spaces, or cut on a
 * character boundary with '~' marking the cut. @keep_tail keeps the end
 * ("~ork/a", for paths), otherwise the start. Returns @dst.
 */
char *nl_layout_fit(char *dst, const char *src, int width, bool left, bool keep_tail);

#endif /* NL_TUI_LAYOUT_H */
