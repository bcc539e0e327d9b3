# Shared helpers for the harness scripts. Sourced, never run.
# shellcheck shell=bash

die() {
	printf 'error: %s\n' "$*" >&2
	exit 1
}

note() {
	printf '  %s\n' "$*"
}

# Fixed committer identity and dates keep commit ids, and so the exported
# patches, reproducible on every machine.
export_identity() {
	: "${PROJECT_NAME:?}" "${PROJECT_EMAIL:?}"
	export GIT_AUTHOR_NAME="$PROJECT_NAME" GIT_AUTHOR_EMAIL="$PROJECT_EMAIL"
	export GIT_COMMITTER_NAME="$PROJECT_NAME" GIT_COMMITTER_EMAIL="$PROJECT_EMAIL"
}

# The identity ("Name <email>") the exported patches are signed with:
# AUTHOR_NAME and AUTHOR_EMAIL when both are set, else the From: of the
# first patch under ROOT (the identity the folders already carry), else
# the project's.
series_identity() { # ROOT
	local first
	if [ -n "${AUTHOR_NAME:-}" ] || [ -n "${AUTHOR_EMAIL:-}" ]; then
		[ -n "${AUTHOR_NAME:-}" ] && [ -n "${AUTHOR_EMAIL:-}" ] ||
			die "set both AUTHOR_NAME and AUTHOR_EMAIL, or neither"
		printf '%s <%s>\n' "$AUTHOR_NAME" "$AUTHOR_EMAIL"
		return
	fi
	first=$(series_patches "$1" branch-export | head -n 1)
	if [ -n "$first" ]; then
		python3 -c 'import email, email.header, email.utils, sys
m = email.message_from_binary_file(open(sys.argv[1], "rb"))
n, a = email.utils.parseaddr(str(email.header.make_header(email.header.decode_header(m["From"]))))
print("%s <%s>" % (n, a))' "$first"
		return
	fi
	printf '%s <%s>\n' "$PROJECT_NAME" "$PROJECT_EMAIL"
}

