// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* view_text: render the fixture to memory and check the printed figures. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "snapshot_fixture.h"
#include "view_text.h"

static char *render(const struct nl_snapshot *s, const struct nl_view_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(nl_text_write(f, s, o), 0);
	fclose(f);
	return buf;
}

/* The line of @text that starts with @prefix (after leading blanks), copied
 * into @line; fails the test if there is none. */
static void find_line(const char *text, const char *prefix, char *line, size_t sz)
{
	for (const char *p = text; *p;) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		const char *q = p;

		while (*q == ' ' && q < p + n)
			q++;
		if (!strncmp(q, prefix, strlen(prefix))) {
			if (n >= sz)
				n = sz - 1;
			memcpy(line, p, n);
			line[n] = '\0';
			return;
		}
		p += n + (e ? 1 : 0);
	}
	fail_msg("no line starting with '%s' in:\n%s", prefix, text);
}

/* Split @line into whitespace-separated fields. Returns the count. */
static int fields(char *line, char **f, int max)
{
	int n = 0;

	for (char *t = strtok(line, " "); t && n < max; t = strtok(NULL, " "))
		f[n++] = t;
	return n;
}

static void test_header(void **state)
{
	struct nl_snapshot s;

	assert_int_equal(fix_build(&s, true), 0);
	char *out = render(&s, NULL);
	assert_non_null(strstr(out, "seq 7  2025-01-01T00:00:00.123Z  interval 2.000 s  kernel 6.18.44-test  page 4096 B"));
	assert_non_null(strstr(out, "numa_balancing=on"));
	assert_non_null(strstr(out, "missing: nothing"));
	assert_non_null(strstr(out, "pfn_unknown=4"));
	assert_non_null(strstr(out, "; freed after exit (normal): procs_evicted=2"));
	assert_null(strstr(out, "locality: unavailable"));
	free(out);
	nl_snapshot_free(&s);

	assert_int_equal(fix_build(&s, false), 0);
	out = render(&s, NULL);
	assert_non_null(strstr(out, "numa_balancing=off"));
	assert_non_null(strstr(out, "missing: locality: kernel.numa_balancing=0"));
	assert_non_null(strstr(out, "locality: unavailable in this session"));
	free(out);
	nl_snapshot_free(&s);
}

/* The opt-in sections: absent unless asked for; a site with its share,
 * kind, class and frames; a lifetime line per non-empty histogram with
 * its buckets; the reason when the kernel cannot. */
static void test_optin(void **state)
{
	struct nl_snapshot s;
	char *out;

	(void)state;
	assert_int_equal(fix_build(&s, true), 0);
	out = render(&s, NULL);
	assert_null(strstr(out, "ALLOC STACKS"));
	assert_null(strstr(out, "PAGE LIFETIME"));
	free(out);
	s.alloc_stacks.enabled = s.alloc_stacks.available = true;
	s.alloc_stacks.sample_every = 1;
	s.alloc_stacks.sampled = 400;
	s.alloc_stacks.nr = 1;
	s.alloc_stacks.top[0].events = 100;
	s.alloc_stacks.top[0].pages = 100;
	s.alloc_stacks.top[0].kind = NL_STK_REMOTE | NL_STK_MISS;
	s.alloc_stacks.top[0].class = NL_CLASS_MOVABLE;
	strcpy(s.alloc_stacks.top[0].gfp_names, "__GFP_MOVABLE");
	s.alloc_stacks.top[0].nr_frames = 1;
	strcpy(s.alloc_stacks.top[0].frames[0], "handle_mm_fault+0xec");
	s.page_life.enabled = true;
	strcpy(s.page_life.unavailable, "the kernel has no BTF tracepoint kmem:mm_page_free");
	out = render(&s, NULL);
	assert_non_null(strstr(out, "#1 100 sampled (25.0%) 100 pages  remote+miss  class movable  order 0  gfp __GFP_MOVABLE\n"
				    "    handle_mm_fault+0xec\n"));
	assert_non_null(strstr(out, "unavailable: the kernel has no BTF tracepoint kmem:mm_page_free"));
	free(out);
	s.page_life.available = true;
	s.page_life.hist[NL_LIFE_MOVABLE][20] = 5;	/* local movable, [1.05 ms, 2.1 ms) */
	s.page_life.sum_ns[NL_LIFE_MOVABLE] = 5 * 1500000;
	out = render(&s, NULL);
	assert_non_null(strstr(out, "local  movable            5 freed, mean 1.5ms: 1.05ms:5\n"));
	free(out);
	nl_snapshot_free(&s);
}

