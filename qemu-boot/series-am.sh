#!/usr/bin/env bash
# check-series, step 2: git am of branch-export/, sysctl-patch/ and
# selftests/ (without the cover letter) onto base succeeds, and gives
# exactly the tree of branch unfair/tests.  In check-series' worktree
# (lib.sh, series_check_env), which it leaves at the applied tip; the
# steps after it read that commit from $CACHE/check-series/tip.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
. "$here/lib.sh"
: "${TREE:?}" "${CACHE:?}" "${PROJECT_NAME:?}" "${PROJECT_EMAIL:?}"
export_identity
series_check_env

mapfile -t patches < <(series_patches "$top")
[ ${#patches[@]} -gt 0 ] || die "no patches in the folders"
rm -f "$log/tip"
worktree_at "$src" base
am_patches "$src" "${patches[@]}" >"$log/am.log" 2>&1 ||
	die "git am of ${am_failed#"$top"/} onto base fails (log $log/am.log)"
sgit diff --quiet HEAD unfair/tests ||
	die "the folders applied onto base differ from unfair/tests: run 'make export'"
sgit rev-parse HEAD >"$log/tip"
echo "git am: ${#patches[@]} patches apply onto base and give unfair/tests"
