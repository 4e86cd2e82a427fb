// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * cgident: pod uid, container id and systemd unit read from cgroup paths.
 * A table of paths as the kubelet (systemd and cgroupfs drivers),
 * containerd, CRI-O, Docker and systemd make them, and odd ones that must
 * name nothing: ids too short or too long, non-hex and non-ASCII bytes,
 * missing pieces, a uid in the other driver's form, ".." paths of cgroups
 * outside a cgroup namespace.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "cgident.h"

#define UID "1a2b3c4d-5e6f-4a0b-8c9d-0e1f2a3b4c5d"
#define UID_SD "1a2b3c4d_5e6f_4a0b_8c9d_0e1f2a3b4c5d"
#define CID "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define CID2 "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"
#define SD_POD "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_SD ".slice"

static const struct row {
	const char *path;
	const char *pod, *ctr, *unit;	/* expected; "" = none */
	int runtime, kind;
	const char *shortf;		/* expected short form, "" = none */
} rows[] = {
	/* the root and plain slices */
	{ "/", "", "", "", NL_RT_NONE, NL_CGK_NONE, "" },
	{ "", "", "", "", NL_RT_NONE, NL_CGK_NONE, "" },
	{ "/kubepods.slice", "", "", "", NL_RT_NONE, NL_CGK_NONE, "" },
	{ "/kubepods.slice/kubepods-burstable.slice", "", "", "", NL_RT_NONE, NL_CGK_NONE, "" },
	/* systemd driver: the three QoS classes, then containers of each runtime */
	{ "/kubepods.slice/kubepods-pod" UID_SD ".slice", UID, "", "", NL_RT_NONE, NL_CGK_POD,
	  "pod:1a2b3c4d" },
	{ SD_POD, UID, "", "", NL_RT_NONE, NL_CGK_POD, "pod:1a2b3c4d" },
	{ "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" UID_SD ".slice", UID, "", "",
	  NL_RT_NONE, NL_CGK_POD, "pod:1a2b3c4d" },
	{ SD_POD "/cri-containerd-" CID ".scope", UID, CID, "", NL_RT_CONTAINERD, NL_CGK_CONTAINER,
	  "pod:1a2b3c4d/ctr:0123456789ab" },
	{ SD_POD "/crio-" CID ".scope", UID, CID, "", NL_RT_CRIO, NL_CGK_CONTAINER,
	  "pod:1a2b3c4d/ctr:0123456789ab" },
	{ SD_POD "/docker-" CID ".scope", UID, CID, "", NL_RT_DOCKER, NL_CGK_CONTAINER,
	  "pod:1a2b3c4d/ctr:0123456789ab" },
	/* inside a container: its identity, no short form of its own */
	{ SD_POD "/cri-containerd-" CID ".scope/init", UID, CID, "", NL_RT_CONTAINERD, NL_CGK_NONE, "" },
	/* CRI-O's conmon beside the containers: no identity, nor below it */
	{ SD_POD "/crio-conmon-" CID ".scope", "", "", "", NL_RT_NONE, NL_CGK_NONE, "" },
	{ SD_POD "/crio-conmon-" CID ".scope/x", "", "", "", NL_RT_NONE, NL_CGK_NONE, "" },
	/* an unknown cgroup below the pod, or a container id too short */
	{ SD_POD "/something.scope", "", "", "", NL_RT_NONE, NL_CGK_NONE, "" },
	{ SD_POD "/cri-containerd-0123abcd.scope", "", "", "", NL_RT_NONE, NL_CGK_NONE, "" },
	{ SD_POD "/cri-containerd-" CID "0.scope", "", "", "", NL_RT_NONE, NL_CGK_NONE, "" },
	{ SD_POD "/cri-containerd-" CID, UID, CID, "", NL_RT_CONTAINERD, NL_CGK_CONTAINER,
	  "pod:1a2b3c4d/ctr:0123456789ab" },
	/* the kubelet's --cgroup-root in front (kind: "kubelet-kubepods-…") */
	{ "/kubelet.slice/kubelet-kubepods.slice/kubelet-kubepods-besteffort.slice/"
	  "kubelet-kubepods-besteffort-pod" UID_SD ".slice", UID, "", "", NL_RT_NONE, NL_CGK_POD, "pod:1a2b3c4d" },
	/* upper-case hex is written lower-case */
	{ "/kubepods.slice/kubepods-pod1A2B3C4D_5E6F_4A0B_8C9D_0E1F2A3B4C5D.slice/crio-"
	  "0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef.scope", UID, CID, "",
	  NL_RT_CRIO, NL_CGK_CONTAINER, "pod:1a2b3c4d/ctr:0123456789ab" },
	/* a static pod: the kubelet's uid is 32 hex digits */
	{ "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod0f1e2d3c4b5a69788796a5b4c3d2e1f0.slice",
	  "0f1e2d3c4b5a69788796a5b4c3d2e1f0", "", "", NL_RT_NONE, NL_CGK_POD, "pod:0f1e2d3c" },
	/* systemd form with the uid dashed, cgroupfs form with it underscored,
	 * short, long, non-hex, missing: nothing */
	{ "/kubepods.slice/kubepods-pod" UID ".slice", "", "", "", NL_RT_NONE, NL_CGK_NONE, "" },
	{ "/kubepods/pod" UID_SD, "", "", "", NL_RT_NONE, NL_CGK_NONE, "" },
	{ "/kubepods.slice/kubepods-pod1a2b3c4d_5e6f_4a0b_8c9d_0e1f2a3b4c5.slice", "", "", "", NL_RT_NONE,
	  NL_CGK_NONE, "" },
	{ "/kubepods.slice/kubepods-pod1a2b3c4d_5e6f_4a0b_8c9d_0e1f2a3b4c5d0.slice", "", "", "", NL_RT_NONE,
	  NL_CGK_NONE, "" },
	{ "/kubepods.slice/kubepods-pod1a2b3c4d_5e6f_4a0b_8c9d_0e1f2a3b4c5g.slice", "", "", "", NL_RT_NONE,
	  NL_CGK_NONE, "" },
	{ "/kubepods.slice/kubepods-pod.slice", "", "", "", NL_RT_NONE, NL_CGK_NONE, "" },
	{ "/kubepods.slice/kubepods-burstable-" UID_SD ".slice", "", "", "", NL_RT_NONE, NL_CGK_NONE, "" },
	{ "/kubepods.slice/kubepods-pod" UID_SD, "", "", "", NL_RT_NONE, NL_CGK_NONE, "" },
	{ "/podpods.slice/podpods-pod" UID_SD ".slice", "", "", "", NL_RT_NONE, NL_CGK_NONE, "" },
	{ "/mykubepods.slice/mykubepods-pod" UID_SD ".slice", "", "", "", NL_RT_NONE, NL_CGK_NONE, "" },
	{ "/kubepods.slice/kubepods-guaranteed-pod" UID_SD ".slice", "", "", "", NL_RT_NONE, NL_CGK_NONE, "" },
	/* unicode: a look-alike digit (U+0661) and a non-ASCII unit name */
	{ "/kubepods.slice/kubepods-pod\xd9\xa1" "a2b3c4d_5e6f_4a0b_8c9d_0e1f2a3b4c5d.slice", "", "", "",
	  NL_RT_NONE, NL_CGK_NONE, "" },
	{ "/system.slice/caf\xc3\xa9.service", "", "", "", NL_RT_NONE, NL_CGK_NONE, "" },
	/* cgroupfs driver: guaranteed, burstable, besteffort; bare ids */
	{ "/kubepods/pod" UID, UID, "", "", NL_RT_NONE, NL_CGK_POD, "pod:1a2b3c4d" },
	{ "/kubepods/burstable/pod" UID "/" CID, UID, CID, "", NL_RT_NONE, NL_CGK_CONTAINER,
	  "pod:1a2b3c4d/ctr:0123456789ab" },
	{ "/kubepods/besteffort/pod" UID "/" CID, UID, CID, "", NL_RT_NONE, NL_CGK_CONTAINER,
	  "pod:1a2b3c4d/ctr:0123456789ab" },
	{ "/kubepods/besteffort/pod" UID "/crio-" CID, UID, CID, "", NL_RT_CRIO, NL_CGK_CONTAINER,
	  "pod:1a2b3c4d/ctr:0123456789ab" },
	{ "/kubepods/besteffort/pod" UID "/crio-conmon-" CID, "", "", "", NL_RT_NONE, NL_CGK_NONE, "" },
	{ "/kubepods/besteffort/pod" UID "/0123abcd", "", "", "", NL_RT_NONE, NL_CGK_NONE, "" },
	{ "/kubelet/kubepods/pod" UID "/" CID, UID, CID, "", NL_RT_NONE, NL_CGK_CONTAINER,
	  "pod:1a2b3c4d/ctr:0123456789ab" },
	/* "pod<uid>" anywhere else is not a pod; a bare id anywhere else not a container */
	{ "/mine/pod" UID, "", "", "", NL_RT_NONE, NL_CGK_NONE, "" },
	{ "/pod" UID, "", "", "", NL_RT_NONE, NL_CGK_NONE, "" },
	{ "/mine/" CID, "", "", "", NL_RT_NONE, NL_CGK_NONE, "" },
	/* paths of cgroups outside one's cgroup namespace start with ".." */
	{ "/../../kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_SD
	  ".slice/cri-containerd-" CID ".scope", UID, CID, "", NL_RT_CONTAINERD, NL_CGK_CONTAINER,
	  "pod:1a2b3c4d/ctr:0123456789ab" },
	{ "/../burstable/pod" UID "/" CID, UID, CID, "", NL_RT_NONE, NL_CGK_CONTAINER,
	  "pod:1a2b3c4d/ctr:0123456789ab" },
	/* a namespace rooted at the container: nothing left to read */
	{ "/init", "", "", "", NL_RT_NONE, NL_CGK_NONE, "" },
	/* Docker outside Kubernetes, both drivers, and docker in docker */
	{ "/system.slice/docker-" CID ".scope", "", CID, "", NL_RT_DOCKER, NL_CGK_CONTAINER,
	  "ctr:0123456789ab" },
	{ "/docker/" CID, "", CID, "", NL_RT_NONE, NL_CGK_CONTAINER, "ctr:0123456789ab" },
	{ "/docker/" CID "/docker/" CID2, "", CID2, "", NL_RT_NONE, NL_CGK_CONTAINER, "ctr:fedcba987654" },
	/* systemd services: the innermost .service is the unit */
	{ "/system.slice/nginx.service", "", "", "nginx.service", NL_RT_NONE, NL_CGK_UNIT, "nginx.service" },
	{ "/system.slice/nginx.service/worker", "", "", "nginx.service", NL_RT_NONE, NL_CGK_NONE, "" },
	{ "/user.slice/user-1000.slice/user@1000.service", "", "", "user@1000.service", NL_RT_NONE,
	  NL_CGK_UNIT, "user@1000.service" },
	{ "/user.slice/user-1000.slice/user@1000.service/app.slice/dbus.service", "", "", "dbus.service",
	  NL_RT_NONE, NL_CGK_UNIT, "dbus.service" },
	{ "/user.slice/user-1000.slice/user@1000.service/app.slice", "", "", "user@1000.service", NL_RT_NONE,
	  NL_CGK_NONE, "" },
	{ "/system.slice/systemd-fsck@dev-disk-by\\x2dlabel-root.service", "", "",
	  "systemd-fsck@dev-disk-by\\x2dlabel-root.service", NL_RT_NONE, NL_CGK_UNIT,
	  "systemd-fsck@dev-disk-by\\x2dlabel-root.service" },
	{ "/system.slice/.service", "", "", "", NL_RT_NONE, NL_CGK_NONE, "" },
	{ "/system.slice/a b.service", "", "", "", NL_RT_NONE, NL_CGK_NONE, "" },
	{ "/system.slice/session-3.scope", "", "", "", NL_RT_NONE, NL_CGK_NONE, "" },
	{ "/system.slice/nginx.service.d", "", "", "", NL_RT_NONE, NL_CGK_NONE, "" },
	/* all three: systemd inside a pod's container */
	{ SD_POD "/cri-containerd-" CID ".scope/system.slice/cron.service", UID, CID, "cron.service",
	  NL_RT_CONTAINERD, NL_CGK_UNIT, "cron.service" },
	/* doubled and trailing slashes change nothing */
	{ "//kubepods//pod" UID "//" CID "/", UID, CID, "", NL_RT_NONE, NL_CGK_CONTAINER,
	  "pod:1a2b3c4d/ctr:0123456789ab" },
};

