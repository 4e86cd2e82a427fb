// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* web_config.c: the export's web configuration file. Good files give the
 * TLS settings and users they name; every bad one is refused with an
 * error that names the key, and leaves nothing loaded. The bcrypt hashes
 * below were made by htpasswd (apache2-utils, $2y$) and by crypt(3)
 * ($2b$, $2a$), all of the password "pw". The certificates are made here
 * with GnuTLS in a temporary folder. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include "web_config.h"

#define HASH_Y "$2y$10$LroIFUbDYLdkm9XPnikApODYrDZlrDzaHaW0p7iLcqvbHsg8JgrG6"
#define HASH_B "$2b$10$abcdefghijklmnopqrstuuj7m4XYqbm74SxoBcXyw8to0CQ061DVG"
#define HASH_A "$2a$10$abcdefghijklmnopqrstuuj7m4XYqbm74SxoBcXyw8to0CQ061DVG"

static char dir[64];

static void put(const char *name, const void *p, size_t n)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, n, f), n);
	fclose(f);
}

/* A key and a certificate for it, signed by @ca_crt/@ca_key or by
 * itself (NULL), written as NAME.key and NAME.crt. */
static void make_cert(const char *name, gnutls_x509_crt_t *crt_out, gnutls_x509_privkey_t *key_out,
		      gnutls_x509_crt_t ca_crt, gnutls_x509_privkey_t ca_key)
{
	gnutls_x509_privkey_t key;
	gnutls_x509_crt_t crt;
	unsigned char buf[8192], serial = 1;
	size_t n;
	char fn[64];

	assert_int_equal(gnutls_x509_privkey_init(&key), 0);
	assert_int_equal(gnutls_x509_privkey_generate(key, GNUTLS_PK_ECDSA,
						      GNUTLS_CURVE_TO_BITS(GNUTLS_ECC_CURVE_SECP256R1), 0), 0);
	assert_int_equal(gnutls_x509_crt_init(&crt), 0);
	gnutls_x509_crt_set_version(crt, 3);
	gnutls_x509_crt_set_serial(crt, &serial, 1);
	gnutls_x509_crt_set_activation_time(crt, time(NULL) - 60);
	gnutls_x509_crt_set_expiration_time(crt, time(NULL) + 3600);
	gnutls_x509_crt_set_dn_by_oid(crt, GNUTLS_OID_X520_COMMON_NAME, 0, name, (unsigned)strlen(name));
	gnutls_x509_crt_set_key(crt, key);
	if (!ca_crt)
		gnutls_x509_crt_set_basic_constraints(crt, 1, -1);
	assert_int_equal(gnutls_x509_crt_sign2(crt, ca_crt ? ca_crt : crt, ca_key ? ca_key : key,
					       GNUTLS_DIG_SHA256, 0), 0);
	n = sizeof(buf);
	assert_int_equal(gnutls_x509_crt_export(crt, GNUTLS_X509_FMT_PEM, buf, &n), 0);
	snprintf(fn, sizeof(fn), "%s.crt", name);
	put(fn, buf, n);
	n = sizeof(buf);
	assert_int_equal(gnutls_x509_privkey_export_pkcs8(key, GNUTLS_X509_FMT_PEM, NULL, GNUTLS_PKCS_PLAIN,
							  buf, &n), 0);
	snprintf(fn, sizeof(fn), "%s.key", name);
	put(fn, buf, n);
	*crt_out = crt;
	*key_out = key;
}

