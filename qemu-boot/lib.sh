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
	export GIT_AUTHOR_NAME="$AUTHOR_NAME" GIT_AUTHOR_EMAIL="$AUTHOR_EMAIL"
	export GIT_COMMITTER_NAME="$AUTHOR_NAME" GIT_COMMITTER_EMAIL="$AUTHOR_EMAIL"
}

# A worktree of $TREE at DIR, detached at REV, kept across runs: the
# checks that walk or build other commits do it there, so that $TREE,
# its object directory and a developer's work in them are never touched.
# A run that was killed half-way (in git am, or on another commit) is
# put back by the next one.
worktree_at() { # DIR REV
	local want
	want=$(git -C "$TREE" rev-parse "$2^{commit}")
	if ! git -C "$1" rev-parse -q --verify HEAD >/dev/null 2>&1; then
		rm -rf "$1"
		git -C "$TREE" worktree prune
		git -C "$TREE" worktree add -q --detach "$1" "$want"
	fi
	git -C "$1" am --abort >/dev/null 2>&1 || true
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
	{ git -C "$TREE" rev-parse 'base^{commit}'; cat "$1"; } | sha256sum | cut -d' ' -f1
}
base_image_ok() {
	[ -f "$base_image" ] && [ -f "$OBJ/.config" ] &&
		[ "$(cat "$base_image.key" 2>/dev/null)" = "$(base_image_key "$OBJ/.config")" ]
}
base_image_store() { # OBJDIR CONFIG
	mkdir -p "$(dirname "$base_image")"
	cp "$1/arch/x86/boot/bzImage" "$base_image"
	base_image_key "$2" >"$base_image.key"
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
