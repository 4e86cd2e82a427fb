// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * `numalens export`: the snapshot model served as Prometheus metrics.
 * The main thread takes one snapshot per interval and publishes it;
 * libmicrohttpd's threads serve whatever snapshot is current when a
 * scrape arrives. A published snapshot is reference-counted and rendered
 * straight into its gzip once, by its first scrape (the text is never
 * held whole), and only the gzip is kept; later
 * and concurrent scrapes of it share those bytes (inflated as they are
 * sent for a client that takes no gzip), so 50 scrapes of a 2,000 cgroup
 * host cost one render and one compressed copy, not fifty texts.
 */
#include <errno.h>
#include <fnmatch.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "cgroup.h"
#include "cli.h"
#include "export_opts.h"
#include "export_synth.h"
#include "http_server.h"
#include "prom_gzip.h"
#include "view_prom.h"

/* A published snapshot and its rendering; freed when the last reader
 * (a scrape still sending it) lets go. */
struct pub {
	struct nl_snapshot s;
	int refs;
	uint64_t mono_ns;	/* CLOCK_MONOTONIC when published */
	struct export_state *x;
	pthread_mutex_t render_mu;	/* the first scrape renders, others wait */
	bool rendered, gzipped;	/* gzipped: gz holds it all, text is empty */
	bool dropped;		/* rows freed unrendered: a newer one is built */
	int render_err;
	size_t plain_len;		/* the text's length once gzipped */
	struct nl_buf text, gz;
};

struct export_state {
	pthread_mutex_t mu;
	/* Held while a snapshot is built or rendered: each holds a
	 * snapshot's rows (~10 KiB per cgroup), a render the text too, so
	 * one at a time bounds the peak (2,000 cgroups: ~50 MiB, where a
	 * render beside the next two builds reached 94 MB). */
	pthread_mutex_t heavy;
	struct pub *cur;		/* NULL until the first snapshot */
	const struct nl_export_args *a;
	char missing[512];		/* sources this session runs without */
	char hierarchy[600];		/* "v1-memory (/sys/fs/cgroup/memory)" */
};

/* Warn about each --cgroup-pattern that matches no cgroup under @root now:
 * a typo would otherwise look like a quiet cgroup. Not an error, since the
 * cgroup may come later (its series then appear). */
