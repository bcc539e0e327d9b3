#!/usr/bin/env bash
# Export the kernel branch into branch-export/, sysctl-patch/ and selftests/
# with git format-patch.  --check: export into a scratch directory and fail
# if any file would change.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
. "$here/lib.sh"
: "${TREE:?}" "${SERIES_VERSION:?}"
check=0
[ "${1:-}" = --check ] && check=1

git -C "$TREE" rev-parse -q --verify refs/heads/unfair/tests >/dev/null ||
	die "no branch unfair/tests in $TREE; run 'make tree'"

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

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
	--output-directory="$out/all" base..unfair/tests >/dev/null
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
	local sel=(--no-l) line
	[ "$2" = l ] && sel=(--no-m --no-r)
	(cd "$TREE" && perl scripts/get_maintainer.pl --mpath "$out/MAINTAINERS" \
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
git -C "$TREE" show unfair/tests:MAINTAINERS >"$out/MAINTAINERS"
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
