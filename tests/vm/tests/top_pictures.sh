# numalens top's pictures on a 4-node machine with remote memory: the
# processes in /pics_remote run on node 0's CPU with their memory bound to
# node 2 (distance 22), one allocating all the time, one walking 32 MiB;
# the same in /pics_local on node 1 with their memory there. numalens top draws on a pseudo-terminal
# (nlpty) at 80x24 (its cgroup view, a minute's sparklines being filled)
# at 200x50 (the remote process's detail) and at 120x30 (the node view);
# the bytes it drew go to the
# host, which replays them into tmux at the same sizes and reads the
# screens back (top_pictures.host says what is checked there).
# vm: cpus=1,1,1,1 mem_per_node=256M dist=10,16,22,22/16,10,22,22/22,22,10,16/22,22,16,10 timeout=150
. /nl/lib.sh
nl_need_numalens
command -v nlpty > /dev/null || nl_fail "nlpty is not in the guest (make vm-bins)"
taskset -p -c 3 $$ > /dev/null
# pseudo-terminals: the guest's init mounts no devpts
mkdir -p /dev/pts
mountpoint -q /dev/pts || mount -t devpts -o ptmxmode=0666 devpts /dev/pts || nl_fail "cannot mount devpts"
[ -e /dev/ptmx ] || ln -s pts/ptmx /dev/ptmx
echo never > /sys/kernel/mm/transparent_hugepage/enabled
pids=''
# in each cgroup: an allocator that unmaps and maps 8 MiB again all the
# time (the allocation figures and sparklines), and a walker whose 32 MiB
# stay resident (the placement picture reads resident memory: the
# allocator's is anywhere between 0 and 8 MiB at a given moment)
for g in remote:0:2 local:1:1; do
	name=${g%%:*}; rest=${g#*:}; cpu=${rest%%:*}; node=${rest#*:}
	mkdir -p /sys/fs/cgroup/pics_$name
	sh -c "echo \$\$ > /sys/fs/cgroup/pics_$name/cgroup.procs && exec nlwork --comm ${name}alloc --cpu $cpu --node $node --anon 8 --repeat 1000000000" > /tmp/$name.out 2>&1 &
	pids="$pids $!"
	sh -c "echo \$\$ > /sys/fs/cgroup/pics_$name/cgroup.procs && exec nlwork --comm ${name}walk --cpu $cpu --node $node --anon 32 --walk 100000" > /tmp/$name.walk 2>&1 &
	pids="$pids $!"
done
export TERM=tmux-256color LANG=C.UTF-8
cr=$(printf '\r')
# 80x24: the cgroup view from the first interval on, 20 s of it
nlpty -r 24 -c 80 -o /tmp/a.raw -w 'locality: ' -k 0:c -t 20 -- "$NUMALENS" top -d 1 --alert-remote 50 ||
	nl_fail "nlpty (80x24) failed"
# 200x50: the remote process's detail (filter by its name, then d)
nlpty -r 50 -c 200 -o /tmp/b.raw -w 'locality: ' -k "0:/remotewalk$cr" -k 2:d -t 5 -- "$NUMALENS" top -d 1 ||
	nl_fail "nlpty (200x50) failed"
# 120x30: the node view, where the remote allocations land
nlpty -r 30 -c 120 -o /tmp/c.raw -w 'locality: ' -k 0:n -t 5 -- "$NUMALENS" top -d 1 ||
	nl_fail "nlpty (120x30) failed"
kill $pids 2> /dev/null
for f in a b c; do
	[ -s /tmp/$f.raw ] || nl_fail "numalens top drew nothing on the $f terminal"
	base64 /tmp/$f.raw | sed "s/^/PTYDATA $f /"
done
echo "drawn: $(wc -c < /tmp/a.raw), $(wc -c < /tmp/b.raw) and $(wc -c < /tmp/c.raw) bytes"
