#!/usr/bin/env bash
# What a maintainer checks before taking the series, on the exported
# folders (not on the branch):
#   1. git am of branch-export/, sysctl-patch/ and selftests/ onto base
#      succeeds, and gives exactly the branch unfair/tests;
#   2. every patch passes scripts/checkpatch.pl --strict with 0 errors,
#      0 warnings and 0 checks;
#   3. the kernel builds at the base and after every patch
#      (bisectability), with the small bisect.config (tinyconfig under
#      it) that compiles every file the series touches, incrementally;
#      and the tip builds with PREEMPT_RT as well (rt.config);
#   4. sparse (make C=2) reports no new warning on the objects the series
#      touches, against the base;
#   5. vm.rst is valid reST (docutils) with the sysctl's entry, and the
#      kernel-doc of include/linux/rwsem.h has no warnings;
#   6. MAINTAINERS-snippet is the entry the series adds, and each of its
#      F:/X: patterns matches a file of the applied series.
# All of it happens in a worktree of its own ($CACHE/series-src) with its
# own object directories: the kernel tree, its test kernel build and any
# uncommitted work there are left alone, and a run killed half-way is
# put back by the next one.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
. "$here/lib.sh"
: "${TREE:?}" "${CACHE:?}" "${AUTHOR_NAME:?}" "${AUTHOR_EMAIL:?}" "${KBUILD_FLAGS:?}"
export_identity
command -v sparse >/dev/null ||
	die "sparse is not installed: run 'make deps' (or apt-get install sparse)"

src=$CACHE/series-src
sobj=$CACHE/obj-series
rtobj=$CACHE/obj-series-rt
g() { git -C "$src" "$@"; }
km() { kmake_at "$src" "$sobj" -s "$@"; }