static void test_nodes(void **state)
{
	struct nl_snapshot s;
	char line[512], *f[32];

	assert_int_equal(fix_build(&s, true), 0);
	char *out = render(&s, NULL);
	find_line(out, "NODE ", line, sizeof(line));
	assert_int_equal(fields(line, f, 32), 17);
	assert_string_equal(f[15], "UNATTRIB");
	assert_string_equal(f[16], "RCLM/s");
	assert_string_equal(f[9], "LOCAL_NODE");
	assert_string_equal(f[10], "BPF_LOCAL");	/* beside LOCAL_NODE */
	assert_string_equal(f[11], "OTHER_NODE");
	assert_string_equal(f[12], "BPF_OTHER");
	find_line(out, "0 0-1", line, sizeof(line));
	assert_int_equal(fields(line, f, 32), 17);
	assert_string_equal(f[15], "12");	/* numastat_unattributed */
	assert_string_equal(f[16], "-");	/* reclaim: no vmscan program */
	assert_string_equal(f[2], "62.5");	/* CPU% */
	assert_string_equal(f[3], "2048.0");	/* used MiB */
	assert_string_equal(f[4], "6144.0");	/* free MiB */
	assert_string_equal(f[5], "4100");	/* numa_hit */
	assert_string_equal(f[6], "7");
	assert_string_equal(f[7], "9");
	assert_string_equal(f[8], "3");
	assert_string_equal(f[9], "4001");	/* local_node */
	assert_string_equal(f[10], "3990");	/* bpf local */
	assert_string_equal(f[11], "106");	/* other_node */
	assert_string_equal(f[12], "105");	/* bpf other */
	assert_string_equal(f[13], "911");
	assert_string_equal(f[14], "4321");
	find_line(out, "1 2-3", line, sizeof(line));
	fields(line, f, 32);
	assert_string_equal(f[2], "17.2");	/* 17.25 rounds to even */
	free(out);
	nl_snapshot_free(&s);
}

/* A node without online CPUs (memory-only, or its CPUs offlined) has no
 * busy figure: "-" for its CPUs and CPU%, never 0 or nan. */
static void test_node_without_cpus(void **state)
{
	struct nl_snapshot s;
	char line[512], *f[32];

	(void)state;
	assert_int_equal(fix_build(&s, true), 0);
	s.nodes[1].nr_cpus = 0;
	s.nodes[1].cpulist[0] = '\0';
	s.nodes[1].cpu_busy_pct = NAN;
	char *out = render(&s, NULL);
	find_line(out, "1 - ", line, sizeof(line));
	assert_int_equal(fields(line, f, 32), 17);
	assert_string_equal(f[1], "-");
	assert_string_equal(f[2], "-");
	assert_null(strstr(out, "nan"));
	free(out);
	nl_snapshot_free(&s);
}

