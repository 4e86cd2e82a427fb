/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The one rule by which names from the kernel (process comm, cgroup paths)
 * become text every output can carry: JSON, Prometheus labels, the batch
 * text view and the TUI print the cleaned name, so a name reads the same in
 * each. The kernel takes any bytes here (prctl(PR_SET_NAME), mkdir), while
 * JSON and Prometheus need valid UTF-8 and a terminal must not receive
 * escape sequences.
 *
 * The rule, per character of the input:
 *  - valid UTF-8 (RFC 3629) that is not a control character: copied;
 *  - a control character (C0 0x00-0x1f, DEL 0x7f, C1 U+0080-U+009F):
 *    written as "\xHH" for each of its bytes (tab -> "\x09",
 *    ESC -> "\x1b", U+009B -> "\xc2\x9b");
 *  - a byte that does not start a valid UTF-8 sequence: U+FFFD, one per
 *    byte;
 *  - with NL_NAME_MAYBE_CUT (a comm the kernel cut to 15 bytes): an
 *    incomplete but so far valid multi-byte character at the very end is
 *    the kernel's cut, not bad data, and is dropped.
 * Backslashes are copied as they are (cgroup paths of systemd units hold
 * "\x2d" escapes of their own). The output is valid UTF-8 without control
 * characters, so cleaning it again changes nothing.
 */
#ifndef NL_NAMES_H
#define NL_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes a cleaned comm can take: 15 bytes, each at most 4 ("\xHH"), + NUL. */
#define NL_NAME_MAX 64
/* Bytes of a kernel comm without its NUL (TASK_COMM_LEN - 1). */
#define NL_COMM_BYTES 15

#define NL_NAME_MAYBE_CUT 1u	/* the input may end inside a character */

/* nl_name_utf8_seq - length (1-4) of the valid UTF-8 character at @s of @avail
 * bytes, 0 if @s does not start one (RFC 3629: no overlong forms, no
 * surrogates, nothing past U+10FFFF), or -n when the n available bytes are
 * a valid but incomplete start of one. */
int nl_name_utf8_seq(const unsigned char *s, size_t avail);

/* nl_name_clean - clean @inlen bytes of @in into @out (@outlen bytes, may
 * be 0 with @out NULL) by the rule above. Writes only whole cleaned
 * characters and always NUL-terminates when @outlen > 0. Returns the length
 * of the whole cleaned text (like snprintf: >= @outlen means it was cut).
 * @altered, if not NULL, is set when the text differs from @in. */
size_t nl_name_clean(char *out, size_t outlen, const char *in, size_t inlen, unsigned flags,
		     bool *altered);

/* nl_name_comm_clean - clean the kernel comm @comm (NUL-terminated, as read
 * from /proc/PID/comm or a BPF map) into @out of NL_NAME_MAX bytes; a comm
 * of the full 15 bytes may have been cut inside a character by the kernel. */
void nl_name_comm_clean(char out[NL_NAME_MAX], const char *comm);

/* nl_name_text_cols - terminal columns of the cleaned (valid UTF-8) text @s:
 * one per character, two for East Asian wide ones. */
int nl_name_text_cols(const char *s);

/* nl_name_text_head - bytes of the longest head of the cleaned text @s that
 * takes at most @cols columns and ends on a character boundary; its
 * width goes to @used if not NULL. */
size_t nl_name_text_head(const char *s, int cols, int *used);

/* nl_name_text_tail - byte offset in @s of the shortest tail that takes at
 * most @cols columns and starts on a character boundary; its width goes
 * to @used if not NULL. */
size_t nl_name_text_tail(const char *s, int cols, int *used);

/* nl_name_text_pad - copy the cleaned text @s into @out (@outlen bytes), cut to
 * @cols columns on a character boundary and padded with spaces to exactly
 * @cols columns (on the right when @left, else on the left). Returns @out. */
char *nl_name_text_pad(char *out, size_t outlen, const char *s, int cols, bool left);

/* nl_name_path_label - cgroup @path as a label in @out (@len bytes, the
 * snapshot's fixed buffers), cleaned by the rule above. A path that does
 * not fit keeps its head, cut on a character boundary; a cut or altered
 * path ends in "...#<id>" (cut) or "#<id>" (altered, @id its cgroup id),
 * so two cgroups never share a label (export series and JSON keys would
 * collide). Returns true if the label is not the path itself. */
bool nl_name_path_label(char *out, size_t len, const char *path, uint64_t id);

#endif /* NL_NAMES_H */
