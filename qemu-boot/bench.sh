#!/usr/bin/env bash
# make bench: boot the unpatched base kernel and the patched kernel under
# the same QEMU settings with the manifest's bench suites (the kselftests'
# bench modes; the patched kernel at the levels the manifest gives), and
# print the report bench-report.py makes of them.
#   bench   one boot per kernel
#   pairs   BENCH_PAIRS (4) pairs of boots in wall-clock time
#   icount  BENCH_ICOUNT_PAIRS (2) pairs in instruction-count time
#           (single-threaded TCG, -icount: the guest clock advances with
#           the instructions executed, and the host's noise does not
#           reach the figures)
# In a pair the order alternates (base-patched, patched-base, ...), so
# that a host that drifts during the run moves both sides alike.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${TREE:?}" "${OBJ:?}" "${RUNS:?}"

"$here/base-kernel.sh"
declare -A image=([base]=$base_image [patched]=$OBJ/arch/x86/boot/bzImage)

boot() { # MODE KERNEL NAME
	KERNEL=${image[$2]} TIMEOUT=${BENCH_TIMEOUT:-1800} \
		"$here/run-qemu.sh" run "$3" "$(manifest_suites "$1" "$2")"
}
pairs() { # MODE N: N pairs of boots, named bench-MODE-KERNEL-I
	local i k order
	for ((i = 1; i <= $2; i++)); do
		order="base patched"
		[ $((i % 2)) = 1 ] || order="patched base"
		for k in $order; do
			boot "$1" "$k" "bench-$1-$k-$i"
			runs+=("$RUNS/bench-$1-$k-$i")
		done
	done
}

runs=()
boot bench base bench-base
boot bench patched bench-patched
main=("$RUNS/bench-base" "$RUNS/bench-patched")
pairs pairs "${BENCH_PAIRS:-4}"
wall=("${runs[@]}")
runs=()
QEMU_ACCEL=tcg,thread=single QEMU_EXTRA="-icount shift=1,sleep=off" \
	pairs icount "${BENCH_ICOUNT_PAIRS:-2}"
python3 "$here/bench-report.py" --tree "$TREE" --out "$RUNS/bench" \
	--main "${main[@]}" --pairs "${wall[@]}" --icount "${runs[@]}"
