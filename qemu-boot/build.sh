#!/usr/bin/env bash
# Build the kernel (bzImage + modules) and the kselftests, incrementally,
# in $OBJ with ccache.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${OBJ:?}" "${KMAKE:?}" "${KSFT_TARGETS:?}"
[ -f "$OBJ/.config" ] || die "no $OBJ/.config: run 'make config'"

$KMAKE -j"$(nproc)" >"$OBJ/build.log" 2>&1 || {
	tail -n 30 "$OBJ/build.log" >&2
	die "kernel build failed, full log at $OBJ/build.log"
}
stage=$OBJ/modules-staging
rm -rf "$stage"
$KMAKE -s INSTALL_MOD_PATH="$stage" INSTALL_MOD_STRIP=1 modules_install >/dev/null
$KMAKE -j"$(nproc)" TARGETS="$KSFT_TARGETS" kselftest-install >"$OBJ/kselftest.log" 2>&1 || {
	tail -n 30 "$OBJ/kselftest.log" >&2
	die "kselftest build failed, full log at $OBJ/kselftest.log"
}
echo "kernel $OBJ/arch/x86/boot/bzImage ($(cat "$OBJ/include/config/kernel.release"))"
if command -v ccache >/dev/null; then
	ccache -s 2>/dev/null | grep -E 'Hits|Misses' | head -n 2 | sed 's/^/  ccache /' || true
fi