static void warn_unmatched_patterns(const struct nl_export_args *a, const char *root)
{
	struct nl_cgroup_map m = {};

	if (!a->po.nr_cgroup_patterns || nl_cgroup_map_build(&m, root) < 0)
		return;
	for (int i = 0; i < a->po.nr_cgroup_patterns; i++) {
		int k = 0;

		while (k < m.n && fnmatch(a->patterns[i], m.ents[k].path, 0))
			k++;
		if (k == m.n)
			fprintf(stderr, "numalens export: --cgroup-pattern '%s' matches no cgroup under %s now; "
				"its series appear when one does\n", nl_cli_shown(a->patterns[i]), root);
	}
	nl_cgroup_map_free(&m);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void pub_put(struct export_state *x, struct pub *p)
{
	bool last;

	pthread_mutex_lock(&x->mu);
	last = --p->refs == 0;
	pthread_mutex_unlock(&x->mu);
	if (last) {
		nl_snapshot_free(&p->s);
		nl_buf_free(&p->text);
		nl_buf_free(&p->gz);
		pthread_mutex_destroy(&p->render_mu);
		free(p);
		/* an unrendered snapshot's rows are thousands of small
		 * blocks: freed, they stay resident until trimmed, and the
		 * next render's text would come on top of them */
		malloc_trim(0);
	}
}

static void pub_release(void *cls)
{
	struct pub *p = cls;

	pub_put(p->x, p);
}

static struct pub *pub_get(struct export_state *x)
{
	struct pub *p;

	pthread_mutex_lock(&x->mu);
	p = x->cur;
	if (p)
		p->refs++;
	pthread_mutex_unlock(&x->mu);
	return p;
}

/* Make @p (refs 1: the state's) current; the old one goes when unused. */
static void publish(struct export_state *x, struct pub *p)
{
	struct pub *old;

	p->refs = 1;
	p->mono_ns = mono_ns();
	pthread_mutex_lock(&x->mu);
	old = x->cur;
	x->cur = p;
	pthread_mutex_unlock(&x->mu);
	if (old)
		pub_put(x, old);
}

/* Once rendered, the text is all scrapes need: free the per-cgroup and
 * per-process arrays (the reclaim figures make them ~17 KiB per cgroup)
 * so that a host of 2,000 cgroups holds one snapshot's rows, the one
 * being built, not two; / and /healthz read only the scalar fields. */
static void shed_rendered(struct pub *p)
{
	nl_snapshot_free_rows(&p->s);	/* each cgroup's owned parts too */
	/* give the freed heap back: many 15 KiB blocks would stay resident */
	malloc_trim(0);
}

static int route_metrics(void *ctx, bool gzip_ok, struct nl_http_body *out)
{
	struct export_state *x = ctx;
	struct pub *p = pub_get(x);
	bool heavy = false;
	int e;

	if (!p)
		return -EAGAIN;
	pthread_mutex_lock(&p->render_mu);
	heavy = !p->rendered;
	pthread_mutex_unlock(&p->render_mu);
	if (heavy) {	/* render the newest, never beside a build */
		pub_put(x, p);
		pthread_mutex_lock(&x->heavy);
		p = pub_get(x);	/* not NULL: a published snapshot stays */
	}
	pthread_mutex_lock(&p->render_mu);
	if (!p->rendered && p->dropped) {
		/* its successor's build failed (export is stopping) */
		p->render_err = -EAGAIN;
	} else if (!p->rendered) {
		struct nl_prom_gzip_cost c;

		/* gzip once per snapshot, and keep only that (1.5 MiB where
		 * the text of 2,000 cgroups is 26 MiB, never held whole); a
		 * scraper that takes no gzip gets it inflated as it is sent */
		p->render_err = nl_prom_render_gzip(&p->gz, &p->s, &x->a->po, &c);
		p->gzipped = !p->render_err;
		p->plain_len = c.plain_len;
		if (p->render_err) {
			/* a failed gzip: serve the plain text, as a scraper
			 * that takes no gzip would get it */
			uint64_t t0 = mono_ns();

			nl_buf_free(&p->gz);
			p->render_err = nl_prom_render(&p->text, &p->s, &x->a->po);
			nl_prom_render_scrape_duration(&p->text, mono_ns() - t0);
			p->render_err = p->render_err ? p->render_err : p->text.err;
		}
		p->rendered = true;
		shed_rendered(p);
	}
	e = p->render_err;
	pthread_mutex_unlock(&p->render_mu);
	if (heavy)
		pthread_mutex_unlock(&x->heavy);
	if (e) {
		pub_put(x, p);
		return e;
	}
	*out = (struct nl_http_body){ .p = p->text.p, .len = p->text.len, .release = pub_release, .cls = p };
	if (p->gzipped)
		*out = (struct nl_http_body){ .p = p->gz.p, .len = p->gz.len, .gzip = true,
					      .plain_len = p->plain_len, .release = pub_release, .cls = p };
	(void)gzip_ok;	/* the server inflates for clients without gzip */
	return 0;
}

static bool route_health(void *ctx, struct nl_buf *out)
{
	struct export_state *x = ctx;
	struct pub *p = pub_get(x);
	double age, limit = 3 * x->a->interval + 5;
	bool ok;

	if (!p) {
		nl_buf_puts(out, "starting: no snapshot yet\n");
		return false;
	}
	age = (double)(mono_ns() - p->mono_ns) / 1e9;
	ok = age <= limit;
	nl_buf_printf(out, "%s: snapshot %llu taken %.1f s ago (limit %.0f s)\n", ok ? "ok" : "stale",
		      (unsigned long long)p->s.seq, age, limit);
	pub_put(x, p);
	return ok;
}

static void html_text(struct nl_buf *b, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': nl_buf_puts(b, "&lt;"); break;
		case '>': nl_buf_puts(b, "&gt;"); break;
		case '&': nl_buf_puts(b, "&amp;"); break;
		case '"': nl_buf_puts(b, "&quot;"); break;
		default: nl_buf_put(b, s, 1);
		}
	}
}

