# dashboards/numalens.json (Grafana) is valid JSON and every numalens_*
# metric its queries use exists in what numalens export serves here, or,
# for the scx_cling and reclaim agent families (served only while those
# run), among the names their renderers write; the same for the metrics
# packaging/prometheus-rules.yml uses. The dashboard shows one host: the
# host picker is single-valued and every aggregation keeps the instance;
# the scx_cling and agent panels sit in collapsed rows.
. "$(dirname "$0")/common.bash"
. "$(dirname "$0")/export_common.bash"
D=dashboards/numalens.json
R=packaging/prometheus-rules.yml
cleanup_hook() { [ -n "${EXPORT_PID:-}" ] && kill "$EXPORT_PID"; }
[ -f "$D" ] || fail "$D is missing"
tr -d '\n' < "$D" > "$TMP/d.json"
title=$("$JQ" "$TMP/d.json" title) || fail "$D is not valid JSON"
[ "$title" != missing ] || fail "$D has no title"

# the host picker: one host, no "All"
read -r multi all < <("$JQ" "$TMP/d.json" 'templating.list[name=instance].multi' 'templating.list[name=instance].includeAll')
[ "$multi" = false ] && [ "$all" = false ] ||
	fail "the instance variable must be single-valued without All (multi=$multi includeAll=$all)"
read -r all < <("$JQ" "$TMP/d.json" 'templating.list[name=cgroup].includeAll')
[ "$all" = false ] || fail "the cgroup variable offers All (includeAll=$all): parents would count their children twice"

# every aggregation keeps the instance: "sum by (instance, ...) (", never
# "sum(", "sum by (cgroup)" or "sum without (...)"
aggs=$(grep -E '"expr":' "$D" |
	grep -oE '\b(sum|min|max|avg|count|count_values|stddev|stdvar|topk|bottomk|quantile|group)[[:space:]]*(by[[:space:]]*\([^)]*\)|without[[:space:]]*\([^)]*\))?[[:space:]]*\(' |
	grep -vE 'by[[:space:]]*\(instance\b' | sort | uniq -c)
[ -z "$aggs" ] || fail "aggregations over instances (add 'by (instance, ...)'): $(tr '\n' ' ' <<< "$aggs")"
nagg=$(grep -E '"expr":' "$D" | grep -oE '\b(sum|min|max|avg) by \(instance\b' | wc -l)

# top-level panels: none queries scx_cling or agent families; the rows
# holding those are collapsed
rows=0
for i in $(seq 0 200); do
	IFS=$'\t' read -r type collapsed targets nested < <("$JQ" "$TMP/d.json" "panels[$i].type" \
		"panels[$i].collapsed" "panels[$i].targets" "panels[$i].panels")
	[ "$type" = missing ] && break
	t=$("$JQ" "$TMP/d.json" "panels[$i].title")
	grep -qE 'numalens_(scx_cling|reclaim_agent)_' <<< "$targets" &&
		fail "panel '$t' queries scx_cling or agent families outside a collapsed row"
	if grep -qE 'numalens_(scx_cling|reclaim_agent)_' <<< "$nested"; then
		[ "$type" = row ] && [ "$collapsed" = true ] || fail "row '$t' holds scx_cling or agent panels but is not collapsed"
		rows=$((rows + 1))
	fi
done
[ "$rows" -ge 2 ] || fail "expected collapsed rows for scx_cling and the reclaim agent, found $rows"

port=$(free_port) || fail "no free port"
start_export "$port" --delay 1 --cgroup-depth 1 --top-procs 3
wait_export_snapshot "$port" 2
curl -s "http://127.0.0.1:$port/metrics" > "$TMP/m"

# served_or_rendered FILE NAME: NAME is in the scrape, or an scx_cling /
# agent name that the renderer writes (served only while those run; unit
# test test_dashboard renders them from a fixture)
later=0
served_or_rendered() {
	case $2 in
	numalens_scx_cling_running) ;;
	numalens_scx_cling_*)
		grep -q "\"$2\"" tools/prom/view_prom_cling.c || fail "$1 queries $2, which the scx_cling renderer does not write"
		later=$((later + 1)); return;;
	numalens_reclaim_agent_*)
		grep -qE "(family|fam_scalar)\(b, (s, )?\"${2#numalens_reclaim_agent_}\"" tools/prom/view_prom_reclaim.c ||
			fail "$1 queries $2, which the reclaim agent renderer does not write"
		later=$((later + 1)); return;;
	esac
	grep -q "^$2[{ ]" "$TMP/m" || fail "$1 queries $2, which numalens export does not serve"
}
# the names in "expr" and "query" fields
names=$(grep -E '"(expr|query)":' "$D" | grep -o 'numalens_[a-z0-9_]*' | sort -u)
[ -n "$names" ] || fail "no numalens_ metric in $D"
n=0
for m in $names; do served_or_rendered "$D" "$m"; n=$((n + 1)); done
# the rules' input series (a recorded name like instance_cgroup:numalens_...:rate5m is not one)
rnames=$(grep -v '^ *#' "$R" | grep -oE '(^|[^:a-z0-9_])numalens_[a-z0-9_]*' | grep -o 'numalens_[a-z0-9_]*' | sort -u)
[ -n "$rnames" ] || fail "no numalens_ metric in $R"
nr=0
for m in $rnames; do served_or_rendered "$R" "$m"; nr=$((nr + 1)); done
note "$n metrics queried by '$title' and $nr used by the rules, all served or rendered ($later scx_cling/agent names);" \
	"$nagg aggregations, all by instance; $rows collapsed scx_cling/agent rows"
exit 0
