# numalens export behind its own TLS and basic auth (--web.config.file).
# openssl makes a CA, a server and a client certificate, an expired server
# certificate, an expired client certificate and a second CA in a temporary
# folder; htpasswd (apache2-utils) makes the bcrypt hash. Then:
#  - promtool check web-config accepts the file;
#  - the exporter, with client certificates required and a user, serves on
#    two addresses (--web.listen-address and its alias --listen); a real
#    Prometheus scrapes it over TLS with the client certificate and the
#    user, and its target is up with numalens_ series;
#  - curl: the right user 200, a wrong password or none 401 with a
#    WWW-Authenticate challenge (on /healthz too), plain HTTP to the TLS
#    port fails, trusting the other CA fails, no client certificate, one
#    from the other CA or an expired one fails;
#  - an expired server certificate is refused by curl; min_version TLS13
#    refuses a TLS 1.2 client and serves a TLS 1.3 one;
#  - a file with an unknown key is refused in one line naming the key,
#    exit 2, and nothing is bound.
. "$(dirname "$0")/common.bash"
. "$(dirname "$0")/export_common.bash"
command -v prometheus >/dev/null || skip "prometheus is not found ('sudo make test-deps' unpacks it into build/test-tools)"
command -v openssl >/dev/null || skip "openssl is not installed ('sudo make test-deps')"
command -v htpasswd >/dev/null || skip "htpasswd is not installed (apache2-utils: 'sudo make test-deps')"

PIDS=()
cleanup_hook() {
	local p
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null && wait "$p"; done
}

C=$TMP/certs
mkdir "$C"
# mkcert NAME CA SAN EKU DAYS: an EC key and a certificate for it signed by
# CA (its .crt/.key); DAYS < 0 makes one that expired |DAYS| days ago
mkcert() {
	local name=$1 ca=$2 san=$3 eku=$4 days=$5
	openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=$name" \
		-keyout "$C/$name.key" -out "$C/$name.csr" 2>/dev/null || fail "openssl req $name"
	printf 'subjectAltName=%s\nextendedKeyUsage=%s\nbasicConstraints=CA:FALSE\n' "$san" "$eku" > "$C/$name.ext"
	if [ "$days" -gt 0 ]; then
		openssl x509 -req -in "$C/$name.csr" -CA "$C/$ca.crt" -CAkey "$C/$ca.key" -CAcreateserial \
			-days "$days" -extfile "$C/$name.ext" -out "$C/$name.crt" 2>/dev/null || fail "openssl x509 $name"
	else
		# openssl x509 has no start date in bookworm's 3.0: `openssl ca` does
		mkdir -p "$C/db.$name"
		: > "$C/db.$name/index"
		echo 01 > "$C/db.$name/serial"
		cat > "$C/$name.cnf" <<CNF
[ca]
default_ca = d
[d]
database = $C/db.$name/index
serial = $C/db.$name/serial
new_certs_dir = $C/db.$name
default_md = sha256
policy = p
copy_extensions = none
[p]
commonName = supplied
CNF
		openssl ca -batch -config "$C/$name.cnf" -cert "$C/$ca.crt" -keyfile "$C/$ca.key" \
			-startdate 20200101000000Z -enddate 20200102000000Z -extfile "$C/$name.ext" \
			-in "$C/$name.csr" -out "$C/$name.crt" -notext 2>/dev/null || fail "openssl ca $name"
	fi
}
for ca in ca otherca; do
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=numalens test $ca" \
		-days 2 -keyout "$C/$ca.key" -out "$C/$ca.crt" 2>/dev/null || fail "openssl: cannot make $ca"
done
mkcert server ca "IP:127.0.0.1,DNS:localhost" serverAuth 2
mkcert client ca "DNS:prometheus" clientAuth 2
mkcert otherclient otherca "DNS:prometheus" clientAuth 2
mkcert expiredserver ca "IP:127.0.0.1,DNS:localhost" serverAuth -1
mkcert expiredclient ca "DNS:prometheus" clientAuth -1
openssl x509 -in "$C/expiredserver.crt" -noout -checkend 0 >/dev/null 2>&1 && fail "expiredserver.crt has not expired"