static void test_procs(void **state)
{
	struct nl_snapshot s;
	char line[512], *f[32];

	assert_int_equal(fix_build(&s, true), 0);
	char *out = render(&s, NULL);
	assert_non_null(strstr(out, "PROCESSES  3 of 3 shown, sorted by CPU%"));
	find_line(out, "PID ", line, sizeof(line));
	assert_int_equal(fields(line, f, 32), 14);
	const char *head[] = { "PID", "COMM", "CPU%", "RUN%N0", "RUN%N1", "RSS_N0", "RSS_N1",
			       "LCL/s", "RMT/s", "RMT%", "LOCALITY", "MIGR", "MOVES", "CGROUP" };
	for (int i = 0; i < 14; i++)
		assert_string_equal(f[i], head[i]);

	find_line(out, "100 memhog", line, sizeof(line));
	assert_int_equal(fields(line, f, 32), 14);
	assert_string_equal(f[2], "150.0");
	assert_string_equal(f[3], "80.0");
	assert_string_equal(f[4], "20.0");
	assert_string_equal(f[5], "100.0");	/* 25600 pages * 4 KiB */
	assert_string_equal(f[6], "10.0");
	assert_string_equal(f[7], "1500.0");	/* 3000 pages / 2 s */
	assert_string_equal(f[8], "500.0");
	assert_string_equal(f[9], "25.0");
	assert_string_equal(f[10], "90.6%");
	assert_string_equal(f[11], "12");
	assert_string_equal(f[12], "4");
	assert_string_equal(f[13], "/work/a");

	find_line(out, "200 sleeper", line, sizeof(line));
	assert_int_equal(fields(line, f, 32), 14);
	assert_string_equal(f[2], "5.0");
	assert_string_equal(f[3], "0.0");
	assert_string_equal(f[4], "100.0");
	assert_string_equal(f[5], "-");		/* rss unknown: not 0 */
	assert_string_equal(f[6], "-");
	assert_string_equal(f[9], "n/a");	/* no allocations */
	assert_string_equal(f[10], "n/a");	/* no faults, balancing on */

	find_line(out, "300 remote", line, sizeof(line));
	fields(line, f, 32);
	assert_string_equal(f[5], "0.0");
	assert_string_equal(f[6], "2.0");
	assert_string_equal(f[9], "90.0");
	assert_string_equal(f[10], "18.8%");

	/* default order is CPU%: 100, 300, 200 */
	char *a = strstr(out, "100 memhog"), *b = strstr(out, "300 remote"), *c = strstr(out, "200 sleeper");
	assert_true(a < b && b < c);
	free(out);
	nl_snapshot_free(&s);

	/* balancing off: every locality reads "unavail" */
	assert_int_equal(fix_build(&s, false), 0);
	out = render(&s, NULL);
	find_line(out, "100 memhog", line, sizeof(line));
	fields(line, f, 32);
	assert_string_equal(f[10], "unavail");
	free(out);
	nl_snapshot_free(&s);
}

/* A name wider than its column is cut with "~" (as in the full-screen
 * view), never silently, and never pushes the columns after it: a comm
 * full of escapes (cleaned to "\\xHH", four columns a byte) and a cgroup
 * name over the column's 64. */
static void test_cut_names(void **state)
{
	struct nl_snapshot s;
	char line[2048], *f[48];

	(void)state;
	assert_int_equal(fix_build(&s, true), 0);
	nl_name_comm_clean(s.procs[0].comm, "\x1b\x1b\x1bmemhog");
	memset(s.cgroups[4].path, 'o', 100);
	s.cgroups[4].path[0] = '/';
	s.cgroups[4].path[100] = '\0';
	char *out = render(&s, NULL);

	find_line(out, "100 \\x1b", line, sizeof(line));
	assert_non_null(strstr(line, "100 \\x1b\\x1b\\x1bme~ "));
	assert_int_equal(fields(line, f, 48), 14);
	assert_string_equal(f[2], "150.0");	/* CPU% where it belongs */
	find_line(out, "ooo", line, sizeof(line));
	/* depth 1: two spaces, 61 columns of the name, "~", then the figures */
	assert_int_equal(strspn(line, " "), 2);
	assert_int_equal(strspn(line + 2, "o"), 61);
	assert_int_equal(line[63], '~');
	assert_int_equal(line[64], ' ');
	free(out);
	nl_snapshot_free(&s);
}

