#!/usr/bin/env bash
# Create or refresh the kernel tree outside the checkout:
#   tag "base"            pristine import of the pinned linux-source-6.12
#   branch unfair/series  base + branch-export/
#   branch unfair/sysctl  unfair/series + sysctl-patch/
#   branch unfair/tests   unfair/sysctl + selftests/ (checked out)
# The tree is rebuilt only when the base version or the patches change.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
. "$here/lib.sh"
: "${TREE:?}" "${BASE_PKG:?}" "${BASE_VERSION:?}" "${PROJECT_NAME:?}" "${PROJECT_EMAIL:?}"
export_identity

tarball=/usr/src/$BASE_PKG.tar.xz
have=$(dpkg-query -W -f='${Version}' "$BASE_PKG" 2>/dev/null || true)
[ -n "$have" ] || die "$BASE_PKG is not installed; run 'make deps'"
[ "$have" = "$BASE_VERSION" ] ||
	die "installed $BASE_PKG is $have, the series is based on $BASE_VERSION." \
	    "Run 'make deps' (it pins $BASE_VERSION) or rebase the series and update BASE_VERSION"
[ -r "$tarball" ] || die "$tarball missing; reinstall $BASE_PKG"

stamp_of() {
	{
		echo "$BASE_VERSION"
		for d in branch-export sysctl-patch selftests; do
			echo "== $d"
			cat "$top/$d"/*.patch 2>/dev/null || true
		done
	} | stamp_key
}

import_base() {
	local date
	echo "importing $tarball ($BASE_PKG $BASE_VERSION) into $TREE"
	rm -rf "$TREE"
	mkdir -p "$TREE"
	tar -xJf "$tarball" -C "$TREE" --strip-components=1
	# Commit dates come from the tarball, so the base commit id is the same
	# on every machine that has this package version.
	date="@$(stat -c %Y "$tarball") +0000"
	git -C "$TREE" init -q -b base-import
	git -C "$TREE" config core.autocrlf false
	git -C "$TREE" config am.threeWay false
	git -C "$TREE" config user.name "$PROJECT_NAME"
	git -C "$TREE" config user.email "$PROJECT_EMAIL"
	git -C "$TREE" config rebase.updateRefs true
	# Debian's tarball ignores "/*" at the top level: force-add everything.
	git -C "$TREE" add -f -A .
	GIT_AUTHOR_DATE="$date" GIT_COMMITTER_DATE="$date" \
		git -C "$TREE" commit -q --no-verify \
		-m "Import $BASE_PKG $BASE_VERSION" \
		-m "Pristine contents of /usr/src/$BASE_PKG.tar.xz from Debian's $BASE_PKG package, version $BASE_VERSION."
	git -C "$TREE" tag -a -m "$BASE_PKG $BASE_VERSION" base
}

base_version_of_tree() {
	git -C "$TREE" for-each-ref --format='%(contents:subject)' refs/tags/base 2>/dev/null
}

apply_folder() { # branch folder
	local patches
	git -C "$TREE" checkout -q -B "$1"
	mapfile -t patches < <(series_patches "$top" "$2")
	am_patches "$TREE" "${patches[@]}" ||
		die "git am of ${am_failed#"$top"/} failed on $TREE; the patch does not apply." \
		    "Inspect with 'git -C $TREE am --show-current-patch', then 'git -C $TREE am --abort'"
}

# The cover letter's subject and blurb live in the branch description, which
# is where git format-patch --cover-from-description reads them from.
load_cover() {
	local cover desc
	cover=$(series_cover "$top")
	[ -n "$cover" ] || return 0
	desc=$("$here/cover-description.sh" "$cover")
	git -C "$TREE" config "branch.unfair/series.description" "$desc"
}

if [ -f "$mutant_saved/list" ]; then
	echo "undoing the mutation a killed 'make mutations' left in $TREE"
	undo_mutation
fi
if [ ! -d "$TREE/.git" ] || [ "$(base_version_of_tree)" != "$BASE_PKG $BASE_VERSION" ]; then
	import_base
fi

# The stamp: the hash of the folders, then the branch head they were last
# in step with (so that work on the branch since then is never replaced).
want=$(stamp_of)
stampfile=$TREE/.git/rwsem-unfair-stamp
head=$(git -C "$TREE" rev-parse -q --verify refs/heads/unfair/tests || true)
synced=$(stamp_note "$stampfile")
write_stamp() {
	stamp_write "$stampfile" "$want" "$(git -C "$TREE" rev-parse unfair/tests)"
}
if stamp_ok "$stampfile" "$want" && [ -n "$head" ]; then
	# a stamp without the branch head (older harness): add it if it matches
	if [ -z "$synced" ] && "$here/export.sh" --check >/dev/null 2>&1; then
		write_stamp
	fi
	echo "tree $TREE is up to date with the exported patches"
	exit 0
fi

# The branch may already be what the folders hold (the usual case right
# after 'make export'): then there is nothing to re-apply.
if [ -n "$head" ] && "$here/export.sh" --check >/dev/null 2>&1; then
	write_stamp
	echo "tree $TREE already matches the exported patches"
	exit 0
fi

# The folders changed, and so did the branch since it was last in step
# with them: re-applying the folders would replace that work.
if [ -n "$head" ] && [ -n "$synced" ] && [ "$head" != "$synced" ]; then
	die "unfair/tests in $TREE has changed since it last matched the patch folders," \
	    "and the folders have changed too (a pull, or an export committed before" \
	    "the branch moved on).  To keep the branch: 'make export', then compare" \
	    "with git diff.  To take the folders: 'git -C $TREE checkout -q -B unfair/tests $synced'" \
	    "(after tagging the branch if you want it), then 'make tree'"
fi

if [ -n "$(git -C "$TREE" status --porcelain --untracked-files=no)" ]; then
	die "$TREE has uncommitted changes; commit or stash them before 'make tree' re-applies the patches"
fi
if git -C "$TREE" rev-parse -q --verify refs/heads/unfair/tests >/dev/null; then
	keep="backup/$(date -u +%Y%m%d-%H%M%S)"
	git -C "$TREE" tag "$keep" unfair/tests
	echo "branch differs from the exported patches; old head kept as tag $keep"
fi
git -C "$TREE" checkout -q --detach base
apply_folder unfair/series branch-export
load_cover
apply_folder unfair/sysctl sysctl-patch
apply_folder unfair/tests selftests
write_stamp
echo "tree $TREE: $(git -C "$TREE" rev-list --count base..unfair/tests) patches on base, unfair/tests checked out"
