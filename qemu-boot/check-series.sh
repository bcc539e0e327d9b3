#!/usr/bin/env bash
# What a maintainer checks before taking the series, on the exported
# folders (not on the branch), one script a step, in this order (each
# uses what the ones before it leave; each can be run alone after them):
#   1. series-messages.sh: the messages as a maintainer reads them: the
#      2010 thread and commits cited, the credit, no words of this
#      repository's tooling, every patch has a To: and the proc, sysctl
#      and PROCMAP_QUERY people get the patches they review, and one
#      identity signs every patch;
#   2. series-am.sh: git am of branch-export/, sysctl-patch/ and
#      selftests/ onto base succeeds, and gives exactly the branch
#      unfair/tests;
#   3. series-checkpatch.sh: every patch passes scripts/checkpatch.pl
#      --strict with 0 errors, 0 warnings and 0 checks;
#   4. series-bisect.sh: the kernel builds at the base and after every
#      patch (bisectability, git rebase --exec), with the small
#      bisect.config (tinyconfig under it) that compiles every file the
#      series touches, incrementally; and the tip builds with PREEMPT_RT
#      as well (rt.config);
#   5. series-sparse.sh: sparse (make C=2) reports no new warning on the
#      objects the series touches, against the base;
#   6. series-docs.sh: vm.rst is valid reST (docutils) with the sysctl's
#      entry, and the kernel-doc of include/linux/rwsem.h has no warnings;
#   7. series-maintainers.sh: MAINTAINERS-snippet is the tree's entries
#      that cover every file the series adds, and each of its F:/X:
#      patterns matches a file (get_maintainer.pl --self-test=patterns).
# All of it happens in a worktree of its own ($CACHE/series-src) with its
# own object directories: the kernel tree, its test kernel build and any
# uncommitted work there are left alone, and a run killed half-way is
# put back by the next one.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
. "$here/lib.sh"
: "${TREE:?}" "${CACHE:?}" "${PROJECT_NAME:?}" "${PROJECT_EMAIL:?}" "${KBUILD_FLAGS:?}"
need_sparse
steps=(series-messages.sh series-am.sh series-checkpatch.sh series-bisect.sh series-sparse.sh
	series-docs.sh series-maintainers.sh)

mapfile -t patches < <(series_patches "$top")
[ ${#patches[@]} -gt 0 ] || die "no patches in the folders"

# A full pass takes minutes (a build per patch).  It is skipped when it
# already passed on exactly these patches, cover letter, snippet,
# scripts, make flags, configs and base; FORCE=1 runs it anyway.  A
# fresh machine (CI) has no stamp.
stamp=$CACHE/check-series.pass
key=$( {
	git -C "$TREE" rev-parse 'base^{commit}'
	echo "$KBUILD_FLAGS"
	cat "$0" "$here/lib.sh" "${steps[@]/#/$here/}" "$here/config.sh" \
		"$here/bisect.config" "$here/rt.config" "$here/series-messages.py" \
		"$top/MAINTAINERS-snippet" "$(series_cover "$top")" "${patches[@]}"
} | stamp_key)
if [ -z "${FORCE:-}" ] && stamp_ok "$stamp" "$key"; then
	echo "check-series: passed on $(stamp_note "$stamp") on exactly these patches,"
	echo "  configs, scripts and base (stamp $stamp); not re-run.  FORCE=1 re-runs it."
	exit 0
fi
rm -f "$stamp"

series_check_env
rm -rf "$log"
mkdir -p "$log"
for s in "${steps[@]}"; do
	"$here/$s"
done
stamp_write "$stamp" "$key" "$(date -u '+%F %T UTC')"
