#!/usr/bin/env bash
# The unpatched base kernel, with the test kernel's .config, for the
# base-kernel run of make test and for make bench, built in a worktree of
# tag "base" and its own object directory (ccache) when it is missing or
# stale.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${TREE:?}" "${OBJ:?}" "${CACHE:?}"
[ -f "$OBJ/.config" ] || die "no $OBJ/.config: run 'make config'"

if base_image_ok; then
	echo "base kernel $base_image (up to date with base and the .config)"
	exit 0
fi
base_worktree
cp "$OBJ/.config" "$base_obj/.config"
kmake_base olddefconfig >/dev/null
t0=$(date +%s)
kmake_base -j"$(nproc)" bzImage >"$base_obj/build.log" 2>&1 || {
	tail -n 20 "$base_obj/build.log" >&2
	die "base kernel build failed, log at $base_obj/build.log"
}
base_image_store "$base_obj" "$OBJ/.config"
echo "base kernel $base_image (built in $(($(date +%s) - t0)) s)"
