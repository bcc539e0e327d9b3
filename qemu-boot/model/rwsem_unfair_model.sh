#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Model-check rwsem_unfair.pml (down_read_unfair() on the 6.12 rwsem) with
# spin: every property on the rule the series implements, and the four
# mutants that must be rejected.  (The tail claim "late admissions <=
# passes" is false for any rule that decides from the count, see NOTES.md;
# the model keeps it under -DCHECK_TAIL, and the bound is stated in time.)
# TAP output, kselftest exit codes: 0 all ok, 1 a check failed, 4 skipped
# (no spin or no C compiler).
#
# Environment: JOBS (parallel pan runs, default: number of CPUs, at most 4),
#              KEEP=1 keeps the work directory (trails) and prints its path.

set -euo pipefail

case "${BASH_SOURCE[0]}" in
*/*) HERE=$(cd "${BASH_SOURCE[0]%/*}" && pwd) ;;
*) HERE=$PWD ;;
esac
MODEL="$HERE/rwsem_unfair.pml"

CC=${CC:-}
if [ -z "$CC" ]; then
	CC=$(command -v cc || command -v gcc || true)
fi
if ! command -v spin >/dev/null 2>&1 || [ -z "$CC" ] ||
   ! command -v "$CC" >/dev/null 2>&1; then
	echo "TAP version 13"
	echo "1..0 # SKIP spin not installed"
	echo "# SKIP spin not installed (or no C compiler)"
	exit 4
fi
[ -r "$MODEL" ] || { echo "Bail out! $MODEL not found"; exit 1; }

JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
[ "$JOBS" -ge 1 ] 2>/dev/null || JOBS=1
[ "$JOBS" -le 4 ] || JOBS=4

WORK=$(mktemp -d "${TMPDIR:-/tmp}/rwsem_unfair.XXXXXX")
cleanup() {
	local pids
	pids=$(jobs -pr)
	[ -z "$pids" ] || kill $pids 2>/dev/null || true
	if [ "${KEEP:-0}" = 1 ]; then
		echo "# work directory kept: $WORK"
	else
		rm -rf "$WORK"
	fi
}
trap cleanup EXIT

# ---------------------------------------------------------------------------
# The checks.  Fields, separated by '|':
#   name | expect (pass/fail) | spin -D flags | cc flags | pan flags | title
# Longest first, so that the parallel runs pack well.
# ---------------------------------------------------------------------------
# -O2 for the long runs; -O0 compiles 4x faster and is enough for short ones
SAFE_CC="-DNOBOUNDCHECK -O2 -DSAFETY -DCOLLAPSE -DMEMLIM=3500"
QUICK_CC="-DNOBOUNDCHECK -O0 -DSAFETY -DCOLLAPSE -DMEMLIM=3500"
BFS_CC="-DNOBOUNDCHECK -O0 -DSAFETY -DBFS -DCOLLAPSE -DMEMLIM=3500"
NP_CC="-DNOBOUNDCHECK -O2 -DNP -DNFAIR=3 -DCOLLAPSE -DMEMLIM=3500"
QUICK_NP_CC="-DNOBOUNDCHECK -O0 -DNP -DNFAIR=3 -DCOLLAPSE -DMEMLIM=3500"
LTL_CC="-DNOBOUNDCHECK -O2 -DNFAIR=3 -DCOLLAPSE -DMEMLIM=3500"
CHECKS=(
"fixed-L1|pass|-DLIVENESS -DNF=1 -DKILL_BUDGET=0|$NP_CC|-l -f -m4000000 -w25|fixed: L1 writer acquires infinitely often (non-progress cycles, weak fairness), 1W/1F/3U"
"fixed-safety|pass|-DQUIESCE|$SAFE_CC|-m4000000 -w25|fixed: safety, 1W/2F/3U: mutual exclusion, U3 bound, head-grant, count invariants, no invalid end state (arrivals may stop: no lost wakeup)"
"fixed-L3|pass|-DLIVENESS -DNF=1 -DKILL_BUDGET=0 -DLTL_WAITERS|$LTL_CC|-a -f -m4000000 -w25|fixed: L3 every waiter eventually leaves the queue (LTL, weak fairness), 1W/1F/3U"
"fixed-L2|pass|-DLIVENESS -DNF=1 -DPROGRESS_WAKE|$NP_CC|-l -f -m4000000 -w25|fixed: L2 writer never left asleep, killable fair reader retrying forever (non-progress cycles, weak fairness), 1W/1F/3U"
"fixed-safety-2w|pass|-DNW=2 -DNF=1 -DSPURIOUS_WAKEUPS|$SAFE_CC|-m4000000 -w25|fixed: safety, 2W/1F/3U, spurious writer wakeups: mutual exclusion, U3 bound, head-grant, count invariants"
"mut-lockless|fail|-DLOCKLESS -DNW=2 -DNF=1|$QUICK_CC|-m4000000 -w24|mutant LOCKLESS rejected"
"mut-v1-head|fail|-DV1_SATURATION -DNO_U3_ASSERT|$QUICK_CC|-m4000000 -w22|mutant V1_SATURATION rejected"
"mut-naive|fail|-DNAIVE|$BFS_CC|-w22|mutant NAIVE rejected"
"mut-v1|fail|-DV1_SATURATION|$BFS_CC|-w22|mutant V1_SATURATION rejected"
"mut-noclose|fail|-DLIVENESS -DNF=1 -DPROGRESS_WAKE -DNO_CLOSE|$QUICK_NP_CC|-l -f -m4000000 -w22|mutant NO_CLOSE rejected"
)
# TAP numbering follows this order
ORDER=(fixed-safety fixed-safety-2w fixed-L1 fixed-L2 fixed-L3
       mut-naive mut-v1 mut-v1-head mut-lockless mut-noclose)

# what pan found, in words
classify() {
	local out=$1 err
	if grep -q "max search depth too small" "$out"; then
		echo "search incomplete: max search depth too small"
		return
	fi
	if grep -q "reached -DMEMLIM bound\|out of memory" "$out"; then
		echo "search incomplete: out of memory"
		return
	fi
	if grep -q "errors: 0" "$out"; then
		echo "no error"
		return
	fi
	err=$(grep -m1 '^pan:1:' "$out" || true)
	case "$err" in
	*"assertion violated (((g_wqw==0)"*)
		echo "assertion U3 bound (unfair admission past a waiting writer with no settled fair holder and no passing fair bias)" ;;
	*"assertion violated w_granted[gh]"*)
		echo "assertion head-grant (a reader grant left the head reader waiter in the queue)" ;;
	*"assertion violated (g_late<=g_tpass)"*)
		echo "assertion tail claim (more late unfair admissions than fair passes in the interval)" ;;
	*"assertion violated ((g_nw==0)"*|*"assertion violated (g_nw==0)"*)
		echo "assertion mutual exclusion" ;;
	*"assertion violated"*)
		echo "assertion ${err#*assertion violated }" ;;
	*"invalid end state"*)
		echo "invalid end state (deadlock or lost wakeup)" ;;
	*"non-progress cycle"*)
		echo "non-progress cycle under weak fairness (writer starved)" ;;
	*"acceptance cycle"*)
		echo "acceptance cycle under weak fairness (a waiter never leaves the queue)" ;;
	*)
		echo "pan failed: $(grep -m1 -i 'error' "$out" || tail -1 "$out")" ;;
	esac
}

run_check() {
	local name=$1 expect=$2 dflags=$3 ccflags=$4 panflags=$5
	local dir="$WORK/$name" t0 t1 verdict why stored
	mkdir -p "$dir"
	cp "$MODEL" "$dir/rwsem_unfair.pml"
	t0=$(date +%s.%N)
	(
		cd "$dir"
		# shellcheck disable=SC2086
		spin -a $dflags rwsem_unfair.pml >spin.out 2>&1 &&
		$CC $ccflags -o pan pan.c >cc.out 2>&1 &&
		./pan $panflags >pan.out 2>&1
	) || true
	t1=$(date +%s.%N)
	[ -f "$dir/pan.out" ] || cat "$dir/spin.out" "$dir/cc.out" >"$dir/pan.out" 2>/dev/null || true
	why=$(classify "$dir/pan.out")
	stored=$(grep -m1 -o '[0-9.e+]* states, stored[^)]*)\?' "$dir/pan.out" || true)
	if [ "$expect" = pass ]; then
		if [ "$why" = "no error" ] && ! grep -q "Search not completed" "$dir/pan.out"; then
			verdict=ok
		else
			verdict="not ok"
		fi
	else
		case "$why" in
		assertion*|"invalid end state"*|non-progress*|acceptance*) verdict=ok ;;
		*) verdict="not ok" ;;
		esac
	fi
	{
		echo "$verdict"
		echo "$why"
		echo "${stored:-? states}"
		awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f\n", b - a }'
		grep -m1 -o 'depth reached [0-9]*' "$dir/pan.out" || echo "depth ?"
	} >"$dir/result"
}

echo "TAP version 13"
echo "1..${#ORDER[@]}"
echo "# spin: $(spin -V 2>&1 | head -1); cc: $CC; parallel runs: $JOBS; model: $MODEL"
T0=$(date +%s.%N)

running=0
for c in "${CHECKS[@]}"; do
	IFS='|' read -r name expect dflags ccflags panflags title <<<"$c"
	if [ "$running" -ge "$JOBS" ]; then
		wait -n || true
		running=$((running - 1))
	fi
	run_check "$name" "$expect" "$dflags" "$ccflags" "$panflags" &
	running=$((running + 1))
done
wait || true

fail=0
n=0
for want in "${ORDER[@]}"; do
	for c in "${CHECKS[@]}"; do
		IFS='|' read -r name expect dflags ccflags panflags title <<<"$c"
		[ "$name" = "$want" ] || continue
		n=$((n + 1))
		r="$WORK/$name/result"
		if [ -f "$r" ]; then
			mapfile -t res <"$r"
		else
			res=("not ok" "no result" "? states" "?" "depth ?")
		fi
		if [ "$expect" = fail ]; then
			line="${res[0]} $n $title: ${res[1]}"
		elif [ "${res[0]}" = ok ]; then
			line="ok $n $title"
		else
			line="not ok $n $title: ${res[1]}"
		fi
		echo "$line"
		echo "#   [$name] spin $dflags; ${res[2]}, ${res[4]}, ${res[3]} s"
		[ "${res[0]}" = ok ] || fail=1
	done
done

T1=$(date +%s.%N)
times >"$WORK/times"	# in this shell: a subshell would not see our children
read -r cu cs < <(tail -1 "$WORK/times" | tr 'ms' '  ' | awk '{ print $1 * 60 + $2, $3 * 60 + $4 }')
awk -v a="$T0" -v b="$T1" -v u="$cu" -v s="$cs" \
	'BEGIN { printf "# total wall time %.1f s (cpu: %.1f s user, %.1f s sys)\n", b - a, u, s }'
if [ "$fail" = 0 ]; then
	echo "# all checks passed"
	exit 0
fi
echo "# FAILED: see the not ok lines above"
exit 1
