#!/bin/bash
# PID 1 of the test guest (dracut's cmdline hook execs it).  Mounts what
# the tests need, then, by harness.mode= on the kernel command line:
#   run    run the suites in harness.suites= (run-suites.sh), results on
#          the results channel (ttyS1)
#   shell  an interactive shell on the console
#   probe  print a marker (the host's KVM probe) and stop
# and always ends the VM.  Console output goes to ttyS0.
set -uo pipefail
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
here=/rwsem-unfair
. "$here/options.sh"

finish() {
	echo "rwsem-unfair: guest runner done, rebooting (QEMU exits on -no-reboot)"
	echo b >/proc/sysrq-trigger
	sleep 10
}
trap finish EXIT

grep -q " /sys/kernel/debug " /proc/mounts || mount -t debugfs none /sys/kernel/debug 2>/dev/null
mkdir -p /tmp && mount -t tmpfs none /tmp 2>/dev/null

case $(opt mode run) in
probe)
	echo "RWSEM-UNFAIR-PROBE-OK"
	;;
shell)
	echo "rwsem-unfair guest shell: kselftests in /opt/kselftests, suites in $here/manifest, exit to power off"
	setsid -c bash -i </dev/ttyS0 >/dev/ttyS0 2>&1
	;;
run)
	# For debugging a hang: harness.sysrq_after=N dumps the blocked
	# tasks (sysrq w: also killable sleeps, which the hung task detector
	# does not report) every N seconds; harness.sysrq_key= picks another.
	dump=$(opt sysrq_after 0)
	if [ "$dump" -gt 0 ]; then
		key=$(opt sysrq_key w)
		(while sleep "$dump"; do echo "$key" >/proc/sysrq-trigger; done) &
	fi
	stty -F /dev/ttyS1 raw -echo 2>/dev/null
	"$here/run-suites.sh" "$(opt suites "")" 3>/dev/ttyS1
	;;
*)
	echo "rwsem-unfair: unknown harness.mode=$(opt mode run)"
	;;
esac
