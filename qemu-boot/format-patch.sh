#!/usr/bin/env bash
# git format-patch of the series, base..unfair/tests of $TREE, into
# branch-export/, sysctl-patch/ and selftests/ under OUTDIR: one
# numbered series ([PATCH vN 00/NN] ... NN/NN), the cover letter made
# from the description of unfair/series, each patch in the folder of the
# branch it belongs to, To: (maintainers) and Cc: (reviewers, lists) from
# scripts/get_maintainer.pl with the reviewed additions of
# qemu-boot/recipients, every patch signed by one identity (lib.sh
# series_identity), and the cover letter dated like the last commit, so
# that the same branch gives the same files.  export.sh makes the folders
# with it, mbox.sh the mbox (with --thread): further arguments go to git
# format-patch.
# Usage: format-patch.sh OUTDIR [FORMAT-PATCH-OPTION...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${TREE:?}" "${SERIES_VERSION:?}" "${PROJECT_NAME:?}" "${PROJECT_EMAIL:?}"
out=${1:?usage: format-patch.sh OUTDIR [FORMAT-PATCH-OPTION...]}
shift
top=$(dirname "$here")

git -C "$TREE" rev-parse -q --verify refs/heads/unfair/tests >/dev/null ||
	die "no branch unfair/tests in $TREE; run 'make tree'"

mkdir -p "$out"
tmp=$(mktemp -d)
export_ref=refs/heads/unfair/export-$$
trap 'rm -rf "$tmp"; git -C "$TREE" update-ref -d "$export_ref" 2>/dev/null || true' EXIT

