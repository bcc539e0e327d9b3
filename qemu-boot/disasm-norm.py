#!/usr/bin/env python3
"""Normalise `objdump -dr` output of one object, per function.

Addresses, jump and call targets and RIP-relative comments are rewritten so
that two builds of the same code compare equal even when the functions sit
at other offsets.  The __LINE__ immediates passed to __might_sleep() (they
move whenever lines are added above them) become LINE.  Compiler clone
suffixes (.constprop.0, .isra.0, .part.0) are dropped.

Usage: disasm-norm.py OBJDUMP_OUTPUT OUTDIR FUNCTION...
writes OUTDIR/FUNCTION.s for each function; exits 1 if one is missing.
"""
import re
import sys

CLONE = re.compile(r"\.(constprop|isra|part|cold)\.\d+")


def functions(text):
    cur, body = None, []
    for line in text.splitlines():
        m = re.match(r"^[0-9a-f]+ <([^>]+)>:$", line)
        if m:
            if cur:
                yield cur, body
            cur, body = CLONE.sub("", m.group(1)), []
        elif cur and line.strip():
            body.append(line)
    if cur:
        yield cur, body


def normalise(name, body):
    out = []
    for line in body:
        reloc = re.match(r"^\s+[0-9a-f]+: (R_\S+)\s+(\S+)", line)
        if reloc:
            sym = CLONE.sub("", re.sub(r"[-+]0x[0-9a-f]+$", "", reloc.group(2)))
            out.append("    reloc %s %s" % (reloc.group(1), sym))
            continue
        m = re.match(r"^\s+[0-9a-f]+:\s+(.*)$", line)
        if not m:
            continue
        ins = m.group(1).split("#")[0].rstrip()
        ins = re.sub(r"^([0-9a-f]{2} )+\s*", "", ins)
        ins = re.sub(r"\b[0-9a-f]+ <([^>+]+)(\+0x[0-9a-f]+)?>",
                     lambda t: "<%s%s>" % (CLONE.sub("", t.group(1)),
                                           t.group(2) or "")
                     if CLONE.sub("", t.group(1)) == name
                     else "<%s>" % CLONE.sub("", t.group(1)), ins)
        ins = re.sub(r"\s+", " ", ins)
        out.append(ins)
    # __might_sleep(file, line, offset): the line immediate moves with edits
    for i, ins in enumerate(out):
        if re.match(r"mov \$0x[0-9a-f]+,%esi$", ins) and any(
                "__might_sleep" in x for x in out[i + 1:i + 10]):
            out[i] = "mov $LINE,%esi"
    return out


def main():
    src, outdir, wanted = sys.argv[1], sys.argv[2], sys.argv[3:]
    found = {}
    for name, body in functions(open(src).read()):
        if name in wanted:
            found[name] = normalise(name, body)
    missing = [w for w in wanted if w not in found]
    for name, lines in found.items():
        with open("%s/%s.s" % (outdir, name), "w") as f:
            f.write("\n".join(lines) + "\n")
    if missing:
        print("no function %s in %s" % (", ".join(missing), src),
              file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
