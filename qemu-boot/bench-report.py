#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench: the report of the bench boots.

Every run is judged by judge.py first (a splat, an unfinished runner or a
failed bench program fails the report); its bench records ("# bench NAME
key=value ..." lines of the kselftests' bench modes, tagged with the
manifest suite and the configuration) are all this formats, by name.
Configurations: base (the unpatched kernel), fair (patched,
vm.rwsem_unfair_maps=0), unfair (patched, 1).  Writes to --out:
  bench.csv     every record (suite, config, run, name, key=value...)
  summary.txt   the report printed here
  latency.png   CDFs of the monitor read latency and of the mmap/munmap
                latency under two scanners (gnuplot; with its script)
Every figure comes from QEMU TCG: compare ratios, not absolute values,
with other machines.  A suite this report has no section for is shown as
a table of the medians of its records' fields.
"""
import argparse
import os
import shutil
import statistics as st
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from judge import judge_run  # noqa: E402

CFGS = ("base", "fair", "unfair")
KNOWN = {"scenario", "scan", "writer", "monitors", "mapper", "readcost", "fault", "scan-icount",
         "writer-icount"}


def med(xs):
    return st.median(xs) if xs else float("nan")


def load(dirs, tree, problems, boots):
    """Judge each run; its records, each tagged with the run's index."""
    recs = []
    for d in dirs:
        run = judge_run(d, tree)
        problems += ["%s: %s" % (d, p) for p in run.problems]
        problems += ["%s: %s: %s" % (d, n, s) for n, s in run.rows
                     if s not in ("PASS", "SKIP")]
        problems += ["%s: %s: skipped, nothing measured" % (d, n)
                     for n, s in run.rows if s == "SKIP"]
        for r in run.records:
            r["run"] = len(boots)
        # a bench program that measured nothing (a crash, a missing tool)
        for name, kind, _ in run.sections:
            suite, _, level = name.partition("@")
            if kind == "ktap" and not any(r["suite"] == suite and r["level"] == level and
                                          r["name"] != "env" for r in run.records):
                problems.append("%s: %s printed no bench records" % (d, name))
        recs += [r for r in run.records if r["name"] != "env"]
        boots.append(dict(dir=d, env=run.env, records=run.records))
    return recs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tree", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--main", nargs="*", default=[], help="one boot per kernel")
    ap.add_argument("--pairs", nargs="*", default=[], help="wall-clock pairs")
    ap.add_argument("--icount", nargs="*", default=[], help="-icount pairs")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    problems, boots = [], []
    main_recs = load(a.main, a.tree, problems, boots)
    pair_recs = load(a.pairs, a.tree, problems, boots)
    icount_recs = load(a.icount, a.tree, problems, boots)
    allrecs = main_recs + pair_recs + icount_recs

    with open(os.path.join(a.out, "bench.csv"), "w") as f:
        for r in allrecs:
            rest = [k for k in r if k not in ("suite", "config", "run", "name", "level")]
            f.write(",".join([r["suite"], r["config"], str(r["run"]), r["name"]] +
                             ["%s=%s" % (k, r[k]) for k in rest]) + "\n")

    def sel(recs, suite, cfg, name, **kw):
        return [r for r in recs if r["suite"] == suite and r["config"] == cfg and
                r["name"] == name and all(r.get(k) == v for k, v in kw.items())]

    out = []
    p = out.append
    env = boots[-1]["env"] if boots else {}
    p("make bench: QEMU TCG, 2 vCPUs, 2 GiB; kernel %s, clocksource %s" %
      (env.get("kernel", "?"), env.get("clocksource", "?")))
    p("base = unpatched 6.12, fair = patched at vm.rwsem_unfair_maps=0, "
      "unfair = patched at 1 (readers with CAP_SYS_NICE), unfair2 = patched at 2")
    p("")

    # 1. scenario: maps, cmdline and a whole ps, each behind its own hold
    p("1. /proc/<pid> readers behind a queued writer (proc-maps-contention -b)")
    p("   in hold = the same read during the hold, before the writer queues")
    p("   %-16s %-7s %6s %9s %12s %12s %11s %11s %11s %8s" % (
        "reader", "config", "trials", "hold ms", "remaining ms", "uncont. ms",
        "in hold ms", "monitor p50", "monitor max", "mon/rem"))
    for reader, label in (("maps", "maps read"), ("cmdline", "cmdline read"),
                          ("ps", "ps -eo pid,args")):
        sc = {}
        for c in CFGS:
            alltrials = sel(main_recs, "scenario", c, "scenario", reader=reader)
            # only trials where the writer was seen queued while the hold lasted
            s = [x for x in alltrials if x["queued"] == 1]
            if not s:
                continue
            mon = [x["monitor_ms"] for x in s]
            sc[c] = dict(unc=med([x["uncontended_ms"] for x in s]), p50=med(mon),
                         mx=max(mon), n=len(s), hold=med([x["in_hold_ms"] for x in s]),
                         frac=med([x["monitor_ms"] / x["remaining_ms"] for x in s
                                   if x["remaining_ms"] > 0]))
            p("   %-16s %-7s %6d %9.1f %12.1f %12.3f %11.3f %11.3f %11.3f %7.0f%%" % (
                label, c, len(s), med([x["hold_ms"] for x in s]),
                med([x["remaining_ms"] for x in s]), sc[c]["unc"], sc[c]["hold"],
                sc[c]["p50"], sc[c]["mx"], 100 * sc[c]["frac"]))
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
        s = sel(main_recs, "scan", c, "scan")
        if not s:
            continue
        sn[c] = dict(mean=med([x["mean_us"] for x in s]), mx=med([x["max_us"] for x in s]),
                     mxx=max(x["max_us"] for x in s))
        p("   %-7s %4d %12.0f %12.2f %12.1f   (max over runs %.1f)" % (
            c, len(s), med([x["ops"] for x in s]), sn[c]["mean"], sn[c]["mx"], sn[c]["mxx"]))
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
        for x in sel(main_recs, "writer", c, "writer"):
            wr[(c, int(x["k"]))] = x
            p("   %-7s %3d %9.0f %10.2f %10.1f %10.1f" % (
                c, x["k"], x["ops"], x["mean_us"], x["p99_us"], x["max_us"]))
    for k in sorted({k for _, k in wr}):
        if ("unfair", k) in wr and ("fair", k) in wr:
            u, f = wr[("unfair", k)], wr[("fair", k)]
            p("   K=%-2d unfair/fair: ops %.2fx, max latency %.2fx" % (
                k, u["ops"] / f["ops"], u["max_us"] / f["max_us"]))
    if ("unfair", 40) in wr and ("fair", 40) in wr:
        u, f = wr[("unfair", 40)], wr[("fair", 40)]
        p("   goal K=40: writer keeps >= 50%% of its ops: %.2fx  %s" % (
            u["ops"] / f["ops"], "met" if u["ops"] >= 0.5 * f["ops"] else "NOT MET"))
        p("   goal K=40: max latency <= 2x fair plus one single-VMA maps line (the"
          " readers yield between VMAs; the 2x is checked): %.2fx  %s" % (
              u["max_us"] / f["max_us"], "met" if u["max_us"] <= 2 * f["max_us"] else "NOT MET"))
    p("")

    # 3b. many monitors on few CPUs, with the writer's time split
    p("3b. a busy target watched by N monitors: 3000 small mappings and an 8 MiB region,")
    p("   a thread populating and zapping the region (a fair hold nearly all the time), the")
    p("   writer mapping and unmapping one page; N monitors read smaps (or status, which")
    p("   takes no mmap_lock: the control), 8 s runs.  Medians over boots; the writer's mean")
    p("   latency split from schedstat into on CPU / runqueue / asleep, and the same for")
    p("   its slowest 1%; unfair2 = patched at vm.rwsem_unfair_maps=2")
    p("   %-7s %-6s %3s %5s %5s %9s %9s %9s  %-20s %-22s %9s" % (
        "config", "file", "N", "boots", "ops", "mean ms", "p99 ms", "max ms",
        "mean: cpu/runq/sleep", "slowest 1%: c/r/s ms", "read ms"))
    mon = {}
    for r in main_recs + pair_recs:
        if r["suite"] == "monitors" and r["name"] == "monitors":
            mon.setdefault((r["config"], r["file"], int(r["n"])), []).append(r)

    def mfig(rs, k):
        return med([x[k] for x in rs])
    for key in sorted(mon, key=lambda k: (k[1], k[2], CFGS.index(k[0]) if k[0] in CFGS else 9)):
        rs = mon[key]
        split = "/".join("%.1f" % (mfig(rs, k) / 1e3) if mfig(rs, k) >= 0 else "-"
                         for k in ("cpu_us", "runq_us", "sleep_us"))
        tail = "/".join("%.1f" % (mfig(rs, k) / 1e3) if mfig(rs, k) >= 0 else "-"
                        for k in ("tail_cpu_us", "tail_runq_us", "tail_sleep_us"))
        p("   %-7s %-6s %3d %5d %5.0f %9.2f %9.1f %9.1f  %-20s %-22s %9.3f" % (
            key[0], key[1], key[2], len(rs), mfig(rs, "ops"), mfig(rs, "mean_us") / 1e3,
            mfig(rs, "p99_us") / 1e3, mfig(rs, "max_us") / 1e3, split, tail,
            mfig(rs, "read_mean_us") / 1e3))
    for n in sorted({k[2] for k in mon}):
        for c in ("unfair", "unfair2"):
            u, f = mon.get((c, "smaps", n)), mon.get(("fair", "smaps", n))
            if not u or not f:
                continue
            ro, rp = mfig(u, "ops") / mfig(f, "ops"), mfig(u, "p99_us") / mfig(f, "p99_us")
            p("   goal N=%d %s/fair: writer ops >= 0.7x: %.2fx  %s;  p99 <= 1.5x: %.2fx  %s%s" % (
                n, c, ro, "met" if ro >= 0.7 else "NOT MET", rp,
                "met" if rp <= 1.5 else "NOT MET",
                "" if len(u) >= 3 else "  (%d boots: the goals ask for 3)" % len(u)))
    p("")

    # 3c. McKenney's proc-mmap_sem-test setup
    p("3c. proc-mmap_sem-test's setup: a mapper on CPU 0 maps or unmaps a random page of")
    p("   128 MiB, 10 us apart; on CPU 1 a maps scanner at nice 15 and a busy loop; 10 s runs")
    p("   %-7s %5s %9s %9s %9s  %s" % ("config", "runs", "ops", "mean ms", "max ms",
                                      "mean: cpu/runq/sleep ms"))
    mp = {}
    for c in CFGS:
        rs = sel(main_recs + pair_recs, "mapper", c, "mapper")
        if not rs:
            continue
        mp[c] = med([x["mean_us"] for x in rs])
        p("   %-7s %5d %9.0f %9.3f %9.1f  %s" % (
            c, len(rs), med([x["ops"] for x in rs]), mp[c] / 1e3,
            med([x["max_us"] for x in rs]) / 1e3,
            "/".join("%.3f" % (med([x[k] for x in rs]) / 1e3) if med([x[k] for x in rs]) >= 0
                     else "-" for k in ("cpu_us", "runq_us", "sleep_us"))))
    if "unfair" in mp and "fair" in mp:
        p("   goal: unfair mean <= fair mean: %.3f / %.3f ms  %s" % (
            mp["unfair"] / 1e3, mp["fair"] / 1e3,
            "met" if mp["unfair"] <= mp["fair"] else "NOT MET"))
    p("")

    # 3d. the reader's cost of giving the lock up to writers
    p("3d. a reader's cost: full reads of a 32768-entry maps file, alone and while two threads")
    p("   mprotect() a random page to PROT_NONE and back; 10 s per case")
    p("   %-7s %7s %5s %7s %10s %10s %12s" % ("config", "writers", "runs", "passes", "read ms",
                                            "max ms", "mprotect ops"))
    rc = {}
    for c in CFGS:
        for w in (0, 2):
            rs = sel(main_recs, "readcost", c, "readcost", writers=w)
            if not rs:
                continue
            done = [x["pass_ms"] for x in rs if x["passes"] > 0]
            rc[(c, w)] = med(done) if len(done) == len(rs) else float("inf")
            p("   %-7s %7d %5d %7.0f %10s %10.1f %12.0f" % (
                c, w, len(rs), med([x["passes"] for x in rs]),
                "%.1f" % rc[(c, w)] if rc[(c, w)] != float("inf") else
                "> %.0f" % (med([x["unfinished_ms"] for x in rs])),
                med([x["pass_max_ms"] for x in rs]), med([x["mprotect_ops"] for x in rs])))
    if ("unfair", 2) in rc and ("fair", 2) in rc:
        r = rc[("unfair", 2)] / rc[("fair", 2)]
        p("   goal: unfair/fair read time with writers <= 1.5x: %.2fx  %s" % (
            r, "met" if r <= 1.5 else "NOT MET"))
    p("")

    # 4. fault: alternating boots, base boot j paired with patched boot j
    def fault_boots(recs):
        groups = {}
        for r in recs:
            if r["suite"] == "fault" and r["name"] == "fault":
                groups.setdefault(r["run"], []).append(r)
        out = []
        for run, rs in sorted(groups.items()):
            ops = sum(r["ops"] for r in rs)
            ev = {k: sum(r[k] for r in rs) * 1000 / ops
                  for k in ("opt_lock", "sleep_writer", "sleep_reader", "wlock_handoff")
                  if ops and all(r.get(k, -1) >= 0 for r in rs)}
            out.append(dict(cfg=rs[0]["config"], ops=[r["ops_per_s"] for r in rs], events=ev))
        return out
    p("4. fair path, no maps readers: 2 threads mmap 1 MiB + touch 256 pages + munmap, 2 s runs")
    p("   alternating boots base, patched, base, ...; patched at vm.rwsem_unfair_maps=0")
    for label, groups in (("wall clock (multi-threaded TCG, as 1-3)", fault_boots(pair_recs)),
                          ("instruction count (-icount shift=1,sleep=off)",
                           fault_boots(icount_recs))):
        if not groups:
            continue
        p("   %s:" % label)
        bt = {c: [g for g in groups if g["cfg"] == c] for c in ("base", "fair")}
        for c in ("base", "fair"):
            p("     %-6s ops/s, median per boot: %s" % (
                c, " ".join("%.1f" % med(g["ops"]) for g in bt[c])))
        ratios = [y / x for gb, gf in zip(bt["base"], bt["fair"])
                  for x, y in zip(gb["ops"], gf["ops"])]
        aa = [y / x for g0, g1 in zip(bt["base"], bt["base"][1:])
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
            ev = [g["events"] for g in bt[c] if g["events"]]
            if ev:
                p("     %-6s rwsem events per 1000 ops: %s" % (c, "  ".join(
                    "%s %.0f" % (k, med([e[k] for e in ev]))
                    for k in ("opt_lock", "sleep_writer", "sleep_reader", "wlock_handoff"))))
    p("")

    # 5. contended loads in instruction-count time: base against patched at 0
    cb = {}
    for r in icount_recs:
        if r["suite"] in ("scan-icount", "writer-icount"):
            g = cb.setdefault(r["run"], dict(cfg=r["config"], scan=[], writer={}))
            if r["name"] == "scan":
                g["scan"].append(r["ops"])
            elif r["name"] == "writer":
                g["writer"][int(r["k"])] = r["ops"]
    cboots = [cb[k] for k in sorted(cb)]
    if cboots:
        p("5. the contended loads of 2 and 3 in instruction-count time "
          "(-icount shift=1,sleep=off),")
        p("   alternating boots base, patched at 0, ...: operations of the mmap/munmap writer")
        bt = {c: [g for g in cboots if g["cfg"] == c] for c in ("base", "fair")}
        pairs = list(zip(bt["base"], bt["fair"]))
        lines = [("scan (2 scanners)", lambda g: med(g["scan"]))]
        for k in sorted({k for g in cboots for k in g["writer"]}):
            lines.append(("writer-bound K=%d" % k, lambda g, k=k: g["writer"].get(k, float("nan"))))
        p("   %-20s %-18s %-18s %-17s %s" % ("load", "base ops/boot", "fair ops/boot",
                                              "fair/base median", "base/base (noise)"))
        worst, noisiest = 0.0, 0.0
        for name, f in lines:
            rs = [f(y) / f(x) for x, y in pairs if f(x) > 0]
            aa = [f(y) / f(x) for x, y in zip(bt["base"], bt["base"][1:]) if f(x) > 0]
            r = med(rs)
            worst = max(worst, abs(r - 1)) if rs else worst
            noisiest = max(noisiest, abs(med(aa) - 1)) if aa else noisiest
            p("   %-20s %-18s %-18s %.3f (%+5.1f%%)  %s" % (
                name, " ".join("%.0f" % f(g) for g in bt["base"]),
                " ".join("%.0f" % f(g) for g in bt["fair"]), r, 100 * (r - 1),
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

    # any other suite: the medians of its records' numeric fields
    for suite in sorted({r["suite"] for r in allrecs} - KNOWN):
        p("%s (manifest suite; medians per configuration)" % suite)
        for name in sorted({r["name"] for r in allrecs if r["suite"] == suite}):
            for c in sorted({r["config"] for r in allrecs if r["suite"] == suite}):
                rs = [r for r in allrecs if r["suite"] == suite and r["name"] == name and
                      r["config"] == c]
                keys = [k for k in rs[0] if k not in ("suite", "config", "run", "name",
                        "level") and isinstance(rs[0][k], float)] if rs else []
                if rs:
                    p("   %-12s %-7s n=%-3d %s" % (name, c, len(rs), "  ".join(
                        "%s=%g" % (k, med([r[k] for r in rs if k in r])) for k in keys)))
        p("")

    # plot: CDFs of the monitor latency and the scan latencies
    plot = os.path.join(a.out, "latency.png")
    data = {}
    for c in CFGS:
        data[("scenario", c)] = sorted(x["monitor_ms"] for x in
                                       sel(main_recs, "scenario", c, "scenario", reader="maps")
                                       if x["queued"] == 1)
        data[("scanlat", c)] = sorted(x["us"] for x in sel(main_recs, "scan", c, "scanlat"))
    for (kind, c), xs in data.items():
        with open(os.path.join(a.out, "%s-%s.dat" % (kind, c)), "w") as fh:
            for i, x in enumerate(xs):
                fh.write("%g %g\n" % (x, (i + 1) / len(xs)))
    gp = os.path.join(a.out, "latency.gp")

    def curves(kind):
        return ", ".join('"%s-%s.dat" using 1:2 with steps lw 2 title "%s"' % (kind, c, c)
                         for c in CFGS if data[(kind, c)])
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
""" % (curves("scenario"), curves("scanlat")))
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
