#!/usr/bin/env bash
# Build the kselftest collections for i386 (gcc -m32, Debian's
# gcc-multilib), against the tree's exported headers: the collections
# must build on a 32-bit architecture too.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${TREE:?}" "${OBJ:?}" "${KSFT_TARGETS:?}"
[ -d "$OBJ/usr/include" ] || die "no exported headers in $OBJ/usr/include: run 'make build'"
for t in $KSFT_TARGETS; do
	out=$OBJ/kselftest-i386/$t
	rm -rf "$out"
	mkdir -p "$out"
	make -s -C "$TREE/tools/testing/selftests/$t" CC="gcc -m32" OUTPUT="$out" \
		KHDR_INCLUDES="-isystem $OBJ/usr/include" >"$out.log" 2>&1 || {
		tail -n 20 "$out.log" >&2
		die "the $t kselftests do not build for i386 (log $out.log)"
	}
	n=0
	for f in "$out"/*; do
		[ -x "$f" ] && [ -f "$f" ] || continue
		readelf -h "$f" | grep -q 'Machine: *Intel 80386' ||
			die "$f is not an i386 binary"
		n=$((n + 1))
	done
	echo "$t: $n programs built for i386 ($(grep -c 'warning:' "$out.log" || true) compiler warnings, log $out.log)"
done