# --- the series as the three patch folders hold it ----------------------
# The patch files under ROOT (the checkout, or an export in a scratch
# directory) of the FOLDERs (default: all three), in the order git am
# applies them, without the cover letter (branch-export/*-0000-cover-letter.patch).
series_patches() { # ROOT [FOLDER...]
	local root=$1 d p
	shift
	[ $# -gt 0 ] || set -- branch-export sysctl-patch selftests
	for d; do
		for p in "$root/$d"/*.patch; do
			[ -e "$p" ] || continue
			case $p in *-0000-cover-letter.patch) continue ;; esac
			printf '%s\n' "$p"
		done
	done
}

# The cover letter under ROOT, if there is one.
series_cover() { # ROOT
	local p
	for p in "$1"/branch-export/*-0000-cover-letter.patch; do
		if [ -e "$p" ]; then
			printf '%s\n' "$p"
			break
		fi
	done
}

# git am the PATCHes one by one onto the HEAD of work tree DIR, each
# committed at its author date (with export_identity: the commit ids of
# the branch they were exported from).  On one that does not apply it
# returns 1 with the am in progress and am_failed naming the patch.
# shellcheck disable=SC2034 # am_failed is for the caller
am_patches() { # DIR PATCH...
	local dir=$1 p
	shift
	for p; do
		am_failed=$p
		git -C "$dir" am -q --committer-date-is-author-date "$p" || return 1
	done
	am_failed=
}

# --- skip what is already done on the same inputs ------------------------
# A stamp file holds the key of the inputs a result was made from on its
# first line (stamp_key: the sha256 of what it reads, e.g. the base commit
# and the patches), and a note on its second (when it passed, the branch
# head it was in step with, a verdict).
stamp_key() {
	sha256sum | cut -d' ' -f1
}
stamp_ok() { # FILE KEY: FILE is a stamp for KEY
	[ -f "$1" ] && [ "$(sed -n 1p "$1")" = "$2" ]
}
stamp_note() { # FILE
	sed -n 2p "$1" 2>/dev/null || true
}
stamp_write() { # FILE KEY [NOTE]
	mkdir -p "$(dirname "$1")"
	printf '%s\n' "$2" ${3+"$3"} >"$1"
}

# A worktree of $TREE at DIR, detached at REV, kept across runs: the
# checks that walk or build other commits do it there, so that $TREE,
# its object directory and a developer's work in them are never touched.
# A run that was killed half-way (in git am or git rebase, or on another
# commit) is put back by the next one.
worktree_at() { # DIR REV
	local want
	want=$(git -C "$TREE" rev-parse "$2^{commit}")
	if ! git -C "$1" rev-parse -q --verify HEAD >/dev/null 2>&1; then
		rm -rf "$1"
		git -C "$TREE" worktree prune
		git -C "$TREE" worktree add -q --detach "$1" "$want"
	fi
	git -C "$1" am --abort >/dev/null 2>&1 || true
	git -C "$1" rebase --abort >/dev/null 2>&1 || true
	if [ "$(git -C "$1" rev-parse HEAD)" != "$want" ] ||
		[ -n "$(git -C "$1" status --porcelain --untracked-files=no)" ]; then
		git -C "$1" checkout -q -f --detach "$want"
	fi
}

# make in source tree SRC with objects in OBJDIR and the flags the
# Makefile defines (KBUILD_FLAGS): the Makefile's KMAKE is
# "kmake_at $TREE $OBJ".  Callers add -s where they want make quiet.
kmake_at() { # SRC OBJDIR ARGS...
	local src=$1 obj=$2 flags
	shift 2
	: "${KBUILD_FLAGS:?is exported by the Makefile: run make, or export it as the Makefile does}"
	read -r -a flags <<<"$KBUILD_FLAGS"
	make -C "$src" O="$obj" "${flags[@]}" "$@"
}

# --- check-series -----------------------------------------------------
# check-series.sh runs its steps (series-*.sh) in a worktree of its own,
# $src, with object directories of its own, $sobj (bisect.config) and
# $rtobj (bisect.config + rt.config), and keeps their logs in $log: the
# kernel tree, its test kernel build and any uncommitted work there are
# left alone.  series-am.sh applies the folders there onto base and
# writes the tip it made to $log/tip for the steps after it (series_tip).
# shellcheck disable=SC2034 # the variables are for the steps
series_check_env() {
	: "${CACHE:?}"
	src=$CACHE/series-src
	sobj=$CACHE/obj-series
	rtobj=$CACHE/obj-series-rt
	log=$CACHE/check-series
	mkdir -p "$log"
}
series_tip() {
	[ -s "$log/tip" ] || die "no $log/tip: run series-am.sh (or check-series.sh) first"
	cat "$log/tip"
}
# git in the worktree; quiet make there, with the objects in $sobj
sgit() {
	git -C "$src" "$@"
}
skmake() {
	kmake_at "$src" "$sobj" -s "$@"
}
need_sparse() {
	command -v sparse >/dev/null ||
		die "sparse is not installed: run 'make deps' (or apt-get install sparse)"
}

# The pristine base tree as a worktree of tag "base" at $base_src, and
# kmake_base to build it in $base_obj (check-fastpath, base-kernel.sh).
base_worktree() {
	base_src=$CACHE/base-src
	base_obj=$CACHE/obj-base
	worktree_at "$base_src" base
	mkdir -p "$base_obj"
}

kmake_base() {
	kmake_at "$base_src" "$base_obj" -s "$@"
}

# The base kernel image that make test and make bench boot, built with
# the test kernel's .config: $base_image, with a key (base commit and
# that config) beside it.  base-kernel.sh builds it when it is missing or
# stale.
base_image=$CACHE/base-kernel/bzImage
base_image_key() { # CONFIG
	{ git -C "$TREE" rev-parse 'base^{commit}'; cat "$1"; } | stamp_key
}
base_image_ok() {
	[ -f "$base_image" ] && [ -f "$OBJ/.config" ] &&
		stamp_ok "$base_image.key" "$(base_image_key "$OBJ/.config")"
}
base_image_store() { # OBJDIR CONFIG
	mkdir -p "$(dirname "$base_image")"
	cp "$1/arch/x86/boot/bzImage" "$base_image"
	stamp_write "$base_image.key" "$(base_image_key "$2")"
}

# The mutation check (mutate.sh) saves here the sources a mutation
# changes, and puts them back byte for byte and with their old mtimes, so
# that the real object directory does not see them as changed.  The
# copies stay on disk until then: a run killed with a mutation applied
# (SIGKILL, a CI timeout) is undone by the next make tree or mutate.sh,
# before anything else.
mutant_saved=$CACHE/mutant-saved
undo_mutation() {
	local f
	[ -f "$mutant_saved/list" ] || return 0
	while IFS= read -r f; do
		cp -p "$mutant_saved/$(echo "$f" | tr / _)" "$TREE/$f"
	done <"$mutant_saved/list"
	rm -rf "$mutant_saved"
}

# The suites of the manifest (qemu-boot/manifest) that MODE boots on
# KERNEL (patched or base), as the comma list run-qemu.sh takes.
manifest_suites() { # MODE KERNEL
	local s
	s=$(awk -v m="$1" -v k="$2" '
		/^[ \t]*(#|$)/ { next }
		("," $2 ",") ~ ("," m ",") && ("," $3 ",") ~ ("," k ",") { print $1 }
	' "$(dirname "${BASH_SOURCE[0]}")/manifest" | paste -sd,)
	[ -n "$s" ] || die "the manifest has no suite for mode $1 on the $2 kernel"
	echo "$s"
}
