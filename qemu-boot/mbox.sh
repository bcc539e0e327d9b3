#!/usr/bin/env bash
# Write the series as one mbox, cover letter first, in the order git am
# applies them, and check it with b4 if b4 is installed.  The messages
# are git format-patch --thread of the branch, made as export.sh makes
# the folders (format-patch.sh: the same cover letter, recipients,
# --base, -v and --zero-commit): each patch answers the cover letter.
#
# Two edits of git's headers.  git stamps the Message-Ids with the time
# it runs (<commit>.<seconds>.git.<committer>): they get the time of the
# series' last commit instead, so that the same branch gives the same
# mbox.  And Subject: lines are unfolded: b4 0.12 (Debian 12) fails with
# "Header values may not contain linefeed" on the folded Subject: lines
# git format-patch writes (it reads the folded To: and Cc: lines).
# Unfolded headers are still valid mail.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${TREE:?}" "${CACHE:?}" "${SERIES_VERSION:?}"
out=${MBOX:-$CACHE/rwsem-unfair-v$SERIES_VERSION.mbox}
mkdir -p "$(dirname "$out")"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$here/format-patch.sh" "$dir/series" --thread
t=$(git -C "$TREE" log -1 --format=%ct unfair/tests)
mapfile -t msgs < <(series_cover "$dir/series"; series_patches "$dir/series")
for f in "${msgs[@]}"; do
	sed -E '1,/^$/{
		/^(message-id|in-reply-to|references): /Is/\.[0-9]+\.git\./.'"$t"'.git./
		/^Subject: /{ :a; N; s/\n[ \t]+/ /; ta; P; D; }
	}' "$f"
	echo
done >"$out"
echo "mbox: $out (${#msgs[@]} messages)"

if command -v b4 >/dev/null; then
	mkdir "$dir/b4"
	(cd "$dir/b4" && b4 -q am -m "$out" -o "$dir/b4" >"$dir/b4.log" 2>&1) ||
		{ cat "$dir/b4.log" >&2; die "b4 am could not read $out"; }
	mbx=$(ls "$dir"/b4/*.mbx 2>/dev/null | head -n1 || true)
	[ -n "$mbx" ] || { cat "$dir/b4.log" >&2; die "b4 am made no am-ready mbox"; }
	echo "b4 am: $(grep -c '^Subject: ' "$mbx") patches in $(basename "$mbx")"
fi
