#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The judge: whether a QEMU run passed, for make test, make demo, make
bench and the mutation check alike.

A run is a directory with console.log (ttyS0) and results.txt (ttyS1, the
results channel that guest/run-suites.sh frames).  The judge
  - scans the console for splats with the kernel's own
    tools/testing/selftests/rcutorture/bin/console-badness.sh, plus the
    few things it does not look for (EXTRA_SPLATS);
  - checks that the guest runner finished and that the clocksource is not
    jiffies;
  - parses every section's KTAP with kunit.py parse (a kselftest
    program's nested KTAP too, so that each test case shows up), and
    locktorture's statistics;
  - collects the "# bench NAME key=value ..." lines of the bench modes as
    records, tagged with the suite and the configuration they ran in.
As a program it prints one table and "N passed, N failed, N skipped" per
run (and the demo tables of a demo run), and exits non-zero on any
failure.  make bench imports judge_run() for its report.

Usage: judge.py --tree KERNEL_TREE RUN_DIR [RUN_DIR...]
"""
import argparse
import json
import os
import re
import subprocess
import sys

# What console-badness.sh does not report: a panic, the hung task
# detector, the NMI watchdog.
EXTRA_SPLATS = re.compile(r"Kernel panic|INFO: task .* blocked for more than|"
                          r"hard LOCKUP")
# A task dump asked for on purpose (harness.sysrq_after=) prints call traces
# that are not splats; a real splat still has its own first line.
SYSRQ_RE = re.compile(r"sysrq: Show (Blocked )?State")
BENCH_RE = re.compile(r"^(?:# )*bench (\S+)((?: \S+=\S+)*)\s*$")
# the configuration a bench record was measured in, by the level its
# section ran at
CONFIGS = {"base": "base", "0": "fair", "1": "unfair", "2": "unfair2", "-": "-"}


def splats(console, tree):
    """The splat lines of a console log."""
    badness = os.path.join(tree, "tools/testing/selftests/rcutorture/bin/"
                           "console-badness.sh")
    # without it no splat could be found: that is a broken judge, not a pass
    if not os.path.isfile(badness):
        sys.exit("judge: no %s: is --tree a kernel tree?" % badness)
    found = subprocess.run(["bash", badness], input=console, capture_output=True,
                           text=True).stdout.splitlines()
    found += [l for l in console.splitlines() if EXTRA_SPLATS.search(l)]
    if SYSRQ_RE.search(console):
        found = [l for l in found if l.split("] ")[-1].strip() != "Call Trace:"]
    return found


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


def bench_records(lines, suite, level):
    """The "# bench NAME key=value ..." lines of a section, as dicts."""
    recs = []
    for line in lines:
        m = BENCH_RE.match(line.strip())
        if not m:
            continue
        r = dict(suite=suite, level=level, config=CONFIGS.get(level, level),
                 name=m.group(1))
        for kv in m.group(2).split():
            k, v = kv.split("=", 1)
            try:
                r[k] = float(v)
            except ValueError:
                r[k] = v
        recs.append(r)
    return recs


def print_readers(recs):
    """The demo's readers: each at each level, behind the same hold."""
    figs = {}
    for r in recs:
        if r["name"] == "scenario" and "monitor_ms" in r:
            figs.setdefault((r["reader"], r["config"]), r)
    if not figs:
        return
    cfgs = [c for c in ("base", "fair", "unfair") if any(k[1] == c for k in figs)]
    names = {"base": "base kernel", "fair": "level 0", "unfair": "level 1"}
    print("Demo: what a monitoring user sees behind the same hold (ms; "
          "* = the writer was not seen queued)")
    print("  %-22s" % "reader" + "".join("%14s" % names[c] for c in cfgs) +
          "%14s" % "uncontended")
    for reader, label in (("maps", "maps read"), ("cmdline", "cmdline read"),
                          ("ps", "ps -eo pid,args")):
        row = [figs.get((reader, c)) for c in cfgs]
        if not any(row):
            continue
        cells = ["%14s" % ("-" if not r else "%.1f%s" % (
            r["monitor_ms"], "" if r["queued"] == 1 else "*")) for r in row]
        unc = next(r["uncontended_ms"] for r in row if r)
        print("  %-22s" % label + "".join(cells) + "%14.1f" % unc)
    print()


class Run:
    """What the judge found in one run directory."""

    def __init__(self, path):
        self.path = path
        self.rows = []          # (test, PASS | FAIL | SKIP | ...)
        self.problems = []      # what fails the run besides a failed test
        self.records = []       # bench records
        self.env = {}           # kernel, cpus, clocksource, sysctl, suites
        self.sections = []      # (name, type, lines)

    @property
    def failed(self):
        return sum(s not in ("PASS", "SKIP") for _, s in self.rows) + len(self.problems)


