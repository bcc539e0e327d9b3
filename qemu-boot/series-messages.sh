#!/usr/bin/env bash
# check-series, step 1: what the messages of the exported patches say
# and whom they go to, as a maintainer reads them (series-messages.py).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
. "$here/lib.sh"
mapfile -t patches < <(series_cover "$top"; series_patches "$top")
[ ${#patches[@]} -gt 1 ] || die "no patches in the folders"
python3 "$here/series-messages.py" "${patches[@]}"
