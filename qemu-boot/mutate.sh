#!/usr/bin/env bash
# The mutation check: the tests must be able to fail.  Each patch in
# qemu-boot/mutations/ breaks one rule of the unfair admission on purpose
# (the 2010 rule, or a window the series closes, reopened).  Each is
# applied to the kernel tree in turn, built in a scratch copy of the
# object directory (incremental: only what the mutation touches), and
# booted with the manifest suites its "Suites:" line names (a comma
# list; default: kunit), until the first failing case.  Prints one line
# per mutation, "mutation NAME: killed by TEST[; TEST...]" or
# "mutation NAME: SURVIVED", and fails if any survived.
# MUTATIONS="a b" runs only those.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${TREE:?}" "${OBJ:?}" "${CACHE:?}" "${RUNS:?}" "${KMAKE:?}"

[ -f "$OBJ/arch/x86/boot/bzImage" ] && [ -f "$OBJ/initramfs.img" ] ||
	die "no kernel or initramfs in $OBJ: run 'make initramfs'"
scratch=$CACHE/obj-mutant
# mutant_saved and undo_mutation (lib.sh): the sources a mutation changes are
# saved, and put back even after a killed run.
save=$mutant_saved
undo_mutation
trap undo_mutation EXIT
[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] ||
	die "$TREE has uncommitted changes; commit or stash them first"

survived=0
for m in "$here"/mutations/*.patch; do
	name=$(basename "$m" .patch)
	if [ -n "${MUTATIONS:-}" ] && [[ " $MUTATIONS " != *" $name "* ]]; then
		continue
	fi
	mkdir -p "$save"
	git -C "$TREE" apply --numstat "$m" | cut -f3 >"$save/list.new"
	while IFS= read -r f; do
		cp -p "$TREE/$f" "$save/$(echo "$f" | tr / _)"
	done <"$save/list.new"
	mv "$save/list.new" "$save/list"
	git -C "$TREE" apply "$m" ||
		die "mutation $name does not apply to $TREE: update qemu-boot/mutations/$name.patch"
	rm -rf "$scratch"
	cp -a "$OBJ" "$scratch"
	log=$RUNS/mutant-$name.build.log
	mkdir -p "$RUNS"
	if ! $KMAKE O="$scratch" -j"$(nproc)" bzImage >"$log" 2>&1; then
		tail -n 20 "$log" | sed 's/^/    /'
		die "mutation $name does not build (log $log)"
	fi
	undo_mutation

	out=$RUNS/mutant-$name.txt
	suites=$(sed -n 's/^Suites: *//p' "$m" | head -n 1)
	# the boot ends at the first failing case (KTAP "not ok" on the
	# console); a run without one is judged in full
	status=0
	KERNEL=$scratch/arch/x86/boot/bzImage TIMEOUT=${MUTANT_TIMEOUT:-300} \
		STOP_ON='not ok [0-9]+ ' \
		"$here/run-qemu.sh" run "mutant-$name" "${suites:-kunit}" >"$out" 2>&1 ||
		status=$?
	if [ $status = 0 ]; then
		python3 "$here/judge.py" --tree "$TREE" "$RUNS/mutant-$name" >>"$out" 2>&1 ||
			status=$?
	fi
	if [ $status = 0 ]; then
		echo "mutation $name: SURVIVED (every test passed; $out)"
		survived=1
		continue
	fi
	killers=$(grep -E '  FAIL$|^FAIL: |^error: |^stopped at: ' "$out" |
		sed -E 's/ +FAIL$//; s/^(FAIL|error|stopped at): //' | cut -c1-90 |
		paste -sd';' | sed 's/;/; /g')
	echo "mutation $name: killed by ${killers:-the test run (see $out)}"
done
rm -rf "$scratch"
[ $survived = 0 ] || die "a mutation survived: the tests above cannot tell it from the real series"
