#!/usr/bin/env bash
# Install the Debian packages the harness needs, only those missing.
# linux-source-6.12 is pinned to the version the series is based on.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${BASE_PKG:?}" "${BASE_VERSION:?}"

pkgs=(
	"$BASE_PKG=$BASE_VERSION"
	build-essential bc bison flex libelf-dev libssl-dev cpio kmod xz-utils
	ccache python3 python3-ply python3-git rsync
	qemu-system-x86 dracut-core udev busybox-static
	sparse python3-docutils b4 spin gcc-multilib procps stress-ng
)
# make bench adds gnuplot-nox for its plot
# shellcheck disable=SC2206
pkgs+=(${DEPS_EXTRA:-})
missing=()
for p in "${pkgs[@]}"; do
	name=${p%%=*}
	want=${p#*=}
	[ "$want" = "$p" ] && want=
	have=$(dpkg-query -W -f='${db:Status-Abbrev} ${Version}' "$name" 2>/dev/null || true)
	case $have in
	"ii  $want"* | "ii  "*) [ -z "$want" ] || [ "$have" = "ii  $want" ] || missing+=("$p") ;;
	*) missing+=("$p") ;;
	esac
done
if [ ${#missing[@]} = 0 ]; then
	echo "all ${#pkgs[@]} packages present"
	exit 0
fi
echo "installing: ${missing[*]}"
[ "$(id -u)" = 0 ] || die "missing packages and not root: run 'sudo make deps'"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
