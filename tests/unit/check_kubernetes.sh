#!/usr/bin/env bash
# The Kubernetes manifests in packaging/kubernetes/ (unit layer of
# tests/run-all.sh). Prints TAP lines, one per rule: "ok - <rule>" or
# "not ok - <rule>" followed by what is wrong, "# ..."; exit 1 on any.
#
# Rules:
#  schema-valid     every object validates against the Kubernetes API's
#                   schemas as the npm packages kubernetes-models and
#                   @kubernetes-models/prometheus-operator ship them (ajv),
#                   installed by scripts/test-tools.sh
#  schema-refuses   the same validator refuses a copy with a wrong type (a
#                   port as text) and a capability as a number: it checks
#  fields-known     every field name is one the API knows, walked through
#                   the models of the Kubernetes Python client
#                   (python3-kubernetes), since those schemas let unknown
#                   fields pass
#  pod-mounts       hostPID; the host's /sys/fs/cgroup, /sys/kernel/tracing,
#                   /sys/kernel/btf and /sys/fs/bpf mounted at the same
#                   paths from hostPath volumes, every mount read-only
#  pod-runtime      readiness probe on /healthz at the metrics port,
#                   requests and limits for cpu and memory, the Prometheus
#                   scrape annotations naming that port, no privileged mode
#  caps-agree       the capabilities the DaemonSet adds are the set
#                   docs/kernel.md gives numalens export, the set the
#                   systemd unit bounds it to, and the set
#                   tests/live/least_privilege.sh runs export with
#  monitor-matches  the Service selects the DaemonSet's pods, its port is
#                   the container's metrics port, and the ServiceMonitor
#                   selects the Service by that port's name
set -u
cd "$(dirname "$0")/../.."
K=packaging/kubernetes
MODS=${NL_K8S_MODULES:-build/test-tools/k8s}
# Debian's python3 (python3-yaml, python3-kubernetes), not one earlier in PATH
PY=python3; [ -x /usr/bin/python3 ] && PY=/usr/bin/python3
bad=0
ok() { echo "ok - $1"; }
nok() { echo "not ok - $1"; shift; printf '# %s\n' "$@"; bad=1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

$PY -c 'import yaml, json, sys
docs = [d for f in sys.argv[1:] for d in yaml.safe_load_all(open(f)) if d]
json.dump(docs, sys.stdout)' $K/daemonset.yaml $K/servicemonitor.yaml > "$tmp/all.json" ||
	{ nok yaml-parses "the manifests do not parse"; exit 1; }

if ! command -v node >/dev/null || [ ! -d "$MODS/node_modules/kubernetes-models" ]; then
	nok schema-valid "no node or no kubernetes-models in $MODS: run 'make test-deps'"
	nok schema-refuses "see schema-valid"
else
	if out=$(node tests/unit/k8s_validate.mjs "$MODS" < "$tmp/all.json" 2>&1); then ok schema-valid
	else nok schema-valid "$(grep -v '^ok' <<< "$out" | head -5)"; fi
	$PY -c 'import json, sys
d = json.load(open(sys.argv[1]))
ds = [o for o in d if o["kind"] == "DaemonSet"][0]
c = ds["spec"]["template"]["spec"]["containers"][0]
c["ports"][0]["containerPort"] = "ten"
c["securityContext"]["capabilities"]["add"].append(1)
json.dump([ds], sys.stdout)' "$tmp/all.json" > "$tmp/broken.json"
	out=$(node tests/unit/k8s_validate.mjs "$MODS" < "$tmp/broken.json" 2>&1)
	if grep -q 'containerPort' <<< "$out" && grep -q 'add' <<< "$out"; then ok schema-refuses
	else nok schema-refuses "a broken copy was not refused as expected: $out"; fi
fi

$PY - "$tmp/all.json" > "$tmp/py.out" 2>&1 <<'PY'
import json, re, sys
docs = json.load(open(sys.argv[1]))
res = {}
def rule(name, errs):
    res[name] = errs

# fields-known
try:
    from kubernetes import client
    def walk(obj, t, path, errs):
        if obj is None or t == "object":
            return
        m = re.fullmatch(r"list\[(.*)\]", t)
        if m:
            for i, v in enumerate(obj): walk(v, m.group(1), f"{path}[{i}]", errs)
            return
        m = re.fullmatch(r"dict\(str, (.*)\)", t)
        if m:
            for k, v in obj.items(): walk(v, m.group(1), f"{path}.{k}", errs)
            return
        cls = getattr(client.models, t, None)
        if cls is None:
            return
        back = {v: k for k, v in cls.attribute_map.items()}
        for k, v in obj.items():
            if k not in back:
                errs.append(f"{path}.{k} is not a field of {t}")
            else:
                walk(v, cls.openapi_types[back[k]], f"{path}.{k}", errs)
    errs = []
    for d in docs:
        if d["apiVersion"] in ("v1", "apps/v1"):
            walk(d, "V1" + d["kind"], d["kind"], errs)
    # and it finds a misspelt one
    import copy
    typo = copy.deepcopy([d for d in docs if d["kind"] == "DaemonSet"][0])
    typo["spec"]["template"]["spec"]["hostPid"] = True
    found = []
    walk(typo, "V1DaemonSet", "DaemonSet", found)
    if not any("hostPid" in e for e in found):
        errs.append("a misspelt field (hostPid) was not found")
    rule("fields-known", errs)
except ImportError:
    rule("fields-known", ["python3-kubernetes is not installed: run 'make test-deps'"])

ds = [d for d in docs if d["kind"] == "DaemonSet"][0]
pod = ds["spec"]["template"]["spec"]
c = pod["containers"][0]
vols = {v["name"]: v for v in pod.get("volumes", [])}
errs = []
if pod.get("hostPID") is not True: errs.append("hostPID is not true")
mounts = {m["mountPath"]: m for m in c.get("volumeMounts", [])}
for p in ("/sys/fs/cgroup", "/sys/kernel/tracing", "/sys/kernel/btf", "/sys/fs/bpf"):
    m = mounts.get(p)
    if not m: errs.append(f"{p} is not mounted"); continue
    hp = vols.get(m["name"], {}).get("hostPath", {}).get("path")
    if hp != p: errs.append(f"{p} is mounted from {hp}, not the host's {p}")
for p, m in mounts.items():
    if m.get("readOnly") is not True: errs.append(f"{p} is mounted read-write")
rule("pod-mounts", errs)

errs = []
port = {p["name"]: p["containerPort"] for p in c.get("ports", [])}.get("metrics")
rp = c.get("readinessProbe", {}).get("httpGet", {})
if rp.get("path") != "/healthz" or rp.get("port") not in ("metrics", port):
    errs.append(f"readiness probe is {rp}, not /healthz on the metrics port")
for k in ("requests", "limits"):
    for r in ("cpu", "memory"):
        if r not in c.get("resources", {}).get(k, {}): errs.append(f"no {k}.{r}")
ann = ds["spec"]["template"]["metadata"].get("annotations", {})
if ann.get("prometheus.io/scrape") != "true" or ann.get("prometheus.io/port") != str(port):
    errs.append(f"scrape annotations {ann} do not name port {port}")
if c.get("securityContext", {}).get("privileged"): errs.append("the container is privileged")
if "--listen" in c.get("args", []) and not c["args"][c["args"].index("--listen") + 1].endswith(f":{port}"):
    errs.append("--listen does not use the metrics port")
rule("pod-runtime", errs)

# caps-agree
def norm(caps): return sorted("CAP_" + x.upper().removeprefix("CAP_") for x in caps)
ds_caps = norm(c["securityContext"]["capabilities"]["add"])
errs = []
if c["securityContext"]["capabilities"].get("drop") != ["ALL"]: errs.append("the DaemonSet does not drop ALL first")
unit = open("packaging/numalens-export.service").read()
m = re.search(r"^CapabilityBoundingSet=(.*)$", unit, re.M)
unit_caps = norm(m.group(1).split()) if m else []
doc = open("docs/kernel.md").read()
m = re.search(r"^\| `numalens export` \| ([^|]*)\|", doc, re.M)
doc_caps = norm(re.findall(r"CAP_[A-Z_]+", m.group(1))) if m else []
lp = open("tests/live/least_privilege.sh").read()
m = re.search(r"^EXPORT_CAPS=(\S+)", lp, re.M)
lp_caps = norm(x.lstrip("+") for x in m.group(1).split(",") if x.startswith("+")) if m else []
for what, caps in (("systemd unit", unit_caps), ("docs/kernel.md", doc_caps), ("least_privilege.sh", lp_caps)):
    if caps != ds_caps: errs.append(f"DaemonSet adds {ds_caps}, {what} has {caps}")
rule("caps-agree", errs)

errs = []
svc = [d for d in docs if d["kind"] == "Service"][0]
sm = [d for d in docs if d["kind"] == "ServiceMonitor"][0]
labels = ds["spec"]["template"]["metadata"]["labels"]
if any(labels.get(k) != v for k, v in svc["spec"]["selector"].items()): errs.append("the Service does not select the pods")
sp = svc["spec"]["ports"][0]
if sp.get("targetPort") not in ("metrics", port): errs.append("the Service's targetPort is not the metrics port")
if any(svc["metadata"]["labels"].get(k) != v for k, v in sm["spec"]["selector"]["matchLabels"].items()):
    errs.append("the ServiceMonitor does not select the Service")
if sm["spec"]["endpoints"][0].get("port") != sp.get("name"): errs.append("the ServiceMonitor names another port")
if svc["metadata"]["namespace"] not in sm["spec"].get("namespaceSelector", {}).get("matchNames", [svc["metadata"]["namespace"]]):
    errs.append("the ServiceMonitor looks in another namespace")
rule("monitor-matches", errs)

for k, v in res.items():
    print(("ok - " if not v else "not ok - ") + k)
    for e in v[:5]: print("# " + e)
PY
cat "$tmp/py.out"
grep -q '^not ok' "$tmp/py.out" && bad=1
grep -q '^ok\|^not ok' "$tmp/py.out" || { nok manifest-checks "$(tail -3 "$tmp/py.out")"; }
exit $bad
