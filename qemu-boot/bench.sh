#!/usr/bin/env bash
# make bench: boot the unpatched base kernel and the patched kernel under
# the same QEMU settings, run maps-bench in each (the patched kernel at
# vm.rwsem_unfair_maps 0 and 1), and print the table bench-report.py makes.
# The base kernel is the one base-kernel.sh provides.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${TREE:?}" "${OBJ:?}" "${CACHE:?}" "${RUNS:?}"

"$here/base-kernel.sh"

trials=${BENCH_TRIALS:-20}
base_kernel=$base_image
# boot KERNEL RUN_NAME GUEST_ARGS...: one bench boot.
boot() {
	local k=$1 name=$2
	shift 2
	KERNEL=$k RUN_NAME=$name GUEST_CMDLINE="$* ${GUEST_CMDLINE:-}" \
		"$here/run-qemu.sh" bench
}

# 1-3: one boot per kernel; the patched boot runs 0 and 1 in turn.
main="rwsem.bench=scenario,scan,writer rwsem.bench_trials=$trials"
boot "$base_kernel" bench-base "$main"
boot "$OBJ/arch/x86/boot/bzImage" bench-patched "$main"

# 4: the fair path, base against patched at 0, in pairs of boots; the
# order within a pair alternates (base-patched, patched-base, ...) so that
# a host that drifts during the run moves both sides alike.  Wall-clock
# pairs as in 1-3, then pairs in instruction-count time (single-threaded
# TCG, -icount), where the guest clock advances with the instructions
# executed and the host's noise does not reach the figure.
patched_kernel=$OBJ/arch/x86/boot/bzImage
fault=()
# fault_pairs N PREFIX OPTION: N pairs of fault boots, report arguments.
fault_pairs() {
	local n=$1 prefix=$2 opt=$3 i k kern order
	for ((i = 1; i <= n; i++)); do
		order="base patched"
		[ $((i % 2)) = 1 ] || order="patched base"
		for k in $order; do
			kern=$base_kernel
			[ "$k" = base ] || kern=$patched_kernel
			boot "$kern" "$prefix-$k-$i" rwsem.bench=fault rwsem.fault_runs=5
			fault+=("$opt" "$RUNS/$prefix-$k-$i")
		done
	done
}
fault_pairs "${BENCH_FAULT_PAIRS:-4}" bench-fault --fault
QEMU_ACCEL=tcg,thread=single QEMU_EXTRA="-icount shift=1,sleep=off" \
	fault_pairs "${BENCH_ICOUNT_PAIRS:-2}" bench-icount --fault-icount

# 5: the contended loads of 2 and 3 (maps scanners against an mmap/munmap
# writer), base against patched at 0, in instruction-count time, in
# alternating pairs of boots as in 4.
contended=()
for ((i = 1; i <= ${BENCH_ICOUNT_PAIRS:-2}; i++)); do
	order="base patched"
	[ $((i % 2)) = 1 ] || order="patched base"
	for k in $order; do
		kern=$base_kernel
		[ "$k" = base ] || kern=$patched_kernel
		QEMU_ACCEL=tcg,thread=single QEMU_EXTRA="-icount shift=1,sleep=off" \
			boot "$kern" "bench-cicount-$k-$i" rwsem.bench=scan,writer \
			rwsem.bench_cfgs=fair rwsem.scan_runs=3
		contended+=(--contended-icount "$RUNS/bench-cicount-$k-$i")
	done
done
python3 "$here/bench-report.py" --out "$RUNS/bench" "${fault[@]}" "${contended[@]}" \
	"$RUNS/bench-base" "$RUNS/bench-patched"
