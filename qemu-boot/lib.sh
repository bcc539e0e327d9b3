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
