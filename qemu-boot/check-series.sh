#!/usr/bin/env bash
# What a maintainer checks before taking the series, on the exported
# folders (not on the branch):
#   1. git am of branch-export/, sysctl-patch/ and selftests/ onto base
#      succeeds, and gives exactly the branch unfair/tests;
#   2. every patch passes scripts/checkpatch.pl --strict with 0 errors,
#      0 warnings and 0 checks;
#   3. the kernel builds at the base and after every patch
#      (bisectability), incrementally in the same object directory as
#      'make build'; the base build is kept as the base kernel;
#   4. sparse (make C=2) reports no new warning on the objects the series
#      touches, against the base;
#   5. vm.rst is valid reST (docutils) with the sysctl's entry, and the
#      kernel-doc of include/linux/rwsem.h has no warnings;
#   6. MAINTAINERS-snippet is the entry the series adds, and each of its
#      F:/X: patterns matches a file of the applied series.
# The tree is walked through the commits and left on unfair/tests.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
. "$here/lib.sh"
: "${TREE:?}" "${OBJ:?}" "${CACHE:?}" "${KMAKE:?}" "${AUTHOR_NAME:?}" "${AUTHOR_EMAIL:?}"
export_identity

g() { git -C "$TREE" "$@"; }
[ -f "$OBJ/.config" ] || die "no $OBJ/.config: run 'make config'"
[ -z "$(g status --porcelain --untracked-files=no)" ] ||
	die "$TREE has uncommitted changes; commit or stash them first"
home=$(g symbolic-ref -q --short HEAD || true)
[ "$home" = unfair/tests ] || die "$TREE is not on unfair/tests (it is on '${home:-detached}')"