static int setup(void **state)
{
	gnutls_x509_crt_t ca, srv;
	gnutls_x509_privkey_t cak, srvk;

	snprintf(dir, sizeof(dir), "/tmp/nl-webcfg-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	gnutls_global_init();
	make_cert("ca", &ca, &cak, NULL, NULL);
	make_cert("server", &srv, &srvk, ca, cak);
	gnutls_x509_crt_deinit(ca);
	gnutls_x509_crt_deinit(srv);
	gnutls_x509_privkey_deinit(cak);
	gnutls_x509_privkey_deinit(srvk);
	put("notpem.crt", "hello\n", 6);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	gnutls_global_deinit();
	return system(cmd) ? -1 : 0;
}

static int parse(struct nl_web_config *c, const char *yaml, char *err, size_t errlen)
{
	err[0] = '\0';
	return nl_web_config_parse(c, yaml, strlen(yaml), dir, err, errlen);
}

static void test_empty(void **state)
{
	struct nl_web_config c;
	char err[512];

	assert_int_equal(parse(&c, "", err, sizeof(err)), 0);
	assert_false(c.tls);
	assert_int_equal(c.nr_users, 0);
	assert_int_equal(parse(&c, "# nothing\ntls_server_config:\nbasic_auth_users:\n", err, sizeof(err)), 0);
	assert_false(c.tls);
	assert_int_equal(c.nr_users, 0);
	nl_web_config_free(&c);
}

static void test_users(void **state)
{
	struct nl_web_config c;
	char err[512];

	assert_int_equal(parse(&c, "basic_auth_users:\n  alice: " HASH_Y "\n  bob: '" HASH_B "'\n"
				   "  carol: \"" HASH_A "\"\n", err, sizeof(err)), 0);
	assert_false(c.tls);
	assert_int_equal(c.nr_users, 3);
	assert_string_equal(c.users[1].name, "bob");
	assert_true(nl_web_config_check_user(&c, "alice", 5, "pw", 2));
	assert_true(nl_web_config_check_user(&c, "bob", 3, "pw", 2));
	assert_true(nl_web_config_check_user(&c, "carol", 5, "pw", 2));
	assert_false(nl_web_config_check_user(&c, "alice", 5, "pW", 2));
	assert_false(nl_web_config_check_user(&c, "alice", 5, "pw ", 3));
	assert_false(nl_web_config_check_user(&c, "alice", 5, "", 0));
	/* a prefix of a user, another user's name, a NUL cutting the password */
	assert_false(nl_web_config_check_user(&c, "alic", 4, "pw", 2));
	assert_false(nl_web_config_check_user(&c, "dave", 4, "pw", 2));
	assert_false(nl_web_config_check_user(&c, "alice", 5, "pw\0x", 4));
	nl_web_config_free(&c);
	assert_int_equal(c.nr_users, 0);
	assert_false(nl_web_config_check_user(&c, "alice", 5, "pw", 2));
}

static void test_tls(void **state)
{
	struct nl_web_config c;
	char err[512], want[128];

	/* relative names are taken from the file's folder */
	assert_int_equal(parse(&c, "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n",
			       err, sizeof(err)), 0);
	assert_true(c.tls);
	snprintf(want, sizeof(want), "%s/server.crt", dir);
	assert_string_equal(c.cert_file, want);
	assert_non_null(strstr(c.cert_pem, "BEGIN CERTIFICATE"));
	assert_non_null(strstr(c.key_pem, "PRIVATE KEY"));
	assert_int_equal(c.client_auth, NL_CLIENT_AUTH_NONE);
	assert_null(c.client_ca_pem);
	assert_int_equal(c.min_version, 12);
	assert_string_equal(nl_web_config_priorities(&c), "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2");
	nl_web_config_free(&c);

	assert_int_equal(parse(&c, "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n"
				   "  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: ca.crt\n"
				   "  min_version: TLS13\nbasic_auth_users:\n  prom: " HASH_Y "\n", err, sizeof(err)), 0);
	assert_true(c.tls);
	assert_int_equal(c.client_auth, NL_CLIENT_AUTH_REQUIRE_VERIFY);
	assert_non_null(strstr(c.client_ca_pem, "BEGIN CERTIFICATE"));
	assert_int_equal(c.min_version, 13);
	assert_string_equal(nl_web_config_priorities(&c), "NORMAL:-VERS-ALL:+VERS-TLS1.3");
	assert_int_equal(c.nr_users, 1);
	nl_web_config_free(&c);

	assert_int_equal(parse(&c, "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n"
				   "  client_auth_type: VerifyClientCertIfGiven\n  client_ca_file: ca.crt\n"
				   "  max_version: TLS12\n", err, sizeof(err)), 0);
	assert_int_equal(c.client_auth, NL_CLIENT_AUTH_VERIFY_IF_GIVEN);
	assert_string_equal(nl_web_config_priorities(&c), "NORMAL:-VERS-ALL:+VERS-TLS1.2");
	nl_web_config_free(&c);
}

/* Each bad file: refused, the error names @key, nothing is left loaded. */
static void bad(const char *yaml, const char *key)
{
	struct nl_web_config c;
	char err[512];

	assert_int_equal(parse(&c, yaml, err, sizeof(err)), -EINVAL);
	if (!strstr(err, key))
		fail_msg("error '%s' does not name '%s' for:\n%s", err, key, yaml);
	assert_null(strchr(err, '\n'));
	assert_false(c.tls);
	assert_int_equal(c.nr_users, 0);
	assert_null(c.users);
	assert_null(c.cert_pem);
	assert_null(c.key_pem);
}

#define PAIR "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n"

static void test_bad(void **state)
{
	bad("tls_config:\n  cert_file: x\n", "tls_config");
	bad("- a\n- b\n", "mapping");
	bad("tls_server_config: [\n", "not YAML");
	bad("basic_auth_users:\n  a: " HASH_Y "\n  a: " HASH_B "\n", "basic_auth_users.a appears twice");
	bad("http_server_config:\n  http2: false\n", "http_server_config");
	bad(PAIR "  cipher_suites: [TLS_AES_128_GCM_SHA256]\n", "cipher_suites is not supported");
	bad(PAIR "  client_allowed_sans: [a]\n", "client_allowed_sans");
	bad(PAIR "  cert_flie: x\n", "cert_flie");
	bad(PAIR "  min_version: TLS11\n", "min_version");
	bad(PAIR "  min_version: TLS10\n", "min_version");
	bad(PAIR "  min_version: 1.2\n", "min_version");
	bad(PAIR "  min_version: TLS13\n  max_version: TLS12\n", "max_version");
	bad(PAIR "  client_auth_type: RequireAnyClientCert\n  client_ca_file: ca.crt\n", "client_auth_type");
	bad(PAIR "  client_auth_type: Always\n  client_ca_file: ca.crt\n", "client_auth_type");
	bad(PAIR "  client_auth_type: RequireAndVerifyClientCert\n", "client_ca_file");
	bad(PAIR "  client_ca_file: ca.crt\n", "client_auth_type");
	bad(PAIR "  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: notpem.crt\n",
	    "client_ca_file");
	bad(PAIR "  key_file: ca.key\n", "key_file appears twice");
	bad("tls_server_config:\n  cert_file: server.crt\n", "key_file");
	bad("tls_server_config:\n  key_file: server.key\n", "cert_file");
	bad("tls_server_config:\n  cert_file: missing.crt\n  key_file: server.key\n", "cert_file");
	bad("tls_server_config:\n  cert_file: server.crt\n  key_file: missing.key\n", "key_file");
	/* a key that is not the certificate's */
	bad("tls_server_config:\n  cert_file: server.crt\n  key_file: ca.key\n", "cert_file");
	bad("tls_server_config:\n  cert_file: notpem.crt\n  key_file: server.key\n", "cert_file");
	bad("tls_server_config:\n  cert_file: [a, b]\n  key_file: server.key\n", "cert_file");
	bad("tls_server_config: yes\n", "tls_server_config");
	bad("basic_auth_users:\n  - alice\n", "basic_auth_users");
	bad("basic_auth_users:\n  alice: pw\n", "basic_auth_users.alice");
	bad("basic_auth_users:\n  alice: $1$abcdefgh$abcdefghijklmnopqrstuv\n", "basic_auth_users.alice");
	bad("basic_auth_users:\n  alice: \"$2y$03$LroIFUbDYLdkm9XPnikApODYrDZlrDzaHaW0p7iLcqvbHsg8JgrG6\"\n",
	    "basic_auth_users.alice");
	bad("basic_auth_users:\n  alice:\n", "basic_auth_users.alice");
	bad("basic_auth_users:\n  \"a:b\": " HASH_Y "\n", "a:b");
	/* a good section does not save a bad one after it */
	bad("basic_auth_users:\n  alice: " HASH_Y "\nextra: 1\n", "extra");
}

static void test_load(void **state)
{
	struct nl_web_config c;
	char err[512], path[128];

	snprintf(path, sizeof(path), "%s/web.yml", dir);
	put("web.yml", PAIR, strlen(PAIR));
	assert_int_equal(nl_web_config_load(&c, path, err, sizeof(err)), 0);
	assert_true(c.tls);
	nl_web_config_free(&c);
	snprintf(path, sizeof(path), "%s/none.yml", dir);
	assert_int_equal(nl_web_config_load(&c, path, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, path));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_users),
		cmocka_unit_test(test_tls),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_load),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
