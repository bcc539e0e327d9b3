#!/usr/bin/env bash
# Boot the built kernel and initramfs in QEMU.
# Usage: run-qemu.sh MODE   (demo | test | bench | shell)
# Console log and results channel go to $RUNS/MODE/ ($RUNS/$RUN_NAME/ if
# set); demo and test are then checked by results.py, whose exit status is
# ours; bench-report.py reads bench runs.  KERNEL= boots another bzImage
# (make bench: the base kernel).  QEMU_ACCEL= replaces the accelerator
# accel.sh picks and QEMU_EXTRA= adds options, split on blanks (make bench:
# "tcg,thread=single" and "-icount shift=1,sleep=off").
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${OBJ:?}" "${RUNS:?}" "${TREE:?}"
mode=${1:?usage: run-qemu.sh demo|test|bench|shell}
kernel=${KERNEL:-$OBJ/arch/x86/boot/bzImage}
initrd=$OBJ/initramfs.img
[ -f "$kernel" ] || die "no kernel at $kernel: run 'make build'"
[ -f "$initrd" ] || die "no initramfs at $initrd: run 'make initramfs'"

case $mode in
test) timeout_s=${TEST_TIMEOUT:-900} ;;
bench) timeout_s=${BENCH_TIMEOUT:-1200} ;;
*) timeout_s=${BOOT_TIMEOUT:-300} ;;
esac
accel=${QEMU_ACCEL:-$("$here/accel.sh")}
cmdline="console=ttyS0 panic=-1 rwsem.mode=$mode rd.shell=0 rd.emergency=reboot"
cmdline+=" sysctl.kernel.hung_task_timeout_secs=30 ${GUEST_CMDLINE:-}"
qemu=(qemu-system-x86_64 -nodefaults -no-user-config -machine pc
	-accel "$accel" -smp 2 -m 2G -display none -no-reboot
	-kernel "$kernel" -initrd "$initrd" -append "$cmdline" ${QEMU_EXTRA:-})
echo "QEMU: $accel${QEMU_EXTRA:+ $QEMU_EXTRA}, 2 vCPUs, 2 GiB, mode $mode, kernel $kernel"

if [ "$mode" = shell ]; then
	exec "${qemu[@]}" -serial mon:stdio -serial null
fi

dir=$RUNS/${RUN_NAME:-$mode}
rm -rf "$dir"
mkdir -p "$dir"
console=$dir/console.log results=$dir/results.txt
status=0
timeout -k 10 "$timeout_s" "${qemu[@]}" -monitor none \
	-serial "file:$console" -serial "file:$results" || status=$?
if [ $status = 124 ] || [ $status = 137 ]; then
	tail -n 15 "$console" >&2 || true
	die "QEMU timed out after $timeout_s s, console log at $console"
fi
[ $status = 0 ] || die "QEMU exited with status $status, console log at $console"
[ "$mode" != bench ] || exit 0
exec python3 "$here/results.py" --kunit "$TREE/tools/testing/kunit/kunit.py" \
	"$console" "$results"
