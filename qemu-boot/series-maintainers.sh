#!/usr/bin/env bash
# check-series, step 6: each F:/X: pattern of MAINTAINERS-snippet
# matches a file of the applied series (the tip's
# scripts/get_maintainer.pl --self-test=patterns), and the snippet is the
# entry the series adds to MAINTAINERS.
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
title=$(head -n 1 "$snippet")
sgit show "$tip:MAINTAINERS" >"$log/MAINTAINERS"
entry=$(awk -v t="$title" '$0 == t { on = 1 } on && /^$/ { exit } on { print }' "$log/MAINTAINERS")
[ "$entry" = "$(cat "$snippet")" ] ||
	die "MAINTAINERS-snippet differs from the '$title' entry in the tree's MAINTAINERS"
echo "MAINTAINERS-snippet: matches the tree's entry; get_maintainer.pl --self-test=patterns finds a file for each of its $(grep -cE '^[FX]:' "$snippet") F:/X: patterns"
