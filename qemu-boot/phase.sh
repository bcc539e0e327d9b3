#!/usr/bin/env bash
# Run one phase of the harness and print its elapsed time.
# Usage: phase.sh NAME COMMAND [ARGS...]
set -euo pipefail
name=$1
shift
start=$(date +%s)
echo "== $name"
status=0
"$@" || status=$?
elapsed=$(($(date +%s) - start))
if [ $status = 0 ]; then
	echo "== $name: done in ${elapsed} s"
else
	echo "== $name: FAILED (exit $status) after ${elapsed} s" >&2
fi
exit $status
