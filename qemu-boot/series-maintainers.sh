#!/usr/bin/env bash
# check-series, step 6: MAINTAINERS-snippet is the entry the series
# adds to MAINTAINERS, and each of its F:/X: patterns matches a file of
# the applied series.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
. "$here/lib.sh"
: "${TREE:?}" "${CACHE:?}"
series_check_env
tip=$(series_tip)

snippet=$top/MAINTAINERS-snippet
[ -f "$snippet" ] || die "no MAINTAINERS-snippet"
title=$(head -n 1 "$snippet")
sgit show "$tip:MAINTAINERS" >"$log/MAINTAINERS"
entry=$(awk -v t="$title" '$0 == t { on = 1 } on && /^$/ { exit } on { print }' "$log/MAINTAINERS")
sgit ls-tree -r --name-only "$tip" >"$log/files"
[ "$entry" = "$(cat "$snippet")" ] ||
	die "MAINTAINERS-snippet differs from the '$title' entry in the tree's MAINTAINERS"
while read -r tag pat; do
	case $tag in F: | X:) ;; *) continue ;; esac
	n=$(awk -v p="$pat" '
		BEGIN { gsub(/\./, "\\.", p); gsub(/\*/, "[^/]*", p); gsub(/\?/, ".", p)
			re = (p ~ /\/$/) ? "^" p : "^" p "$" }
		$0 ~ re { n++ } END { print n + 0 }' "$log/files")
	[ "$n" -gt 0 ] || die "MAINTAINERS-snippet: $tag $pat matches no file"
	note "$tag $pat: $n file(s)"
done <"$snippet"
echo "MAINTAINERS-snippet: matches the tree's entry, every pattern matches files"
