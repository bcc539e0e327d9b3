#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge one QEMU test run from its console log and results channel.

The guest frames its results on ttyS1 (see guest/guest-init.sh).  Every
KTAP section is parsed with the kernel's own parser (kunit.py parse
--json); kselftest programs' nested KTAP is parsed the same way, so that
each test case shows up.  The console log is scanned for splats.  Prints
one table and a last line "N passed, N failed, N skipped"; exits non-zero
on any failure, splat, missing section or unfinished runner.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

SPLATS = [
    r"WARNING:", r"BUG:", r"kernel BUG at", r"KASAN", r"UBSAN",
    r"Oops", r"general protection fault", r"Kernel panic",
    r"INFO: task .* blocked for more than", r"detected stalls?",
    r"rcu_\w+ self-detected stall", r"soft lockup", r"hard LOCKUP",
    r"possible circular locking", r"possible recursive locking",
    r"inconsistent lock state", r"DEBUG_LOCKS_WARN_ON",
    r"turning off the locking correctness validator",
    r"suspicious RCU usage", r"Call Trace:", r"!!!",
]
SPLAT_RE = re.compile("|".join(SPLATS))
# A task dump asked for on purpose (rwsem.sysrq_after=) prints call traces
# that are not splats; a real splat still has its own first line above.
SYSRQ_RE = re.compile(r"sysrq: Show (Blocked )?State")


def is_splat(line, sysrq):
    """A splat line; with a sysrq task dump on the console, a bare
    "Call Trace:" is part of the dump."""
    if sysrq:
        line = line.replace("Call Trace:", "")
    return bool(SPLAT_RE.search(line))


def read_log(p):
    """A serial log as text ("" if missing), without carriage returns."""
    try:
        with open(p, "rb") as f:
            return f.read().decode("utf-8", "replace").replace("\r", "")
    except OSError:
        return ""


def ktap_cases(kunit, text, workdir, tag):
    """Parse KTAP text with kunit.py; return [(name, status)] of leaves."""
    src = os.path.join(workdir, tag + ".ktap")
    out = os.path.join(workdir, tag + ".json")
    with open(src, "w") as f:
        f.write(text)
    log = subprocess.run([sys.executable, kunit, "parse", "--json=" + out, src],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True)
    with open(os.path.join(workdir, tag + ".parse.log"), "w") as f:
        f.write(log.stdout)
    try:
        with open(out) as f:
            root = json.load(f)
    except (OSError, ValueError):
        return []
    cases = []

    def walk(group, prefix):
        for c in group.get("test_cases", []):
            cases.append((prefix + c["name"], c["status"]))
        for g in group.get("sub_groups", []):
            walk(g, prefix + g["name"] + ": ")
    walk(root, "")
    return cases


def kselftest_rows(kunit, text, workdir):
    """Rows for a run_kselftest.sh section, one per nested test case."""
    rows = []
    top = ktap_cases(kunit, text, workdir, "kselftest")
    lines = text.splitlines()
    for i, (name, status) in enumerate(top):
        prog = name.split(": ")[-1].strip()
        # The program's own KTAP is the "# "-prefixed block before its
        # "ok N selftests: COLLECTION: PROG" line.
        end = next((j for j, l in enumerate(lines)
                    if re.match(r"(not )?ok \d+ .*" + re.escape(name) + r"\b", l)), None)
        start = next((j for j in range(end or 0, -1, -1)
                      if lines[j].startswith("# " + name.split(": ")[0])), None) \
            if end is not None else None
        nested = []
        if start is not None:
            body = [l[2:] if l.startswith("# ") else l[1:] if l == "#" else ""
                    for l in lines[start + 1:end]]
            nested = ktap_cases(kunit, "\n".join(body) + "\n", workdir,
                                "kselftest-%d" % i)
        for case, st in nested:
            rows.append((prog + ": " + case, st))
        if status != "PASS" and status != "SKIP" and \
                not any(st in ("FAIL", "ERROR") for _, st in nested):
            rows.append((prog + ": program exit", status))
        elif not nested:
            rows.append((prog, status))
    return rows


def locktorture_rows(lines, min_intervals=5):
    """Rows for the locktorture section: clean end, and progress of the
    writers (and readers) in every statistics interval."""
    text = "\n".join(lines)
    m = re.search(r"(\S+)-torture:--- Start of test", text)
    name = "locktorture %s" % (m.group(1) if m else "?")
    # Periodic statistics only: the prints made while the test is torn
    # down cover the shutdown, not a full interval.
    stop = re.search(r"-torture: ?Stopping", text)
    periodic = text[:stop.start()] if stop else text
    rows = []
    end = re.search(r"End of test: (\w+)", text)
    rows.append((name + ": End of test: SUCCESS",
                 "PASS" if end and end.group(1) == "SUCCESS" else "FAIL"))
    fails = [int(x) for x in re.findall(r"Fail:\s+(\d+)", text)]
    rows.append((name + ": no lock failures",
                 "PASS" if fails and not any(fails) else "FAIL"))
    for kind, label in (("Writes", "writers"), ("Reads ?", "readers")):
        totals = [int(x) for x in
                  re.findall(kind + r":\s+Total:\s+(\d+)", periodic)]
        deltas = [b - a for a, b in zip([0] + totals, totals)]
        ok = len(deltas) >= min_intervals and all(d > 0 for d in deltas)
        print("%s: %s acquisitions per interval: %s" %
              (name, label, " ".join(map(str, deltas)) or "none"))
        rows.append(("%s: %s progress in every interval (%d intervals)" %
                     (name, label, len(deltas)), "PASS" if ok else "FAIL"))
    return rows


