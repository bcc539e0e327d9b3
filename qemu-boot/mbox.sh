#!/usr/bin/env bash
# Write the three folders as one mbox, cover letter first, in the order
# git am applies them, and check it with b4 if b4 is installed.
#
# Header lines are unfolded: b4 0.12 (Debian 12) fails with "Header values
# may not contain linefeed" on the folded Subject: lines git format-patch
# writes.  Unfolded headers are still valid mail.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
. "$here/lib.sh"
: "${CACHE:?}" "${SERIES_VERSION:?}"
out=${MBOX:-$CACHE/rwsem-unfair-v$SERIES_VERSION.mbox}
mkdir -p "$(dirname "$out")"
python3 - "$out" "$top"/branch-export/*.patch "$top"/sysctl-patch/*.patch \
	"$top"/selftests/*.patch <<'PY'
import re, sys
out, files = sys.argv[1], [f for f in sys.argv[2:] if not f.endswith("*.patch")]
# Thread it as git send-email would: every patch answers the cover letter.
msgid = "<%s.%%02d@rwsem-unfair.invalid>" % out.rsplit("/", 1)[-1].replace(".mbox", "")
with open(out, "w") as mbox:
    for i, f in enumerate(files):
        head, sep, body = open(f).read().partition("\n\n")
        head = re.sub(r"\n[ \t]+", " ", head) + "\nMessage-Id: " + msgid % i
        if i:
            head += "\nIn-Reply-To: %s\nReferences: %s" % (msgid % 0, msgid % 0)
        mbox.write(head + sep + body.rstrip("\n") + "\n\n")
print("mbox: %s (%d messages)" % (out, len(files)))
PY
if command -v b4 >/dev/null; then
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
	(cd "$dir" && b4 -q am -m "$out" -o "$dir" >"$dir/b4.log" 2>&1) ||
		{ cat "$dir/b4.log" >&2; die "b4 am could not read $out"; }
	mbx=$(ls "$dir"/*.mbx 2>/dev/null | head -n1 || true)
	[ -n "$mbx" ] || { cat "$dir/b4.log" >&2; die "b4 am made no am-ready mbox"; }
	echo "b4 am: $(grep -c '^Subject: ' "$mbx") patches in $(basename "$mbx")"
fi