mapfile -t patches < <(for d in branch-export sysctl-patch selftests; do
	ls "$top/$d"/*.patch 2>/dev/null | grep -v -- '-0000-cover-letter\.patch$' || true
done)
[ ${#patches[@]} -gt 0 ] || die "no patches in the folders"

# A full pass takes minutes (a build per patch).  It is skipped when it
# already passed on exactly these patches (the cover letter is not
# checked), snippet, script, config and base; FORCE=1 runs it anyway.  A
# fresh machine (CI) has no stamp.
stamp=$CACHE/check-series.pass
key=$( {
	g rev-parse base^{commit}
	cat "$OBJ/.config" "$0" "$top/MAINTAINERS-snippet" "${patches[@]}"
} | sha256sum | cut -d' ' -f1)
if [ -z "${FORCE:-}" ] && [ -f "$stamp" ] && [ "$(head -n 1 "$stamp")" = "$key" ]; then
	echo "check-series: passed on $(sed -n 2p "$stamp") on exactly these patches,"
	echo "  config, script and base (stamp $stamp); not re-run.  FORCE=1 re-runs it."
	exit 0
fi
rm -f "$stamp"

log=$OBJ/check-series
rm -rf "$log"
mkdir -p "$log"
cp "$OBJ/.config" "$log/config"
restore() {
	g am --abort >/dev/null 2>&1 || true
	g checkout -q -f unfair/tests
	cp "$log/config" "$OBJ/.config"
}
trap restore EXIT

# --- 1. git am onto the base ------------------------------------------
g checkout -q --detach base
for p in "${patches[@]}"; do
	g am -q --committer-date-is-author-date "$p" >"$log/am.log" 2>&1 ||
		die "git am of ${p#"$top"/} onto base fails (log $log/am.log)"
done
g diff --quiet HEAD unfair/tests ||
	die "the folders applied onto base differ from unfair/tests: run 'make export'"
mapfile -t commits < <(g rev-list --reverse base..HEAD)
echo "git am: ${#patches[@]} patches apply onto base and give unfair/tests"

# --- 2. checkpatch --------------------------------------------------------
bad=0
for p in "${patches[@]}"; do
	out=$(cd "$TREE" && perl scripts/checkpatch.pl --strict --show-types "$p" 2>&1 || true)
	total=$(printf '%s\n' "$out" | grep -E '^total:' || true)
	case $total in
	"total: 0 errors, 0 warnings, 0 checks,"*) ;;
	*)
		echo "checkpatch: ${p#"$top"/}: ${total:-no result}"
		printf '%s\n' "$out" | sed 's/^/    /' | head -n 30
		bad=1
		;;
	esac
done
[ $bad = 0 ] || die "checkpatch --strict is not clean on the patches named above"
echo "checkpatch --strict: 0 errors, 0 warnings, 0 checks on all ${#patches[@]} patches"

# --- 3./4. build after every patch, sparse at base and tip ----------------
# the objects the series changes that the kernel build makes
mapfile -t touched < <(g diff --name-only base HEAD -- '*.c' | grep -v '^tools/' |
	sed 's/\.c$/.o/' | while read -r o; do [ -e "$OBJ/$o" ] && echo "$o"; done)
sparse_run() { # out
	$KMAKE C=2 "${touched[@]}" 2>&1 >/dev/null |
		grep -E ': (warning|error):' |
		sed -E 's/:[0-9]+:[0-9]+:/:/' | sort >"$1" || true
}
build_here() { # label
	cp "$log/config" "$OBJ/.config"
	$KMAKE olddefconfig >/dev/null 2>&1
	if ! $KMAKE -j"$(nproc)" >"$log/build.log" 2>&1; then
		tail -n 20 "$log/build.log" | sed 's/^/    /'
		die "the build fails after $1 (log $log/build.log)"
	fi
}

# The base first: a full build, kept as the base kernel that make test
# and make bench boot (see base-kernel.sh), so that the build after
# patch 1 is incremental.
g checkout -q --detach base
t0=$(date +%s)
build_here "checking out the base"
base_image_store "$OBJ" "$log/config"
printf '  build of the base:    ok (%3d s)  kept as %s\n' "$(($(date +%s) - t0))" "$base_image"
# only the touched objects exist at the base, for sparse
base_objs=()
for o in "${touched[@]}"; do
	[ -e "$TREE/${o%.o}.c" ] && base_objs+=("$o")
done
touched_all=("${touched[@]}")
touched=("${base_objs[@]}")
sparse_run "$log/sparse-base.txt"
touched=("${touched_all[@]}")

i=0
for c in "${commits[@]}"; do
	p=${patches[$i]}
	i=$((i + 1))
	g checkout -q --detach "$c"
	t0=$(date +%s)
	build_here "patch $i, ${p#"$top"/}"
	printf '  build after patch %2d: ok (%3d s)  %s\n' "$i" \
		"$(($(date +%s) - t0))" "$(g log -1 --format=%s "$c")"
done
echo "bisectable: the kernel builds after each of the ${#commits[@]} patches"

sparse_run "$log/sparse-tip.txt"
new=$(comm -13 "$log/sparse-base.txt" "$log/sparse-tip.txt")
if [ -n "$new" ]; then
	printf '%s\n' "$new" | sed 's/^/    /'
	die "sparse: new warnings in the objects the series touches (above)"
fi
echo "sparse: no new warnings in ${touched[*]}"

# --- 5. documentation -------------------------------------------------
doc=Documentation/admin-guide/sysctl/vm.rst
g show "unfair/tests:$doc" >"$log/vm.rst"
python3 - "$log/vm.rst" <<'PY' || die "$doc is not valid reST (docutils, above)"
import io, sys
import docutils.core
err = io.StringIO()
text = open(sys.argv[1]).read()
docutils.core.publish_doctree(text, source_path="vm.rst", settings_overrides={
    "report_level": 2, "halt_level": 5, "warning_stream": err})
if err.getvalue():
    sys.stderr.write(err.getvalue())
    sys.exit(1)
if "\n- rwsem_unfair_maps\n" not in text or "\nrwsem_unfair_maps\n=====" not in text:
    sys.exit("no rwsem_unfair_maps entry in the list and its own section")
PY
kd=$( (cd "$TREE" && perl scripts/kernel-doc -none -Wall include/linux/rwsem.h) 2>&1 || true)
[ -z "$kd" ] || { printf '%s\n' "$kd" | sed 's/^/    /'; die "kernel-doc warnings in include/linux/rwsem.h"; }
echo "docs: $doc is valid reST with the rwsem_unfair_maps entry; kernel-doc of rwsem.h is clean"

# --- 6. MAINTAINERS-snippet -------------------------------------------
snippet=$top/MAINTAINERS-snippet
[ -f "$snippet" ] || die "no MAINTAINERS-snippet"
title=$(head -n 1 "$snippet")
g show unfair/tests:MAINTAINERS >"$log/MAINTAINERS"
entry=$(awk -v t="$title" '$0 == t { on = 1 } on && /^$/ { exit } on { print }' "$log/MAINTAINERS")
g ls-tree -r --name-only unfair/tests >"$log/files"
[ "$entry" = "$(cat "$snippet")" ] ||
	die "MAINTAINERS-snippet differs from the '$title' entry in the tree's MAINTAINERS"
while read -r tag pat; do
	case $tag in F: | X:) ;; *) continue ;; esac
	n=$(awk -v p="$pat" '
		BEGIN { gsub(/\./, "\\.", p); gsub(/\*/, "[^/]*", p); gsub(/\?/, ".", p)
			re = (p ~ /\/$/) ? "^" p : "^" p "$" }
		$0 ~ re { n++ } END { print n + 0 }' "$log/files")
	[ "$n" -gt 0 ] || die "MAINTAINERS-snippet: $tag $pat matches no file"
	note "$tag $pat: $n file(s)"
done <"$snippet"
echo "MAINTAINERS-snippet: matches the tree's entry, every pattern matches files"
printf '%s\n%s\n' "$key" "$(date -u '+%F %T UTC')" >"$stamp"