PASS=numalens-tls-test
hash=$(htpasswd -nbBC 10 prom "$PASS" | cut -d: -f2-)
case "$hash" in '$2y$10$'*) ;; *) fail "htpasswd made '$hash', not a bcrypt hash";; esac
# relative names: taken from the file's folder
cat > "$C/web.yml" <<YML
tls_server_config:
  cert_file: server.crt
  key_file: server.key
  client_auth_type: RequireAndVerifyClientCert
  client_ca_file: ca.crt
  min_version: TLS12
basic_auth_users:
  prom: $hash
YML
promtool check web-config "$C/web.yml" > "$TMP/promtool.out" 2>&1 ||
	fail "promtool check web-config refused the file: $(cat "$TMP/promtool.out")"
note "promtool check web-config: $(tr '\n' ' ' < "$TMP/promtool.out")"

# a file with a key numalens does not know: one line naming it, exit 2,
# nothing bound
p0=$(free_port) || fail "no free port"
sed 's/^  min_version: TLS12/  cipher_suites: [TLS_AES_128_GCM_SHA256]/' "$C/web.yml" > "$C/bad.yml"
rc=0
"$NL" export --synthetic 4x1 --web.listen-address "127.0.0.1:$p0" --web.config.file "$C/bad.yml" \
	> "$TMP/bad.out" 2> "$TMP/bad.err" || rc=$?
[ "$rc" = 2 ] || fail "a file with cipher_suites: exit $rc, want 2 ($(cat "$TMP/bad.err"))"
[ "$(wc -l < "$TMP/bad.err")" = 1 ] && grep -q 'cipher_suites' "$TMP/bad.err" ||
	fail "the error should be one line naming cipher_suites: $(cat "$TMP/bad.err")"
ss -Htln "sport = :$p0" | grep -q . && fail "port $p0 is bound after a refused file"
note "refused: $(cat "$TMP/bad.err")"

eport=$(free_port) || fail "no free port"
eport2=$(free_port) || fail "no free port"
"$NL" export --delay 1 --web.listen-address "127.0.0.1:$eport" --listen "127.0.0.1:$eport2" \
	--web.config.file "$C/web.yml" -j > "$TMP/export.out" 2> "$TMP/export.err" &
EXPORT_PID=$!
PIDS+=("$EXPORT_PID")
U=https://127.0.0.1:$eport
ok_curl=(curl -s --cacert "$C/ca.crt" --cert "$C/client.crt" --key "$C/client.key")
up() { [ "$("${ok_curl[@]}" -u "prom:$PASS" -o /dev/null -w '%{http_code}' "$U/metrics")" = 200 ]; }
export_alive() { kill -0 "$EXPORT_PID" 2>/dev/null || fail "numalens export exited: $(cat "$TMP/export.err")"; }
for i in $(seq 1 300); do up && break; export_alive; sleep 0.2; done
up || fail "no 200 over TLS with the user and client certificate in 60 s: $(cat "$TMP/export.err")"
"$JQ" "$TMP/export.out" tls | grep -qx true || fail "-j says tls is not on: $(cat "$TMP/export.out")"
note "serving: $(grep -m2 serving "$TMP/export.err" | tr '\n' ' ')"

# the right user, on both addresses
"${ok_curl[@]}" -u "prom:$PASS" "$U/metrics" > "$TMP/m.txt"
grep -q '^numalens_cgroup_cpu_seconds_total{cgroup="/"' "$TMP/m.txt" || fail "no numalens_ series over TLS: $(head -c 300 "$TMP/m.txt")"
c2=$("${ok_curl[@]}" -u "prom:$PASS" -o /dev/null -w '%{http_code}' "https://127.0.0.1:$eport2/metrics")
[ "$c2" = 200 ] || fail "the --listen address answered $c2, want 200"
note "200 with the user on $eport and $eport2; $(grep -c '^numalens_' "$TMP/m.txt") numalens_ samples"

