// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Pod, container and systemd unit of a cgroup path; see cgident.h. */
#include <stdio.h>
#include <string.h>
#include "cgident.h"

/* One path component: @n bytes at @p (not NUL-terminated). */
struct comp {
	const char *p;
	size_t n;
};

static bool comp_is(struct comp c, const char *s)
{
	return c.n == strlen(s) && !memcmp(c.p, s, c.n);
}

static bool has_prefix(struct comp c, const char *s)
{
	size_t l = strlen(s);

	return c.n >= l && !memcmp(c.p, s, l);
}

static bool has_suffix(struct comp c, const char *s)
{
	size_t l = strlen(s);

	return c.n >= l && !memcmp(c.p + c.n - l, s, l);
}

static int hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

static char lower_hex(char ch)
{
	return ch >= 'A' && ch <= 'F' ? (char)(ch - 'A' + 'a') : ch;
}

/* A pod uid of @n bytes at @p, its groups separated by @sep ('-' in the
 * cgroupfs form, '_' in the systemd one), or 32 bare hex digits: written
 * lower-case and dashed to @out (NL_POD_UID_LEN + 1 bytes). */
static bool parse_uid(const char *p, size_t n, char sep, char *out)
{
	static const int dash_at[] = { 8, 13, 18, 23 };

	if (n == 32) {
		for (size_t i = 0; i < n; i++) {
			if (hexval(p[i]) < 0)
				return false;
			out[i] = lower_hex(p[i]);
		}
		out[n] = '\0';
		return true;
	}
	if (n != NL_POD_UID_LEN)
		return false;
	for (size_t i = 0, d = 0; i < n; i++) {
		if (d < 4 && (int)i == dash_at[d]) {
			if (p[i] != sep)
				return false;
			out[i] = '-';
			d++;
			continue;
		}
		if (hexval(p[i]) < 0)
			return false;
		out[i] = lower_hex(p[i]);
	}
	out[n] = '\0';
	return true;
}

static bool parse_ctr_id(const char *p, size_t n, char *out)
{
	if (n != NL_CTR_ID_LEN)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (hexval(p[i]) < 0)
			return false;
		out[i] = lower_hex(p[i]);
	}
	out[n] = '\0';
	return true;
}

/* The part of a systemd-driver pod slice name before "-pod<uid>.slice":
 * "kubepods", optionally with "-burstable" or "-besteffort" after it and
 * "<cgroup root>-" before it. */
static bool kubepods_prefix(const char *p, size_t n)
{
	static const char *const qos[] = { "-burstable", "-besteffort" };
	static const char kp[] = "kubepods";
	const size_t kl = sizeof(kp) - 1;

	for (size_t q = 0; q < 2; q++) {
		size_t l = strlen(qos[q]);

		if (n > l && !memcmp(p + n - l, qos[q], l)) {
			n -= l;
			break;
		}
	}
	return n >= kl && !memcmp(p + n - kl, kp, kl) && (n == kl || p[n - kl - 1] == '-');
}

/* A pod's cgroup: "…kubepods[-qos]-pod<U_U_…>.slice", or "pod<U-U-…>"
 * below "kubepods", "burstable" or "besteffort" (@parent). */
static bool pod_comp(struct comp c, struct comp parent, char *uid)
{
	if (has_suffix(c, ".slice")) {
		size_t n = c.n - 6;

		/* the uid holds no '-' in this form: its "-pod" is the last one */
		for (size_t i = n; i-- > 0;)
			if (c.p[i] == '-')
				return i + 4 <= n && !memcmp(c.p + i, "-pod", 4) &&
				       kubepods_prefix(c.p, i) &&
				       parse_uid(c.p + i + 4, n - i - 4, '_', uid);
		return false;
	}
	return has_prefix(c, "pod") &&
	       (comp_is(parent, "kubepods") || comp_is(parent, "burstable") ||
		comp_is(parent, "besteffort")) &&
	       parse_uid(c.p + 3, c.n - 3, '-', uid);
}

enum ctr_match { CTR_NO, CTR_YES, CTR_CONMON };

/* A container's cgroup: "<runtime>-<ID>[.scope]", or a bare "<ID>" when
 * @bare_ok (right below a pod or a "docker" component). */
static enum ctr_match ctr_comp(struct comp c, bool bare_ok, char *id, unsigned char *rt)
{
	static const struct { const char *prefix; unsigned char rt; } names[] = {
		{ "cri-containerd-", NL_RT_CONTAINERD },
		{ "crio-conmon-", NL_RT_NONE },	/* before "crio-": a longer prefix of it */
		{ "crio-", NL_RT_CRIO },
		{ "docker-", NL_RT_DOCKER },
	};
	struct comp b = c;