static void test_opts(void **state)
{
	struct nl_snapshot s;
	struct nl_view_opts o;

	assert_int_equal(fix_build(&s, true), 0);
	nl_view_opts_default(&o);
	o.top_n = 1;
	o.sort = NL_SORT_REMOTE_RATIO;
	char *out = render(&s, &o);
	assert_non_null(strstr(out, "PROCESSES  1 of 3 shown, sorted by RMT%"));
	assert_non_null(strstr(out, "300 remote"));
	assert_null(strstr(out, "100 memhog"));
	assert_non_null(strstr(out, "CGROUPS  1 of 5 shown"));
	free(out);

	nl_view_opts_default(&o);
	assert_int_equal(nl_sort_filter_parse(&o.filter, "/work"), 0);
	out = render(&s, &o);
	assert_non_null(strstr(out, "100 memhog"));
	assert_non_null(strstr(out, "200 sleeper"));
	assert_null(strstr(out, "300 remote"));
	assert_non_null(strstr(out, ", cgroup /work"));
	assert_non_null(strstr(out, "CGROUPS  3 of 5 shown"));
	free(out);
	nl_snapshot_free(&s);
}

static void test_cgroups(void **state)
{
	struct nl_snapshot s;
	char line[512], *f[40];

	assert_int_equal(fix_build(&s, true), 0);
	s.cgroups[3].removed = true;
	char *out = render(&s, NULL);
	find_line(out, "CGROUP ", line, sizeof(line));
	assert_int_equal(fields(line, f, 40), 16);
	assert_string_equal(f[14], "RCLM/s");
	assert_string_equal(f[15], "AGT/s");
	assert_string_equal(f[8], "LOCBAR");
	assert_string_equal(f[9], "EXEC_MS_N0");
	assert_string_equal(f[10], "EXEC_MS_N1");

	/* tree indentation: the name column starts at 2 * depth */
	assert_non_null(strstr(out, "\n  work "));
	assert_non_null(strstr(out, "\n    a "));
	assert_non_null(strstr(out, "\n    b (removed) "));
	assert_non_null(strstr(out, "\n  other "));

	/* the bar is printed between '|' and holds spaces: check it whole,
	 * then split the figures before and after it */
	find_line(out, "work ", line, sizeof(line));
	assert_non_null(strstr(line, "|      :*|"));
	find_line(out, "/ ", line, sizeof(line));
	char *bar = strchr(line, '|'), *after = strrchr(line, '|') + 1;
	assert_non_null(strstr(line, "| :    :+|"));	/* b1 .2, b6 .2, b7 .6 */
	*bar = '\0';
	assert_int_equal(fields(line, f, 40), 8);
	assert_string_equal(f[0], "/");
	assert_string_equal(f[1], "205.0");	/* 4.1 s over 2 s */
	assert_string_equal(f[2], "82.9");	/* 3.4 / 4.1 on N0 */
	assert_string_equal(f[3], "17.1");
	assert_string_equal(f[4], "1550.0");	/* 3100 local pages / 2 s */
	assert_string_equal(f[5], "950.0");	/* 1900 remote pages / 2 s */
	assert_string_equal(f[6], "38.0");	/* 1900 / 5000 */
	assert_int_equal(fields(after, f, 40), 7);
	assert_string_equal(f[5], "-");		/* reclaim: no vmscan program */
	assert_string_equal(f[6], "-");		/* no reclaim agent */
	assert_string_equal(f[0], "3400.0");	/* exec ms N0 */
	assert_string_equal(f[1], "700.0");
	assert_string_equal(f[2], "128.0");	/* 100 + 28 MiB numa_stat */
	assert_string_equal(f[3], "62");	/* migrated pages 10+2+50 */
	assert_string_equal(f[4], "4");

	find_line(out, "b (removed)", line, sizeof(line));
	assert_non_null(strstr(line, "|n/a     |"));
	find_line(out, "other ", line, sizeof(line));
	assert_int_equal(fields(strrchr(line, '|') + 1, f, 40), 7);
	assert_string_equal(f[2], "-");		/* numa_stat unknown */
	assert_string_equal(f[3], "50");
	assert_null(strstr(out, "RECLAIM AGENTS"));	/* no agent: no section */
	free(out);
	/* a pod's container and a service by their short forms, the rest
	 * as before */
	nl_cgident_parse("/kubepods.slice/kubepods-pod1a2b3c4d_5e6f_4a0b_8c9d_0e1f2a3b4c5d.slice/docker-"
			  "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.scope",
			  &s.cgroups[2].ident);
	nl_cgident_parse("/system.slice/b.service", &s.cgroups[3].ident);
	out = render(&s, NULL);
	assert_non_null(strstr(out, "\n  work "));
	assert_non_null(strstr(out, "\n    pod:1a2b3c4d/ctr:0123456789ab "));
	assert_null(strstr(out, "\n    a "));
	assert_non_null(strstr(out, "\n    b.service (removed) "));
	assert_non_null(strstr(out, "\n  other "));
	free(out);
	nl_snapshot_free(&s);
}

