#!/usr/bin/env bash
# U4: the fair fast paths compile exactly as in the base kernel.
# Builds kernel/locking/rwsem.o of the base tree (a worktree of tag "base")
# with the test kernel's .config, and compares the normalised disassembly
# of the fair entry points with that of the patched tree's object.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${TREE:?}" "${OBJ:?}" "${CACHE:?}"

funcs="down_read down_read_killable down_read_trylock up_read __up_read
down_write down_write_killable up_write"
patched=$OBJ/kernel/locking/rwsem.o

[ -f "$OBJ/.config" ] && [ -f "$patched" ] || die "no $patched: run 'make build'"

base_worktree
cp "$OBJ/.config" "$base_obj/.config"
kmake_base olddefconfig >/dev/null
kmake_base -j"$(nproc)" kernel/locking/rwsem.o

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/base" "$work/patched"
objdump -dr --no-show-raw-insn "$base_obj/kernel/locking/rwsem.o" >"$work/base.dis"
objdump -dr --no-show-raw-insn "$patched" >"$work/patched.dis"
# shellcheck disable=SC2086
python3 "$here/disasm-norm.py" "$work/base.dis" "$work/base" $funcs
# shellcheck disable=SC2086
python3 "$here/disasm-norm.py" "$work/patched.dis" "$work/patched" $funcs

status=0
for f in $funcs; do
	if diff -u "$work/base/$f.s" "$work/patched/$f.s" >"$work/$f.diff"; then
		printf '  %-22s identical (%d instructions)\n' "$f" \
			"$(grep -vc '^    reloc' "$work/base/$f.s")"
	else
		printf '  %-22s DIFFERS from base\n' "$f"
		head -n 40 "$work/$f.diff" | sed 's/^/    /'
		status=1
	fi
done
[ $status = 0 ] || die "a fair fast path changed: the series must leave them alone (U4)"
echo "fast paths identical to base ($(echo $funcs | wc -w) functions, normalised objdump of kernel/locking/rwsem.o)"
