#!/usr/bin/env bash
# check-series, step 5: sparse (make C=2) reports no new warning or
# error on the objects the series touches, against the base.  In the
# small config's object directory, which series-bisect.sh leaves built
# at the tip: that config must build each of those objects, or sparse
# would not see it.  sparse must be installed, and make C=2 must succeed
# and run sparse on every one of the objects: a sparse that does not run
# fails the check rather than reporting nothing.
# "series-sparse.sh --sparse LIST ARGS..." is the CHECK command make
# runs: it notes the file it checks in LIST, then runs sparse ARGS.
set -euo pipefail
if [ "${1:-}" = --sparse ]; then
	printf '%s\n' "${*: -1}" >>"$2"
	shift 2
	exec sparse "$@"
fi
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
	local label=$1 ran=$log/sparse-$1.ran o
	shift
	: >"$ran"
	if ! skmake C=2 CHECK="$(printf '%q ' "$here/series-sparse.sh" --sparse "$ran")" \
		"$@" >/dev/null 2>"$log/sparse-$label.log"; then
		tail -n 20 "$log/sparse-$label.log" | sed 's/^/    /'
		die "make C=2 fails at the $label (log $log/sparse-$label.log)"
	fi
	for o; do
		grep -qxF "$src/${o%.o}.c" "$ran" ||
			die "make C=2 ran no sparse on ${o%.o}.c at the $label (log $log/sparse-$label.log)"
	done
	{ grep -E ': (warning|error):' "$log/sparse-$label.log" || true; } |
		sed -E 's/:[0-9]+:[0-9]+:/:/' | sort >"$log/sparse-$label.txt"
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
