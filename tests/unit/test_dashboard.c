// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * dashboards/numalens.json, checked without Grafana: every panel has its
 * own numeric id and a gridPos inside the 24-column grid that overlaps no
 * other panel shown with it (the panels of a collapsed row are laid out
 * among themselves, below the row); and the scx_cling and reclaim agent
 * families its queries use are ones the exporter renders (a live scrape on
 * a host cannot show them: scx_cling needs sched_ext, the agent a managed
 * cgroup; the other families are checked against a real scrape by live
 * export_dashboard.sh). The same for every family the Prometheus rules in
 * packaging/prometheus-rules.yml use, all of them here.
 * Run from the top of the tree (tests/run-all.sh does), or set NL_DASHBOARD.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include "snapshot_fixture.h"
#include "prom_text.h"
#include "view_prom.h"

#define GRID_COLS 24

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf;
	long n;

	if (!f)
		fail_msg("cannot open %s (run from the top of the tree)", path);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static cJSON *load(void)
{
	const char *path = getenv("NL_DASHBOARD") ? getenv("NL_DASHBOARD") : "dashboards/numalens.json";
	char *text = slurp(path);
	cJSON *d = cJSON_Parse(text);

	free(text);
	if (!d)
		fail_msg("%s is not valid JSON", path);
	return d;
}

/* A panel's place; @group is 0 for the top level, else the id of the
 * collapsed row that holds it (shown only with that row expanded). */
struct rect { int x, y, w, h, id, group; const char *title; };

static int num(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	if (!cJSON_IsNumber(v))
		fail_msg("'%s' is not a number", k);
	return v->valueint;
}

/* Two rectangles of the grid share a cell. */
static bool overlap(const struct rect *a, const struct rect *b)
{
	return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h && b->y < a->y + a->h;
}

static int panel_rects_in(const cJSON *panels, int group, struct rect *r, int n, int max)
{
	const cJSON *p;

	assert_true(cJSON_IsArray(panels));
	cJSON_ArrayForEach(p, panels) {
		const cJSON *g = cJSON_GetObjectItemCaseSensitive(p, "gridPos");
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(p, "title");
		const cJSON *id = cJSON_GetObjectItemCaseSensitive(p, "id");
		const cJSON *nested = cJSON_GetObjectItemCaseSensitive(p, "panels");
		const char *title = cJSON_IsString(t) ? t->valuestring : "?";

		assert_true(n < max);
		if (!cJSON_IsObject(g))
			fail_msg("panel '%s' has no gridPos", title);
		if (!cJSON_IsNumber(id))
			fail_msg("panel '%s' has no numeric id", title);
		r[n] = (struct rect){ num(g, "x"), num(g, "y"), num(g, "w"), num(g, "h"), id->valueint, group, title };
		n++;
		if (cJSON_GetArraySize(nested) > 0) {
			int first = n;

			if (group)
				fail_msg("row '%s' is nested in another row", title);
			if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "collapsed")))
				fail_msg("row '%s' holds panels but is not collapsed (an open row's panels follow it)", title);
			n = panel_rects_in(nested, id->valueint, r, n, max);
			for (int i = first; i < n; i++)
				if (r[i].y <= r[first - 1].y)
					fail_msg("panel '%s' (y=%d) is not below its row '%s' (y=%d)", r[i].title, r[i].y,
						 title, r[first - 1].y);
		}
	}
	return n;
}

static int panel_rects(const cJSON *d, struct rect *r, int max)
{
	return panel_rects_in(cJSON_GetObjectItemCaseSensitive(d, "panels"), 0, r, 0, max);
}

/* The overlap test itself, on hand-made layouts: it must see a shared
 * cell and accept panels that only touch. */
static void test_overlap_rule(void **state)
{
	struct rect a = { .x = 0, .y = 48, .w = 12, .h = 8 }, b = { .x = 0, .y = 48, .w = 24, .h = 8 };
	struct rect c = { .x = 12, .y = 48, .w = 12, .h = 8 }, e = { .x = 0, .y = 56, .w = 12, .h = 8 };

	(void)state;
	assert_true(overlap(&a, &b));	/* the old y=48 pair */
	assert_false(overlap(&a, &c));	/* side by side */
	assert_false(overlap(&a, &e));	/* one below the other */
}

static void test_layout(void **state)
{
	struct rect r[128];
	cJSON *d = load();
	int n = panel_rects(d, r, 128);

	(void)state;
	assert_true(n > 0);
	for (int i = 0; i < n; i++) {
		if (r[i].x < 0 || r[i].y < 0 || r[i].w < 1 || r[i].h < 1 || r[i].x + r[i].w > GRID_COLS)
			fail_msg("panel %d '%s' lies outside the %d-column grid (x=%d w=%d)", r[i].id,
				 r[i].title, GRID_COLS, r[i].x, r[i].w);
		if (r[i].id < 1)
			fail_msg("panel '%s' has id %d", r[i].title, r[i].id);
		for (int j = 0; j < i; j++) {
			if (r[i].id == r[j].id)
				fail_msg("panels '%s' and '%s' share id %d", r[j].title, r[i].title, r[i].id);
			if (r[i].group == r[j].group && overlap(&r[i], &r[j]))
				fail_msg("panels '%s' (x=%d y=%d w=%d h=%d) and '%s' (x=%d y=%d w=%d h=%d) overlap",
					 r[j].title, r[j].x, r[j].y, r[j].w, r[j].h,
					 r[i].title, r[i].x, r[i].y, r[i].w, r[i].h);
		}
	}
	cJSON_Delete(d);
}

