#!/usr/bin/env bash
# check-series, step 6: at the tip, Documentation/admin-guide/sysctl/vm.rst
# is valid reST (docutils) with the rwsem_unfair_maps entry in its list
# and a section of its own, and the kernel-doc of include/linux/rwsem.h
# has no warnings.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${TREE:?}" "${CACHE:?}"
series_check_env
tip=$(series_tip)
worktree_at "$src" "$tip"

doc=Documentation/admin-guide/sysctl/vm.rst
sgit show "$tip:$doc" >"$log/vm.rst"
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
kd=$(cd "$src" && { perl scripts/kernel-doc -none -Wall include/linux/rwsem.h 2>&1 || true; })
[ -z "$kd" ] || { printf '%s\n' "$kd" | sed 's/^/    /'; die "kernel-doc warnings in include/linux/rwsem.h"; }
echo "docs: $doc is valid reST with the rwsem_unfair_maps entry; kernel-doc of rwsem.h is clean"
