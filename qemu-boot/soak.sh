#!/usr/bin/env bash
# make soak: boot the patched kernel again and again with the stress
# stage and the contention kselftests, to hunt hangs and races that one
# boot of make test is unlikely to hit.  Stops at SOAK_BOOTS boots
# (default 30) or SOAK_SECONDS seconds (default 3600), whichever comes
# first, or at the first failed boot, whose run directory it names.
# SOAK_SUITES= (a comma list of manifest suites) replaces the default.
# Prints one line per boot and "soak: N boots, N passed, N failed".
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${TREE:?}" "${RUNS:?}"
boots=${SOAK_BOOTS:-30}
secs=${SOAK_SECONDS:-3600}
suites=${SOAK_SUITES:-stress,proc-maps-contention,proc-maps-unfair-writer,consistency}
end=$(($(date +%s) + secs))
passed=0
failed=0
for ((i = 1; i <= boots; i++)); do
	[ "$(date +%s)" -lt "$end" ] || break
	t0=$(date +%s)
	status=0
	"$here/run-qemu.sh" run "soak-$i" "$suites" >"$RUNS/soak-$i.qemu.log" 2>&1 || status=$?
	if [ "$status" = 0 ] &&
		python3 "$here/judge.py" --tree "$TREE" "$RUNS/soak-$i" >"$RUNS/soak-$i.judge.log" 2>&1; then
		passed=$((passed + 1))
		echo "soak boot $i: passed in $(($(date +%s) - t0)) s"
	else
		failed=$((failed + 1))
		echo "soak boot $i: FAILED in $(($(date +%s) - t0)) s (qemu status $status)"
		tail -n 5 "$RUNS/soak-$i.judge.log" 2>/dev/null | sed 's/^/    /' || true
		echo "    console: $RUNS/soak-$i/console.log"
		break
	fi
done
echo "soak: $((passed + failed)) boots, $passed passed, $failed failed"
[ "$failed" = 0 ]