/* The fixture with scx_cling running (one group homed on node 0) and an
 * agent managing /work/a. */
static void running_cling_and_agent(struct nl_snapshot *s)
{
	struct nl_reclaim_agent_figs *a;

	assert_int_equal(fix_build(s, true), 0);
	s->cling_running = true;
	s->cling.info = (struct cling_info){ .loader_pid = 1, .nr_nodes = 2, .degree = 20, .decay_ms = 1500,
					     .wait_bound_ns = 5000000, .steal_ns = 40000000 };
	s->cling.node[0] = (struct nl_cling_node){ .enqueued = 9, .local = 8, .remote = 1, .cling_hits = 7,
						   .attempts = 5, .failures = 1, .queued = 2 };
	s->cling.nr_groups = 1;
	s->cling.groups = calloc(1, sizeof(*s->cling.groups));
	assert_non_null(s->cling.groups);
	s->cling.groups[0].cgid = 3;
	s->cling.groups[0].home = 0;
	s->cling.groups[0].busiest = 0;
	s->cling.groups[0].pages[0] = 256;
	nl_cling_stats_fold(&s->cling);
	a = s->cgroups[2].agent = calloc(1, sizeof(*a));
	assert_non_null(a);
	a->pid = 4321;
	strcpy(a->backend, "madvise");
	strcpy(a->victim, "lottery");
	a->high_bytes = 24 << 20;
	a->low_bytes = 20 << 20;
}

/* Collect the names of the queried families with @prefix; each must be a
 * sample name in @text. Returns how many were checked. */
static int check_queries(const cJSON *node, const char *prefix, const char *text)
{
	int n = 0;

	if (cJSON_IsString(node) && node->string &&
	    (!strcmp(node->string, "expr") || !strcmp(node->string, "query"))) {
		for (const char *p = strstr(node->valuestring, prefix); p; p = strstr(p + 1, prefix)) {
			char name[128], needle[136];
			size_t len = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_");

			if (len >= sizeof(name))
				fail_msg("metric name too long in %s", node->valuestring);
			memcpy(name, p, len);
			name[len] = '\0';
			snprintf(needle, sizeof(needle), "\n%s", name);
			if (!strstr(text, needle))
				fail_msg("the dashboard queries %s, which the exporter does not render", name);
			n++;
		}
	}
	for (const cJSON *c = node->child; c; c = c->next)
		n += check_queries(c, prefix, text);
	return n;
}

static void test_cling_and_agent_queries(void **state)
{
	struct nl_snapshot s;
	cJSON *d = load();
	char *t;

	(void)state;
	running_cling_and_agent(&s);
	t = prom_render(&s, NULL);
	/* panels for both families exist, and everything they ask for is served */
	assert_true(check_queries(d, "numalens_scx_cling_", t) >= 5);
	assert_true(check_queries(d, "numalens_reclaim_agent_", t) >= 5);
	free(t);
	nl_snapshot_free(&s);
	cJSON_Delete(d);
}

/* Every numalens_ family named in the rules file, comments included, is a
 * sample name the exporter renders; a recorded series
 * (level:numalens_...:operation) is not one and is skipped. */
static void test_rules_families(void **state)
{
	const char *path = getenv("NL_RULES") ? getenv("NL_RULES") : "packaging/prometheus-rules.yml";
	const char *alnum = "abcdefghijklmnopqrstuvwxyz0123456789_";
	char *rules = slurp(path), *t;
	struct nl_snapshot s;
	int n = 0, cling = 0, agent = 0;

	(void)state;
	running_cling_and_agent(&s);
	t = prom_render(&s, NULL);
	for (const char *p = strstr(rules, "numalens_"); p; p = strstr(p + 1, "numalens_")) {
		char name[128], needle[136];
		size_t len = strspn(p, alnum);

		if (p > rules && (p[-1] == ':' || strchr(alnum, p[-1])))
			continue;
		if (len >= sizeof(name))
			fail_msg("metric name too long in %s", path);
		memcpy(name, p, len);
		name[len] = '\0';
		snprintf(needle, sizeof(needle), "\n%s", name);
		if (!strstr(t, needle))
			fail_msg("%s uses %s, which the exporter does not render", path, name);
		cling += !strncmp(name, "numalens_scx_cling_", 19);
		agent += !strncmp(name, "numalens_reclaim_agent_", 23);
		n++;
	}
	/* the alerts on scx_cling and the agent are there, and were checked */
	assert_true(n >= 10);
	assert_true(cling >= 1);
	assert_true(agent >= 2);
	free(t);
	free(rules);
	nl_snapshot_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_overlap_rule),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_cling_and_agent_queries),
		cmocka_unit_test(test_rules_families),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
