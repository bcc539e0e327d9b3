#!/usr/bin/env bash
# Export the kernel branch into branch-export/, sysctl-patch/ and selftests/
# with git format-patch (format-patch.sh).  --check: export into a scratch
# directory and fail if any file would change.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
. "$here/lib.sh"
: "${TREE:?}" "${SERIES_VERSION:?}"
check=0
[ "${1:-}" = --check ] && check=1

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$here/format-patch.sh" "$out"

status=0
for d in branch-export sysctl-patch selftests; do
	if [ $check = 1 ]; then
		if ! diff -r -q -x '*.md' -x '.*' "$top/$d" "$out/$d" >&2; then
			echo "$d/ does not match branch in $TREE" >&2
			status=1
		fi
	else
		rm -f "$top/$d"/*.patch
		cp "$out/$d"/*.patch "$top/$d"/ 2>/dev/null || true
		echo "$d/: $(ls "$out/$d" | wc -l) files"
	fi
done
if [ $check = 1 ]; then
	[ $status = 0 ] || die "exported patches differ from the branch: run 'make export' and commit, or 'make tree' to re-apply"
	echo "export matches branch"
fi