# wrong password, no credentials, unknown user: 401 with a challenge, /healthz too
for how in "-u prom:wrong" "-u nobody:$PASS" ""; do
	for path in /metrics /healthz /; do
		# shellcheck disable=SC2086
		"${ok_curl[@]}" $how -D "$TMP/h.txt" -o /dev/null "$U$path"
		code=$(sed -n '1s/^HTTP[^ ]* \([0-9]*\).*/\1/p' "$TMP/h.txt")
		[ "$code" = 401 ] || fail "'$how' on $path: HTTP $code, want 401"
		grep -qi '^WWW-Authenticate: Basic realm="numalens"' "$TMP/h.txt" ||
			fail "'$how' on $path: 401 without a WWW-Authenticate challenge: $(cat "$TMP/h.txt")"
	done
done
note "wrong password, unknown user, no credentials: 401 + WWW-Authenticate on /metrics, /healthz, /"

# plain HTTP to the TLS port: no HTTP answer
code=$(curl -s -m 10 -o /dev/null -w '%{http_code}' -u "prom:$PASS" "http://127.0.0.1:$eport/metrics") && [ "$code" != 000 ] &&
	fail "plain HTTP to the TLS port answered HTTP $code"
note "plain HTTP to the TLS port: no answer (curl code ${code:-000})"

# must_fail WHAT CURL-ARGS...: curl exits non-zero and gets no HTTP status
must_fail() {
	local what=$1 rc=0; shift
	curl -s -S -m 10 -o /dev/null -w '%{http_code}' "$@" > "$TMP/code" 2> "$TMP/curl.err" || rc=$?
	[ "$rc" != 0 ] && [ "$(cat "$TMP/code")" = 000 ] ||
		fail "$what: curl exit $rc, HTTP $(cat "$TMP/code"), want a failure"
	note "$what: refused (curl exit $rc: $(head -1 "$TMP/curl.err"))"
}
must_fail "trusting the other CA" --cacert "$C/otherca.crt" --cert "$C/client.crt" --key "$C/client.key" \
	-u "prom:$PASS" "$U/metrics"
must_fail "no client certificate" --cacert "$C/ca.crt" -u "prom:$PASS" "$U/metrics"
must_fail "a client certificate of the other CA" --cacert "$C/ca.crt" --cert "$C/otherclient.crt" \
	--key "$C/otherclient.key" -u "prom:$PASS" "$U/metrics"
must_fail "an expired client certificate" --cacert "$C/ca.crt" --cert "$C/expiredclient.crt" \
	--key "$C/expiredclient.key" -u "prom:$PASS" "$U/metrics"
up || fail "the exporter stopped answering the good client after the refused ones"

# a real Prometheus, over TLS with the client certificate and the user
pport=$(free_port) || fail "no free port"
printf '%s' "$PASS" > "$C/pass"
cat > "$TMP/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: numalens-export-tls
    scheme: https
    tls_config:
      ca_file: $C/ca.crt
      cert_file: $C/client.crt
      key_file: $C/client.key
    basic_auth:
      username: prom
      password_file: $C/pass
    static_configs:
      - targets: ['127.0.0.1:$eport']
YML
prometheus --config.file="$TMP/prometheus.yml" --storage.tsdb.path="$TMP/tsdb" \
	--web.listen-address="127.0.0.1:$pport" > "$TMP/prom.log" 2>&1 &
