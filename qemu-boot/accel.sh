#!/usr/bin/env bash
# Print the QEMU accelerator to use, the argument of qemu's -accel.
# QEMU_ACCEL says which:
#   unset, empty or auto  kvm only if a bounded probe boot of the built
#                         kernel reaches userspace under KVM, else TCG
#                         (tcg,thread=multi).  /dev/kvm existing is not
#                         enough: on some hosts a KVM guest hangs right
#                         after the firmware.  The verdict is cached per
#                         QEMU version and host kernel.
#   kvm, tcg              that one, no probe (tcg is tcg,thread=multi)
#   kvm,... or tcg,...    exactly that, no probe (make bench:
#                         tcg,thread=single)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
tcg=tcg,thread=multi
case ${QEMU_ACCEL:-auto} in
tcg) echo $tcg; exit 0 ;;
kvm) echo kvm; exit 0 ;;
tcg,* | kvm,*) echo "$QEMU_ACCEL"; exit 0 ;;
auto) ;;
*) die "QEMU_ACCEL must be auto, kvm, tcg, or kvm,... or tcg,... with qemu -accel options, not '$QEMU_ACCEL'" ;;
esac
: "${OBJ:?}"
if [ ! -w /dev/kvm ]; then
	echo $tcg
	exit 0
fi
key="$(qemu-system-x86_64 --version | head -n 1) / host $(uname -r)"
cache=$OBJ/kvm-probe
if stamp_ok "$cache" "$key"; then
	verdict=$(stamp_note "$cache")
else
	log=$OBJ/kvm-probe.log
	timeout -k 5 "${KVM_PROBE_TIMEOUT:-30}" qemu-system-x86_64 -nodefaults \
		-no-user-config -machine pc -accel kvm -smp 2 -m 512M \
		-display none -no-reboot -monitor none -serial "file:$log" \
		-kernel "$OBJ/arch/x86/boot/bzImage" -initrd "$OBJ/initramfs.img" \
		-append "console=ttyS0 panic=-1 harness.mode=probe" \
		>/dev/null 2>&1 || true
	if grep -q RWSEM-UNFAIR-PROBE-OK "$log" 2>/dev/null; then
		verdict=kvm
	else
		verdict=tcg
		echo "KVM probe boot did not reach userspace in ${KVM_PROBE_TIMEOUT:-30} s; using TCG (log: $log)" >&2
	fi
	stamp_write "$cache" "$key" "$verdict"
fi
[ "$verdict" = kvm ] && echo kvm || echo $tcg