# Who signs the patches (lib.sh series_identity): each commit's author
# and its own Signed-off-by: become that identity, on a copy of the
# branch (same trees, same author dates).  The cover letter's From: and
# the Message-Ids of --thread are the committer's: that identity too.
ident=$(series_identity "$top")
id_name=${ident% <*}
id_email=${ident##*<}
id_email=${id_email%>}
export GIT_COMMITTER_NAME="$id_name" GIT_COMMITTER_EMAIL="$id_email"
tip=unfair/tests
mapfile -t authors < <(git -C "$TREE" log --format='%an <%ae>' base..unfair/tests | sort -u)
[ ${#authors[@]} -eq 1 ] || die "the branch has commits by ${#authors[@]} authors; the export signs for one"
if [ "${authors[0]}" != "$ident" ]; then
	parent=$(git -C "$TREE" rev-parse 'base^{commit}')
	for c in $(git -C "$TREE" rev-list --reverse base..unfair/tests); do
		git -C "$TREE" log -1 --format=%B "$c" |
			sed "s|^Signed-off-by: ${authors[0]}\$|Signed-off-by: $ident|" >"$tmp/msg"
		grep -qxF "Signed-off-by: $ident" "$tmp/msg" ||
			die "commit $c has no Signed-off-by: ${authors[0]} to replace"
		parent=$(GIT_AUTHOR_NAME="$id_name" GIT_AUTHOR_EMAIL="$id_email" \
			GIT_AUTHOR_DATE="$(git -C "$TREE" log -1 --format=%aD "$c")" \
			GIT_COMMITTER_DATE="$(git -C "$TREE" log -1 --format=%cD "$c")" \
			git -C "$TREE" commit-tree "$c^{tree}" -p "$parent" -F "$tmp/msg")
	done
	git -C "$TREE" update-ref "$export_ref" "$parent"
	tip=${export_ref#refs/heads/}
fi

# One numbered series, base..unfair/tests, so that the three folders read
# as one thread ([PATCH vN 00/NN] ... NN/NN) for git am and b4; then each
# patch goes to the folder of the branch it belongs to.
nseries=$(git -C "$TREE" rev-list --count base..unfair/series)
nsysctl=$(git -C "$TREE" rev-list --count unfair/series..unfair/sysctl)
# The cover letter is the description of unfair/series (see tree.sh).
desc=$(git -C "$TREE" config "branch.unfair/series.description" || true)
[ -n "$desc" ] || die "no description on unfair/series: the cover letter would be empty." \
	"Set it with 'git -C $TREE branch --edit-description unfair/series'"
git -C "$TREE" -c core.abbrev=12 -c "branch.$tip.description=$desc" \
	format-patch -q --zero-commit \
	--no-signature -v"$SERIES_VERSION" --cover-letter \
	--cover-from-description=subject --base=base \
	--output-directory="$out/all" "$@" "base..$tip" >/dev/null
mkdir -p "$out/branch-export" "$out/sysctl-patch" "$out/selftests"
for f in "$out"/all/*.patch; do
	n=$(basename "$f" | sed -E 's/^v[0-9]+-0*([0-9]+)-.*/\1/')
	[ -n "$n" ] || n=0
	if [ "$n" -le "$nseries" ]; then
		mv "$f" "$out/branch-export/"
	elif [ "$n" -le $((nseries + nsysctl)) ]; then
		mv "$f" "$out/sysctl-patch/"
	else
		mv "$f" "$out/selftests/"
	fi
done
rmdir "$out/all"

# To: and Cc: from scripts/get_maintainer.pl of the applied tree, reading
# the tree's MAINTAINERS and qemu-boot/recipients: maintainers to To:,
# reviewers and lists to Cc:; the cover letter gets the union.
recipients() { # patch-file kind(m|l) -> comma-separated: people, then lists, sorted
	local sel=(--no-r --no-l)
	[ "$2" = l ] && sel=(--no-m)
	# one per line; get_maintainer.pl's order changes from run to run
	(cd "$TREE" && perl scripts/get_maintainer.pl --mpath "$tmp/maintainers/" \
		--no-rolestats --no-git --no-git-fallback "${sel[@]}" "$1" 2>/dev/null) |
		awk '{ print (/</ ? 0 : 1) "\t" tolower($0) "\t" $0 }' | sort -u |
		cut -f3 | paste -sd '\t' | sed 's/\t/, /g' || true
}
add_headers() { # file to cc
	python3 - "$@" <<'PY'
import sys
path, to, cc = sys.argv[1:4]
lines = open(path).read().split("\n")
i = next(n for n, l in enumerate(lines) if l.startswith("Subject: "))
hdr = []
for name, val in (("To", to), ("Cc", cc)):
    if val:
        hdr.append("%s: %s" % (name, ",\n    ".join(val.split(", "))))
lines[i:i] = hdr
open(path, "w").write("\n".join(lines))
PY
}
# the MAINTAINERS of the applied series, whatever the work tree holds
mkdir "$tmp/maintainers"
git -C "$TREE" show unfair/tests:MAINTAINERS >"$tmp/maintainers/MAINTAINERS"
cp "$here/recipients" "$tmp/maintainers/recipients"
all_to=() all_cc=()
mapfile -t exported < <(series_patches "$out")
for f in "${exported[@]}"; do
	to=$(recipients "$f" m)
	cc=$(recipients "$f" l)
	add_headers "$f" "$to" "$cc"
	IFS=, read -ra t <<<"$to"
	all_to+=("${t[@]}")
	IFS=, read -ra c <<<"$cc"
	all_cc+=("${c[@]}")
done
join_uniq() { printf '%s\n' "$@" | sed 's/^ *//' | grep . | sort -u | paste -sd, | sed 's/,/, /g'; }

# git dates the cover letter "now"; date it like the series' last commit,
# so that an export of the same branch is byte-identical.
cover=$(series_cover "$out")
if [ -n "$cover" ]; then
	date=$(git -C "$TREE" log -1 --format=%aD unfair/tests)
	sed -i "0,/^Date: .*/s//Date: $date/" "$cover"
	add_headers "$cover" "$(join_uniq "${all_to[@]}")" "$(join_uniq "${all_cc[@]}")"
fi

