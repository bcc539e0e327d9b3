#!/usr/bin/env bash
# Generate $OBJ/.config: tinyconfig + qemu-boot/kernel.config + the config
# fragment of each kselftest collection the guest runs (as test systems
# do), merged with the kernel's merge_config.sh; then verify every
# requested option.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${TREE:?}" "${OBJ:?}" "${KMAKE:?}" "${KSFT_TARGETS:?}"
fragments=("${FRAGMENT:-$here/kernel.config}")
for t in $KSFT_TARGETS; do
	f=$TREE/tools/testing/selftests/$t/config
	[ -f "$f" ] && fragments+=("$f")
done
mkdir -p "$OBJ"

$KMAKE -s tinyconfig >/dev/null
"$TREE/scripts/kconfig/merge_config.sh" -m -O "$OBJ" "$OBJ/.config" "${fragments[@]}" >"$OBJ/merge_config.log" 2>&1 ||
	die "merge_config.sh failed, log at $OBJ/merge_config.log"
$KMAKE -s olddefconfig >/dev/null

missing=()
while IFS= read -r line; do
	case $line in
	CONFIG_*=*) want=$line ;;
	"# CONFIG_"*" is not set") want=$line ;;
	*) continue ;;
	esac
	grep -qxF -- "$want" "$OBJ/.config" || missing+=("$want")
done < <(cat "${fragments[@]}")
if [ ${#missing[@]} -gt 0 ]; then
	printf '  missing in %s/.config: %s\n' "$OBJ" "${missing[@]}" >&2
	die "${#missing[@]} option(s) of ${fragments[*]} not set: their dependencies are not met (see scripts/config, make menuconfig)"
fi
echo "config $OBJ/.config: all $(cat "${fragments[@]}" | grep -c '^CONFIG_\|^# CONFIG_.* is not set') options of ${fragments[*]#"$TREE"/} set"