mapfile -t patches < <(series_patches "$top")
[ ${#patches[@]} -gt 0 ] || die "no patches in the folders"

# A full pass takes minutes (a build per patch).  It is skipped when it
# already passed on exactly these patches (the cover letter is not
# checked), snippet, script, configs and base; FORCE=1 runs it anyway.  A
# fresh machine (CI) has no stamp.
stamp=$CACHE/check-series.pass
key=$( {
	git -C "$TREE" rev-parse 'base^{commit}'
	echo "$KBUILD_FLAGS"
	cat "$0" "$here/lib.sh" "$here/config.sh" "$here/bisect.config" "$here/rt.config" \
		"$top/MAINTAINERS-snippet" "${patches[@]}"
} | stamp_key)
if [ -z "${FORCE:-}" ] && stamp_ok "$stamp" "$key"; then
	echo "check-series: passed on $(stamp_note "$stamp") on exactly these patches,"
	echo "  configs, scripts and base (stamp $stamp); not re-run.  FORCE=1 re-runs it."
	exit 0
fi
rm -f "$stamp"

log=$CACHE/check-series
rm -rf "$log"
mkdir -p "$log" "$sobj" "$rtobj"

# --- 1. git am onto the base ------------------------------------------
worktree_at "$src" base
am_patches "$src" "${patches[@]}" >"$log/am.log" 2>&1 ||
	die "git am of ${am_failed#"$top"/} onto base fails (log $log/am.log)"
g diff --quiet HEAD unfair/tests ||
	die "the folders applied onto base differ from unfair/tests: run 'make export'"
tip=$(g rev-parse HEAD)
mapfile -t commits < <(g rev-list --reverse base..HEAD)
echo "git am: ${#patches[@]} patches apply onto base and give unfair/tests"

# --- 2. checkpatch --------------------------------------------------------
bad=0
for p in "${patches[@]}"; do
	out=$(cd "$src" && perl scripts/checkpatch.pl --strict --show-types "$p" 2>&1 || true)
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
config_at_tip "$sobj" "$here/bisect.config"
config_at_tip "$rtobj" "$here/bisect.config" "$here/rt.config"

build_here() { # label
	cp "$log/config-$(basename "$sobj")" "$sobj/.config"
	km olddefconfig >/dev/null 2>&1
	if ! km -j"$(nproc)" >"$log/build.log" 2>&1; then
		tail -n 20 "$log/build.log" | sed 's/^/    /'
		die "the build fails after $1 (log $log/build.log)"
	fi
}
# the objects of the kernel build that the series changes: the small
# config must build each of them, or sparse would not see it
mapfile -t touched < <(g diff --name-only base "$tip" -- '*.c' | grep -v '^tools/' | sed 's/\.c$/.o/')
sparse_run() { # out OBJECT...
	local out=$1
	shift
	km C=2 "$@" 2>&1 >/dev/null | grep -E ': (warning|error):' |
		sed -E 's/:[0-9]+:[0-9]+:/:/' | sort >"$out" || true
}

g checkout -q --detach base
t0=$(date +%s)
build_here "checking out the base"
printf '  build of the base:    ok (%3d s)\n' "$(($(date +%s) - t0))"
# only the touched objects that exist at the base, for sparse
base_objs=()
for o in "${touched[@]}"; do
	[ -e "$src/${o%.o}.c" ] && base_objs+=("$o")
done
sparse_run "$log/sparse-base.txt" "${base_objs[@]}"

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
echo "bisectable: the kernel builds after each of the ${#commits[@]} patches ($(basename "$here")/bisect.config)"

built=()
for o in "${touched[@]}"; do
	if [ -e "$sobj/$o" ]; then
		built+=("$o")
	elif ! g grep -q "#include \".*/$(basename "${o%.o}.c")\"" "$tip" -- '*.c'; then
		# (a .c file #included by another one has no object of its own)
		die "$(basename "$here")/bisect.config does not build $o, which the series changes: add its option"
	fi
done
touched=("${built[@]}")
sparse_run "$log/sparse-tip.txt" "${touched[@]}"
new=$(comm -13 "$log/sparse-base.txt" "$log/sparse-tip.txt")
if [ -n "$new" ]; then
	printf '%s\n' "$new" | sed 's/^/    /'
	die "sparse: new warnings in the objects the series touches (above)"
fi
echo "sparse: no new warnings in ${touched[*]}"

t0=$(date +%s)
if ! kmake_at "$src" "$rtobj" -s -j"$(nproc)" >"$log/build-rt.log" 2>&1; then
	tail -n 20 "$log/build-rt.log" | sed 's/^/    /'
	die "the tip does not build with PREEMPT_RT (log $log/build-rt.log)"
fi
printf '  build of the tip with PREEMPT_RT: ok (%d s)\n' "$(($(date +%s) - t0))"

# --- 5. documentation -------------------------------------------------
doc=Documentation/admin-guide/sysctl/vm.rst
g show "$tip:$doc" >"$log/vm.rst"
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
kd=$( (cd "$src" && perl scripts/kernel-doc -none -Wall include/linux/rwsem.h) 2>&1 || true)
[ -z "$kd" ] || { printf '%s\n' "$kd" | sed 's/^/    /'; die "kernel-doc warnings in include/linux/rwsem.h"; }
echo "docs: $doc is valid reST with the rwsem_unfair_maps entry; kernel-doc of rwsem.h is clean"

# --- 6. MAINTAINERS-snippet -------------------------------------------
snippet=$top/MAINTAINERS-snippet
[ -f "$snippet" ] || die "no MAINTAINERS-snippet"
title=$(head -n 1 "$snippet")
g show "$tip:MAINTAINERS" >"$log/MAINTAINERS"
entry=$(awk -v t="$title" '$0 == t { on = 1 } on && /^$/ { exit } on { print }' "$log/MAINTAINERS")
g ls-tree -r --name-only "$tip" >"$log/files"
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
stamp_write "$stamp" "$key" "$(date -u '+%F %T UTC')"