def print_demo(lines):
    """The figures of proc-maps-contention: one row per case."""
    text = "\n".join(lines)
    size = re.search(r"populate (\d+) MiB", text)
    cases, figs = [], {}
    for case, rest in re.findall(r"^# # (.+): ((?:hold|uncontended)_ms=.*)$",
                                 text, re.M):
        if case not in figs:
            cases.append(case)
            figs[case] = {}
        figs[case].update(dict(re.findall(r"(\w+)=([-\d.]+)", rest)))
    if not cases:
        return
    print("Demo: /proc/<pid> reads behind a queued mmap_lock writer")
    print("(MADV_POPULATE_WRITE of %s MiB holds mmap_lock for read; ms)" %
          (size.group(1) if size else "?"))
    cols = [("hold left", "remaining_ms"), ("read", "monitor_ms"),
            ("maps uncont.", "uncontended_ms"), ("writer", "writer_ms")]
    width = max(len(c) for c in cases)
    print("  %-*s" % (width, "case") + "".join("%14s" % c for c, _ in cols))
    for c in cases:
        print("  %-*s" % (width, c) +
              "".join("%14s" % figs[c].get(k, "-") for _, k in cols))
    print()


def print_readers(lines):
    """maps-bench scenario rows of the demo: each reader at each level.
    Returns a problem, or None."""
    figs = {}
    for line in lines:
        f = line.strip().split(",")
        if len(f) == 9 and f[1].startswith("scenario"):
            figs[(f[1], f[0])] = f[2:]
    if not figs:
        return "section demo-readers: no maps-bench rows"
    cfgs = [c for c in ("base", "fair", "unfair") if any(k[1] == c for k in figs)]
    names = {"base": "base kernel", "fair": "level 0", "unfair": "level 1"}
    print("Demo: what a monitoring user sees behind the same hold (ms; "
          "* = the writer was not seen queued)")
    print("  %-22s" % "reader" + "".join("%14s" % names[c] for c in cfgs) +
          "%14s" % "uncontended")
    for kind, label in (("scenario", "maps read"), ("scenario_cmdline", "cmdline read"),
                        ("scenario_ps", "ps -eo pid,args")):
        row = [figs.get((kind, c)) for c in cfgs]
        if not any(row):
            continue
        cells = ["%14s" % ("-" if not r else "%.1f%s" % (float(r[3]), "" if r[5] == "1" else "*"))
                 for r in row]
        unc = next(r[4] for r in row if r)
        print("  %-22s" % label + "".join(cells) + "%14.1f" % float(unc))
    print()
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kunit", required=True, help="path of kunit.py")
    ap.add_argument("console")
    ap.add_argument("results")
    a = ap.parse_args()
    workdir = os.path.join(os.path.dirname(os.path.abspath(a.results)), "parsed")
    os.makedirs(workdir, exist_ok=True)

    console, results = read_log(a.console), read_log(a.results)
    problems = []
    rows = []

    sysrq = bool(SYSRQ_RE.search(console))
    splats = [l for l in console.splitlines() if is_splat(l, sysrq)]
    if splats:
        problems.append("splat on the guest console (%d lines), first: %s"
                        % (len(splats), splats[0].strip()))

    if "RWSEM-UNFAIR-RESULTS-BEGIN" not in results:
        problems.append("the guest never reached the test runner "
                        "(nothing on the results channel)")
    sections, verdict, cur = {}, None, None
    for line in results.splitlines():
        m = re.match(r"@@ (section|verdict) (.*)", line)
        if m and m.group(1) == "section":
            cur = m.group(2).strip()
            sections[cur] = []
        elif m:
            verdict = m.group(2).strip()
        elif line == "RWSEM-UNFAIR-RESULTS-END":
            cur = None
        elif cur is not None:
            sections[cur].append(line)
    if "RWSEM-UNFAIR-RESULTS-BEGIN" in results and verdict != "done":
        problems.append("guest runner did not finish (last verdict: %s)" % verdict)

    env = dict(l.split(" ", 1) for l in sections.get("env", []) if " " in l)
    if "jiffies" in env.get("clocksource", ""):
        problems.append("guest clocksource is %s: timing tests are meaningless"
                        % env["clocksource"])

    for name, lines in sections.items():
        text = "\n".join(lines) + "\n"
        if name == "env":
            continue
        if name == "demo-readers":
            problem = print_readers(lines)
            if problem:
                problems.append(problem)
            continue
        if name == "locktorture":
            got = locktorture_rows(lines)
        elif name.startswith("kunit:"):
            got = [("kunit " + n, s) for n, s in
                   ktap_cases(a.kunit, text, workdir, name.replace(":", "-"))]
        else:
            got = [(name + " " + n, s) for n, s in kselftest_rows(a.kunit, text, workdir)]
        if not got:
            problems.append("section %s: no KTAP results" % name)
        rows += got
        if name == "demo":
            print_demo(lines)

    if env:
        print("guest: kernel %s, %s CPUs, clocksource %s" %
              (env.get("kernel"), env.get("cpus"), env.get("clocksource")))
    width = max([len(n) for n, _ in rows] + [10])
    print("%-*s  %s" % (width, "test", "result"))
    print("%s  %s" % ("-" * width, "------"))
    for n, s in rows:
        print("%-*s  %s" % (width, n, s))
    passed = sum(s == "PASS" for _, s in rows)
    skipped = sum(s == "SKIP" for _, s in rows)
    failed = len(rows) - passed - skipped
    for p in problems:
        print("FAIL: " + p)
    if problems:
        print("console log: %s\nresults channel: %s" % (a.console, a.results))
    if not rows and not problems:
        problems.append("no tests ran")
        print("FAIL: no tests ran")
    print("%d passed, %d failed, %d skipped" % (passed, failed + len(problems), skipped))
    return 1 if failed or problems else 0


if __name__ == "__main__":
    sys.exit(main())
