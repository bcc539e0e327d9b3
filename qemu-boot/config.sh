#!/usr/bin/env bash
# Generate $OBJ/.config: tinyconfig + qemu-boot/kernel.config + the config
# fragment of each kselftest collection the guest runs (as test systems
# do), merged with the kernel's merge_config.sh; then verify every
# requested option (where fragments disagree, the later one wins, as in
# merge_config.sh).  FRAGMENTS="a b" replaces kernel.config (check-series
# uses it for its own small kernels).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${TREE:?}" "${OBJ:?}" "${KBUILD_FLAGS:?}" "${KSFT_TARGETS?}"
read -r -a fragments <<<"${FRAGMENTS:-$here/kernel.config}"
for t in $KSFT_TARGETS; do
	f=$TREE/tools/testing/selftests/$t/config
	[ -f "$f" ] && fragments+=("$f")
done
mkdir -p "$OBJ"

kmake_at "$TREE" "$OBJ" -s tinyconfig >/dev/null
"$TREE/scripts/kconfig/merge_config.sh" -m -O "$OBJ" "$OBJ/.config" "${fragments[@]}" >"$OBJ/merge_config.log" 2>&1 ||
	die "merge_config.sh failed, log at $OBJ/merge_config.log"
kmake_at "$TREE" "$OBJ" -s olddefconfig >/dev/null

declare -A want=()
order=()
while IFS= read -r line; do
	case $line in
	CONFIG_*=*) sym=${line%%=*} ;;
	"# CONFIG_"*" is not set") sym=${line#\# } sym=${sym%% *} ;;
	*) continue ;;
	esac
	[ -n "${want[$sym]:-}" ] || order+=("$sym")
	want[$sym]=$line
done < <(cat "${fragments[@]}")
missing=()
for sym in "${order[@]}"; do
	case ${want[$sym]} in
	"# "*) ! grep -q "^$sym=" "$OBJ/.config" ;; # unset, or not even visible
	*) grep -qxF -- "${want[$sym]}" "$OBJ/.config" ;;
	esac || missing+=("${want[$sym]}")
done
if [ ${#missing[@]} -gt 0 ]; then
	printf '  missing in %s/.config: %s\n' "$OBJ" "${missing[@]}" >&2
	die "${#missing[@]} option(s) of ${fragments[*]} not set: their dependencies are not met (see scripts/config, make menuconfig)"
fi
echo "config $OBJ/.config: all ${#order[@]} options of ${fragments[*]#"$TREE"/} set"
