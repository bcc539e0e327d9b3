#!/usr/bin/env bash
# check-series, step 4: sparse (make C=2) reports no new warning or
# error on the objects the series touches, against the base.  In the
# small config's object directory, which series-bisect.sh leaves built
# at the tip: that config must build each of those objects, or sparse
# would not see it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${TREE:?}" "${CACHE:?}" "${KBUILD_FLAGS:?}"
need_sparse
series_check_env
tip=$(series_tip)
worktree_at "$src" "$tip"

# sparse on the worktree as it is checked out: its warnings and errors
# (file: message, without line numbers) in $log/sparse-LABEL.txt
sparse_run() { # LABEL OBJECT...
	local label=$1
	shift
	skmake C=2 "$@" 2>&1 >/dev/null | grep -E ': (warning|error):' |
		sed -E 's/:[0-9]+:[0-9]+:/:/' | sort >"$log/sparse-$label.txt" || true
}

# the objects of the kernel build that the series changes
mapfile -t touched < <(sgit diff --name-only base "$tip" -- '*.c' | grep -v '^tools/' | sed 's/\.c$/.o/')
objs=() base_objs=()
for o in "${touched[@]}"; do
	if [ -e "$sobj/$o" ]; then
		objs+=("$o")
		# only those that exist at the base, there
		if sgit cat-file -e "base:${o%.o}.c" 2>/dev/null; then
			base_objs+=("$o")
		fi
	elif ! sgit grep -q "#include \".*/$(basename "${o%.o}.c")\"" "$tip" -- '*.c'; then
		# (a .c file #included by another one has no object of its own)
		die "$(basename "$here")/bisect.config does not build $o, which the series changes: add its option"
	fi
done
[ ${#objs[@]} -gt 0 ] || die "no object of the kernel build changes: nothing for sparse"

sparse_run tip "${objs[@]}"
if [ ${#base_objs[@]} -gt 0 ]; then
	sgit checkout -q --detach base
	sparse_run base "${base_objs[@]}"
	sgit checkout -q --detach "$tip"
else
	: >"$log/sparse-base.txt"
fi
new=$(comm -13 "$log/sparse-base.txt" "$log/sparse-tip.txt")
if [ -n "$new" ]; then
	printf '%s\n' "$new" | sed 's/^/    /'
	die "sparse: new warnings in the objects the series touches (above)"
fi
echo "sparse: no new warnings in ${objs[*]}"
