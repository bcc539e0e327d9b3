#!/usr/bin/env bash
# The proof: check the Promela model of the unfair admission
# (qemu-boot/model/rwsem_unfair.pml) with spin.  It checks the rule the
# series implements and requires a counterexample for each broken rule;
# its TAP output is printed as it comes.  Runs on the host: it is a model,
# not kernel code.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
command -v spin >/dev/null || die "spin is not installed: run 'make deps'"
status=0
"$here/model/rwsem_unfair_model.sh" || status=$?
[ $status = 0 ] || die "the model check failed (exit $status): see the 'not ok' lines above and qemu-boot/model/NOTES.md"
