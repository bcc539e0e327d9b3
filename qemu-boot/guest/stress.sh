#!/bin/bash
# stress-ng's procfs and mm stressors for SECONDS, with monitors that read
# the maps family and cmdline of every process, at the level the suite
# runs at; a watchdog fails the run when stress-ng outlives SECONDS by
# GRACE (60) seconds, after dumping the state, wchan and kernel stack of
# every task and the blocked tasks (sysrq w); a first dump comes halfway
# through GRACE, in case the stall ends before the deadline.  Prints KTAP: one case, stress-ng's own
# verdict and the watchdog's.  To see the watchdog fire:
# harness.stress_grace=SECONDS shortens the grace, and
# harness.stress_freeze=1 stops (SIGSTOP) the stressors after 2 s.
# Usage: stress.sh SECONDS
set -euo pipefail
. /rwsem-unfair/options.sh
secs=${1:?usage: stress.sh SECONDS}
grace=$(opt stress_grace 60)
echo "TAP version 13"
echo "1..1"
name="stress: procfs, mmap, mremap, madvise, vm, fork, exec and monitors for ${secs} s"
command -v stress-ng >/dev/null || { echo "ok 1 $name # SKIP no stress-ng"; exit 0; }

# Monitors: what ps, top and memory exporters read, from every process.
monitor() {
	local f p
	while :; do
		for p in /proc/[0-9]*; do
			for f in "$@"; do
				cat "$p/$f" >/dev/null 2>&1 || true
			done
		done
	done
}
# dump: where every task is in the kernel (its state, wchan and stack:
# an interruptible sleep is not in sysrq w), then the blocked tasks.
# The stacks come first: sysrq's printk wakes any reader of the log.
dump() {
	local t state
	for t in /proc/[0-9]*/task/[0-9]*; do
		state=$(sed -n 's/^State:[[:space:]]*//p' "$t/status" 2>/dev/null || true)
		echo "# stack of ${t#/proc/} ($(cat "$t/comm" 2>/dev/null)) ${state:-gone}, wchan $(cat "$t/wchan" 2>/dev/null)"
		sed 's/^/#   /' "$t/stack" 2>/dev/null || true
	done
	echo w >/proc/sysrq-trigger
}

# The procfs stressor reads /proc/kmsg with O_NONBLOCK from up to five
# threads, most with all signals blocked.  kmsg_read() tests for unread
# messages before it sleeps in syslog_print(), so when another thread
# takes the last one in between, the loser sleeps until the next printk,
# which in a quiet guest can be a minute away (base kernels too).  Hide
# it, as container runtimes hide /proc/kcore: the stage is not about
# the kernel log.
mount --bind /dev/null /proc/kmsg || {
	echo "not ok 1 $name # could not hide /proc/kmsg (mount --bind)"
	exit 0
}
pids=()
# Also on an early exit: no monitor outlives the stage, /proc/kmsg returns.
trap 'kill "${pids[@]}" 2>/dev/null || true; umount /proc/kmsg 2>/dev/null || true' EXIT
monitor maps smaps & pids+=($!)
monitor smaps_rollup numa_maps & pids+=($!)
monitor cmdline environ & pids+=($!)
(while :; do ps -eo pid,args >/dev/null 2>&1 || true; done) & pids+=($!)

log=$(mktemp)
xlog=$(mktemp)
# stress-ng runs its exec stressor only as a user: that one runs as nobody
xdir=$(mktemp -d)
chmod 777 "$xdir" "$xlog"
start=$(date +%s)
stress-ng --timeout "${secs}s" --metrics-brief --oomable \
	--procfs 2 --mmap 1 --mmap-bytes 16M --mremap 1 --mremap-bytes 16M \
	--madvise 1 --vm 1 --vm-bytes 64M --fork 1 \
	>"$log" 2>&1 &
stressor=$!
(cd "$xdir" && exec setpriv --reuid=65534 --regid=65534 --clear-groups \
	stress-ng --timeout "${secs}s" --metrics-brief --temp-path "$xdir" \
	--exec 1 --exec-max 16) >"$xlog" 2>&1 &
execer=$!
if [ "$(opt stress_freeze 0)" = 1 ]; then
	sleep 2
	pkill -STOP stress-ng || true
fi
deadline=$((start + secs + grace))
# Halfway through the grace, a first dump, not yet a failure: a stall
# that ends before the deadline still shows where it slept.
early=$((start + secs + grace / 2))
while { kill -0 "$stressor" || kill -0 "$execer"; } 2>/dev/null &&
	[ "$(date +%s)" -lt "$deadline" ]; do
	if [ "$early" != 0 ] && [ "$(date +%s)" -ge "$early" ]; then
		echo "# stress-ng still runs $((secs + grace / 2)) s after its start: blocked tasks and stacks"
		dump
		early=0
	fi
	sleep 1
done
verdict="ok 1 $name"
if { kill -0 "$stressor" || kill -0 "$execer"; } 2>/dev/null; then
	echo "# stress-ng still runs $((secs + grace)) s after its start: blocked tasks and stacks"
	dump
	verdict="not ok 1 $name # watchdog: stress-ng outlived ${secs} s by ${grace} s"
	pkill -KILL stress-ng || true
fi
status=0
wait "$stressor" || status=$?
wait "$execer" || status=$((status ? status : $?))
kill "${pids[@]}" 2>/dev/null || true
wait 2>/dev/null || true
sed 's/^/# /' "$log" "$xlog"
rm -rf "$log" "$xlog" "$xdir"
echo "# stress-ng ran $(($(date +%s) - start)) s, exit status $status"
[ "$status" = 0 ] || [ "${verdict#not}" != "$verdict" ] ||
	verdict="not ok 1 $name # stress-ng exit status $status"
echo "$verdict"