	if (has_suffix(b, ".scope"))
		b.n -= 6;
	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		size_t l = strlen(names[k].prefix);

		if (!has_prefix(b, names[k].prefix))
			continue;
		if (!parse_ctr_id(b.p + l, b.n - l, id))
			return CTR_NO;
		if (names[k].rt == NL_RT_NONE) {
			id[0] = '\0';
			return CTR_CONMON;
		}
		*rt = names[k].rt;
		return CTR_YES;
	}
	if (bare_ok && b.n == c.n && parse_ctr_id(c.p, c.n, id)) {
		*rt = NL_RT_NONE;
		return CTR_YES;
	}
	return CTR_NO;
}

/* "<name>.service" with a name systemd accepts. */
static bool unit_comp(struct comp c)
{
	if (!has_suffix(c, ".service") || c.n <= 8 || c.n >= NL_UNIT_NAME_MAX)
		return false;
	for (size_t i = 0; i < c.n; i++) {
		char ch = c.p[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
		      strchr(":_.\\-@", ch)))
			return false;
	}
	return true;
}

bool nl_cgident_parse(const char *path, struct nl_cg_ident *id)
{
	struct comp prev = { "", 0 };
	/* the last component was a pod's: the next one must be a container */
	bool below_pod = false;
	const char *p = path ? path : "/";

	memset(id, 0, sizeof(*id));
	while (*p) {
		struct comp c;
		char uid[NL_POD_UID_LEN + 1], cid[NL_CTR_ID_LEN + 1];
		unsigned char rt = NL_RT_NONE;
		enum ctr_match m;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		c.p = p;
		while (*p && *p != '/')
			p++;
		c.n = (size_t)(p - c.p);
		if (pod_comp(c, prev, uid)) {
			/* the innermost pod counts (a kubelet inside a pod) */
			memcpy(id->pod_uid, uid, sizeof(uid));
			id->container_id[0] = '\0';
			id->runtime = NL_RT_NONE;
			id->kind = NL_CGK_POD;
			below_pod = true;
		} else if (below_pod) {
			below_pod = false;
			m = ctr_comp(c, true, cid, &rt);
			if (m == CTR_YES) {
				memcpy(id->container_id, cid, sizeof(cid));
				id->runtime = rt;
				id->kind = NL_CGK_CONTAINER;
			} else {
				id->pod_uid[0] = '\0';	/* not a container: no identity below */
				id->kind = NL_CGK_NONE;
			}
		} else if (ctr_comp(c, comp_is(prev, "docker"), cid, &rt) == CTR_YES) {
			/* the innermost container counts (docker in docker) */
			memcpy(id->container_id, cid, sizeof(cid));
			id->runtime = rt;
			id->kind = NL_CGK_CONTAINER;
		} else {
			id->kind = NL_CGK_NONE;
		}
		if (unit_comp(c)) {
			memcpy(id->unit, c.p, c.n);
			id->unit[c.n] = '\0';
			if (id->kind == NL_CGK_NONE)
				id->kind = NL_CGK_UNIT;
		}
		prev = c;
	}
	return nl_cgident_any(id);
}

bool nl_cgident_any(const struct nl_cg_ident *id)
{
	return id->pod_uid[0] || id->container_id[0] || id->unit[0];
}

size_t nl_cgident_short(const struct nl_cg_ident *id, char *out, size_t len)
{
	int n = 0;

	switch (id->kind) {
	case NL_CGK_POD:
		n = snprintf(out, len, "pod:%.*s", NL_POD_UID_SHORT, id->pod_uid);
		break;
	case NL_CGK_CONTAINER:
		if (id->pod_uid[0])
			n = snprintf(out, len, "pod:%.*s/ctr:%.*s", NL_POD_UID_SHORT, id->pod_uid,
				     NL_CTR_ID_SHORT, id->container_id);
		else
			n = snprintf(out, len, "ctr:%.*s", NL_CTR_ID_SHORT, id->container_id);
		break;
	case NL_CGK_UNIT:
		n = snprintf(out, len, "%s", id->unit);
		break;
	default:
		if (len)
			out[0] = '\0';
	}
	return n > 0 ? (size_t)n : 0;
}

const char *nl_cgident_ctr_runtime_name(int runtime)
{
	switch (runtime) {
	case NL_RT_CONTAINERD: return "containerd";
	case NL_RT_CRIO: return "cri-o";
	case NL_RT_DOCKER: return "docker";
	}
	return NULL;
}
