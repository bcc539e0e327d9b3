#!/usr/bin/env bash
# check-series, step 3: every patch of the folders (not the cover
# letter) passes scripts/checkpatch.pl --strict with 0 errors,
# 0 warnings and 0 checks.  checkpatch.pl is the one of check-series'
# worktree (series-am.sh makes it).  Two of its warnings cannot be
# answered on this base, and are checked otherwise:
#  - UNKNOWN_COMMIT_ID: the base is an import of a tarball, with no
#    history, so checkpatch cannot look up the 2010 commits the messages
#    cite; series-messages.py checks them against their subjects, in the
#    form checkpatch asks for where it can look them up;
#  - FILE_PATH_CHANGES ("does MAINTAINERS need updating?") is asked of
#    every patch that adds a file; series-maintainers.sh checks that an
#    entry of MAINTAINERS-snippet covers every file the series adds.
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
	out=$(cd "$src" && { perl scripts/checkpatch.pl --strict --show-types \
		--ignore UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES "$p" 2>&1 || true; })
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
