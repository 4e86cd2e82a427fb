/*
 * scx_smoke loader: attach the scx_smoke sched_ext scheduler, wait until the
 * kernel says it is enabled, keep it for a while, detach, and check the
 * kernel went back to "disabled".
 *
 *   scx_smoke [-t SECONDS] [-r READY_FILE]
 * -t: how long to stay attached (default 2; SIGINT/SIGTERM end it early);
 * -r: write "attached\n" to READY_FILE once the state is "enabled".
 * Prints "key=value" lines (state_before=, state_attached=, nr_enqueued=,
 * init_called=, state_detached=, exit_called=, exit_kind=); exit 0 when attach and detach both worked,
 * 1 with "scx_smoke: error: ..." otherwise, 2 on bad usage.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "scx_smoke.skel.h"

#define STATE "/sys/kernel/sched_ext/state"

static volatile sig_atomic_t stop;
static void on_sig(int s) { (void)s; stop = 1; }

/* read_state: the first word of /sys/kernel/sched_ext/state into buf. */
static const char *read_state(char *buf, size_t len)
{
	FILE *f = fopen(STATE, "r");
	if (!f || !fgets(buf, (int)len, f))
		snprintf(buf, len, "unreadable");
	else
		buf[strcspn(buf, "\n")] = 0;
	if (f)
		fclose(f);
	return buf;
}

/* wait_state: poll until the state is want or secs pass; 0 if reached. */
static int wait_state(const char *want, double secs, char *buf, size_t len)
{
	for (int i = 0; i < secs * 100; i++) {
		if (!strcmp(read_state(buf, len), want))
			return 0;
		usleep(10000);
	}
	return -1;
}

static int fail(const char *what, int err)
{
	fprintf(stderr, "scx_smoke: error: %s%s%s\n", what, err ? ": " : "", err ? strerror(err) : "");
	return 1;
}

int main(int argc, char **argv)
{
	double secs = 2;
	const char *ready = NULL;
	char st[64];
	int c;

	while ((c = getopt(argc, argv, "t:r:h")) != -1) {
		if (c == 't')
			secs = atof(optarg);
		else if (c == 'r')
			ready = optarg;
		else {
			fprintf(stderr, "usage: scx_smoke [-t SECONDS] [-r READY_FILE]\n");
			return 2;
		}
	}
	if (access(STATE, R_OK))
		return fail("no " STATE " (kernel without CONFIG_SCHED_CLASS_EXT?)", errno);
	printf("state_before=%s\n", read_state(st, sizeof(st)));

	struct scx_smoke *skel = scx_smoke__open_and_load();
	if (!skel)
		return fail("open/load of the BPF scheduler failed", errno);
	if (scx_smoke__attach(skel))
		return fail("attaching the struct_ops failed", errno);
	if (wait_state("enabled", 5, st, sizeof(st)))
		return fail("state did not become \"enabled\" within 5 s", 0);
	printf("state_attached=%s\n", st);
	fflush(stdout);
	if (ready) {
		FILE *f = fopen(ready, "w");
		if (f) {
			fputs("attached\n", f);
			fclose(f);
		}
	}

	signal(SIGINT, on_sig);
	signal(SIGTERM, on_sig);
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		usleep(20000);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (!stop && (t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 < secs);

	printf("nr_enqueued=%llu\ninit_called=%u\n",
	       (unsigned long long)skel->bss->nr_enqueued, skel->bss->init_called);
	/* Destroying the link detaches the scheduler; the maps stay readable. */
	bpf_link__destroy(skel->links.smoke_ops);
	skel->links.smoke_ops = NULL;
	if (wait_state("disabled", 5, st, sizeof(st)))
		return fail("state did not return to \"disabled\" within 5 s", 0);
	printf("state_detached=%s\nexit_called=%u\nexit_kind=%d\n", st,
	       skel->bss->exit_called, skel->bss->exit_kind);
	scx_smoke__destroy(skel);
	return 0;
}
