#!/usr/bin/env bash
# git format-patch of the series, base..unfair/tests of $TREE, into
# branch-export/, sysctl-patch/ and selftests/ under OUTDIR: one
# numbered series ([PATCH vN 00/NN] ... NN/NN), the cover letter made
# from the description of unfair/series, each patch in the folder of the
# branch it belongs to, To: and Cc: from scripts/get_maintainer.pl, and
# the cover letter dated like the last commit, so that the same branch
# gives the same files.  export.sh makes the folders with it, mbox.sh the
# mbox (with --thread): further arguments go to git format-patch.
# Usage: format-patch.sh OUTDIR [FORMAT-PATCH-OPTION...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${TREE:?}" "${SERIES_VERSION:?}" "${AUTHOR_NAME:?}" "${AUTHOR_EMAIL:?}"
out=${1:?usage: format-patch.sh OUTDIR [FORMAT-PATCH-OPTION...]}
shift
# the cover letter's From: and the Message-Ids of --thread are the committer's
export_identity

git -C "$TREE" rev-parse -q --verify refs/heads/unfair/tests >/dev/null ||
	die "no branch unfair/tests in $TREE; run 'make tree'"

mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One numbered series, base..unfair/tests, so that the three folders read
# as one thread ([PATCH vN 00/NN] ... NN/NN) for git am and b4; then each
# patch goes to the folder of the branch it belongs to.
nseries=$(git -C "$TREE" rev-list --count base..unfair/series)
nsysctl=$(git -C "$TREE" rev-list --count unfair/series..unfair/sysctl)
# The cover letter is the description of unfair/series (see tree.sh).
desc=$(git -C "$TREE" config "branch.unfair/series.description" || true)
[ -n "$desc" ] || die "no description on unfair/series: the cover letter would be empty." \
	"Set it with 'git -C $TREE branch --edit-description unfair/series'"
git -C "$TREE" -c core.abbrev=12 -c "branch.unfair/tests.description=$desc" \
	format-patch -q --zero-commit \
	--no-signature -v"$SERIES_VERSION" --cover-letter \
	--cover-from-description=subject --base=base \
	--output-directory="$out/all" "$@" base..unfair/tests >/dev/null
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

# To: and Cc: from scripts/get_maintainer.pl of the applied tree: people
# to To:, lists to Cc:; the cover letter gets the union.
recipients() { # patch-file kind(m|l) -> comma-separated, sorted
	local sel=(--no-l)
	[ "$2" = l ] && sel=(--no-m --no-r)
	(cd "$TREE" && perl scripts/get_maintainer.pl --mpath "$tmp/MAINTAINERS" \
		--no-rolestats --no-git --no-git-fallback --no-multiline \
		--separator ', ' "${sel[@]}" "$1" 2>/dev/null) || true
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
git -C "$TREE" show unfair/tests:MAINTAINERS >"$tmp/MAINTAINERS"
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