def judge_run(path, tree):
    """Judge the run in directory @path; a Run."""
    run = Run(path)
    kunit = os.path.join(tree, "tools/testing/kunit/kunit.py")
    workdir = os.path.join(path, "parsed")
    os.makedirs(workdir, exist_ok=True)
    console = read_log(os.path.join(path, "console.log"))
    results = read_log(os.path.join(path, "results.txt"))

    bad = set(splats(console, tree))
    bad = [l for l in console.splitlines() if l in bad]
    if bad:
        run.problems.append("splat on the guest console (%d lines), first: %s"
                            % (len(bad), bad[0].strip()))

    if "RWSEM-UNFAIR-RESULTS-BEGIN" not in results:
        run.problems.append("the guest never reached the test runner "
                            "(nothing on the results channel)")
    verdict, cur = None, None
    for line in results.splitlines():
        m = re.match(r"@@ (section|verdict) (.*)", line)
        if m and m.group(1) == "section":
            name, _, kind = m.group(2).strip().partition(" ")
            cur = (name, kind.strip() or "-", [])
            run.sections.append(cur)
        elif m:
            verdict = m.group(2).strip()
        elif line == "RWSEM-UNFAIR-RESULTS-END":
            cur = None
        elif cur is not None:
            cur[2].append(line)
    if "RWSEM-UNFAIR-RESULTS-BEGIN" in results and verdict != "done":
        run.problems.append("guest runner did not finish (last verdict: %s)" % verdict)

    for name, kind, lines in run.sections:
        if name == "env":
            run.env = dict(l.split(" ", 1) for l in lines if " " in l)
    if "jiffies" in run.env.get("clocksource", ""):
        run.problems.append("guest clocksource is %s: timing tests are meaningless"
                            % run.env["clocksource"])

    for i, (name, kind, lines) in enumerate(run.sections):
        text = "\n".join(lines) + "\n"
        suite, _, level = name.partition("@")
        tag = "%02d-%s" % (i, name.replace(":", "-").replace("@", "-"))
        if kind == "-":
            if name != "env":
                run.problems.append("guest: %s: %s" % (name, " ".join(lines)))
            continue
        if kind == "locktorture":
            got = locktorture_rows(lines)
        elif kind == "kunit":
            got = [("kunit " + n, s) for n, s in ktap_cases(kunit, text, workdir, tag)]
        elif kind == "kselftest":
            got = [(name + " " + n, s) for n, s in kselftest_rows(kunit, text, workdir)]
        elif kind == "ktap":
            got = [(name + " " + n, s) for n, s in ktap_cases(kunit, text, workdir, tag)]
        else:
            run.problems.append("section %s: unknown type %s" % (name, kind))
            continue
        if not got:
            run.problems.append("section %s: no KTAP results" % name)
        run.rows += got
        run.records += bench_records(lines, suite, level or "-")
    if not run.rows and not run.problems:
        run.problems.append("no tests ran")
    return run


def report(run):
    """Print the table of one run; its demo tables first if it has them."""
    for name, kind, lines in run.sections:
        if name == "demo":
            print_demo(lines)
    print_readers([r for r in run.records if r["suite"] == "readers"])
    env = run.env
    if env:
        print("guest: kernel %s, %s CPUs, clocksource %s" %
              (env.get("kernel"), env.get("cpus"), env.get("clocksource")))
    width = max([len(n) for n, _ in run.rows] + [10])
    print("%-*s  %s" % (width, "test", "result"))
    print("%s  %s" % ("-" * width, "------"))
    for n, s in run.rows:
        print("%-*s  %s" % (width, n, s))
    if run.records:
        print("bench records: %d (%s)" % (len(run.records), " ".join(
            sorted({r["name"] for r in run.records}))))
    passed = sum(s == "PASS" for _, s in run.rows)
    skipped = sum(s == "SKIP" for _, s in run.rows)
    for p in run.problems:
        print("FAIL: " + p)
    if run.problems:
        print("console log: %s/console.log\nresults channel: %s/results.txt" %
              (run.path, run.path))
    print("%d passed, %d failed, %d skipped" % (passed, run.failed, skipped))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tree", required=True, help="the kernel tree (kunit.py, "
                    "console-badness.sh)")
    ap.add_argument("runs", nargs="+", help="run directories")
    a = ap.parse_args()
    bad = 0
    for path in a.runs:
        run = judge_run(path, a.tree)
        report(run)
        bad += run.failed
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
