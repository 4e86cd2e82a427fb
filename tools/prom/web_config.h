/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The web configuration file of `numalens export` (--web.config.file):
 * the YAML layout Prometheus exporters share, so that one file and one
 * promtool check serve a fleet. Two sections are read:
 *
 *   tls_server_config:  cert_file, key_file, client_auth_type,
 *                       client_ca_file, min_version, max_version
 *   basic_auth_users:   USER: BCRYPT-HASH
 *
 * Everything else the layout knows (cipher_suites, http_server_config,
 * ...) and every unknown key is refused with a one-line error naming the
 * key, so that a file that promises more than numalens does never
 * starts a server that quietly does less. TLS is 1.2 or later only.
 */
#ifndef NL_WEB_CONFIG_H
#define NL_WEB_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

/* Which client certificates the TLS server asks for and checks. */
enum nl_client_auth {
	NL_CLIENT_AUTH_NONE,		/* NoClientCert (the default) */
	NL_CLIENT_AUTH_VERIFY_IF_GIVEN,	/* VerifyClientCertIfGiven */
	NL_CLIENT_AUTH_REQUIRE_VERIFY,	/* RequireAndVerifyClientCert */
};

/* One basic-auth user: the name and its bcrypt hash ($2y$, $2b$ or $2a$). */
struct nl_web_user {
	char *name;
	char *hash;
};

/* A loaded web configuration. All strings are owned (nl_web_config_free). */
struct nl_web_config {
	bool tls;			/* tls_server_config with a certificate */
	char *cert_file, *key_file, *client_ca_file;	/* as resolved (relative
							 * to the file's folder) */
	char *cert_pem, *key_pem, *client_ca_pem;	/* their contents, NUL-ended */
	enum nl_client_auth client_auth;
	int min_version, max_version;	/* 12 or 13 (TLS 1.2 / 1.3) */
	struct nl_web_user *users;	/* basic_auth_users, in file order */
	int nr_users;
};

/*
 * Parse the YAML text @text (@len bytes) into @c (zeroed first). @dir is
 * the folder relative file names are taken from ("" or NULL: the current
 * one). The files named are read, and a certificate, key or CA that does
 * not load is an error here, before anything is bound. Returns 0, or
 * -EINVAL with a one-line reason naming the key in @err (@c is then
 * empty), or -ENOMEM.
 */
int nl_web_config_parse(struct nl_web_config *c, const char *text, size_t len, const char *dir,
			char *err, size_t errlen);

/* Read and parse the file @path (see nl_web_config_parse); an unreadable
 * file is -errno with @err naming it. */
int nl_web_config_load(struct nl_web_config *c, const char *path, char *err, size_t errlen);

/* Free what @c holds and zero it. Safe on a zeroed config. */
void nl_web_config_free(struct nl_web_config *c);

/*
 * True when @user (@ulen bytes) is one of @c's users and bcrypt of
 * @pass (@plen bytes) matches its hash. The comparison takes the same
 * time wherever the strings differ, and an unknown user costs a bcrypt
 * too, so neither timing tells a name that exists. A password with a NUL
 * byte never matches.
 */
bool nl_web_config_check_user(const struct nl_web_config *c, const char *user, size_t ulen,
			      const char *pass, size_t plen);

/* The GnuTLS priority string for @c's version range, e.g.
 * "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2". Static storage. */
const char *nl_web_config_priorities(const struct nl_web_config *c);

#endif
