#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The judge's own test.  judge.py decides whether a QEMU run passed;
each directory in judge-tests/ is a small golden run (console.log,
results.txt) with an expect file: "exit N", then "has: TEXT" lines that
the judge's output must contain.  Prints one line per case and exits
non-zero if any case differs.

Usage: judge_test.py KERNEL_TREE
"""
import os
import shutil
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))


def main():
    tree = sys.argv[1]
    cases = os.path.join(here, "judge-tests")
    bad = 0
    for name in sorted(os.listdir(cases)):
        d = os.path.join(cases, name)
        want = open(os.path.join(d, "expect")).read().splitlines()
        # the judge writes its parsed/ into the run: not in the checkout
        with tempfile.TemporaryDirectory() as tmp:
            for f in ("console.log", "results.txt"):
                shutil.copy(os.path.join(d, f), tmp)
            run = subprocess.run([sys.executable, os.path.join(here, "judge.py"),
                                  "--tree", tree, tmp],
                                 capture_output=True, text=True)
        out = run.stdout + run.stderr
        wrong = []
        for line in want:
            if line.startswith("exit ") and run.returncode != int(line[5:]):
                wrong.append("exit status %d, expected %s" % (run.returncode, line[5:]))
            elif line.startswith("has: ") and line[5:] not in out:
                wrong.append("no %r in the output" % line[5:])
        print("judge case %-16s %s" % (name, "; ".join(wrong) or "ok"))
        bad += bool(wrong)
    if bad:
        print("%d judge case(s) differ: judge.py changed behaviour "
              "(outputs with 'python3 %s/judge.py --tree KERNEL_TREE CASE')"
              % (bad, here))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
