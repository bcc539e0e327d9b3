#!/usr/bin/env bash
# Build $OBJ/initramfs.img with dracut: the base module, the installed
# kselftests, the kernel modules, the guest runner and the manifest.
# Nothing on the host is changed: no host dracut configuration is read,
# nothing is installed into /usr/lib/dracut, and the image goes to $OBJ.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${OBJ:?}"
ksft=$OBJ/kselftest/kselftest_install
mods=$OBJ/modules-staging
[ -x "$ksft/run_kselftest.sh" ] || die "no kselftests in $ksft: run 'make build'"
command -v dracut >/dev/null || die "dracut not installed: run 'make deps'"

stage=$OBJ/initramfs-staging
rm -rf "$stage"
mkdir -p "$stage/rwsem-unfair" "$stage/opt" "$stage/lib/dracut/hooks/cmdline"
cp -a "$ksft" "$stage/opt/kselftests"
[ -d "$mods/lib/modules" ] && cp -a "$mods/lib/modules" "$stage/lib/"
cp "$here"/guest/*.sh "$here/manifest" "$stage/rwsem-unfair/"
# dracut sources cmdline hooks early from its init; ours takes over PID 1.
install -m 0755 "$here/guest/hook.sh" "$stage/lib/dracut/hooks/cmdline/00-rwsem-unfair.sh"

tmp=$OBJ/dracut-tmp
rm -rf "$tmp"
mkdir -p "$tmp/no-conf.d"
dracut --force --quiet --no-kernel --no-hostonly --no-hostonly-cmdline \
	--conf /dev/null --confdir "$tmp/no-conf.d" --tmpdir "$tmp" \
	--kver "$(cat "$OBJ/include/config/kernel.release")" \
	-m base --no-compress \
	-I "timeout stty tee uniq cut xargs env date find expr nproc cat grep sed awk tr basename dirname realpath mktemp head tail wc sort id setpriv sysctl ps pkill stress-ng" \
	--include "$stage" / \
	"$OBJ/initramfs.img" >"$tmp/dracut.log" 2>&1 || {
	tail -n 20 "$tmp/dracut.log" >&2
	die "dracut failed, log at $tmp/dracut.log"
}
echo "initramfs $OBJ/initramfs.img ($(du -h "$OBJ/initramfs.img" | cut -f1))"
