// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Shared pieces of the numalens subcommands; see cli.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cgroup.h"
#include "cli.h"
#include "names.h"
#include "topology.h"

volatile sig_atomic_t nl_stop_req;

static void on_signal(int sig)
{
	(void)sig;
	nl_stop_req = 1;
}

void nl_cli_install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	/* no SA_RESTART: blocking calls return EINTR so loops see the flag */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

const char *nl_cli_shown(const char *s)
{
	static char buf[4][512];
	static unsigned turn;
	char *out = buf[turn++ % 4];

	nl_name_clean(out, sizeof(buf[0]), s, strlen(s), 0, NULL);
	return out;
}

long nl_cli_parse_long(const char *s, long lo, long hi, const char *what, struct argp_state *st)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		argp_failure(st, NL_EXIT_USAGE, 0, "%s must be a whole number from %ld to %ld, not '%s'",
			     what, lo, hi, nl_cli_shown(s));
	return v;
}

uint32_t nl_cli_parse_alloc_sample(const char *s, struct argp_state *st)
{
	if (!strcmp(s, "auto"))
		return 0;
	if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 5 || atol(s) < 1 || atol(s) > 65536)
		argp_failure(st, NL_EXIT_USAGE, 0, "--alloc-sample takes auto or a whole number from 1 to 65536, not '%s'",
			     nl_cli_shown(s));
	return (uint32_t)atol(s);
}

double nl_cli_parse_seconds(const char *s, double lo, double hi, const char *what,
			    struct argp_state *st)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	/* written so that NaN fails too; strtod's hex, inf and nan forms are
	 * not how anyone writes seconds, so they are refused as typos */
	if (errno || end == s || *end || strpbrk(s, "xXnN") || !(v >= lo && v <= hi))
		argp_failure(st, NL_EXIT_USAGE, 0, "%s takes seconds from %g to %g, not '%s'",
			     what, lo, hi, nl_cli_shown(s));
	return v;
}

void nl_cli_check_cgroup_path(char *s, const char *what, struct argp_state *st)
{
	const char *c = s;
	char *w = s;
	char shown[512];	/* the argument as echoed: cleaned, no escape sequences */

	nl_name_clean(shown, sizeof(shown), s, strlen(s), 0, NULL);
	if (s[0] != '/')
		argp_failure(st, NL_EXIT_USAGE, 0,
			     "%s takes a cgroup path starting with '/' (relative to the cgroup mount), "
			     "e.g. /system.slice, not '%s'", what, shown);
	/* "." and ".." components would name another cgroup than the one
	 * matched textually, or one outside the mount */
	while ((c = strchr(c, '/'))) {
		size_t n = strcspn(++c, "/");

		if ((n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.'))
			argp_failure(st, NL_EXIT_USAGE, 0,
				     "%s: '%s' has a '.' or '..' component: give the cgroup's own path", what, shown);
	}
	/* "//a//b/" names /a/b: collapse repeated slashes, drop a trailing one,
	 * so that every view compares the path the way the kernel resolves it */
	for (const char *r = s; *r; r++)
		if (*r != '/' || w == s || w[-1] != '/')
			*w++ = *r;
	if (w > s + 1 && w[-1] == '/')
		w--;
	*w = '\0';
}

int nl_cli_parse_cg_mode(const char *s, struct argp_state *st)
{
	if (!strcmp(s, "auto"))
		return -1;
	if (!strcmp(s, "v2"))
		return NL_CG_V2;
	if (!strcmp(s, "v1-memory"))
		return NL_CG_V1_MEMORY;
	argp_failure(st, NL_EXIT_USAGE, 0,
		     "--cgroup-hierarchy takes auto, v2 or v1-memory, not '%s'", nl_cli_shown(s));
	return -1;
}

void nl_cli_add_seconds(struct timespec *t, double s)
{
	long ns = (long)(s * 1e9);

	t->tv_sec += ns / 1000000000L;
	t->tv_nsec += ns % 1000000000L;
	if (t->tv_nsec >= 1000000000L) {
		t->tv_sec++;
		t->tv_nsec -= 1000000000L;
	}
}

void nl_cli_rebase(struct timespec *deadline)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec > deadline->tv_sec ||
	    (now.tv_sec == deadline->tv_sec && now.tv_nsec > deadline->tv_nsec))
		*deadline = now;
}

void nl_cli_sleep_until(struct timespec *deadline)
{
	while (!nl_stop_req &&
	       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, deadline, NULL) == EINTR)
		;
	nl_cli_rebase(deadline);
}

