#!/usr/bin/env python3
"""make bench: turn the maps-bench rows of the bench boots into one table.

Reads RUN_DIR/results.txt (rows "CONFIG,KIND,...") and RUN_DIR/console.log
of each bench boot, fails on a splat or an unfinished run like results.py,
and writes to --out:
  bench.csv       every row, with the configuration first
  summary.txt     the table printed here (medians, maxima, ratios)
  latency.png     distributions of the monitor read latency (scenario)
                  and of the mmap/munmap latency under two scanners, fair
                  against unfair, plus the gnuplot script and its data.
CONFIG is base (unpatched kernel), fair (patched, vm.rwsem_unfair_maps=0)
or unfair (patched, 1).  Every figure comes from QEMU TCG: compare ratios,
not absolute values, with other machines.
"""
import argparse
import os
import shutil
import statistics as st
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results import SPLAT_RE, read_log  # noqa: E402

CFGS = ("base", "fair", "unfair")


def med(xs):
    return st.median(xs) if xs else float("nan")


def read_run(d, problems):
    console = read_log(os.path.join(d, "console.log"))
    results = read_log(os.path.join(d, "results.txt"))
    splats = [l for l in console.splitlines() if SPLAT_RE.search(l)]
    if splats:
        problems.append("%s: splat on the guest console: %s" % (d, splats[0].strip()))
    if "@@ verdict done" not in results or "bench done" not in results:
        problems.append("%s: the bench run did not finish (console %s/console.log)" % (d, d))
    env, rows = {}, []
    for line in results.splitlines():
        parts = line.split(",")
        if len(parts) >= 3 and parts[0] in CFGS:
            rows.append(parts)
        elif line.startswith(("kernel ", "clocksource ", "configs ")):
            k, v = line.split(" ", 1)
            env[k] = v
    if "jiffies" in env.get("clocksource", ""):
        problems.append("%s: guest clocksource is jiffies: figures meaningless" % d)
    return env, rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--fault", action="append", default=[],
                    help="a fault bench boot (base and patched alternating)")
    ap.add_argument("--fault-icount", action="append", default=[],
                    help="the same, booted with -icount")
    ap.add_argument("--contended-icount", action="append", default=[],
                    help="a scan+writer boot with -icount (base and patched at 0 alternating)")
    ap.add_argument("runs", nargs="+")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    problems, rows, envs = [], [], []
    for d in a.runs:
        env, r = read_run(d, problems)
        envs.append(env)
        rows += r

    def fault_boots(dirs, tag):
        groups = []
        for d in dirs:
            _, r = read_run(d, problems)
            rows.extend([x[0], x[1] + tag] + x[2:] for x in r)
            ops = [float(x[3]) for x in r if x[1] == "fault"]
            ev = {}
            for x in r:
                if x[2] == "lockevent" and len(x) == 5:
                    ev[x[3]] = ev.get(x[3], 0) + (int(x[4]) if x[1] == "after" else -int(x[4]))
            # events per 1000 operations: ops/s * 2 s runs
            n = sum(ops) * 2 / 1000
            groups.append(dict(dir=d, cfg=r[0][0] if r else "?", ops=ops,
                               events={k: v / n for k, v in ev.items()} if n else {}))
        return groups
    fault, icount = fault_boots(a.fault, ""), fault_boots(a.fault_icount, "_icount")

    with open(os.path.join(a.out, "bench.csv"), "w") as f:
        for r in rows:
            f.write(",".join(r) + "\n")

    def sel(cfg, kind):
        return [[float(x) for x in r[2:]] for r in rows if r[0] == cfg and r[1] == kind]

    # a benchmark that printed nothing (a missing tool, a crash) fails the run
    for d, env in zip(a.runs, envs):
        # the guest's line "configs fair unfair benches ,scenario,scan,writer,"
        words = env.get("configs", "").split()
        benches = words[-1].strip(",").split(",") if "benches" in words else []
        for c in words[:words.index("benches")] if "benches" in words else []:
            for kind in benches:
                if kind != "fault" and not sel(c, kind):
                    problems.append("no %s rows for %s in %s: see %s/console.log" %
                                    (kind, c, d, d))
    for g in fault + icount:
        if not g["ops"]:
            problems.append("no fault rows in %s" % g["dir"])

    out = []
    p = out.append
    p("make bench: QEMU TCG, 2 vCPUs, 2 GiB; kernel %s, clocksource %s" %
      (envs[-1].get("kernel", "?"), envs[-1].get("clocksource", "?")))
    p("base = unpatched 6.12, fair = patched at vm.rwsem_unfair_maps=0, "
      "unfair = patched at 1 (readers with CAP_SYS_NICE)")
    p("")

    # 1. scenario: maps, cmdline and a whole ps, each behind its own hold
    p("1. /proc/<pid> readers behind a queued writer (DESIGN.md section 1)")
    p("   in hold = the same read during the hold, before the writer queues")
    p("   %-16s %-7s %6s %9s %12s %12s %11s %11s %11s %8s" % (
        "reader", "config", "trials", "hold ms", "remaining ms", "uncont. ms",
        "in hold ms", "monitor p50", "monitor max", "mon/rem"))
    for kind, label in (("scenario", "maps read"), ("scenario_cmdline", "cmdline read"),
                        ("scenario_ps", "ps -eo pid,args")):
        sc = {}
        for c in CFGS:
            alltrials = sel(c, kind)
            # only trials where the writer was seen queued while the hold lasted
            s = [x for x in alltrials if x[5] == 1]
            if not s:
                continue
            mon = [x[3] for x in s]
            sc[c] = dict(unc=med([x[4] for x in s]), p50=med(mon), mx=max(mon),
                         frac=med([x[3] / x[2] for x in s if x[2] > 0]), n=len(s),
                         hold=med([x[6] for x in s]))
            p("   %-16s %-7s %6d %9.1f %12.1f %12.3f %11.3f %11.3f %11.3f %7.0f%%" % (
                label, c, len(s), med([x[1] for x in s]), med([x[2] for x in s]),
                sc[c]["unc"], sc[c]["hold"], sc[c]["p50"], sc[c]["mx"],
                100 * sc[c]["frac"]))
            if len(s) < len(alltrials):
                p("   %s, %s: %d of %d trials left out: the writer was not seen "
                  "queued before the hold ended" % (label, c, len(alltrials) - len(s),
                                                    len(alltrials)))
        if "unfair" in sc and "fair" in sc:
            u, f = sc["unfair"], sc["fair"]
            p("   goal (%s): unfair p50 <= 2x uncontended: %.3f / %.3f = %.2fx  %s" % (
                label, u["p50"], u["unc"], u["p50"] / u["unc"],
                "met" if u["p50"] <= 2 * u["unc"] else "NOT MET"))
            p("     (%s: unfair p50 / the same read in the hold without a writer: %.2fx)" % (
                label, u["p50"] / u["hold"]))
            p("   goal (%s): fair monitor >= 50%% of the remaining hold: %.0f%%  %s" % (
                label, 100 * f["frac"], "met" if f["frac"] >= 0.5 else "NOT MET"))
    p("")

    # 2. scan
    p("2. mmap/munmap latency, 4 KiB pages in 128 MiB, two maps scanners, 10 s runs")
    p("   %-7s %4s %12s %12s %12s" % ("config", "runs", "ops/run", "mean us", "max us"))
    sn = {}
    for c in CFGS:
        s = sel(c, "scan")
        if not s:
            continue
        sn[c] = dict(mean=med([x[2] for x in s]), mx=med([x[3] for x in s]),
                     mxx=max(x[3] for x in s))
        p("   %-7s %4d %12.0f %12.2f %12.1f   (max over runs %.1f)" % (
            c, len(s), med([x[1] for x in s]), sn[c]["mean"], sn[c]["mx"], sn[c]["mxx"]))
    if "unfair" in sn and "fair" in sn:
        u, f = sn["unfair"], sn["fair"]
        p("   goal: unfair max <= 1.5x fair max: %.2fx  %s" % (
            u["mx"] / f["mx"], "met" if u["mx"] <= 1.5 * f["mx"] else "NOT MET"))
        p("   goal: unfair mean within 10%% of fair: %+.1f%%  %s" % (
            100 * (u["mean"] / f["mean"] - 1),
            "met" if abs(u["mean"] / f["mean"] - 1) <= 0.10 else "NOT MET"))
    p("")

    # 3. writer bound
    p("3. writer-bound load: mmap/munmap among 32768 mappings, K unfair + 1 fair reader, 3 s;")
    p("   K=40 (more than the unfair count holds) adds a busy fair holder in the target")
    p("   %-7s %3s %9s %10s %10s %10s" % ("config", "K", "ops", "mean us", "p99 us", "max us"))
    wr = {}
    for c in CFGS:
        for x in sel(c, "writer"):
            wr[(c, int(x[0]))] = x
            p("   %-7s %3d %9.0f %10.2f %10.1f %10.1f" % (c, x[0], x[1], x[2], x[3], x[4]))
    for k in (1, 4, 16, 40):
        if ("unfair", k) in wr and ("fair", k) in wr:
            u, f = wr[("unfair", k)], wr[("fair", k)]
            p("   K=%-2d unfair/fair: ops %.2fx, max latency %.2fx" % (
                k, u[1] / f[1], u[4] / f[4]))
    if ("unfair", 40) in wr and ("fair", 40) in wr:
        u, f = wr[("unfair", 40)], wr[("fair", 40)]
        p("   goal K=40: writer keeps >= 50%% of its ops: %.2fx  %s" % (
            u[1] / f[1], "met" if u[1] >= 0.5 * f[1] else "NOT MET"))
        p("   goal K=40: max latency <= 2x fair plus one single-VMA maps line (the"
          " readers yield between VMAs; the 2x is checked): %.2fx  %s" % (
              u[4] / f[4], "met" if u[4] <= 2 * f[4] else "NOT MET"))
    p("")

    # 4. fault: alternating boots, base boot j paired with patched boot j
    p("4. fair path, no maps readers: 2 threads mmap 1 MiB + touch 256 pages + munmap, 2 s runs")
    p("   alternating boots base, patched, base, ...; patched at vm.rwsem_unfair_maps=0")
    for label, groups in (("wall clock (multi-threaded TCG, as 1-3)", fault),
                          ("instruction count (-icount shift=1,sleep=off)", icount)):
        if not groups:
            continue
        p("   %s:" % label)
        boots = {c: [g for g in groups if g["cfg"] == c] for c in ("base", "fair")}
        for c in ("base", "fair"):
            p("     %-6s ops/s, median per boot: %s" % (
                c, " ".join("%.1f" % med(g["ops"]) for g in boots[c])))
        ratios = [y / x for gb, gf in zip(boots["base"], boots["fair"])
                  for x, y in zip(gb["ops"], gf["ops"])]
        aa = [y / x for g0, g1 in zip(boots["base"], boots["base"][1:])
              for x, y in zip(g0["ops"], g1["ops"])]
        if aa:
            p("     noise: base boot j+1 / base boot j, same pairing: median %.3f, runs %.3f-%.3f" %
              (med(aa), min(aa), max(aa)))
        if ratios:
            r = med(ratios)
            # base against base shows what the host alone does to a ratio:
            # beyond the tolerance, this measurement cannot decide the goal
            if aa and abs(med(aa) - 1) > 0.02:
                verdict = "not decidable here (base/base is %+.1f%%)" % (100 * (med(aa) - 1))
            else:
                verdict = "met" if abs(r - 1) <= 0.02 else "NOT MET"
            p("     patched at 0 / base, median of %d paired runs: %.3f (%+.1f%%, runs %.3f-%.3f)"
              "  goal +-2%%: %s" % (len(ratios), r, 100 * (r - 1), min(ratios), max(ratios),
                                   verdict))
        for c in ("base", "fair"):
            ev = [g["events"] for g in boots[c] if g["events"]]
            if ev:
                p("     %-6s rwsem events per 1000 ops: %s" % (c, "  ".join(
                    "%s %.0f" % (k, med([e.get("rwsem_" + k, 0) for e in ev]))
                    for k in ("opt_lock", "sleep_writer", "sleep_reader", "wlock_handoff"))))
    p("")

    # 5. contended loads in instruction-count time: base against patched at 0
    cboots = []
    for d in a.contended_icount:
        _, r = read_run(d, problems)
        rows.extend([x[0], x[1] + "_icount"] + x[2:] for x in r)
        cfg = r[0][0] if r else "?"
        scan = [float(x[3]) for x in r if x[1] == "scan"]
        wrt = {int(x[2]): float(x[3]) for x in r if x[1] == "writer"}
        if not scan or not wrt:
            problems.append("no scan or writer rows in %s" % d)
        cboots.append(dict(cfg=cfg, scan=scan, writer=wrt))
    if cboots:
        p("5. the contended loads of 2 and 3 in instruction-count time "
          "(-icount shift=1,sleep=off),")
        p("   alternating boots base, patched at 0, ...: operations of the mmap/munmap writer")
        boots = {c: [g for g in cboots if g["cfg"] == c] for c in ("base", "fair")}
        pairs = list(zip(boots["base"], boots["fair"]))
        lines = [("scan (2 scanners)", lambda g: med(g["scan"]))]
        for k in sorted({k for g in cboots for k in g["writer"]}):
            lines.append(("writer-bound K=%d" % k, lambda g, k=k: g["writer"].get(k, float("nan"))))
        p("   %-20s %-18s %-18s %-17s %s" % ("load", "base ops/boot", "fair ops/boot",
                                              "fair/base median", "base/base (noise)"))
        worst, noisiest = 0.0, 0.0
        for name, f in lines:
            rs = [f(y) / f(x) for x, y in pairs if f(x) > 0]
            aa = [f(y) / f(x) for x, y in zip(boots["base"], boots["base"][1:]) if f(x) > 0]
            r = med(rs)
            worst = max(worst, abs(r - 1)) if rs else worst
            noisiest = max(noisiest, abs(med(aa) - 1)) if aa else noisiest
            p("   %-20s %-18s %-18s %.3f (%+5.1f%%)  %s" % (
                name, " ".join("%.0f" % f(g) for g in boots["base"]),
                " ".join("%.0f" % f(g) for g in boots["fair"]), r, 100 * (r - 1),
                "%.3f" % med(aa) if aa else "-"))
        # as in 4: when base against base moves more than the tolerance,
        # these boots cannot decide the goal
        if noisiest > 0.02:
            verdict = "not decidable here (base/base up to %.1f%%)" % (100 * noisiest)
        else:
            verdict = "met" if worst <= 0.02 else "NOT MET"
        p("   goal: patched at 0 / base within +-2%% on every load: worst %.1f%%  %s" % (
            100 * worst, verdict))
        p("")

    # plot: CDFs of the monitor latency and the scan latencies
    plot = os.path.join(a.out, "latency.png")
    data = {}
    for c in CFGS:
        data[("scenario", c)] = sorted(x[3] for x in sel(c, "scenario") if x[5] == 1)
        data[("scanlat", c)] = sorted(x[1] for x in sel(c, "scanlat"))
    for (kind, c), xs in data.items():
        with open(os.path.join(a.out, "%s-%s.dat" % (kind, c)), "w") as fh:
            for i, x in enumerate(xs):
                fh.write("%g %g\n" % (x, (i + 1) / len(xs)))
    gp = os.path.join(a.out, "latency.gp")

    def curves(kind, unit):
        cs = [c for c in CFGS if data[(kind, c)]]
        return ", ".join('"%s-%s.dat" using 1:2 with steps lw 2 title "%s"' % (kind, c, c)
                         for c in cs)
    with open(gp, "w") as fh:
        fh.write("""set terminal pngcairo size 1200,500 font ",10"
set output "latency.png"
set multiplot layout 1,2
set logscale x
set grid
set key bottom right
set ylabel "fraction of reads / operations"
set title "maps read behind a queued writer (scenario, per trial)"
set xlabel "monitor read latency, ms (log)"
plot %s
set title "mmap/munmap latency, two maps scanners (every 16th op)"
set xlabel "latency, us (log)"
plot %s
unset multiplot
""" % (curves("scenario", "ms"), curves("scanlat", "us")))
    drawable = all(any(data[(k, c)] for c in CFGS) for k in ("scenario", "scanlat"))
    if shutil.which("gnuplot") and drawable:
        r = subprocess.run(["gnuplot", "latency.gp"], cwd=a.out,
                           capture_output=True, text=True)
        if r.returncode:
            problems.append("gnuplot failed: " + r.stderr.strip()[:200])
        else:
            p("plot: " + plot)
    else:
        p("plot: not drawn (no gnuplot or no data); script %s" % gp)
    p("raw data: " + os.path.join(a.out, "bench.csv"))

    text = "\n".join(out) + "\n"
    with open(os.path.join(a.out, "summary.txt"), "w") as fh:
        fh.write(text)
    sys.stdout.write(text)
    for pr in problems:
        print("FAIL: " + pr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