static int route_index(void *ctx, struct nl_buf *out)
{
	struct export_state *x = ctx;
	const struct nl_export_args *a = x->a;
	struct pub *p = pub_get(x);

	nl_buf_puts(out, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>numalens export</title></head>\n"
			 "<body><h1>numalens export</h1>\n<p>NUMA locality per cgroup and node, from BPF tracepoints.</p>\n"
			 "<ul><li><a href=\"/metrics\">/metrics</a> Prometheus metrics</li>\n"
			 "<li><a href=\"/healthz\">/healthz</a> health</li></ul>\n<table>\n");
	nl_buf_printf(out, "<tr><td>version</td><td>%s</td></tr>\n", NL_VERSION);
	nl_buf_puts(out, "<tr><td>kernel</td><td>");
	html_text(out, p ? p->s.kernel : "(no snapshot yet)");
	nl_buf_puts(out, "</td></tr>\n<tr><td>listen</td><td>");
	for (int i = 0; i < a->nr_listen; i++) {
		if (i)
			nl_buf_puts(out, ", ");
		html_text(out, a->listen[i]);
	}
	nl_buf_printf(out, "%s%s", a->tls ? " (TLS)" : "", a->basic_auth ? " (basic auth)" : "");
	nl_buf_printf(out, "</td></tr>\n<tr><td>interval</td><td>%g s</td></tr>\n", a->interval);
	nl_buf_puts(out, "<tr><td>cgroup hierarchy</td><td>");
	html_text(out, x->hierarchy);
	nl_buf_printf(out, "</td></tr>\n<tr><td>cgroups</td><td>depth &lt;= %d, %d pattern(s), at most %d, grace %g s</td></tr>\n",
		      a->po.cgroup_depth, a->po.nr_cgroup_patterns, a->po.max_cgroups, a->grace);
	nl_buf_printf(out, "<tr><td>top processes</td><td>%d</td></tr>\n", a->po.top_procs);
	if (p) {
		const struct nl_sources *src = &p->s.src;

		nl_buf_printf(out, "<tr><td>snapshot</td><td>%llu</td></tr>\n", (unsigned long long)p->s.seq);
		nl_buf_printf(out, "<tr><td>sources</td><td>sched=%s alloc=%s alloc_class=%s migrate=%s "
			      "numa_balancing=%s vm_numa_stat=%s</td></tr>\n",
			      src->sched ? "yes" : "no", src->alloc ? "yes" : "no", src->alloc_class ? "yes" : "no",
			      src->migrate ? "yes" : "no", src->numa_balancing ? "on" : "off (locality empty)",
			      src->vm_numa_stat ? "on" : "off");
	}
	nl_buf_puts(out, "<tr><td>running without</td><td>");
	html_text(out, x->missing[0] ? x->missing : p && p->s.src.missing[0] ? p->s.src.missing : "nothing");
	nl_buf_puts(out, "</td></tr>\n</table></body></html>\n");
	if (p)
		pub_put(x, p);
	return out->err;
}

/* The current snapshot, if no scrape has rendered it, never will be once
 * the next build starts: a scrape that would render waits for the build
 * and renders the newest. Free its rows now (with heavy held, so no
 * render runs), or a build would hold two snapshots' rows (~22 MiB each
 * at 2,000 cgroups: the peak RSS whenever a snapshot went unscraped). */
static void drop_unrendered(struct export_state *x)
{
	struct pub *p = pub_get(x);
	bool dropped = false;

	if (!p)
		return;
	pthread_mutex_lock(&p->render_mu);
	if (!p->rendered && !p->dropped) {
		nl_snapshot_free_rows(&p->s);
		p->dropped = dropped = true;
	}
	pthread_mutex_unlock(&p->render_mu);
	pub_put(x, p);
	if (dropped)
		malloc_trim(0);
}

/* Take a snapshot into a new pub and publish it. 0 or -errno. */
static int take(struct export_state *x, struct nl_collector *col, uint64_t *seq)
{
	const struct nl_export_args *a = x->a;
	struct pub *p = calloc(1, sizeof(*p));
	int e;

	if (!p)
		return -ENOMEM;
	p->x = x;
	pthread_mutex_init(&p->render_mu, NULL);
	++*seq;
	pthread_mutex_lock(&x->heavy);
	drop_unrendered(x);
	e = col ? nl_collect_snapshot(col, &p->s)
		: nl_export_synth(&p->s, a->synth_cgroups, a->synth_nodes, *seq);
	if (e) {
		pthread_mutex_unlock(&x->heavy);
		nl_snapshot_free(&p->s);
		pthread_mutex_destroy(&p->render_mu);
		free(p);
		return e;
	}
	publish(x, p);
	pthread_mutex_unlock(&x->heavy);
	return 0;
}

