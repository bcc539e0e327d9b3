#!/usr/bin/env bash
# make bench: boot the unpatched base kernel and the patched kernel under
# the same QEMU settings, run maps-bench in each (the patched kernel at
# vm.rwsem_unfair_maps 0 and 1), and print the table bench-report.py makes.
# The base kernel is built from the worktree check-fastpath keeps, with the
# test kernel's .config, in its own object directory.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${TREE:?}" "${OBJ:?}" "${CACHE:?}" "${RUNS:?}"

base_worktree
cp "$OBJ/.config" "$base_obj/.config"
kmake_base olddefconfig >/dev/null
t0=$(date +%s)
kmake_base -j"$(nproc)" bzImage >"$base_obj/build.log" 2>&1 || {
	tail -n 20 "$base_obj/build.log" >&2
	die "base kernel build failed, log at $base_obj/build.log"
}
echo "base kernel $base_obj/arch/x86/boot/bzImage ($(($(date +%s) - t0)) s)"

trials=${BENCH_TRIALS:-20}
KERNEL=$base_obj/arch/x86/boot/bzImage RUN_NAME=bench-base \
	GUEST_CMDLINE="rwsem.bench_trials=$trials ${GUEST_CMDLINE:-}" "$here/run-qemu.sh" bench
RUN_NAME=bench-patched \
	GUEST_CMDLINE="rwsem.bench_trials=$trials ${GUEST_CMDLINE:-}" "$here/run-qemu.sh" bench
python3 "$here/bench-report.py" --out "$RUNS/bench" "$RUNS/bench-base" "$RUNS/bench-patched"
