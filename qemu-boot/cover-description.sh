#!/usr/bin/env bash
# Print the branch description (subject paragraph, then blurb) that makes
# 'git format-patch --cover-letter --cover-from-description=subject'
# regenerate the given cover letter.
set -euo pipefail
python3 - "$1" <<'PY'
import email, re, sys
msg = email.message_from_binary_file(open(sys.argv[1], "rb"))
subject = re.sub(r"\s+", " ", msg["Subject"])
subject = re.sub(r"^\[[^]]*\]\s*", "", subject)
body = msg.get_payload(decode=True).decode()
# format-patch appends "\n<author> (<n>):\n  <shortlog>" after the blurb.
marks = list(re.finditer(r"\n\n[^\n]+ \(\d+\):\n  ", body))
blurb = body[:marks[-1].start()] if marks else body
sys.stdout.write(subject + "\n\n" + blurb.strip("\n") + "\n")
PY
