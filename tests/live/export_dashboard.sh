# dashboards/numalens.json (Grafana) is valid JSON and every numalens_*
# metric its queries use exists in what numalens export serves here.
. "$(dirname "$0")/common.bash"
. "$(dirname "$0")/export_common.bash"
D=dashboards/numalens.json
cleanup_hook() { [ -n "${EXPORT_PID:-}" ] && kill "$EXPORT_PID"; }
[ -f "$D" ] || fail "$D is missing"
title=$(tr -d '\n' < "$D" | "$JQ" - title) || fail "$D is not valid JSON"
[ "$title" != missing ] || fail "$D has no title"
port=$(free_port) || fail "no free port"
start_export "$port" --delay 1 --cgroup-depth 1 --top-procs 3
wait_export_snapshot "$port" 2
curl -s "http://127.0.0.1:$port/metrics" > "$TMP/m"
# the names in "expr" and "query" fields
names=$(grep -E '"(expr|query)":' "$D" | grep -o 'numalens_[a-z0-9_]*' | sort -u)
[ -n "$names" ] || fail "no numalens_ metric in $D"
n=0; later=0
for m in $names; do
	case $m in
	# served only while scx_cling runs (sched_ext) or an agent manages a
	# cgroup: unit test_dashboard checks them against the renderer
	numalens_scx_cling_running) ;;
	numalens_scx_cling_* | numalens_reclaim_agent_*) later=$((later + 1)); continue;;
	esac
	grep -q "^$m[{ ]" "$TMP/m" || fail "$D queries $m, which numalens export does not serve"
	n=$((n + 1))
done
note "$n metrics queried by '$title', all served ($later scx_cling/agent names checked by the unit test)"
exit 0
