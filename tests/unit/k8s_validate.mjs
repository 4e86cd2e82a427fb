// Validates Kubernetes objects against the API's OpenAPI schemas, as the
// npm packages kubernetes-models and @kubernetes-models/prometheus-operator
// ship them (JSON schemas checked with ajv). Used by check_kubernetes.sh.
//   usage: node k8s_validate.mjs MODULES_DIR < objects.json
// objects.json: a JSON array of objects (the YAML documents, converted).
// These schemas do not refuse fields they do not know: check_kubernetes.sh
// checks field names with the Kubernetes Python client's models instead.
// Prints one line per object, "ok KIND/NAME" or "error KIND/NAME: why";
// exits 1 on any error.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const dir = process.argv[2];
const objs = JSON.parse(readFileSync(0, "utf8"));
const modFor = (o) => {
  const [group, version] = o.apiVersion.includes("/") ? o.apiVersion.split("/") : ["", o.apiVersion];
  if (group === "monitoring.coreos.com")
    return join(dir, "node_modules/@kubernetes-models/prometheus-operator", group, version, o.kind + ".js");
  return join(dir, "node_modules/kubernetes-models", group || "", version, o.kind + ".js");
};

let bad = 0;
for (const o of objs) {
  const name = `${o.kind}/${o.metadata?.name ?? "?"}`;
  let mod;
  try {
    mod = await import(pathToFileURL(modFor(o)).href);
  } catch (e) {
    console.log(`error ${name}: no schema for ${o.apiVersion} ${o.kind} (${e.code ?? e.message})`);
    bad = 1;
    continue;
  }
  const Model = mod[o.kind];
  try {
    new Model(o).validate();
  } catch (e) {
    console.log(`error ${name}: ${e.message}`);
    bad = 1;
    continue;
  }
  console.log(`ok ${name}`);
}
process.exit(bad);
