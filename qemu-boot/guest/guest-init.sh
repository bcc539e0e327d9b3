#!/bin/bash
# PID 1 of the test guest.  Reads rwsem.mode= from the kernel command line,
# runs that mode, writes framed results to the results channel (ttyS1) and
# always ends the VM.  Console output goes to ttyS0.
set -uo pipefail
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
here=/rwsem-unfair

finish() {
	echo "rwsem-unfair: guest runner done, rebooting (QEMU exits on -no-reboot)"
	echo b >/proc/sysrq-trigger
	sleep 10
}
trap finish EXIT

arg() { # arg NAME DEFAULT: the last NAME=value on the command line wins
	local a v=$2
	for a in $(cat /proc/cmdline); do
		case $a in "$1="*) v=${a#*=} ;; esac
	done
	echo "$v"
}

mode=$(arg rwsem.mode test)
grep -q " /sys/kernel/debug " /proc/mounts || mount -t debugfs none /sys/kernel/debug 2>/dev/null
mkdir -p /tmp && mount -t tmpfs none /tmp 2>/dev/null

case $mode in
probe)
	echo "RWSEM-UNFAIR-PROBE-OK"
	exit 0
	;;
shell)
	echo "rwsem-unfair guest shell: kselftests in /opt/kselftests, exit to power off"
	setsid -c bash -i </dev/ttyS0 >/dev/ttyS0 2>&1
	exit 0
	;;
esac

# For debugging a hang: rwsem.sysrq_after=N dumps the blocked tasks (sysrq
# w: also killable sleeps, which the hung task detector does not report)
# N seconds after the start, and every N seconds after that.
dump=$(arg rwsem.sysrq_after 0)
if [ "$dump" -gt 0 ]; then
	(while sleep "$dump"; do echo "$(arg rwsem.sysrq_key w)" >/proc/sysrq-trigger; done) &
fi

exec 3>/dev/ttyS1
stty -F /dev/ttyS1 raw -echo 2>/dev/null
out() { printf '%s\n' "$@" >&3; }

# Pre-seeded with failure: the host counts the run as failed unless the
# last verdict line it sees is "done".
out "RWSEM-UNFAIR-RESULTS-BEGIN" "@@ verdict FAIL runner started but did not finish"

out "@@ section env"
{
	echo "kernel $(cat /proc/sys/kernel/osrelease)"
	echo "cpus $(grep -c ^processor /proc/cpuinfo)"
	echo "clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
	echo "mode $mode"
} | tee /dev/fd/3

# run_section NAME COMMAND...: run, show on the console, frame on ttyS1.
run_section() {
	local name=$1
	shift
	echo "rwsem-unfair: running $name"
	out "@@ section $name"
	"$@" 2>&1 | tee /dev/fd/3
}

# locktorture with the rwsem_unfair_lock type: fair readers, unfair readers
# and writers on one rwsem.  The host checks the per-interval statistics.
locktorture() {
	local secs
	secs=$(arg rwsem.torture_secs 32)
	echo "torture_secs $secs"
	modprobe locktorture torture_type=rwsem_unfair_lock \
		nwriters_stress=2 nreaders_stress=40 stat_interval=5 stutter=0 ||
		{ echo "modprobe locktorture failed"; return 1; }
	sleep "$secs"
	rmmod locktorture
	dmesg | grep -E -e '-torture: ?(---|Stopping)' \
		-e '^\[[ 0-9.]+\] (Writes|Reads ?):'
}

# bench_at CONFIG ARGS...: one maps-bench run, rows prefixed with CONFIG.
bench_at() {
	local cfg=$1
	shift
	case $cfg in
	fair) sysctl -q -w vm.rwsem_unfair_maps=0 ;;
	unfair) sysctl -q -w vm.rwsem_unfair_maps=1 ;;
	esac
	"$here/maps-bench" "$@" | sed "s/^/$cfg,/"
}

# demo_readers: one trial of each maps-bench reader at each level.
demo_readers() {
	local c cfgs=(base)
	[ -e /proc/sys/vm/rwsem_unfair_maps ] && cfgs=(fair unfair)
	for c in "${cfgs[@]}"; do bench_at "$c" scenario -n 1; done
	[ -e /proc/sys/vm/rwsem_unfair_maps ] && sysctl -q -w vm.rwsem_unfair_maps=0
	return 0
}

# lockevents: the rwsem lock event counters, one "lockevent,NAME,N" row
# each (CONFIG_LOCK_EVENT_COUNTS), to tell a slower lock from a noisier host.
lockevents() {
	local f
	for f in /sys/kernel/debug/lock_event_counts/rwsem_*; do
		[ -e "$f" ] && echo "lockevent,${f##*/},$(cat "$f")"
	done
}

