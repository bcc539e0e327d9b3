#!/usr/bin/env bash
# Boot the patched or the base kernel with the manifest's suites for MODE
# and judge the run: make demo, make test and make test-base.  The judge
# (judge.py) decides; its exit status is ours.  On the base kernel every
# case must pass or skip, never fail, as on the patched one.
# Usage: suite-run.sh MODE patched|base   (run in $RUNS/MODE[-base])
# SUITES= (a comma list of manifest suites) runs those instead.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${TREE:?}" "${RUNS:?}"
mode=${1:?usage: suite-run.sh MODE patched|base}
kernel=${2:?usage: suite-run.sh MODE patched|base}
name=$mode
case $kernel in
patched) ;;
base)
	"$here/base-kernel.sh"
	export KERNEL=$base_image
	name=$mode-base
	;;
*) die "usage: suite-run.sh MODE patched|base" ;;
esac
"$here/run-qemu.sh" run "$name" "${SUITES:-$(manifest_suites "$mode" "$kernel")}"
exec python3 "$here/judge.py" --tree "$TREE" "$RUNS/$name"
