// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Can this terminal show the full-screen view? Apart from view_tui.c
 * because <term.h> defines every terminfo capability name as a macro
 * ("lines", "columns", ...), which would clash with ordinary names there.
 */
#include <curses.h>
#include <stdlib.h>
#include <term.h>
#include "view_tui.h"

bool nl_tui_term_usable_as(const char *term)
{
	int err = 0;
	bool ok;

	if (!term || !*term)
		return false;
	/* a throwaway terminfo load: no screen is set up, nothing is drawn */
	if (setupterm((char *)term, -1, &err) != OK)
		return false;
	ok = tigetstr("cup") && tigetstr("cup") != (char *)-1 && tigetflag("hc") != 1;
	del_curterm(cur_term);
	cur_term = NULL;
	return ok;
}

bool nl_tui_term_usable(void)
{
	return nl_tui_term_usable_as(getenv("TERM"));
}

