/*
 * verify_stats: the verifier's cost of each BPF program, on the running
 * kernel, as a table (make verify).
 *
 *   verify_stats OBJ.bpf.o...
 *
 * Each object is loaded with the verifier's statistics log (log level 4)
 * for every program, then closed. A program that does not load here (a
 * hook this kernel lacks, a kernel without sched_ext) is set aside with its
 * reason and the object loaded again without it, so the other programs are
 * still measured; each load parses the kernel's BTF once, which is what
 * takes the time in a TCG guest. One line per program:
 *   object  program  type  insns  verified  states  peak  time_us  status
 * insns is the program's size, verified the instructions the verifier
 * walked (the kernel's limit is 1,000,000; bpf_prog_info.verified_insns,
 * else the log's "processed N insns"), states / peak its total and peak
 * states, time_us its "verification time"; status "ok" or
 * "does not load here: <the verifier's last messages>".
 * Exit: 0 whatever loaded; 2 bad usage or an object that cannot be opened.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PROGS 128
#define LOG_SZ (64 << 10)	/* level 4 logs are a few lines; errors a few more */

/* What one program of an object got. */
struct row {
	char name[64], type[24];
	size_t insns;
	long long verified, states, peak, time_us;
	bool ok, skip;		/* skip: set aside, not loaded again */
	char why[200];		/* reason when it does not load */
};

static char logs[MAX_PROGS][LOG_SZ];
/* The first program libbpf warned about in a load, and its message: a
 * program can fail before the verifier sees it (no kernel BTF for its
 * tp_btf target: -ESRCH), and then it has no verifier log. */
static char warned_prog[64], warned_msg[200];

/* note_warning: libbpf's messages are not printed; the first "prog 'NAME':"
 * warning of a load is kept to name the program that failed. */
static int note_warning(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char buf[512], *q, *e;

	if (level != LIBBPF_WARN || warned_prog[0])
		return 0;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	q = strstr(buf, "prog '");
	if (!q || !(e = strchr(q + 6, '\'')))
		return 0;
	snprintf(warned_prog, sizeof(warned_prog), "%.*s", (int)(e - q - 6), q + 6);
	e += e[1] == ':' ? 2 : 1;
	while (*e == ' ')
		e++;
	snprintf(warned_msg, sizeof(warned_msg), "%s", e);
	if ((q = strchr(warned_msg, '\n')))
		*q = 0;
	return 0;
}

/* log_num: the number after key in log, or -1. */
static long long log_num(const char *log, const char *key)
{
	const char *p = strstr(log, key);
	return p ? strtoll(p + strlen(key), NULL, 10) : -1;
}

/* why_failed: the verifier's reason from log into out: its last two
 * message lines, skipping the statistics (log level 4 ends with those), the
 * source lines ("; ...") and the instructions ("12: (79) ..."). */