static int serve(struct export_state *x, struct nl_collector *col)
{
	struct timespec next;
	uint64_t seq = 0;
	int e;

	clock_gettime(CLOCK_MONOTONIC, &next);
	/* serve totals from the start, then one snapshot per interval */
	while (!nl_stop_req) {
		e = take(x, col, &seq);
		if (e) {
			fprintf(stderr, "numalens export: taking a snapshot failed: %s\n", strerror(-e));
			return NL_EXIT_FAIL;
		}
		nl_cli_add_seconds(&next, x->a->interval);
		nl_cli_sleep_until(&next);
	}
	return NL_EXIT_OK;
}

/* The URL of server @i's /metrics: the bound port (":0" picks a free
 * one), "localhost" for an empty ADDR (every address). */
static void listen_url(const struct nl_export_args *a, int i, const struct nl_http *h, char *url, size_t len)
{
	const char *l = a->listen[i], *colon = strrchr(l, ':');
	int hl = colon ? (int)(colon - l) : 0;

	snprintf(url, len, "%s://%.*s:%d/metrics", a->tls ? "https" : "http", hl ? hl : 9, hl ? l : "localhost",
		 nl_http_port(h));
}

static const char *client_auth_name(enum nl_client_auth ca)
{
	return ca == NL_CLIENT_AUTH_REQUIRE_VERIFY ? "RequireAndVerifyClientCert" :
	       ca == NL_CLIENT_AUTH_VERIFY_IF_GIVEN ? "VerifyClientCertIfGiven" : "NoClientCert";
}

/* -j: the start-up facts as one JSON object on stdout (the same facts as
 * the "serving" line and the index page), so that a supervisor or a test
 * reads the bound port and what runs without scraping stderr. @s is NULL
 * for --synthetic; @http holds a->nr_listen servers, the first one also
 * described at the top level. Returns 0 or -errno. */
static int print_startup_json(const struct nl_export_args *a, const struct export_state *x,
			      const struct nl_cli_session *s, struct nl_http *const *http,
			      const struct nl_web_config *web)
{
	cJSON *o = cJSON_CreateObject(), *p, *pat, *ls;
	char url[600], *out;
	int e = 0;

	if (!o)
		return -ENOMEM;
	listen_url(a, 0, http[0], url, sizeof(url));
	cJSON_AddStringToObject(o, "program", "numalens export");
	cJSON_AddStringToObject(o, "version", NL_VERSION);
	cJSON_AddNumberToObject(o, "pid", (double)getpid());
	cJSON_AddStringToObject(o, "listen", a->listen[0]);
	cJSON_AddNumberToObject(o, "port", nl_http_port(http[0]));
	cJSON_AddStringToObject(o, "url", url);
	cJSON_AddBoolToObject(o, "every_address", a->listen[0][0] == ':');
	cJSON_AddBoolToObject(o, "ipv6", nl_http_ipv6(http[0]));
	ls = cJSON_AddArrayToObject(o, "listen_addresses");
	for (int i = 0; ls && i < a->nr_listen; i++) {
		cJSON *l = cJSON_CreateObject();

		listen_url(a, i, http[i], url, sizeof(url));
		cJSON_AddStringToObject(l, "listen", a->listen[i]);
		cJSON_AddNumberToObject(l, "port", nl_http_port(http[i]));
		cJSON_AddStringToObject(l, "url", url);
		cJSON_AddItemToArray(ls, l);
	}
	cJSON_AddBoolToObject(o, "tls", a->tls);
	cJSON_AddStringToObject(o, "client_auth", client_auth_name(web->client_auth));
	cJSON_AddBoolToObject(o, "basic_auth", a->basic_auth);
	cJSON_AddStringToObject(o, "web_config_file", a->web_config ? a->web_config : "");
	cJSON_AddNumberToObject(o, "interval_seconds", a->interval);
	cJSON_AddBoolToObject(o, "synthetic", !s);
	p = cJSON_AddObjectToObject(o, "programs");
	cJSON_AddBoolToObject(p, "sched", s && s->bpf.have_sched);
	cJSON_AddBoolToObject(p, "alloc", s && s->bpf.have_alloc);
	cJSON_AddBoolToObject(p, "alloc_class", s && s->bpf.have_alloc_class);
	cJSON_AddBoolToObject(p, "migrate", s && s->bpf.have_migrate);
	cJSON_AddBoolToObject(p, "vmscan", s && s->bpf.have_vmscan);
	cJSON_AddNumberToObject(o, "links", s ? s->bpf.nr_links : 0);
	cJSON_AddStringToObject(o, "running_without", x->missing);
	cJSON_AddStringToObject(o, "cgroup_hierarchy",
				!s ? "synthetic" : s->mode == NL_CG_V1_MEMORY ? "v1-memory" : "v2");
	cJSON_AddStringToObject(o, "cgroup_root", s ? s->root : "");
	cJSON_AddNumberToObject(o, "cgroup_depth", a->po.cgroup_depth);
	pat = cJSON_AddArrayToObject(o, "cgroup_patterns");
	for (int i = 0; pat && i < a->po.nr_cgroup_patterns; i++)
		cJSON_AddItemToArray(pat, cJSON_CreateString(a->patterns[i]));
	cJSON_AddNumberToObject(o, "max_cgroups", a->po.max_cgroups);
	cJSON_AddNumberToObject(o, "top_procs", a->po.top_procs);
	cJSON_AddNumberToObject(o, "cgroup_grace_seconds", a->grace);
	cJSON_AddBoolToObject(o, "cgroup_reclaim_histograms", a->po.cgroup_reclaim_histograms);
	cJSON_AddBoolToObject(o, "class_split", !a->no_class);
	cJSON_AddBoolToObject(o, "self_cost", a->self_cost);
	out = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	if (!out)
		return -ENOMEM;
	if (printf("%s\n", out) < 0 || fflush(stdout))
		e = -errno;
	free(out);
	return e;
}

