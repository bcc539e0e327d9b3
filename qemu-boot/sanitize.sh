#!/usr/bin/env bash
# make sanitize: the patched kernel built with KASAN and with KCSAN
# (kasan.config, kcsan.config over kernel.config), each in an object
# directory of its own ($CACHE/obj-kasan, $CACHE/obj-kcsan; incremental,
# ccache), booted with KUnit, locktorture and the proc kselftests (at
# levels 0 and 2).  Any report on the console is a splat, and fails the
# boot.  SANITIZERS="kasan" runs one; SANITIZE_TIMEOUT= bounds a boot
# (seconds, default 3600: both slow the guest down several times).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${TREE:?}" "${CACHE:?}" "${RUNS:?}" "${KMAKE:?}"
status=0
for kind in ${SANITIZERS:-kasan kcsan}; do
	[ -f "$here/$kind.config" ] || die "no $here/$kind.config"
	export OBJ=$CACHE/obj-$kind
	KMAKE="$KMAKE O=$OBJ"
	t0=$(date +%s)
	FRAGMENTS="$here/kernel.config $here/$kind.config" "$here/config.sh"
	"$here/build.sh"
	"$here/initramfs.sh"
	echo "$kind: built in $(($(date +%s) - t0)) s"
	t0=$(date +%s)
	GUEST_CMDLINE="${GUEST_CMDLINE:-} harness.ksft_timeout=450" \
		TIMEOUT=${SANITIZE_TIMEOUT:-3600} "$here/run-qemu.sh" run "$kind" kunit,locktorture,proc ||
		status=1
	python3 "$here/judge.py" --tree "$TREE" "$RUNS/$kind" || status=1
	reports=$(grep -c -E 'BUG: (KASAN|KCSAN)' "$RUNS/$kind/console.log" || true)
	echo "$kind: booted in $(($(date +%s) - t0)) s, $reports $kind reports"
done
exit $status
