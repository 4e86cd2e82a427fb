// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The TUI's table layout, pure functions (tui_layout.h). */
#include <stdio.h>
#include "names.h"
#include "tui_layout.h"

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

char *nl_layout_fit(char *dst, const char *src, int width, bool left, bool keep_tail)
{
	size_t room = 4 * (size_t)(width > 0 ? width : 0) + 1, n;
	int used;

	if (width <= 0) {
		dst[0] = '\0';
		return dst;
	}
	if (nl_name_text_cols(src) <= width)
		return nl_name_text_pad(dst, room, src, width, left);
	/* cut by terminal cells, not bytes: a name's characters may take
	 * several bytes (and a wide one two cells, hence the padding) */
	if (width == 1) {
		snprintf(dst, room, "~");
	} else if (keep_tail) {
		size_t at = nl_name_text_tail(src, width - 1, &used);

		snprintf(dst, room, "~%*s%s", width - 1 - used, "", src + at);
	} else {
		n = nl_name_text_head(src, width - 1, &used);
		snprintf(dst, room, "%.*s%*s~", (int)n, src, width - 1 - used, "");
	}
	return dst;
}