/* A reclaim agent on /work/a: AGT/s and the RECLAIM AGENTS section. */
static void test_agent(void **state)
{
	struct nl_snapshot s;
	struct nl_reclaim_agent_figs *a;
	char line[512], *f[40];

	assert_int_equal(fix_build(&s, true), 0);
	a = s.cgroups[2].agent = calloc(1, sizeof(*a));
	assert_non_null(a);
	a->pid = 4321;
	strcpy(a->backend, "madvise");
	strcpy(a->victim, "lottery");
	a->reclaiming = true;
	a->scan_vmscan = true;
	a->high_bytes = 24 << 20;
	a->low_bytes = 20 << 20;
	a->pages_delta = 500;			/* over 2 s: 250.0/s */
	a->passes_total = 12;
	a->steps_total = 96;
	a->pages_total[1][0] = 600;
	a->pages_total[1][1] = 300;
	a->pages_total[2][1] = 100;		/* memcg backend, node 1 */
	a->draws_total[0][1] = 5;
	a->draws_total[1][0] = 60;
	a->draws_total[1][1] = 36;
	a->weight[0] = 7000;
	a->weight[1] = 4200;
	a->over_high_seconds_total = 3.5;
	a->agent_seconds_total = 0.125;
	char *out = render(&s, NULL);

	find_line(out, "a ", line, sizeof(line));
	assert_int_equal(fields(strrchr(line, '|') + 1, f, 40), 7);
	assert_string_equal(f[6], "250.0");
	find_line(out, "/work/a ", line, sizeof(line));
	assert_int_equal(fields(line, f, 40), 13);
	assert_string_equal(f[1], "4321");
	assert_string_equal(f[2], "madvise");
	assert_string_equal(f[3], "reclaiming");
	assert_string_equal(f[5], "24.0");
	assert_string_equal(f[6], "20.0");
	assert_string_equal(f[7], "12");
	assert_string_equal(f[9], "1000");	/* 600 + 300 + 100 pages */
	assert_string_equal(f[10], "3.5");
	assert_string_equal(f[12], "vmscan");
	find_line(out, "N1  ", line, sizeof(line));
	assert_non_null(strstr(line, "weight 4200"));
	assert_non_null(strstr(line, "draws 5/36"));
	assert_non_null(strstr(line, "damos=0 madvise=300 memcg=100"));
	a->dry_run = true;
	free(out);
	out = render(&s, NULL);
	find_line(out, "a ", line, sizeof(line));
	fields(strrchr(line, '|') + 1, f, 40);
	assert_string_equal(f[6], "dry");
	free(out);
	/* -c: the section follows the cgroup filter like the other views */
	{
		struct nl_view_opts o;

		nl_view_opts_default(&o);
		assert_int_equal(nl_sort_filter_parse(&o.filter, "/work"), 0);
		out = render(&s, &o);
		assert_non_null(strstr(out, "RECLAIM AGENTS  1 cgroup "));
		free(out);
		assert_int_equal(nl_sort_filter_parse(&o.filter, "/other"), 0);
		out = render(&s, &o);
		assert_null(strstr(out, "RECLAIM AGENTS"));
		free(out);
	}
	nl_snapshot_free(&s);
}

/* The legend comes once, from its own call: a snapshot carries none (a
 * batch log repeated ~17 lines of it every interval). */