static void test_table(void **state)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct nl_cg_ident id;
		char sh[400];
		bool any = nl_cgident_parse(r->path, &id);

		size_t shn = nl_cgident_short(&id, sh, sizeof(sh));

		if (strcmp(id.pod_uid, r->pod) || strcmp(id.container_id, r->ctr) ||
		    strcmp(id.unit, r->unit) || id.runtime != r->runtime || id.kind != r->kind ||
		    any != (r->pod[0] || r->ctr[0] || r->unit[0]) || shn != strlen(r->shortf) ||
		    strcmp(sh, r->shortf))
			fail_msg("%s\n got pod '%s' ctr '%s' unit '%s' runtime %d kind %d any %d short '%s'\n"
				 " want pod '%s' ctr '%s' unit '%s' runtime %d kind %d short '%s'",
				 r->path, id.pod_uid, id.container_id, id.unit, id.runtime, id.kind, any, sh,
				 r->pod, r->ctr, r->unit, r->runtime, r->kind, r->shortf);
	}
}

/* A path longer than any label, and one component of 300 bytes ending in
 * ".service" (past systemd's 255-byte limit): parsed, no unit. */
static void test_long(void **state)
{
	static char path[8192];
	struct nl_cg_ident id;
	size_t n = 0;

	for (int i = 0; i < 200; i++)
		n += (size_t)snprintf(path + n, sizeof(path) - n, "/d%d", i);
	snprintf(path + n, sizeof(path) - n, SD_POD "/docker-" CID ".scope");
	assert_true(nl_cgident_parse(path, &id));
	assert_string_equal(id.pod_uid, UID);
	assert_string_equal(id.container_id, CID);
	memset(path, 'a', 300);
	memcpy(path, "/", 1);
	strcpy(path + 300, ".service");
	assert_false(nl_cgident_parse(path, &id));
	memset(path, 'a', 255);
	path[0] = '/';
	strcpy(path + 247, ".service");	/* 254 bytes of name: fits with its NUL */
	assert_true(nl_cgident_parse(path, &id));
	assert_int_equal(strlen(id.unit), 254);
	assert_true(nl_cgident_parse(NULL, &id) == false);
}

/* The short form cut to a small buffer, like snprintf; and the runtime names. */
static void test_short_cut(void **state)
{
	struct nl_cg_ident id;
	char sh[8];

	nl_cgident_parse(SD_POD "/crio-" CID ".scope", &id);
	assert_int_equal(nl_cgident_short(&id, sh, sizeof(sh)), strlen("pod:1a2b3c4d/ctr:0123456789ab"));
	assert_string_equal(sh, "pod:1a2");
	assert_int_equal(nl_cgident_short(&id, NULL, 0), 29);
	assert_string_equal(nl_cgident_ctr_runtime_name(NL_RT_CONTAINERD), "containerd");
	assert_string_equal(nl_cgident_ctr_runtime_name(NL_RT_CRIO), "cri-o");
	assert_string_equal(nl_cgident_ctr_runtime_name(NL_RT_DOCKER), "docker");
	assert_null(nl_cgident_ctr_runtime_name(NL_RT_NONE));
	assert_null(nl_cgident_ctr_runtime_name(99));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_long),
		cmocka_unit_test(test_short_cut),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
