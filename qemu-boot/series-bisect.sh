#!/usr/bin/env bash
# check-series, step 4: the kernel builds at the base and after every
# patch (bisectability), with the small bisect.config (tinyconfig under
# it) that compiles every file the series touches, incrementally in one
# object directory: git rebase --exec replays the commits series-am.sh
# made onto the same base (so they keep their ids), with a build after
# each.  The tip builds with PREEMPT_RT as well (rt.config, an object
# directory of its own).
# "series-bisect.sh --step" is the command git rebase --exec runs: the
# build at HEAD and its line, "build after patch N: ok (T s)  SUBJECT".
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
. "$here/lib.sh"
: "${TREE:?}" "${CACHE:?}" "${KBUILD_FLAGS:?}" "${PROJECT_NAME:?}" "${PROJECT_EMAIL:?}"
export_identity
series_check_env

# the small config, made at the tip (below), in $sobj; the build's log in
# $log/build.log, its last lines on stderr if it fails
build_here() {
	cp "$log/config-$(basename "$sobj")" "$sobj/.config"
	if ! { skmake olddefconfig && skmake -j"$(nproc)"; } >"$log/build.log" 2>&1; then
		tail -n 20 "$log/build.log" | sed 's/^/    /' >&2
		return 1
	fi
}

if [ "${1:-}" = --step ]; then
	n=$(sgit rev-list --count base..HEAD)
	t0=$(date +%s)
	if ! build_here; then
		echo "$n" >"$log/bisect-failed"
		exit 1
	fi
	printf '  build after patch %2d: ok (%3d s)  %s\n' "$n" \
		"$(($(date +%s) - t0))" "$(sgit log -1 --format=%s)"
	exit 0
fi

tip=$(series_tip)
mapfile -t patches < <(series_patches "$top")
rm -f "$log/bisect-failed"
mkdir -p "$sobj" "$rtobj"

# The configs are made at the tip, where every option exists; at earlier
# commits olddefconfig drops what is not there yet.
config_at_tip() { # OBJDIR FRAGMENT...
	local o=$1
	shift
	OBJ=$o FRAGMENTS="$*" KSFT_TARGETS='' \
		TREE=$src "$here/config.sh" >"$log/config-$(basename "$o").log" 2>&1 || {
		cat "$log/config-$(basename "$o").log" >&2
		die "cannot configure $o"
	}
	cp "$o/.config" "$log/config-$(basename "$o")"
}
worktree_at "$src" "$tip"
config_at_tip "$sobj" "$here/bisect.config"
config_at_tip "$rtobj" "$here/bisect.config" "$here/rt.config"

sgit checkout -q --detach base
t0=$(date +%s)
build_here || die "the build fails after checking out the base (log $log/build.log)"
printf '  build of the base:    ok (%3d s)\n' "$(($(date +%s) - t0))"

# the steps print on fd 3 and 4, the rebase itself into its log; no
# branch of $TREE is moved (rebase.updateRefs, which tree.sh sets there)
sgit checkout -q --detach "$tip"
step=$(printf '%q ' bash "$here/series-bisect.sh" --step)
if ! sgit -c rebase.updateRefs=false rebase -q --exec "$step>&3 2>&4" base \
	3>&1 4>&2 >"$log/rebase.log" 2>&1; then
	sgit rebase --abort >/dev/null 2>&1 || true
	if [ -s "$log/bisect-failed" ]; then
		n=$(cat "$log/bisect-failed")
		die "the build fails after patch $n, ${patches[n - 1]#"$top"/} (log $log/build.log)"
	fi
	tail -n 20 "$log/rebase.log" | sed 's/^/    /' >&2
	die "git rebase --exec over base..$tip failed (log $log/rebase.log)"
fi
[ "$(sgit rev-parse HEAD)" = "$tip" ] ||
	die "git rebase --exec did not replay base..$tip as it is (log $log/rebase.log)"
echo "bisectable: the kernel builds after each of the $(sgit rev-list --count base..HEAD) patches ($(basename "$here")/bisect.config)"

t0=$(date +%s)
if ! kmake_at "$src" "$rtobj" -s -j"$(nproc)" >"$log/build-rt.log" 2>&1; then
	tail -n 20 "$log/build-rt.log" | sed 's/^/    /'
	die "the tip does not build with PREEMPT_RT (log $log/build-rt.log)"
fi
printf '  build of the tip with PREEMPT_RT: ok (%d s)\n' "$(($(date +%s) - t0))"