# rwsem.bench= (comma list, default all) picks the benchmarks to run.
bench() {
	local cfgs=(base) c r what
	# rwsem.bench_cfgs= (comma list, default fair,unfair): the patched
	# kernel's settings to measure
	[ -e /proc/sys/vm/rwsem_unfair_maps ] &&
		IFS=, read -r -a cfgs <<<"$(arg rwsem.bench_cfgs fair,unfair)"
	what=,$(arg rwsem.bench scenario,scan,writer,fault),
	echo "configs ${cfgs[*]} benches $what"
	if [[ $what == *,scenario,* ]]; then
		for c in "${cfgs[@]}"; do bench_at "$c" scenario -n "$(arg rwsem.bench_trials 20)"; done
	fi
	if [[ $what == *,scan,* ]]; then
		# rounds alternate the configurations, so host drift hits both
		for ((r = 0; r < $(arg rwsem.scan_runs 5); r++)); do
			for c in "${cfgs[@]}"; do bench_at "$c" scan -n 1 -s 10; done
		done
	fi
	if [[ $what == *,writer,* ]]; then
		for c in "${cfgs[@]}"; do bench_at "$c" writer -s 3; done
	fi
	if [[ $what == *,fault,* ]]; then
		# the fair path only: base against patched at 0
		lockevents | sed "s/^/${cfgs[0]},before,/"
		bench_at "${cfgs[0]}" fault -n "$(arg rwsem.fault_runs 7)" -s 2
		lockevents | sed "s/^/${cfgs[0]},after,/"
	fi
	[ -e /proc/sys/vm/rwsem_unfair_maps ] && sysctl -q -w vm.rwsem_unfair_maps=0
	echo "bench done"
}

# The skip paths, for development: rwsem.ksft_user=UID runs the
# kselftests as that user (without capabilities), rwsem.ro_sysctl=1
# mounts /proc/sys read-only first, as in a container.
ksft_run() {
	local uid
	uid=$(arg rwsem.ksft_user "")
	if [ "$(arg rwsem.ro_sysctl 0)" = 1 ] && ! grep -q ' /proc/sys proc ro' /proc/mounts; then
		mount --bind /proc/sys /proc/sys && mount -o remount,bind,ro /proc/sys
	fi
	cd /opt/kselftests || return 1
	if [ -n "$uid" ]; then
		# the runner reopens /dev/stdout for append: a file it may open,
		# appended to by both
		local log ret=0
		log=$(mktemp) && chmod 666 "$log" || return 1
		setpriv --reuid="$uid" --regid="$uid" --clear-groups \
			--inh-caps=-all --bounding-set=-all ./run_kselftest.sh "$@" \
			>>"$log" 2>&1 || ret=$?
		cat "$log"
		return $ret
	else
		./run_kselftest.sh "$@"
	fi
}

ksft() {
	local t args=()
	for t in "$@"; do args+=(-t "$t"); done
	ksft_run "${args[@]}"
}

# ksft_collection COLLECTION LEVEL: the whole collection with
# vm.rwsem_unfair_maps at LEVEL (tests that change it put it back).
ksft_collection() {
	local level=$2 ret=0
	if [ -e /proc/sys/vm/rwsem_unfair_maps ]; then
		sysctl -q -w vm.rwsem_unfair_maps="$level" || return 1
	elif [ "$level" != 0 ]; then
		echo "no vm.rwsem_unfair_maps on this kernel: level $level cannot be set"
		return 1
	fi
	echo "vm.rwsem_unfair_maps=$level"
	ksft_run -c "$1" || ret=$?
	[ -e /proc/sys/vm/rwsem_unfair_maps ] && sysctl -q -w vm.rwsem_unfair_maps=0
	return $ret
}

case $mode in
demo)
	run_section demo ksft proc:proc-maps-contention
	# what a user sees: maps, cmdline and a whole "ps -eo pid,args"
	# behind the same hold, at 0 and 1 (base kernel: as it is)
	run_section demo-readers demo_readers
	;;
test)
	# rwsem.suites= (default kunit,locktorture,proc0,proc2): procN is the
	# whole proc kselftest collection at vm.rwsem_unfair_maps=N; kselftest
	# is the list in rwsem.ksft= (comma list of COLLECTION:TEST, default
	# tests.list: the series' own tests).
	suites=,$(arg rwsem.suites kunit,locktorture,proc0,proc2),
	echo "suites $suites" | tee /dev/fd/3
	if [[ $suites == *,kunit,* ]]; then
		for f in /sys/kernel/debug/kunit/*/results; do
			[ -e "$f" ] || continue
			s=${f%/results}
			run_section "kunit:${s##*/}" cat "$f"
		done
	fi
	[[ $suites != *,locktorture,* ]] || run_section locktorture locktorture
	if [[ $suites == *,kselftest,* ]]; then
		list=$(arg rwsem.ksft "")
		if [ -n "$list" ]; then
			IFS=, read -r -a tests <<<"$list"
		else
			mapfile -t tests < <(grep -v '^#' "$here/tests.list")
		fi
		run_section kselftest ksft "${tests[@]}"
	fi
	for level in 0 1 2; do
		[[ $suites != *,proc$level,* ]] ||
			run_section "proc@$level" ksft_collection proc "$level"
	done
	;;
bench)
	# make bench: CSV rows "CONFIG,ROW..." where CONFIG is base (a kernel
	# without vm.rwsem_unfair_maps), fair (patched, 0) or unfair (patched, 1).
	run_section bench bench
	;;
*)
	echo "rwsem-unfair: unknown rwsem.mode=$mode"
	exit 1
	;;
esac

out "@@ verdict done" "RWSEM-UNFAIR-RESULTS-END"
exec 3>&-
