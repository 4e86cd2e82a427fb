# numalens top's pictures as a terminal shows them: the full-screen view
# runs in tmux (a real terminal emulator; capture-pane -e keeps the colour
# codes) at 80x24 and 200x50. Checked: a meter per node of this host, the
# cgroup view's last-minute sparklines, the placement picture in a
# process's detail, alerts in red with '!' (--alert-remote 0 marks every
# row that allocated), and with NO_COLOR=1 no colour at all but the same
# marks in bold.
. "$(dirname "$0")/common.bash"
command -v tmux > /dev/null || skip "tmux missing (make test-deps installs it)"
# a tmux server per session: a new session on a server still shutting down
# fails ("server exited unexpectedly")
RUN=0
SOCK=nl-pics-$$-0
T() { tmux -L "$SOCK" "$@"; }
cleanup_hook() { for i in $(seq 0 "$RUN"); do tmux -L "nl-pics-$$-$i" kill-server 2> /dev/null; done; }

# shot: the pane as text with its attributes (SGR sequences)
shot() { T capture-pane -e -p -t pics; }
# plain: the pane as text
plain() { T capture-pane -p -t pics; }
shows() { plain | grep -qF -- "$1"; }

# start COLS ROWS [ENV...]: numalens top in a fresh tmux session
start() {
	local cols=$1 rows=$2
	shift 2
	T kill-server 2> /dev/null
	RUN=$((RUN + 1)); SOCK=nl-pics-$$-$RUN
	T -f /dev/null new-session -d -s pics -x "$cols" -y "$rows" \
		"env LANG=C.UTF-8 TERM=tmux-256color $* $NL top -d 0.5 --alert-remote 0 2> $TMP/err; sleep 30"
	wait_until 60 shows "N0  cpu[" || fail "${cols}x$rows: no node meter after 60 s: $(plain | head -5; cat "$TMP/err")"
}

nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2> /dev/null | sed 's/.*node//' | sort -n)
[ -n "$nodes" ] || nodes=0

# --- 80x24, colour -----------------------------------------------------------
start 80 24
for n in $nodes; do
	[ "$n" -ge 8 ] && break
	shows "N$n " || fail "80x24: no meter for node $n: $(plain | sed -n 3,6p)"
done
plain | sed -n 3p | grep -q 'cpu\[.*%\] mem\[.*%\]' || fail "80x24: meter line reads '$(plain | sed -n 3p)'"
# the second line: one node has nothing remote; several say whether locality is measured
nn=$(ls -d /sys/devices/system/node/node[0-9]* | wc -l)
if [ "$nn" = 1 ]; then
	plain | sed -n 2p | grep -q "^one node: every page is local  alloc: " || fail "80x24, one node: line 2 reads '$(plain | sed -n 2p)'"
else
	plain | sed -n 2p | grep -q "^locality: " || fail "80x24: line 2 reads '$(plain | sed -n 2p)'"
fi
# every line fits the width
[ "$(plain | awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }')" -le 80 ] ||
	fail "80x24: a line is wider than 80 cells"
# colour codes reach the terminal (green/yellow/red)
shot | grep -q $'\e\\[[0-9;]*3[123]m' || fail "80x24: no colour in the capture"
# the alert: '!' after RMT% and red
wait_until 30 sh -c "tmux -L $SOCK capture-pane -p -t pics | grep -q '[0-9]!'" ||
	fail "80x24: no alert mark with --alert-remote 0: $(plain | sed -n 5,8p)"
shot | grep '[0-9]!' | grep -q $'\e\\[[0-9;]*31m' || fail "80x24: the alert is not red: $(shot | grep -m1 '[0-9]!' | cat -v)"
note "80x24: $(plain | sed -n 3p)"

# cgroup view: a sparkline tick in the root row after a few intervals
T send-keys -t pics c
wait_until 30 shows "RMT%_1m" || fail "80x24: cgroup view has no RMT%_1m column: $(plain | sed -n 4,6p)"
wait_until 30 sh -c "tmux -L $SOCK capture-pane -p -t pics | grep -E '^/ ' | grep -q '[▁▂▃▄▅▆▇█]'" ||
	fail "80x24: no sparkline in the root row: $(plain | grep -E '^(CGROUP|/ )')"
note "80x24 cgroups: $(plain | grep -E '^/ ')"

# a process's detail: the placement picture with this host's distances
T send-keys -t pics h
wait_until 10 shows "[Processes]" || fail "80x24: h did not go home"
T send-keys -t pics d
wait_until 20 shows "Placement: CPU time by node" || fail "80x24: no placement picture in the detail: $(plain | sed -n 4,12p)"
shows "expected distance per access" || fail "80x24: the picture has no expected distance"
shows "  CPU N0 " || fail "80x24: the picture has no row for node 0"
note "80x24 detail: $(plain | grep 'expected distance')"

# --- 200x50: everything fits, the cgroup view keeps both sparklines ---------
start 200 50
T send-keys -t pics c
wait_until 30 shows "LOC_1m" || fail "200x50: no LOC_1m column: $(plain | sed -n 4,6p)"
for c in RMT%_1m LOCBAR MEM MOVES; do
	shows "$c" || fail "200x50: column $c missing: $(plain | grep CGROUP)"
done
note "200x50: $(plain | grep -m1 '^CGROUP' | tr -s ' ')"

# --- NO_COLOR: no colour, the same marks in bold --------------------------------
start 80 24 NO_COLOR=1
wait_until 30 sh -c "tmux -L $SOCK capture-pane -p -t pics | grep -q '[0-9]!'" || fail "NO_COLOR: no alert mark"
! shot | grep -q $'\e\\[[0-9;]*3[0-7]m' || fail "NO_COLOR=1: colour codes in the capture: $(shot | grep -m1 $'\e\\[[0-9;]*3[0-7]m' | cat -v)"
shot | grep '[0-9]!' | grep -q $'\e\\[1m' || fail "NO_COLOR=1: the alert is not bold: $(shot | grep -m1 '[0-9]!' | cat -v)"
plain | sed -n 3p | grep -q 'cpu\[.*%\] mem\[' || fail "NO_COLOR=1: no meters: $(plain | sed -n 3p)"
note "NO_COLOR=1: alerts bold, no colour"
exit 0