/* Stop the servers @http[0..n) that were started. */
static void stop_servers(struct nl_http **http, int n)
{
	for (int i = 0; i < n; i++) {
		nl_http_stop(http[i]);
		http[i] = NULL;
	}
}

/* Load --web.config.file, whole, before anything binds. Returns 0 or the
 * exit status after saying why. */
static int load_web_config(struct nl_export_args *a, struct nl_web_config *web)
{
	char err[512];
	int e;

	if (!a->web_config)
		return 0;
	e = nl_web_config_load(web, a->web_config, err, sizeof(err));
	if (e) {
		fprintf(stderr, "numalens export: --web.config.file %s\n", err);
		return e == -ENOMEM ? NL_EXIT_FAIL : NL_EXIT_USAGE;
	}
	a->tls = web->tls;
	a->basic_auth = web->nr_users > 0;
	if (a->basic_auth && !a->tls)
		fprintf(stderr, "numalens export: %s has basic_auth_users but no tls_server_config: "
			"passwords cross the network in the clear\n", a->web_config);
	return 0;
}

/* Bind every listen address (before loading BPF: a taken port fails fast
 * and changes nothing). Returns 0, or the exit status after saying why and
 * stopping the servers already started. */
static int start_servers(struct nl_export_args *a, struct export_state *x, struct nl_web_config *web,
			 struct nl_http **http)
{
	struct nl_http_opts ho;
	sigset_t sigs, old;
	char err[512];
	int e = 0;

	/* the HTTP threads must not take SIGINT/SIGTERM: the main thread's
	 * sleep is what the signal has to interrupt */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &sigs, &old);
	ho = (struct nl_http_opts){ .max_conns = a->max_conns, .verbose = a->verbose,
				    .max_per_addr = a->max_per_addr,
				    .header_timeout_ms = (unsigned)(a->header_timeout * 1000 + 0.5),
				    .web = web,
				    .routes = { route_metrics, route_index, route_health, x } };
	for (int i = 0; !e && i < a->nr_listen; i++) {
		ho.listen = a->listen[i];
		e = nl_http_start(&http[i], &ho, err, sizeof(err));
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!e)
		return 0;
	fprintf(stderr, "numalens export: %s\n", err);
	stop_servers(http, a->nr_listen);
	return e == -EADDRINUSE || e == -EINVAL || e == -EADDRNOTAVAIL || e == -EACCES ?
		NL_EXIT_USAGE : NL_EXIT_FAIL;
}

/* Load the BPF programs and the collector into @s. Returns 0 or the exit
 * status (nl_cli_open has said why). */
