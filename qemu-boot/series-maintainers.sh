#!/usr/bin/env bash
# check-series, step 7: MAINTAINERS-snippet is the MAINTAINERS entries
# that cover the files the series adds, as the applied series has them:
# each F:/X: pattern matches a file of the applied series (the tip's
# scripts/get_maintainer.pl --self-test=patterns), each entry is the
# tip's entry of that title, and get_maintainer.pl finds a maintainer or
# list in the snippet for every file the series adds.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
. "$here/lib.sh"
: "${TREE:?}" "${CACHE:?}"
series_check_env
tip=$(series_tip)

snippet=$top/MAINTAINERS-snippet
[ -f "$snippet" ] || die "no MAINTAINERS-snippet"
# --self-test takes no other option: it reads ./MAINTAINERS and matches
# its patterns against "git ls-files" of the current directory.  There,
# a scratch repository (objects borrowed from $TREE) whose index is the
# tip's tree, and whose MAINTAINERS is the snippet: the whole MAINTAINERS
# takes minutes, and the base's own entries are not the series' concern.
st=$(mktemp -d)
trap 'rm -rf "$st"' EXIT
git init -q "$st"
echo "$(git -C "$TREE" rev-parse --path-format=absolute --git-common-dir)/objects" \
	>"$st/.git/objects/info/alternates"
git -C "$st" read-tree "$tip"
cp "$snippet" "$st/MAINTAINERS"
# it prints a warning for each pattern that matches no file, and nothing else
out=$(cd "$st" && perl "$src/scripts/get_maintainer.pl" --self-test=patterns 2>&1) ||
	{ printf '%s\n' "$out" | sed 's/^/    /'; die "scripts/get_maintainer.pl --self-test=patterns fails"; }
if [ -n "$out" ]; then
	printf '%s\n' "$out" | sed 's|^\./MAINTAINERS:|MAINTAINERS-snippet:|; s/^/    /'
	die "MAINTAINERS-snippet: a pattern matches no file of the applied series (get_maintainer.pl --self-test=patterns, above)"
fi
sgit show "$tip:MAINTAINERS" >"$log/MAINTAINERS"
entry_of() { # FILE TITLE
	awk -v t="$2" '$0 == t { on = 1 } on && /^$/ { exit } on { print }' "$1"
}
mapfile -t titles < <(awk 'NR == 1 || prev == "" { print } { prev = $0 }' "$snippet" | grep .)
for t in "${titles[@]}"; do
	[ "$(entry_of "$snippet" "$t")" = "$(entry_of "$log/MAINTAINERS" "$t")" ] ||
		die "MAINTAINERS-snippet: the '$t' entry differs from the tree's MAINTAINERS"
done
mapfile -t added < <(sgit diff --name-only --diff-filter=A "$(sgit rev-parse 'base^{commit}')" "$tip")
for f in "${added[@]}"; do
	who=$(cd "$src" && perl scripts/get_maintainer.pl --mpath "$snippet" --no-git \
		--no-git-fallback --no-rolestats --no-tree -f "$f" 2>/dev/null || true)
	[ -n "$who" ] || die "MAINTAINERS-snippet: no entry covers $f, which the series adds"
done
echo "MAINTAINERS-snippet: ${#titles[@]} entries, as in the tree's MAINTAINERS; a maintainer or list" \
	"for each of the ${#added[@]} files the series adds; get_maintainer.pl --self-test=patterns" \
	"finds a file for each of its $(grep -cE '^[FX]:' "$snippet") F:/X: patterns"
