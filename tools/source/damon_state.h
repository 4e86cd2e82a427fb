/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Which DAMON kdamonds a numalens agent created: one state file per
 * kdamond, NL_DAMON_STATE_DIR/damon-<index>.state, holding the creator's
 * pid and start time (/proc/PID/stat field 22, clock ticks after boot) and
 * the boot id. A kdamond whose file names a process that no longer runs
 * (a killed agent) is ours to clean up; a kdamond without a file, or whose
 * agent still runs, belongs to someone else and is never touched.
 * Errors are negative errno values.
 */
#ifndef NL_DAMON_STATE_H
#define NL_DAMON_STATE_H

#include <stdbool.h>
#include <stddef.h>

#define NL_DAMON_STATE_DIR "/run/numalens"

/* Record that this process created kdamond @idx (directory @dir, NULL for
 * NL_DAMON_STATE_DIR, made if missing). 0 or -errno. */
int nl_damon_state_record(const char *dir, int idx);

/* Remove the record of kdamond @idx (after this process removed it, or
 * cleaned up an orphan). */
void nl_damon_state_forget(const char *dir, int idx);

/*
 * True when kdamond @idx was created by a numalens agent that is gone (its
 * pid is not running, or runs another process: its start time differs).
 * @who gets "pid P" for the log. False when there is no record, it was
 * made before the last boot, or its agent still runs.
 */
bool nl_damon_state_orphan(const char *dir, int idx, char *who, size_t len);

#endif