int nl_cli_cgroup_root_check(const char *prog, const char *root)
{
	if (nl_mount_is_root(root) != 0)
		return 0;
	fprintf(stderr, "%s: %s is not the top of its cgroup hierarchy (a container's own cgroup mount): "
		"mount the host's /sys/fs/cgroup there to see the host's cgroups\n", prog, root);
	return NL_EXIT_USAGE;
}

/* A cgroup the user named (-c) must exist under the mount; one given with
 * the mount point in front gets the path meant. Returns 0 or the exit
 * status after saying why. */
static int check_cgroup_arg(const struct nl_cli_session *s, const struct nl_cli_open_opts *o)
{
	char full[4608];	/* mount point + a path of up to PATH_MAX */
	char asked[512];
	size_t rl = strlen(s->root);

	if (!o->cgroup || !o->cgroup[0] || !s->root[0])
		return 0;
	snprintf(full, sizeof(full), "%s%s", s->root, o->cgroup);
	if (!access(full, F_OK))
		return 0;
	nl_name_clean(asked, sizeof(asked), o->cgroup, strlen(o->cgroup), 0, NULL);
	/* a path with the mount point in front: name the one meant,
	 * when that one exists */
	snprintf(full, sizeof(full), "%s%s", s->root, o->cgroup + (strlen(o->cgroup) > rl ? rl : 0));
	if (!strncmp(asked, s->root, rl) && asked[rl] == '/' && !access(full, F_OK))
		fprintf(stderr, "%s: no cgroup %s under %s: paths are relative to that mount, "
			"try %s\n", o->prog, asked, s->root, asked + rl);
	else
		fprintf(stderr, "%s: no cgroup %s under %s: paths are relative to that mount\n",
			o->prog, asked, s->root);
	return NL_EXIT_USAGE;
}

int nl_cli_open(struct nl_cli_session *s, const struct nl_cli_open_opts *o)
{
	struct nl_bpf_opts bo = {};
	struct nl_collect_opts co = { .sysfs_root = "/sys", .procfs_root = "/proc" };
	char err[512] = "";
	int rc, e;

	memset(s, 0, sizeof(*s));
	if (nl_topo_node_limit_check("/sys", err, sizeof(err)) < 0) {
		fprintf(stderr, "%s: %s\n", o->prog, err);
		return NL_EXIT_USAGE;
	}
	s->mode = NL_CG_V2;
	e = nl_mount_detect("/proc/self/mounts", &s->mode, s->root, sizeof(s->root));
	if (e) {
		fprintf(stderr, "%s: no cgroup hierarchy is mounted: cgroup figures are off\n", o->prog);
		s->mode = NL_CG_V2;
	}
	if (o->cg_mode >= 0 && o->cg_mode != (int)s->mode) {
		/* the user's choice: find that hierarchy's mount */
		e = nl_mount_find("/proc/self/mounts", o->cg_mode, s->root, sizeof(s->root));
		if (e) {
			fprintf(stderr, "%s: no %s cgroup hierarchy is mounted: use --cgroup-hierarchy=auto\n",
				o->prog, o->cg_mode == NL_CG_V2 ? "cgroup v2" : "v1 memory");
			return NL_EXIT_USAGE;
		}
		s->mode = (enum nl_cgroup_mode)o->cg_mode;
	}
	if (s->root[0] && (rc = nl_cli_cgroup_root_check(o->prog, s->root)))
		return rc;
	rc = check_cgroup_arg(s, o);
	if (rc)
		return rc;
	bo.cgroup_mode = s->mode;
	bo.track_class = o->track_class;
	bo.verbose = o->verbose;
	bo.vmscan_only = o->vmscan_only;
	bo.btf_path = o->btf;
	bo.self_cost = o->self_cost;
	rc = nl_bpf_open(&s->bpf, &bo, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "%s: %s\n", o->prog, err);
		return rc;
	}
	co.cgroup_mode = s->mode;
	co.cgroup_root = s->root;
	co.cgroup_grace = o->cgroup_grace;
	co.watch_pid = o->watch_pid;
	co.all_procs = o->all_procs;
	co.rss_max_procs = o->rss_max_procs;
	co.alloc_latency_sample = o->alloc_latency_sample;
	co.alloc_stacks_sample = o->alloc_stacks_sample;
	co.page_life_sample = o->page_life_sample;
	co.alloc_sample = o->alloc_sample;
	e = nl_collect_open(&s->col, &s->bpf, &co, err, sizeof(err));
	if (e) {
		fprintf(stderr, "%s: %s\n", o->prog, err);
		nl_bpf_close(&s->bpf);
		return NL_EXIT_FAIL;
	}
	return NL_EXIT_OK;
}

void nl_cli_close(struct nl_cli_session *s)
{
	nl_collect_close(s->col);
	s->col = NULL;
	nl_bpf_close(&s->bpf);
}
