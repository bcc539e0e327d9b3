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

# The pristine base tree as a worktree of tag "base" at $base_src, kept
# across runs, and kmake_base to build it in $base_obj (check-fastpath,
# bench).
base_worktree() {
	base_src=$CACHE/base-src
	base_obj=$CACHE/obj-base
	local want
	want=$(git -C "$TREE" rev-parse 'base^{commit}')
	if [ "$(git -C "$base_src" rev-parse HEAD 2>/dev/null)" != "$want" ]; then
		rm -rf "$base_src"
		git -C "$TREE" worktree prune
		git -C "$TREE" worktree add -q --detach "$base_src" "$want"
	fi
	mkdir -p "$base_obj"
}

kmake_base() {
	make -s -C "$base_src" O="$base_obj" ARCH=x86_64 \
		KBUILD_BUILD_USER=rwsem-unfair KBUILD_BUILD_HOST=qemu "$@"
}

# The base kernel image that make test and make bench boot, built with
# the test kernel's .config: $base_image, with a key (base commit and
# that config) beside it.  check-series stores it when it builds the
# base; base-kernel.sh builds it when it is missing or stale.
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
