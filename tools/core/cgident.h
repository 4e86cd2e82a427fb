/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Who a cgroup belongs to, read from its path alone: the Kubernetes pod
 * and container the kubelet and the container runtimes name their cgroups
 * after, and the systemd service. Fleet users think in pods and units,
 * and kube-state-metrics' kube_pod_info carries the pod uid: with the uid
 * on a cgroup, a PromQL join reaches the namespace and the pod name
 * without numalens ever asking the API server.
 *
 * The names recognised, per path component (a component is the text
 * between two '/'):
 *  - a pod, systemd cgroup driver: "kubepods-pod<U>.slice",
 *    "kubepods-burstable-pod<U>.slice", "kubepods-besteffort-pod<U>.slice",
 *    also with the kubelet's --cgroup-root in front ("kubelet-kubepods-
 *    ..."), where <U> is the uid with '_' for each '-' (systemd reads '-'
 *    as nesting);
 *  - a pod, cgroupfs driver: "pod<U>" (dashed uid) right below a
 *    "kubepods", "burstable" or "besteffort" component;
 *  - a container: "cri-containerd-<ID>.scope", "crio-<ID>.scope",
 *    "docker-<ID>.scope" anywhere (the ".scope" may be missing under the
 *    cgroupfs driver), and a bare "<ID>" right below a pod or a "docker"
 *    component, <ID> being 64 hex digits;
 *  - a systemd service: the innermost "<name>.service" whose name is one
 *    systemd could have made (ASCII letters, digits and ":_.\-@").
 * A uid is 36 characters 8-4-4-4-12 hex (what the API server gives), or
 * 32 hex digits (the kubelet's own uid of a static pod). Hex digits are
 * taken in either case and written lower-case, as kube_pod_info has them.
 *
 * Where a path names several (a kubelet in a pod, docker in docker), the
 * innermost pod and container count. A pod's cgroup, its containers' and
 * everything inside a container carry the pod uid. Any other cgroup right below a pod is not a container and
 * is left without identity, as is its subtree: CRI-O's
 * "crio-conmon-<ID>.scope" holds the runtime's monitor process, not the
 * container, and giving it the pod uid would make "the cgroups with a pod
 * uid and no container id" more than the pod itself. Its use still counts
 * in the pod's cgroup, whose figures take in all of its subtree.
 *
 * Nothing else is guessed: a component that is too short, has a byte
 * outside these sets (any non-ASCII one) or misses a piece names nothing,
 * and ".." components (paths of cgroups outside one's cgroup namespace)
 * match no rule. Pure string functions: no I/O, no allocation.
 */
#ifndef NL_CGIDENT_H
#define NL_CGIDENT_H

#include <stdbool.h>
#include <stddef.h>

/* Characters of a dashed pod uid, and of a container id. */
#define NL_POD_UID_LEN 36
#define NL_CTR_ID_LEN 64
/* Bytes of a systemd unit name with its NUL (systemd's own limit). */
#define NL_UNIT_NAME_MAX 256
/* Hex digits of a pod uid and of a container id in the short forms: the
 * uid's first group, and the id as `docker ps` prints it. */
#define NL_POD_UID_SHORT 8
#define NL_CTR_ID_SHORT 12

/* The runtime a container's cgroup name shows (none: a bare id). */
enum nl_ctr_runtime { NL_RT_NONE = 0, NL_RT_CONTAINERD, NL_RT_CRIO, NL_RT_DOCKER };

/* What the cgroup itself is (its last component), as opposed to what it
 * lies in. */
enum nl_cg_kind { NL_CGK_NONE = 0, NL_CGK_POD, NL_CGK_CONTAINER, NL_CGK_UNIT };

/* A cgroup's identity; empty strings where the path names none. */
struct nl_cg_ident {
	char pod_uid[NL_POD_UID_LEN + 1];	/* lower-case, dashed (or 32 hex digits) */
	char container_id[NL_CTR_ID_LEN + 1];	/* 64 lower-case hex digits */
	char unit[NL_UNIT_NAME_MAX];		/* innermost "<name>.service" */
	unsigned char runtime;			/* enum nl_ctr_runtime, with a container id */
	unsigned char kind;			/* enum nl_cg_kind */
};

/*
 * nl_cgident_parse - the identity of the cgroup at @path (relative to its
 * hierarchy's root, "/" for the root; NULL is taken as "/") into @id,
 * which is overwritten. Returns true if the path names a pod, a container
 * or a service.
 */
bool nl_cgident_parse(const char *path, struct nl_cg_ident *id);

/* nl_cgident_any - true when @id names a pod, a container or a unit. */
bool nl_cgident_any(const struct nl_cg_ident *id);

/*
 * nl_cgident_short - the short form of what the cgroup itself is, for a
 * row of top's cgroup tree: "pod:1a2b3c4d" (a pod), "pod:1a2b3c4d/ctr:
 * 0123456789ab" (a pod's container), "ctr:0123456789ab" (a container of
 * no pod), the unit name (a service). A cgroup that only lies inside one
 * of these has none. Writes it to @out (@len bytes, NUL-terminated when
 * @len > 0) and returns its length as snprintf does (>= @len: cut), 0 when
 * there is none.
 */
size_t nl_cgident_short(const struct nl_cg_ident *id, char *out, size_t len);

/* nl_cgident_ctr_runtime_name - "containerd", "cri-o" or "docker" (the names the
 * Kubernetes container status puts before "://" in its container ids), or
 * NULL for NL_RT_NONE and unknown values. */
const char *nl_cgident_ctr_runtime_name(int runtime);

#endif /* NL_CGIDENT_H */
