# Allocation classes (a user page whose class was never seen stays unclassified, never guessed): a workload's anon, file (page
# cache) and shmem pages must be classified right for >= 95% of the pages
# of each kind, via the mm_lru_insertion join.
. "$(dirname "$0")/common.bash"
MIB=64
want=$(( MIB * 1024 * 1024 / $(getconf PAGESIZE) ))
check() { # check KIND OPTS...
	local kind=$1; shift
	start_top "$TMP/$kind.jsonl" 1 600
	top_started "$TMP/$kind.jsonl"
	"$WORK" --cpu 0 "$@" --hold 2 > "$TMP/work.out" || fail "nlwork $* failed: $(cat "$TMP/work.out")"
	stop_top "$TMP/$kind.jsonl"
	local pid got
	pid=$(sed -n 's/.*pid=\([0-9]*\).*/\1/p' "$TMP/work.out")
	got=$("$JQ" -s "$TMP/$kind.jsonl" "processes[pid=$pid].alloc.pages_by_class.$kind")
	note "$kind: $got of $want pages classified as $kind (pid $pid)"
	ge_pct "$got" "$want" 95 || fail "expected >= 95% of $want pages as $kind, saw $got"
}
check anon --anon $MIB
check shmem --shmem $MIB
# page cache: the file must be new so its pages are allocated now
check file --file $MIB --file-path "$TMP/data"
exit 0