PROM_PID=$!
PIDS+=("$PROM_PID")
P=http://127.0.0.1:$pport
query() {
	curl -s --get --data-urlencode "query=$1" "$P/api/v1/query" > "$TMP/q.json" || return 0
	local v
	v=$("$JQ" "$TMP/q.json" 'data.result[0].value[1]' 2>/dev/null)
	[ "$v" = missing ] || echo "$v"
}
v=
for i in $(seq 1 60); do
	v=$(query 'up{job="numalens-export-tls"}')
	[ "$v" = 1 ] && break
	kill -0 "$PROM_PID" 2>/dev/null || fail "prometheus exited: $(tail -3 "$TMP/prom.log")"
	sleep 1
done
[ "$v" = 1 ] || fail "Prometheus: up = ${v:-none} after 60 s: $(curl -s "$P/api/v1/targets" | grep -o '"lastError":"[^"]*"')"
n=
for i in $(seq 1 30); do
	n=$(query 'count({job="numalens-export-tls",__name__=~"numalens_.+"})')
	[ -n "$n" ] && [ "$n" -gt 0 ] && break
	sleep 1
done
[ -n "$n" ] && [ "$n" -gt 0 ] || fail "Prometheus holds no numalens_ series of the TLS target"
cpu=$(query 'sum(numalens_cgroup_cpu_seconds_total{job="numalens-export-tls",cgroup="/"})')
[ -n "$cpu" ] && awk -v v="$cpu" 'BEGIN { exit !(v > 0) }' ||
	fail "Prometheus: sum(numalens_cgroup_cpu_seconds_total) = ${cpu:-none}, want > 0"
note "Prometheus over TLS + client certificate + basic auth: up = 1, $n numalens_ series, CPU seconds of / $cpu"
kill "$PROM_PID" && wait "$PROM_PID"
stop_export
[ "$EXPORT_RC" = 0 ] || fail "numalens export exited $EXPORT_RC after SIGTERM"

# start_synth NAME PORT FILE: a synthetic exporter (no BPF) with FILE;
# waits until its port takes TCP connections
start_synth() {
	"$NL" export --synthetic 4x1 --web.listen-address "127.0.0.1:$2" --web.config.file "$3" \
		> "$TMP/$1.out" 2> "$TMP/$1.err" &
	PIDS+=($!)
	wait_until 30 sh -c "ss -Htln 'sport = :$2' | grep -q ." ||
		fail "$1: the exporter did not listen in 30 s: $(cat "$TMP/$1.err")"
}
# an expired server certificate: curl refuses it
cat > "$C/expired.yml" <<YML
tls_server_config:
  cert_file: expiredserver.crt
  key_file: expiredserver.key
YML
xport=$(free_port) || fail "no free port"
start_synth expired "$xport" "$C/expired.yml"
must_fail "an expired server certificate" --cacert "$C/ca.crt" "https://127.0.0.1:$xport/metrics"
grep -qi expired "$TMP/curl.err" || fail "curl's error does not say expired: $(cat "$TMP/curl.err")"
# ... and the same port with a valid one would serve: -k skips the check
[ "$(curl -s -k -o /dev/null -w '%{http_code}' "https://127.0.0.1:$xport/metrics")" = 200 ] ||
	fail "the expired-certificate exporter does not serve at all (so the refusal proves nothing)"

# min_version TLS13: a TLS 1.2 client is refused, a TLS 1.3 one served
cat > "$C/tls13.yml" <<YML
tls_server_config:
  cert_file: server.crt
  key_file: server.key
  min_version: TLS13
YML
tport=$(free_port) || fail "no free port"
start_synth tls13 "$tport" "$C/tls13.yml"
must_fail "TLS 1.2 to a min_version TLS13 server" --cacert "$C/ca.crt" --tlsv1.2 --tls-max 1.2 \
	"https://127.0.0.1:$tport/metrics"
v=$(curl -s --cacert "$C/ca.crt" --tlsv1.3 -o /dev/null -w '%{http_code}' "https://127.0.0.1:$tport/metrics")
[ "$v" = 200 ] || fail "TLS 1.3 to the min_version TLS13 server: HTTP $v, want 200"
note "TLS 1.3 served by the TLS13 server"
exit 0
