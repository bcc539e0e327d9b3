#!/usr/bin/env bash
# check-series, step 2: every patch of the folders (not the cover
# letter) passes scripts/checkpatch.pl --strict with 0 errors,
# 0 warnings and 0 checks.  checkpatch.pl is the one of check-series'
# worktree (series-am.sh makes it).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
. "$here/lib.sh"
: "${CACHE:?}"
series_check_env
[ -f "$src/scripts/checkpatch.pl" ] || die "no worktree at $src: run series-am.sh first"

mapfile -t patches < <(series_patches "$top")
[ ${#patches[@]} -gt 0 ] || die "no patches in the folders"
bad=0
for p in "${patches[@]}"; do
	out=$(cd "$src" && { perl scripts/checkpatch.pl --strict --show-types "$p" 2>&1 || true; })
	total=$(printf '%s\n' "$out" | grep -E '^total:' || true)
	case $total in
	"total: 0 errors, 0 warnings, 0 checks,"*) ;;
	*)
		echo "checkpatch: ${p#"$top"/}: ${total:-no result}"
		printf '%s\n' "$out" | sed 's/^/    /' | head -n 30
		bad=1
		;;
	esac
done
[ $bad = 0 ] || die "checkpatch --strict is not clean on the patches named above"
echo "checkpatch --strict: 0 errors, 0 warnings, 0 checks on all ${#patches[@]} patches"