static void why_failed(char *log, char *out, size_t len)
{
	static const char *const stats[] = { "processed ", "verification time ", "stack depth ", NULL };
	const char *last[2] = { "", "" };
	char *line, *save = NULL;

	for (line = strtok_r(log, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		bool skip = !line[0] || line[0] == ';' || (line[0] >= '0' && line[0] <= '9');
		for (int i = 0; stats[i]; i++)
			skip |= strncmp(line, stats[i], strlen(stats[i])) == 0;
		if (!skip)
			last[0] = last[1], last[1] = line;
	}
	snprintf(out, len, "%s%s%s", last[0], *last[0] ? " / " : "", last[1]);
}

/* attempt: open path, load every program not set aside, fill rows. Returns
 * 0 when the object loaded, 1 when a program or map was set aside (try
 * again), -1 when nothing more can be learned, -2 when it cannot be opened. */
static int attempt(const char *path, struct row *rows, int *n)
{
	struct bpf_object *obj = bpf_object__open_file(path, NULL);
	struct bpf_program *p;
	struct bpf_map *m;
	bool need_sops = false;
	int i = 0, err, ret;

	if (!obj) {
		fprintf(stderr, "verify_stats: cannot open %s: %s\n", path, strerror(errno));
		return -2;
	}
	bpf_object__for_each_program(p, obj) {
		struct row *r = &rows[i];
		if (i >= MAX_PROGS)
			break;
		snprintf(r->name, sizeof(r->name), "%s", bpf_program__name(p));
		snprintf(r->type, sizeof(r->type), "%s", libbpf_bpf_prog_type_str(bpf_program__type(p)) ?: "?");
		r->insns = bpf_program__insn_cnt(p);
		bpf_program__set_autoload(p, !r->skip);
		need_sops |= !r->skip && bpf_program__type(p) == BPF_PROG_TYPE_STRUCT_OPS;
		logs[i][0] = 0;
		bpf_program__set_log_buf(p, logs[i], LOG_SZ);
		bpf_program__set_log_level(p, 4);	/* BPF_LOG_STATS */
		i++;
	}
	*n = i;
	/* a struct_ops map needs its kernel type (sched_ext_ops): without the
	 * struct_ops programs it is not created, so that the object's other
	 * programs are still measured on a kernel without that type */
	bpf_object__for_each_map(m, obj)
		if (bpf_map__type(m) == BPF_MAP_TYPE_STRUCT_OPS)
			bpf_map__set_autocreate(m, need_sops);
	warned_prog[0] = 0;
	err = bpf_object__load(obj);
	if (!err) {
		i = 0;
		bpf_object__for_each_program(p, obj) {
			struct row *r = &rows[i];
			struct bpf_prog_info info = { 0 };
			__u32 len = sizeof(info);

			if (i >= MAX_PROGS)
				break;
			if (!r->skip) {
				r->ok = true;
				r->verified = log_num(logs[i], "processed ");
				if (!bpf_prog_get_info_by_fd(bpf_program__fd(p), &info, &len) && info.verified_insns)
					r->verified = info.verified_insns;
				r->states = log_num(logs[i], "total_states ");
				r->peak = log_num(logs[i], "peak_states ");
				r->time_us = log_num(logs[i], "verification time ");
			}
			i++;
		}
		ret = 0;
	} else {
		/* the program that failed: the one libbpf warned about (before
		 * or in the verifier), else the last one with a verifier log
		 * (programs load in order); none means a map failed first */
		int bad = -1;
		for (int k = 0; k < *n && warned_prog[0]; k++)
			if (!rows[k].skip && !strcmp(rows[k].name, warned_prog))
				bad = k;
		for (int k = 0; k < *n && bad < 0 && !warned_prog[0]; k++)
			if (!rows[k].skip && logs[k][0])
				bad = k;
		ret = 1;
		if (bad >= 0) {
			rows[bad].skip = true;
			why_failed(logs[bad], rows[bad].why, sizeof(rows[bad].why));
			if (!rows[bad].why[0])
				snprintf(rows[bad].why, sizeof(rows[bad].why), "%s",
					 warned_msg[0] ? warned_msg : strerror(-err));
		} else if (need_sops) {
			for (int k = 0; k < *n; k++)
				if (!rows[k].skip && !strcmp(rows[k].type, "struct_ops")) {
					rows[k].skip = true;
					snprintf(rows[k].why, sizeof(rows[k].why), "%s",
						 err == -ESRCH ? "the kernel has no type for its struct_ops map (no sched_ext?)"
							       : strerror(-err));
				}
		} else {
			for (int k = 0; k < *n; k++)
				if (!rows[k].skip) {
					rows[k].skip = true;
					snprintf(rows[k].why, sizeof(rows[k].why), "the object failed: %s", strerror(-err));
				}
			ret = -1;
		}
	}
	bpf_object__close(obj);
	return ret;
}

/* object: measure every program of path and print its rows. 0, or -2 when
 * it cannot be opened. */
static int object(const char *path)
{
	static struct row rows[MAX_PROGS];
	const char *base = strrchr(path, '/');
	int n = 0, r;

	memset(rows, 0, sizeof(rows));
	do
		r = attempt(path, rows, &n);
	while (r == 1);
	if (r == -2)
		return -2;
	for (int i = 0; i < n; i++) {
		struct row *w = &rows[i];
		printf("%-18s %-28s %-14s %6zu ", base ? base + 1 : path, w->name, w->type, w->insns);
		if (w->ok)
			printf("%9lld %7lld %6lld %9lld  ok\n", w->verified, w->states, w->peak, w->time_us);
		else
			printf("%9s %7s %6s %9s  does not load here: %s\n", "-", "-", "-", "-", w->why);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: verify_stats OBJ.bpf.o... (loads each object's programs; needs root)\n");
		return 2;
	}
	libbpf_set_print(note_warning);
	printf("%-18s %-28s %-14s %6s %9s %7s %6s %9s  %s\n", "object", "program", "type", "insns",
	       "verified", "states", "peak", "time_us", "status");
	for (int a = 1; a < argc; a++)
		if (object(argv[a]) == -2)
			return 2;
	return 0;
}
