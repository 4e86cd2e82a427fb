// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The web configuration file of `numalens export`; see web_config.h. */
#include <crypt.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gnutls/gnutls.h>
#include <yaml.h>
#include "web_config.h"

/* Certificates, keys and the config itself are small: a bigger file is a
 * wrong path (a log, a disk image), not something to read whole. */
#define MAX_FILE (1u << 20)

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Read all of @path into a NUL-ended heap string. 0 or -errno (-EFBIG). */
static int slurp(const char *path, char **out, size_t *outlen)
{
	size_t cap = 4096, n = 0;
	char *p = malloc(cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC), e = 0;

	if (fd < 0 || !p) {
		e = fd < 0 ? -errno : -ENOMEM;
		goto out;
	}
	for (;;) {
		ssize_t r;

		if (cap - n < 2) {
			char *q;

			if (cap >= MAX_FILE) {
				e = -EFBIG;
				goto out;
			}
			q = realloc(p, cap * 2);
			if (!q) {
				e = -ENOMEM;
				goto out;
			}
			p = q;
			cap *= 2;
		}
		r = read(fd, p + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			e = -errno;
			goto out;
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	p[n] = '\0';
	*out = p;
	if (outlen)
		*outlen = n;
	p = NULL;
out:
	if (fd >= 0)
		close(fd);
	free(p);
	return e;
}

static char *xstrndup(const char *s, size_t n)
{
	char *p = malloc(n + 1);

	if (p) {
		memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

/* A plain scalar that YAML reads as null (a key with nothing after it). */
static bool is_null(const yaml_node_t *n)
{
	const char *v;

	if (!n || n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	v = (const char *)n->data.scalar.value;
	return !v[0] || !strcmp(v, "~") || !strcmp(v, "null") || !strcmp(v, "Null") || !strcmp(v, "NULL");
}

static const char *scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* Walks a mapping: each key must be a scalar and appear once. */
struct walk {
	yaml_document_t *doc;
	const char *section;	/* "tls_server_config", ... ; "" at the top */
	char *err;
	size_t errlen;
};

/* Check @m's keys are scalars without repeats; 0 or -EINVAL. */
static int check_keys(struct walk *w, const yaml_node_t *m)
{
	for (yaml_node_pair_t *a = m->data.mapping.pairs.start; a < m->data.mapping.pairs.top; a++) {
		const char *ka = scalar(yaml_document_get_node(w->doc, a->key));

		if (!ka)
			return fail(w->err, w->errlen, "%s%sa key that is not a plain name (line %lu)",
				    w->section, w->section[0] ? ": " : "",
				    (unsigned long)yaml_document_get_node(w->doc, a->key)->start_mark.line + 1);
		for (yaml_node_pair_t *b = m->data.mapping.pairs.start; b < a; b++)
			if (!strcmp(ka, scalar(yaml_document_get_node(w->doc, b->key))))
				return fail(w->err, w->errlen, "%s%s%s appears twice", w->section,
					    w->section[0] ? "." : "", ka);
	}
	return 0;
}

/* @dir joined with @name unless @name is absolute. */
static char *resolve(const char *dir, const char *name)
{
	char *p;

	if (name[0] == '/' || !dir || !dir[0])
		return strdup(name);
	if (asprintf(&p, "%s/%s", dir, name) < 0)
		return NULL;
	return p;
}

/* Set *@path to @v resolved and read it into *@pem. */
static int read_pem(struct walk *w, const char *key, const char *v, const char *dir, char **path, char **pem)
{
	int e;

	if (!v || !v[0])
		return fail(w->err, w->errlen, "tls_server_config.%s: a file name is needed", key);
	*path = resolve(dir, v);
	if (!*path)
		return -ENOMEM;
	e = slurp(*path, pem, NULL);
	if (e == -ENOMEM)
		return e;
	if (e)
		return fail(w->err, w->errlen, "tls_server_config.%s: cannot read %s: %s", key, *path,
			    e == -EFBIG ? "larger than 1 MiB, not a PEM file" : strerror(-e));
	return 0;
}

static int tls_version(struct walk *w, const char *key, const yaml_node_t *n, int *out)
{
	const char *v = scalar(n);

	if (v && !strcmp(v, "TLS12"))
		*out = 12;
	else if (v && !strcmp(v, "TLS13"))
		*out = 13;
	else if (v && (!strcmp(v, "TLS10") || !strcmp(v, "TLS11")))
		return fail(w->err, w->errlen, "tls_server_config.%s: %s is not served: numalens export speaks "
			    "TLS 1.2 and 1.3 only (TLS12 or TLS13)", key, v);
	else
		return fail(w->err, w->errlen, "tls_server_config.%s: '%s' is not a TLS version (TLS12 or TLS13)",
			    key, v ? v : "(not a scalar)");
	return 0;
}

/* Load the key pair and CA with GnuTLS, as the server will: a file that
 * is not PEM, a key that does not match the certificate, or a CA file
 * without a certificate fails here, before anything is bound. */
static int check_tls_material(struct walk *w, struct nl_web_config *c)
{
	gnutls_certificate_credentials_t cred;
	gnutls_datum_t cert = { (unsigned char *)c->cert_pem, (unsigned)strlen(c->cert_pem) };
	gnutls_datum_t key = { (unsigned char *)c->key_pem, (unsigned)strlen(c->key_pem) };
	int r, e = 0;

	/* reference-counted: the server's own init stays in force */
	if (gnutls_global_init() < 0)
		return fail(w->err, w->errlen, "tls_server_config: GnuTLS does not start");
	if (gnutls_certificate_allocate_credentials(&cred) < 0) {
		gnutls_global_deinit();
		return -ENOMEM;
	}
	r = gnutls_certificate_set_x509_key_mem2(cred, &cert, &key, GNUTLS_X509_FMT_PEM, NULL, 0);
	if (r < 0) {
		e = fail(w->err, w->errlen, "tls_server_config.cert_file %s with key_file %s: %s "
			 "(PEM certificate and its unencrypted PEM private key expected)",
			 c->cert_file, c->key_file, gnutls_strerror(r));
		goto out;
	}
	if (c->client_ca_pem) {
		gnutls_datum_t ca = { (unsigned char *)c->client_ca_pem, (unsigned)strlen(c->client_ca_pem) };

		r = gnutls_certificate_set_x509_trust_mem(cred, &ca, GNUTLS_X509_FMT_PEM);
		if (r <= 0)
			e = fail(w->err, w->errlen, "tls_server_config.client_ca_file %s: %s", c->client_ca_file,
				 r < 0 ? gnutls_strerror(r) : "holds no PEM certificate");
	}
out:
	gnutls_certificate_free_credentials(cred);
	gnutls_global_deinit();
	return e;
}

/* The keys of the layout that numalens does not implement: refused by
 * name, so that nobody believes them in force. */
static const char *const tls_unsupported[] = {
	"cert", "key", "client_ca", "cipher_suites", "curve_preferences", "prefer_server_cipher_suites",
	"client_allowed_sans", NULL,
};

static const char *const tls_known[] = {
	"cert_file", "key_file", "client_ca_file", "client_auth_type", "min_version", "max_version", NULL,
};

static bool in_list(const char *const *l, const char *s)
{
	for (; *l; l++)
		if (!strcmp(*l, s))
			return true;
	return false;
}

/* client_auth_type @auth (NULL: not given) as enum nl_client_auth in
 * *@out; 0, or the error of a type numalens does not take. */
static int client_auth(struct walk *w, const char *auth, enum nl_client_auth *out)
{
	if (!auth || !strcmp(auth, "NoClientCert"))
		*out = NL_CLIENT_AUTH_NONE;
	else if (!strcmp(auth, "VerifyClientCertIfGiven"))
		*out = NL_CLIENT_AUTH_VERIFY_IF_GIVEN;
	else if (!strcmp(auth, "RequireAndVerifyClientCert"))
		*out = NL_CLIENT_AUTH_REQUIRE_VERIFY;
	else if (!strcmp(auth, "RequestClientCert") || !strcmp(auth, "RequireAnyClientCert"))
		return fail(w->err, w->errlen, "tls_server_config.client_auth_type: %s (a certificate taken "
			    "unverified) is not supported: use VerifyClientCertIfGiven or "
			    "RequireAndVerifyClientCert with client_ca_file", auth);
	else
		return fail(w->err, w->errlen, "tls_server_config.client_auth_type: '%s' is none of NoClientCert, "
			    "VerifyClientCertIfGiven, RequireAndVerifyClientCert", auth);
	return 0;
}

static int parse_tls(struct walk *w, struct nl_web_config *c, const yaml_node_t *m, const char *dir)
{
	const char *cert = NULL, *key = NULL, *ca = NULL, *auth = NULL;
	bool have_min = false, have_max = false;
	int e;

	c->min_version = 12;
	c->max_version = 13;
	if (is_null(m))
		return 0;
	if (m->type != YAML_MAPPING_NODE)
		return fail(w->err, w->errlen, "tls_server_config: a mapping of keys (cert_file, key_file, ...) expected");
	w->section = "tls_server_config";
	if ((e = check_keys(w, m)))
		return e;
	for (yaml_node_pair_t *a = m->data.mapping.pairs.start; a < m->data.mapping.pairs.top; a++) {
		const char *k = scalar(yaml_document_get_node(w->doc, a->key));
		const yaml_node_t *vn = yaml_document_get_node(w->doc, a->value);
		const char *v = is_null(vn) ? NULL : scalar(vn);

		if (in_list(tls_unsupported, k))
			return fail(w->err, w->errlen, "tls_server_config.%s is not supported by numalens export "
				    "(it takes cert_file, key_file, client_auth_type, client_ca_file, min_version, "
				    "max_version)", k);
		if (!in_list(tls_known, k))
			return fail(w->err, w->errlen, "tls_server_config.%s: unknown key (cert_file, key_file, "
				    "client_auth_type, client_ca_file, min_version and max_version are known)", k);
		if (!is_null(vn) && !v)
			return fail(w->err, w->errlen, "tls_server_config.%s: a single value expected", k);
		if (!strcmp(k, "cert_file"))
			cert = v;
		else if (!strcmp(k, "key_file"))
			key = v;
		else if (!strcmp(k, "client_ca_file"))
			ca = v;
		else if (!strcmp(k, "client_auth_type"))
			auth = v;
		else if (!strcmp(k, "min_version") && v) {
			if ((e = tls_version(w, k, vn, &c->min_version)))
				return e;
			have_min = true;
		} else if (!strcmp(k, "max_version") && v) {
			if ((e = tls_version(w, k, vn, &c->max_version)))
				return e;
			have_max = true;
		}	/* a null min_version or max_version: the default */
	}
	if (have_min && have_max && c->max_version < c->min_version)
		return fail(w->err, w->errlen, "tls_server_config.max_version TLS%d is below min_version TLS%d",
			    c->max_version, c->min_version);
	if ((e = client_auth(w, auth, &c->client_auth)))
		return e;
	if (!cert && !key && !ca && !auth)
		return 0;	/* versions alone: no TLS, as the layout has it */
	if (!cert || !key)
		return fail(w->err, w->errlen, "tls_server_config.%s is missing: TLS needs both cert_file and key_file",
			    cert ? "key_file" : "cert_file");
	if (ca && c->client_auth == NL_CLIENT_AUTH_NONE)
		return fail(w->err, w->errlen, "tls_server_config.client_ca_file is set but client_auth_type is "
			    "not: set it to RequireAndVerifyClientCert or VerifyClientCertIfGiven");
	if (!ca && c->client_auth != NL_CLIENT_AUTH_NONE)
		return fail(w->err, w->errlen, "tls_server_config.client_auth_type %s needs client_ca_file "
			    "(the CA that signs the client certificates)", auth);
	if ((e = read_pem(w, "cert_file", cert, dir, &c->cert_file, &c->cert_pem)) ||
	    (e = read_pem(w, "key_file", key, dir, &c->key_file, &c->key_pem)) ||
	    (ca && (e = read_pem(w, "client_ca_file", ca, dir, &c->client_ca_file, &c->client_ca_pem))))
		return e;
	if ((e = check_tls_material(w, c)))
		return e;
	c->tls = true;
	return 0;
}

/* A bcrypt hash as crypt(3) writes it: $2a$, $2b$ or $2y$, a two-digit
 * cost 04..31, '$', 53 characters of its base-64 alphabet. */
static bool is_bcrypt(const char *h)
{
	static const char b64[] = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	int cost;

	if (strlen(h) != 60 || h[0] != '$' || h[1] != '2' || !strchr("aby", h[2]) || h[3] != '$' ||
	    h[4] < '0' || h[4] > '3' || h[5] < '0' || h[5] > '9' || h[6] != '$')
		return false;
	cost = (h[4] - '0') * 10 + (h[5] - '0');
	return cost >= 4 && cost <= 31 && strspn(h + 7, b64) == 53;
}

static int parse_users(struct walk *w, struct nl_web_config *c, const yaml_node_t *m)
{
	int e, n = 0;

	if (is_null(m))
		return 0;
	if (m->type != YAML_MAPPING_NODE)
		return fail(w->err, w->errlen, "basic_auth_users: a mapping of USER: BCRYPT-HASH expected");
	w->section = "basic_auth_users";
	if ((e = check_keys(w, m)))
		return e;
	c->users = calloc((size_t)(m->data.mapping.pairs.top - m->data.mapping.pairs.start) + 1, sizeof(*c->users));
	if (!c->users)
		return -ENOMEM;
	for (yaml_node_pair_t *a = m->data.mapping.pairs.start; a < m->data.mapping.pairs.top; a++) {
		const char *u = scalar(yaml_document_get_node(w->doc, a->key));
		const char *h = scalar(yaml_document_get_node(w->doc, a->value));

		if (!u[0] || strchr(u, ':'))
			return fail(w->err, w->errlen, "basic_auth_users: '%s' cannot be a user name (empty, or with ':')", u);
		if (!h || !is_bcrypt(h))
			return fail(w->err, w->errlen, "basic_auth_users.%s: not a bcrypt hash ($2y$, $2b$ or $2a$, "
				    "60 characters; make one with 'htpasswd -nBC 10 %s')", u, u);
		c->users[n].name = strdup(u);
		c->users[n].hash = strdup(h);
		c->nr_users = ++n;
		if (!c->users[n - 1].name || !c->users[n - 1].hash)
			return -ENOMEM;
	}
	return 0;
}

int nl_web_config_parse(struct nl_web_config *c, const char *text, size_t len, const char *dir,
			char *err, size_t errlen)
{
	yaml_parser_t p;
	yaml_document_t doc;
	const yaml_node_t *root;
	struct walk w = { &doc, "", err, errlen };
	int e = 0;

	memset(c, 0, sizeof(*c));
	c->min_version = 12;
	c->max_version = 13;
	if (!yaml_parser_initialize(&p))
		return -ENOMEM;
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
	if (!yaml_parser_load(&p, &doc)) {
		e = p.error == YAML_MEMORY_ERROR ? -ENOMEM :
			fail(err, errlen, "not YAML: %s at line %lu", p.problem ? p.problem : "parse error",
			     (unsigned long)p.problem_mark.line + 1);
		yaml_parser_delete(&p);
		return e;
	}
	root = yaml_document_get_root_node(&doc);
	if (root && !is_null(root) && root->type != YAML_MAPPING_NODE)
		e = fail(err, errlen, "a mapping with tls_server_config and/or basic_auth_users expected at the top");
	else if (root && !is_null(root) && !(e = check_keys(&w, root))) {
		for (yaml_node_pair_t *a = root->data.mapping.pairs.start; !e && a < root->data.mapping.pairs.top; a++) {
			const char *k = scalar(yaml_document_get_node(&doc, a->key));
			const yaml_node_t *v = yaml_document_get_node(&doc, a->value);

			if (!strcmp(k, "tls_server_config"))
				e = parse_tls(&w, c, v, dir);
			else if (!strcmp(k, "basic_auth_users"))
				e = parse_users(&w, c, v);
			else if (!strcmp(k, "http_server_config"))
				e = fail(err, errlen, "http_server_config is not supported by numalens export "
					 "(it serves HTTP/1.1; extra headers cannot be set)");
			else
				e = fail(err, errlen, "%s: unknown key (tls_server_config and basic_auth_users "
					 "are known)", k);
		}
	}
	yaml_document_delete(&doc);
	yaml_parser_delete(&p);
	if (e) {
		if (e == -ENOMEM)
			snprintf(err, errlen, "out of memory");
		nl_web_config_free(c);
	}
	return e;
}

int nl_web_config_load(struct nl_web_config *c, const char *path, char *err, size_t errlen)
{
	char *text = NULL, *dir, *slash, sub[400];
	size_t len;
	int e;

	memset(c, 0, sizeof(*c));
	e = slurp(path, &text, &len);
	if (e) {
		snprintf(err, errlen, "cannot read %s: %s", path,
			 e == -EFBIG ? "larger than 1 MiB, not a web configuration" : strerror(-e));
		return e == -EFBIG ? -EINVAL : e;
	}
	dir = strdup(path);
	if (!dir) {
		free(text);
		return -ENOMEM;
	}
	slash = strrchr(dir, '/');
	if (slash == dir)
		slash[1] = '\0';	/* a file in / */
	else if (slash)
		*slash = '\0';
	else
		dir[0] = '\0';
	e = nl_web_config_parse(c, text, len, dir, sub, sizeof(sub));
	if (e)
		snprintf(err, errlen, "%s: %s", path, sub);
	free(dir);
	free(text);
	return e;
}

/* Overwrite a secret before freeing it. */
static void free_secret(char *s)
{
	if (s) {
		explicit_bzero(s, strlen(s));
		free(s);
	}
}

void nl_web_config_free(struct nl_web_config *c)
{
	free(c->cert_file);
	free(c->key_file);
	free(c->client_ca_file);
	free(c->cert_pem);
	free_secret(c->key_pem);
	free(c->client_ca_pem);
	for (int i = 0; i < c->nr_users; i++) {
		free(c->users[i].name);
		free(c->users[i].hash);
	}
	free(c->users);
	memset(c, 0, sizeof(*c));
}

/* Equal in content and length, in a time that depends on the lengths only. */
static bool same(const char *a, size_t alen, const char *b, size_t blen)
{
	unsigned char d = alen != blen;
	size_t n = alen < blen ? alen : blen;

	for (size_t i = 0; i < n; i++)
		d |= (unsigned char)(a[i] ^ b[i]);
	return !d;
}

bool nl_web_config_check_user(const struct nl_web_config *c, const char *user, size_t ulen,
			      const char *pass, size_t plen)
{
	/* a hash of no password anyone has, for unknown users: they cost a
	 * bcrypt like known ones do (cost taken from the first user) */
	char dummy[61] = "$2b$10$C6UzMDM.H6dfI/f/IKxGhuKBTNtvvXkcCOvTmqSXaJaKVAbILQoIe";
	const char *hash = NULL;
	struct crypt_data *cd;
	char *pw;
	bool ok = false;

	if (!c->nr_users)
		return false;
	for (int i = 0; i < c->nr_users; i++) {
		const char *n = c->users[i].name;

		if (same(n, strlen(n), user, ulen) && !hash)
			hash = c->users[i].hash;
	}
	if (!hash) {
		dummy[4] = c->users[0].hash[4];
		dummy[5] = c->users[0].hash[5];
	}
	cd = calloc(1, sizeof(*cd));	/* 32 KiB: not on a server thread's stack */
	pw = xstrndup(pass, plen);
	if (cd && pw) {
		const char *h = crypt_rn(pw, hash ? hash : dummy, cd, sizeof(*cd));

		/* crypt_rn fails (NULL or '*'...) rather than hashing a
		 * setting it does not know; a NUL in the password would
		 * have cut it short, so it never matches */
		ok = hash && h && h[0] == '$' && memchr(pass, '\0', plen) == NULL &&
		     same(h, strlen(h), hash, strlen(hash));
	}
	if (pw) {
		explicit_bzero(pw, plen);
		free(pw);
	}
	if (cd) {
		explicit_bzero(cd, sizeof(*cd));
		free(cd);
	}
	return ok;
}

const char *nl_web_config_priorities(const struct nl_web_config *c)
{
	if (c->min_version >= 13)
		return "NORMAL:-VERS-ALL:+VERS-TLS1.3";
	if (c->max_version <= 12)
		return "NORMAL:-VERS-ALL:+VERS-TLS1.2";
	return "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2";
}