static void test_legend(void **state)
{
	struct nl_snapshot s;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(nl_text_write_legend(f, 4096), 0);
	fclose(f);
	assert_non_null(strstr(buf, "page = 4096 B"));
	assert_non_null(strstr(buf, "RCLM/s = pages freed by reclaim"));
	assert_non_null(strstr(buf, "\"(exited)\""));
	assert_non_null(strstr(buf, "\"(removed)\""));
	assert_non_null(strstr(buf, "AGT/s ="));
	/* the markers a process row can carry: an unknown cgroup, a cut name */
	assert_non_null(strstr(buf, "CGROUP \"?\": it ended before its cgroup could be read"));
	assert_non_null(strstr(buf, "\"~\" ends a name cut"));
	for (char *l = buf; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		assert_true((strchr(l, '\n') ? strchr(l, '\n') - l : (long)strlen(l)) <= 100);
	free(buf);
	assert_int_equal(nl_text_write_legend(NULL, 4096), -EINVAL);

	assert_int_equal(fix_build(&s, true), 0);
	char *out = render(&s, NULL);
	assert_null(strstr(out, "CPU% = on-CPU"));
	assert_null(strstr(out, "RSS_Nn ="));
	assert_null(strstr(out, "LOCBAR ="));
	assert_null(strstr(out, "busy share"));
	free(out);
	nl_snapshot_free(&s);
}

/* -p with -c that exclude each other, or a pid not in the snapshot: the
 * empty table says why instead of a bare "0 of N". */
static void test_pid_hint(void **state)
{
	struct nl_snapshot s;
	struct nl_view_opts o;

	assert_int_equal(fix_build(&s, true), 0);
	nl_view_opts_default(&o);
	assert_int_equal(nl_sort_filter_parse(&o.filter, "100"), 0);
	strcpy(o.filter.cgroup, "/other");
	char *out = render(&s, &o);
	assert_non_null(strstr(out, "PROCESSES  0 of 3 shown"));
	assert_non_null(strstr(out, "pid 100 is in cgroup /work/a, not under /other"));
	free(out);

	nl_view_opts_default(&o);
	assert_int_equal(nl_sort_filter_parse(&o.filter, "999"), 0);
	out = render(&s, &o);
	assert_non_null(strstr(out, "pid 999 is not in this snapshot"));
	free(out);

	nl_view_opts_default(&o);	/* a match: no hint */
	assert_int_equal(nl_sort_filter_parse(&o.filter, "100"), 0);
	out = render(&s, &o);
	assert_null(strstr(out, "pid 100 is"));
	/* and the cgroups are its own and its ancestors', not the tree */
	assert_non_null(strstr(out, "CGROUPS  3 of 5 shown"));
	assert_non_null(strstr(out, "\n    a "));
	assert_null(strstr(out, "\n    b "));
	assert_null(strstr(out, "\n  other "));
	free(out);
	nl_snapshot_free(&s);
}

/* -p of a process whose cgroup has a cleaned label (a name with an ESC
 * byte; a path cut to ...#id is the same case): its own cgroup and its
 * ancestors are found by id, not by the label, which is no prefix of any
 * full path (only / was listed) */
static void test_pid_chain_cleaned_label(void **state)
{
	struct nl_snapshot s;
	struct nl_view_opts o;
	char *out;

	(void)state;
	assert_int_equal(fix_build(&s, true), 0);
	for (int k = 0; k < s.nr_cgroups; k++)
		if (s.cgroups[k].id == 3) {
			strcpy(s.cgroups[k].path, "/work/a\\x1b#3");
			s.cgroups[k].long_path = strdup("/work/a\x1b");
			assert_non_null(s.cgroups[k].long_path);
		}
	for (int i = 0; i < s.nr_procs; i++)
		if (s.procs[i].pid == 100)
			strcpy(s.procs[i].cgroup_path, "/work/a\\x1b#3");
	nl_view_opts_default(&o);
	assert_int_equal(nl_sort_filter_parse(&o.filter, "100"), 0);
	out = render(&s, &o);
	assert_non_null(strstr(out, "CGROUPS  3 of 5 shown"));
	assert_non_null(strstr(out, "\n    a\\x1b#3 "));
	assert_non_null(strstr(out, "\n  work "));
	free(out);
	nl_snapshot_free(&s);
}

/* -p of a process that has exited and left the snapshot: the cgroups the
 * model last saw it in (nl_snapshot_set_focus carries them from snapshot
 * to snapshot, as collect does), not the whole tree; a pid never seen
 * shows none */
static void test_pid_chain_after_exit(void **state)
{
	struct nl_snapshot s;
	struct nl_view_opts o;
	struct nl_focus last;
	char *out;

	(void)state;
	assert_int_equal(fix_build(&s, true), 0);
	nl_view_opts_default(&o);
	assert_int_equal(nl_sort_filter_parse(&o.filter, "100"), 0);
	nl_snapshot_set_focus(&s, 100, NULL);
	assert_string_equal(s.focus.cgroup, "/work/a");
	free(render(&s, &o));
	last = s.focus;
	for (int i = 0; i < s.nr_procs; i++)
		if (s.procs[i].pid == 100)
			s.procs[i].pid = 4242;	/* gone from the next snapshot */
	nl_snapshot_set_focus(&s, 100, &last);
	assert_string_equal(s.focus.cgroup, "/work/a");
	out = render(&s, &o);
	assert_non_null(strstr(out, "CGROUPS  3 of 5 shown"));
	assert_non_null(strstr(out, "\n    a "));
	assert_null(strstr(out, "\n    b "));
	free(out);
	assert_int_equal(nl_sort_filter_parse(&o.filter, "999"), 0);
	out = render(&s, &o);
	assert_non_null(strstr(out, "CGROUPS  0 of 5 shown"));
	free(out);
	/* the model follows another pid: what it knew of 100 is not carried */
	last = s.focus;
	nl_snapshot_set_focus(&s, 999, &last);
	assert_int_equal(s.focus.cgroup[0], '\0');
	nl_snapshot_free(&s);
}

/* The view keeps nothing between snapshots: a snapshot whose model never
 * saw the -p process shows no cgroups, whatever an earlier snapshot (of
 * another session, or before a restart) showed for that pid */
static void test_pid_chain_only_from_snapshot(void **state)
{
	struct nl_snapshot s;
	struct nl_view_opts o;
	char *out;

	(void)state;
	assert_int_equal(fix_build(&s, true), 0);
	nl_view_opts_default(&o);
	assert_int_equal(nl_sort_filter_parse(&o.filter, "100"), 0);
	out = render(&s, &o);
	assert_non_null(strstr(out, "CGROUPS  3 of 5 shown"));
	free(out);
	for (int i = 0; i < s.nr_procs; i++)
		if (s.procs[i].pid == 100)
			s.procs[i].pid = 4242;
	nl_snapshot_set_focus(&s, 100, NULL);	/* a model that never saw 100 */
	out = render(&s, &o);
	assert_non_null(strstr(out, "CGROUPS  0 of 5 shown"));
	free(out);
	nl_snapshot_free(&s);
}

static void test_errors(void **state)
{
	struct nl_snapshot s;
	char small[64];

	assert_int_equal(nl_text_write(NULL, NULL, NULL), -EINVAL);
	assert_int_equal(fix_build(&s, true), 0);
	/* a full fixed-size stream must be reported, not ignored */
	FILE *f = fmemopen(small, sizeof(small), "w");
	assert_non_null(f);
	setvbuf(f, NULL, _IONBF, 0);
	assert_true(nl_text_write(f, &s, NULL) < 0);
	fclose(f);
	nl_snapshot_free(&s);
	/* an empty snapshot renders headers only */
	struct nl_snapshot e = { .interval_ns = 1 };
	char *out = render(&e, NULL);
	assert_non_null(strstr(out, "PROCESSES  0 of 0 shown"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_nodes),
		cmocka_unit_test(test_node_without_cpus),
		cmocka_unit_test(test_procs),
		cmocka_unit_test(test_cut_names),
		cmocka_unit_test(test_opts),
		cmocka_unit_test(test_cgroups),
		cmocka_unit_test(test_agent),
		cmocka_unit_test(test_legend),
		cmocka_unit_test(test_optin),
		cmocka_unit_test(test_pid_hint),
		cmocka_unit_test(test_pid_chain_cleaned_label),
		cmocka_unit_test(test_pid_chain_after_exit),
		cmocka_unit_test(test_pid_chain_only_from_snapshot),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
