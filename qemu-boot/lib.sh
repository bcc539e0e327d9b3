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
