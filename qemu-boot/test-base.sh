#!/usr/bin/env bash
# make test, on the unpatched base kernel: boot it with the same initramfs
# and run the series' own kselftests (guest/tests.list).  Without the
# series every case must pass or skip, never fail: results.py judges the
# run as it judges the patched one.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${CACHE:?}"
"$here/base-kernel.sh"
KERNEL=$base_image RUN_NAME=test-base \
	GUEST_CMDLINE="rwsem.suites=kselftest ${GUEST_CMDLINE:-}" \
	exec "$here/run-qemu.sh" test
