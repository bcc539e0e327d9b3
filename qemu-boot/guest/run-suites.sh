#!/bin/bash
# Run suites of the manifest and frame their output on fd 3 (the results
# channel) for the host's judge (qemu-boot/judge.py).
# Usage: run-suites.sh NAME[,NAME...]   (in the manifest's order)
#
# The channel is pre-seeded with failure: the host counts the run as
# failed unless the last verdict line it sees is "done".  Each run of a
# suite's command is one section, "@@ section NAME@LEVEL TYPE" (NAME
# alone for level "-"; NAME@base on a kernel without the sysctl), with
# TYPE kunit, locktorture, kselftest or ktap: how the judge reads it.
set -uo pipefail
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
here=/rwsem-unfair
. "$here/options.sh"
sysctl=/proc/sys/vm/rwsem_unfair_maps
ksft=/opt/kselftests

out() { printf '%s\n' "$@" >&3; }

out "RWSEM-UNFAIR-RESULTS-BEGIN" "@@ verdict FAIL runner started but did not finish"
out "@@ section env -"
{
	echo "kernel $(cat /proc/sys/kernel/osrelease)"
	echo "cpus $(grep -c ^processor /proc/cpuinfo)"
	echo "clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
	echo "sysctl $([ -e $sysctl ] && echo yes || echo no)"
	echo "suites $1"
} | tee /dev/fd/3

# section NAME TYPE COMMAND...: run, show on the console, frame on fd 3.
section() {
	local name=$1 type=$2
	shift 2
	echo "rwsem-unfair: running $name"
	out "@@ section $name $type"
	"$@" 2>&1 | tee /dev/fd/3
}

kunit() {
	local f s
	for f in /sys/kernel/debug/kunit/*/results; do
		[ -e "$f" ] || continue
		s=${f%/results}
		section "kunit:${s##*/}" kunit cat "$f"
	done
}

# The skip paths, for development: harness.ksft_user=UID runs the
# kselftests as that user (without capabilities), harness.ro_sysctl=1
# mounts /proc/sys read-only first, as in a container.  For slow
# kernels (KASAN, KCSAN), harness.ksft_timeout=SECONDS overrides each
# test's timeout.
kselftest() {
	local uid log ret=0 t
	uid=$(opt ksft_user "")
	t=$(opt ksft_timeout "")
	[ -z "$t" ] || set -- --override-timeout "$t" "$@"
	if [ "$(opt ro_sysctl 0)" = 1 ] && ! grep -q ' /proc/sys proc ro' /proc/mounts; then
		mount --bind /proc/sys /proc/sys && mount -o remount,bind,ro /proc/sys
	fi
	cd "$ksft" || return 1
	[ -n "$uid" ] || { ./run_kselftest.sh "$@"; return; }
	# the runner reopens /dev/stdout for append: a file it may open,
	# appended to by both
	log=$(mktemp) && chmod 666 "$log" || return 1
	setpriv --reuid="$uid" --regid="$uid" --clear-groups \
		--inh-caps=-all --bounding-set=-all ./run_kselftest.sh "$@" \
		>>"$log" 2>&1 || ret=$?
	cat "$log"
	return $ret
}

ktap() {
	local prog=$1
	shift
	cd "$ksft/$(dirname "$prog")" && "./$(basename "$prog")" "$@"
}

# run_suite NAME LEVELS COMMAND...
run_suite() {
	local name=$1 levels=$2 level type
	shift 2
	case $1 in
	kunit) kunit; return ;;
	locktorture) type=locktorture; set -- "$here/locktorture.sh" "${@:2}" ;;
	stress) type=ktap; set -- "$here/stress.sh" "${@:2}" ;;
	kselftest | ktap) type=$1 ;;
	*) echo "manifest: $name: unknown command $1"; return 1 ;;
	esac
	if [ "$levels" = - ]; then
		section "$name" "$type" "$@"
		return
	fi
	for level in ${levels//,/ }; do
		if [ ! -e $sysctl ]; then
			# a kernel without the sysctl is measured as it is, once
			# for each level 0
			[ "$level" = 0 ] && section "$name@base" "$type" "$@"
			continue
		fi
		if ! sysctl -q -w vm.rwsem_unfair_maps="$level"; then
			out "@@ section $name@$level $type" "cannot set vm.rwsem_unfair_maps=$level"
			continue
		fi
		section "$name@$level" "$type" "$@"
		sysctl -q -w vm.rwsem_unfair_maps=0 2>/dev/null
	done
}

want=,$1,
while read -r name _modes _kernels levels cmd; do
	case $name in '' | '#'*) continue ;; esac
	[[ $want == *",$name,"* ]] || continue
	want=${want/,$name,/,}
	# shellcheck disable=SC2086
	run_suite "$name" "$levels" $cmd
done <"$here/manifest"
want=${want#,}
want=${want%,}
[ -z "$want" ] || out "@@ section manifest -" "no such suite in the manifest: ${want//,/ }"

out "@@ verdict done" "RWSEM-UNFAIR-RESULTS-END"
