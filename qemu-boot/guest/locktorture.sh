#!/bin/bash
# locktorture with the rwsem_unfair_lock type for SECONDS: fair readers,
# unfair readers and writers on one rwsem.  Prints the start, the
# per-interval statistics and the end of test lines from the kernel log;
# the host checks that every interval made progress.
# Usage: locktorture.sh SECONDS
set -euo pipefail
secs=${1:?usage: locktorture.sh SECONDS}
echo "torture_secs $secs"
modprobe locktorture torture_type=rwsem_unfair_lock \
	nwriters_stress=2 nreaders_stress=40 stat_interval=5 stutter=0 ||
	{ echo "modprobe locktorture failed"; exit 1; }
sleep "$secs"
rmmod locktorture
dmesg | grep -E -e '-torture: ?(---|Stopping)' -e '^\[[ 0-9.]+\] (Writes|Reads ?):'
