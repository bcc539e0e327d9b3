#!/usr/bin/env bash
# Concatenate the three folders into one mbox, cover letter first, in the
# order git am (or b4 am) applies them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
. "$here/lib.sh"
: "${CACHE:?}" "${SERIES_VERSION:?}"
out=${MBOX:-$CACHE/rwsem-unfair-v$SERIES_VERSION.mbox}
: >"$out"
n=0
for d in branch-export sysctl-patch selftests; do
	for p in "$top/$d"/*.patch; do
		[ -e "$p" ] || continue
		cat "$p" >>"$out"
		echo >>"$out"
		n=$((n + 1))
	done
done
[ $n -gt 0 ] || die "no patches to put in the mbox"
echo "mbox: $out ($n messages)"