static int open_bpf(struct nl_export_args *a, struct export_state *x, struct nl_cli_session *s)
{
	struct nl_cli_open_opts oo = {
		.btf = a->btf,
		.cg_mode = a->cg_mode, .track_class = !a->no_class, .verbose = a->verbose,
		.alloc_sample = a->alloc_sample,
		.prog = "numalens export", .self_cost = a->self_cost,
		/* no export family carries process RSS: skip numa_maps */
		.rss_max_procs = -1,
		/* intervals, rounded up, so the last counts get scraped */
		.cgroup_grace = (int)(a->grace / a->interval + 0.999),
	};
	int rc;

	if (!oo.cgroup_grace)
		oo.cgroup_grace = 1;
	rc = nl_cli_open(s, &oo);
	if (rc)
		return rc;
	snprintf(x->missing, sizeof(x->missing), "%s", s->bpf.missing);
	snprintf(x->hierarchy, sizeof(x->hierarchy), "%s (%s)",
		 s->mode == NL_CG_V1_MEMORY ? "v1-memory" : "v2", s->root[0] ? s->root : "not mounted");
	if (s->bpf.missing[0])
		fprintf(stderr, "numalens export: running without: %s\n", s->bpf.missing);
	if (s->root[0])
		warn_unmatched_patterns(a, s->root);
	return 0;
}

/* One line on stderr per address served, with what is exported. */
static void announce(const struct nl_export_args *a, struct nl_http **http, const struct nl_web_config *web)
{
	for (int i = 0; i < a->nr_listen; i++) {
		char url[600];

		/* the bound port, not the asked one (":0" picks a free port);
		 * an empty ADDR is the IPv6 wildcard, dual-stack: every address */
		listen_url(a, i, http[i], url, sizeof(url));
		fprintf(stderr, "numalens export: serving %s%s%s%s (interval %g s, cgroups depth <= %d%s, top %d processes)\n",
			url, a->listen[i][0] != ':' ? "" : nl_http_ipv6(http[i]) ?
			" on every IPv4 and IPv6 address" : " on every IPv4 address",
			web->client_auth == NL_CLIENT_AUTH_REQUIRE_VERIFY ? ", client certificates required" :
			web->client_auth == NL_CLIENT_AUTH_VERIFY_IF_GIVEN ? ", client certificates checked" : "",
			a->basic_auth ? ", basic auth" : "",
			a->interval, a->po.cgroup_depth, a->po.nr_cgroup_patterns ? " + patterns" : "", a->po.top_procs);
	}
}

int nl_cmd_export(int argc, char **argv)
{
	struct nl_export_args a;
	struct export_state x = { .mu = PTHREAD_MUTEX_INITIALIZER, .heavy = PTHREAD_MUTEX_INITIALIZER, .a = &a };
	struct nl_http *http[NL_EXPORT_MAX_LISTEN] = {};
	struct nl_web_config web = {};
	struct nl_cli_session s;
	bool bpf = false;
	int rc, e;

	nl_export_opts_parse(argc, argv, &a);
	/* the whole file is checked, certificates loaded, before any bind */
	rc = load_web_config(&a, &web);
	if (rc)
		return rc;
	a.po.cgroup_patterns = a.patterns;
	a.po.version = NL_VERSION;
	snprintf(x.hierarchy, sizeof(x.hierarchy), "synthetic");
	rc = start_servers(&a, &x, &web, http);
	if (rc) {
		nl_web_config_free(&web);
		return rc;
	}
	nl_cli_install_signals();	/* before the load: a signal during it exits 0 */
	if (!a.synth_cgroups) {
		rc = open_bpf(&a, &x, &s);
		if (rc) {
			stop_servers(http, a.nr_listen);
			nl_web_config_free(&web);
			return rc;
		}
		bpf = true;
	}
	announce(&a, http, &web);
	if (a.json && (e = print_startup_json(&a, &x, bpf ? &s : NULL, http, &web)) && e != -EPIPE)
		fprintf(stderr, "numalens export: writing the start-up facts failed: %s\n", strerror(-e));
	rc = serve(&x, bpf ? s.col : NULL);
	/* detach: stop serving first (no render can hold a snapshot), then
	 * the collector and the BPF links */
	stop_servers(http, a.nr_listen);
	nl_web_config_free(&web);
	if (x.cur)
		pub_put(&x, x.cur);
	if (bpf)
		nl_cli_close(&s);
	if (!rc)
		fprintf(stderr, "numalens export: stopped\n");
	return rc;
}
