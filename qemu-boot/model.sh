#!/usr/bin/env bash
# The proof: check the Promela model of the unfair admission with spin.
# The model and its runner are part of the series (its last patch adds
# tools/testing/selftests/locking/rwsem_unfair.pml and
# rwsem_unfair_model.sh), so this runs them from the kernel tree: every
# property on the rule the series implements, and a counterexample
# required for each broken rule.  TAP output as it comes.  Runs on the
# host: it is a model, not kernel code.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${TREE:?}"
command -v spin >/dev/null || die "spin is not installed: run 'make deps'"
runner=$TREE/tools/testing/selftests/locking/rwsem_unfair_model.sh
[ -x "$runner" ] || die "$runner not found: run 'make tree'"
status=0
"$runner" || status=$?
[ $status = 0 ] ||
	die "the model check failed (exit $status): see the 'not ok' lines above;" \
		"KEEP=1 keeps spin's trails (qemu-boot/model/NOTES.md says how to read them)"
