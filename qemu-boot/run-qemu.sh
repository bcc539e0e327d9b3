#!/usr/bin/env bash
# Boot the kernel and the initramfs in QEMU.
# Usage: run-qemu.sh run NAME SUITES   run the manifest's SUITES (a comma
#                                      list); console log and results
#                                      channel in $RUNS/NAME/
#        run-qemu.sh shell             an interactive shell on the console
# It only boots: judge.py judges a run.  KERNEL= boots another bzImage
# (the base kernel, a mutant), TIMEOUT= (seconds, default 900) bounds a
# run, QEMU_ACCEL= sets the accelerator (accel.sh), QEMU_EXTRA=
# adds options, split on blanks (make bench: "-icount shift=1,sleep=off"),
# GUEST_CMDLINE= adds to the kernel command line (guest options:
# harness.NAME=VALUE, see guest/), and STOP_ON= (an extended regex) ends
# the run at the first console line that matches it, prints it as
# "stopped at: LINE" and exits with status 3 (the mutation check: a
# mutant is killed at its first failing case, and the cases after it
# would only wait for their timeouts).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${OBJ:?}" "${RUNS:?}"
mode=${1:?usage: run-qemu.sh run NAME SUITES | shell}
kernel=${KERNEL:-$OBJ/arch/x86/boot/bzImage}
initrd=$OBJ/initramfs.img
[ -f "$kernel" ] || die "no kernel at $kernel: run 'make build'"
[ -f "$initrd" ] || die "no initramfs at $initrd: run 'make initramfs'"

accel=$("$here/accel.sh")
cmdline="console=ttyS0 panic=-1 rd.shell=0 rd.emergency=reboot"
cmdline+=" sysctl.kernel.hung_task_timeout_secs=30 harness.mode=$mode"
case $mode in
run)
	name=${2:?usage: run-qemu.sh run NAME SUITES}
	suites=${3:?usage: run-qemu.sh run NAME SUITES}
	cmdline+=" harness.suites=$suites"
	;;
shell) ;;
*) die "usage: run-qemu.sh run NAME SUITES | shell" ;;
esac
cmdline+=" ${GUEST_CMDLINE:-}"
qemu=(qemu-system-x86_64 -nodefaults -no-user-config -machine pc
	-accel "$accel" -smp 2 -m 2G -display none -no-reboot
	-kernel "$kernel" -initrd "$initrd" -append "$cmdline" ${QEMU_EXTRA:-})
echo "QEMU: $accel${QEMU_EXTRA:+ $QEMU_EXTRA}, 2 vCPUs, 2 GiB, kernel $kernel"

if [ "$mode" = shell ]; then
	exec "${qemu[@]}" -serial mon:stdio -serial null
fi
echo "  suites: $suites"
dir=$RUNS/$name
rm -rf "$dir"
mkdir -p "$dir"
console=$dir/console.log
timeout_s=${TIMEOUT:-900}
status=0
timeout -k 10 "$timeout_s" "${qemu[@]}" -monitor none \
	-serial "file:$console" -serial "file:$dir/results.txt" &
qemu_pid=$!
if [ -n "${STOP_ON:-}" ]; then
	while kill -0 "$qemu_pid" 2>/dev/null; do
		line=$(grep -m 1 -E -e "$STOP_ON" "$console" 2>/dev/null || true)
		if [ -n "$line" ]; then
			kill "$qemu_pid"
			wait "$qemu_pid" || true
			echo "stopped at: $(echo "$line" | sed -E 's/^\[[ 0-9.]+\] *//')"
			exit 3
		fi
		sleep 1
	done
fi
wait "$qemu_pid" || status=$?
if [ $status = 124 ] || [ $status = 137 ]; then
	tail -n 15 "$console" >&2 || true
	die "QEMU timed out after $timeout_s s, console log at $console"
fi
[ $status = 0 ] || die "QEMU exited with status $status, console log at $console"
