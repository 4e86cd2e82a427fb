// SPDX-License-Identifier: GPL-2.0
/*
 * nlpty: run a full-screen program on a pseudo-terminal of a given size and
 * keep every byte it draws, for tests in the VM guest (which has no tmux or
 * script(1)): the host replays the bytes into tmux at the same size and
 * reads the screen back (tests/vm/tests/top_pictures.host).
 *
 *   nlpty -r ROWS -c COLS -o FILE [-w TEXT] [-k SECONDS:KEYS]... -t SECONDS -- CMD [ARG...]
 *
 * -w TEXT: the clock of -k and -t starts when CMD has drawn TEXT (a slow
 * start, such as BPF verification in an emulated guest, then costs no
 * keys); if it never does within 300 s, nlpty ends CMD and exits 1.
 * -k types KEYS (bytes as given) into the terminal SECONDS after the start;
 * -t ends the run: what CMD draws after SECONDS is not saved (so the file
 * ends on the screen as it was, not on the program restoring the
 * terminal as it exits), and CMD gets SIGTERM, SIGKILL 2 s later. Exit 0
 * when CMD ran until then and its output was saved; 1 on a failed call,
 * when CMD ended before drawing TEXT, or when it exited non-zero by
 * itself; 2 bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define MAX_KEYS 32

struct key_at {
	double at;
	const char *keys;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(int code, const char *what)
{
	fprintf(stderr, "nlpty: %s: %s\n", what, strerror(errno));
	exit(code);
}

static void usage(void)
{
	fprintf(stderr, "usage: nlpty -r ROWS -c COLS -o FILE [-w TEXT] [-k SECONDS:KEYS]... -t SECONDS -- CMD [ARG...]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct key_at keys[MAX_KEYS];
	int nkeys = 0, rows = 0, cols = 0, opt, master, out, status = 0;
	double limit = 0, t0, killed_at = 0, started;
	const char *path = NULL, *wait_text = NULL;
	/* -w: the last strlen(TEXT) - 1 bytes read, then the newest read, so
	 * TEXT is found whole or split over two reads */
	char scan[8192 + 2048];	/* 8192: the read buffer below */
	size_t carry = 0;
	pid_t child;

	while ((opt = getopt(argc, argv, "r:c:o:k:t:w:")) != -1) {
		switch (opt) {
		case 'w': wait_text = optarg; break;
		case 'r': rows = atoi(optarg); break;
		case 'c': cols = atoi(optarg); break;
		case 'o': path = optarg; break;
		case 't': limit = atof(optarg); break;
		case 'k': {
			char *colon = strchr(optarg, ':');

			if (!colon || nkeys == MAX_KEYS)
				usage();
			*colon = '\0';
			keys[nkeys].at = atof(optarg);
			keys[nkeys++].keys = colon + 1;
			break;
		}
		default: usage();
		}
	}
	if (rows < 2 || cols < 2 || !path || limit <= 0 || optind >= argc ||
	    (wait_text && (!*wait_text || strlen(wait_text) > 2048)))
		usage();
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0)
		die(1, path);
	master = posix_openpt(O_RDWR | O_NOCTTY);
	if (master < 0 || grantpt(master) || unlockpt(master))
		die(1, "posix_openpt");
	struct winsize ws = { .ws_row = (unsigned short)rows, .ws_col = (unsigned short)cols };

	if (ioctl(master, TIOCSWINSZ, &ws))
		die(1, "TIOCSWINSZ");
	child = fork();
	if (child < 0)
		die(1, "fork");
	if (child == 0) {
		const char *name = ptsname(master);
		int slave;

		setsid();
		slave = name ? open(name, O_RDWR) : -1;
		if (slave < 0)
			die(1, "open the terminal");
		ioctl(slave, TIOCSCTTY, 0);
		dup2(slave, 0);
		dup2(slave, 1);
		dup2(slave, 2);
		if (slave > 2)
			close(slave);
		close(master);
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "nlpty: %s: %s\n", argv[optind], strerror(errno));
		_exit(127);
	}
	started = t0 = now_s();
	if (wait_text)
		t0 = -1;	/* not yet */
	for (;;) {
		struct pollfd p = { .fd = master, .events = POLLIN };
		char buf[8192];
		double el = t0 < 0 ? 0 : now_s() - t0;

		if (t0 < 0 && now_s() - started > 300) {
			fprintf(stderr, "nlpty: '%s' not drawn in 300 s\n", wait_text);
			kill(child, SIGKILL);
			waitpid(child, &status, 0);
			return 1;
		}
		if (t0 < 0) {
			/* nothing is typed and no time runs before TEXT */
			goto io;
		}

		for (int i = 0; i < nkeys; i++)
			if (keys[i].keys && el >= keys[i].at) {
				if (write(master, keys[i].keys, strlen(keys[i].keys)) < 0)
					die(1, "typing");
				keys[i].keys = NULL;
			}
		if (el >= limit && !killed_at) {
			/* what was drawn before the end is kept: drain it first */
			ssize_t n;

			while (poll(&p, 1, 0) > 0 && (n = read(master, buf, sizeof(buf))) > 0)
				if (write(out, buf, (size_t)n) != n)
					die(1, path);
			kill(child, SIGTERM);
			killed_at = el;
		}
		if (killed_at && el >= killed_at + 2)
			kill(child, SIGKILL);
io:
		if (poll(&p, 1, 50) > 0) {
			ssize_t n = read(master, buf, sizeof(buf));

			if (n < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			/* 0 or EIO: the child closed its side */
			if (n <= 0)
				break;
			if (!killed_at && write(out, buf, (size_t)n) != n)
				die(1, path);
			if (t0 < 0) {
				size_t w = strlen(wait_text);

				memcpy(scan + carry, buf, (size_t)n);
				if (memmem(scan, carry + (size_t)n, wait_text, w))
					t0 = now_s();
				/* keep the last w - 1 bytes for the next read */
				size_t keep = carry + (size_t)n < w - 1 ? carry + (size_t)n : w - 1;

				memmove(scan, scan + carry + (size_t)n - keep, keep);
				carry = keep;
			}
		}
		if (waitpid(child, &status, WNOHANG) == child) {
			/* what it drew last, before the end, is still in the terminal */
			ssize_t n;

			while (!killed_at && poll(&p, 1, 0) > 0 && (n = read(master, buf, sizeof(buf))) > 0)
				if (write(out, buf, (size_t)n) != n)
					die(1, path);
			child = 0;
			break;
		}
	}
	if (child)
		waitpid(child, &status, 0);
	close(out);
	if (wait_text && t0 < 0) {
		fprintf(stderr, "nlpty: %s ended before drawing '%s'\n", argv[optind], wait_text);
		return 1;
	}
	/* a program that ended by itself with an error (not our SIGTERM) */
	if (!killed_at && WIFEXITED(status) && WEXITSTATUS(status)) {
		fprintf(stderr, "nlpty: %s exited %d\n", argv[optind], WEXITSTATUS(status));
		return 1;
	}
	return 0;
}
