#!/usr/bin/env bash
# check-series, step 3: the kernel builds at the base and after every
# patch (bisectability), with the small bisect.config (tinyconfig under
# it) that compiles every file the series touches, incrementally in one
# object directory, on the commits series-am.sh made.  The tip builds
# with PREEMPT_RT as well (rt.config, an object directory of its own).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
. "$here/lib.sh"
: "${TREE:?}" "${CACHE:?}" "${KBUILD_FLAGS:?}" "${AUTHOR_NAME:?}" "${AUTHOR_EMAIL:?}"
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

tip=$(series_tip)
mapfile -t patches < <(series_patches "$top")
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

mapfile -t commits < <(sgit rev-list --reverse base.."$tip")
i=0
for c in "${commits[@]}"; do
	p=${patches[$i]}
	i=$((i + 1))
	sgit checkout -q --detach "$c"
	t0=$(date +%s)
	build_here || die "the build fails after patch $i, ${p#"$top"/} (log $log/build.log)"
	printf '  build after patch %2d: ok (%3d s)  %s\n' "$i" \
		"$(($(date +%s) - t0))" "$(sgit log -1 --format=%s "$c")"
done
echo "bisectable: the kernel builds after each of the ${#commits[@]} patches ($(basename "$here")/bisect.config)"

t0=$(date +%s)
if ! kmake_at "$src" "$rtobj" -s -j"$(nproc)" >"$log/build-rt.log" 2>&1; then
	tail -n 20 "$log/build-rt.log" | sed 's/^/    /'
	die "the tip does not build with PREEMPT_RT (log $log/build-rt.log)"
fi
printf '  build of the tip with PREEMPT_RT: ok (%d s)\n' "$(($(date +%s) - t0))"
