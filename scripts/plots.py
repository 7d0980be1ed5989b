#!/usr/bin/env python3
"""gpucosim plots (`make plots`): PNG and SVG files of the model's figures, with matplotlib.

  bench.{png,svg}             every figure of build/bench/results.json (`make bench`), one bar
                              each, grouped by unit
  prio_latency.{png,svg}      the high-priority copy's latency under a low-priority flood
                              (prio-latency scenario) against the copy channels' time slice, with
                              and without copy priorities (a sweep, scripts/sweep.py)
  eviction.{png,svg}          the high-priority kernel's launch-to-completion latency (eviction
                              scenario) with eviction and with TMU_CTRL.NO_EVICT, per seed
  fusion.{png,svg}            fused against unfused arrays: the `fusion` scenario's metric
                              fused_* / unfused_* pairs (cycles, bytes; plot_fusion below); a build
                              without that scenario says so and draws nothing
Each sweep plot also writes its table (CSV) next to the images.  A sweep run that does not pass
stops the plots with exit status 1 (a figure is drawn only from runs that passed).
"""
import argparse
import collections
import csv
import json
import os
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import sweep  # noqa: E402

ROOT = os.path.dirname(HERE)


class PlotError(Exception):
    pass


def save(fig, outdir, stem, formats):
    paths = []
    for ext in formats:
        p = os.path.join(outdir, f"{stem}.{ext}")
        fig.savefig(p, bbox_inches="tight")
        paths.append(p)
    plt.close(fig)
    print("plots: wrote " + ", ".join(paths))
    return paths


def plot_bench(results, outdir, formats):
    """One horizontal bar per bench figure, a panel per unit."""
    with open(results) as fh:
        figs = json.load(fh)
    if not isinstance(figs, list) or not all(isinstance(f, dict) and {"name", "value", "unit"} <= f.keys()
                                             for f in figs):
        raise PlotError(f"{results}: not a list of {{name, value, unit}} figures")
    by_unit = collections.OrderedDict()
    for f in figs:
        by_unit.setdefault(f["unit"], []).append(f)
    fig, axes = plt.subplots(len(by_unit), 1, figsize=(9, 0.45 * len(figs) + 1.2 * len(by_unit)), squeeze=False,
                             gridspec_kw={"height_ratios": [len(v) + 1 for v in by_unit.values()]})
    for ax, (unit, fs) in zip(axes[:, 0], by_unit.items()):
        names = [f["name"] + (" (higher better)" if f.get("better") == "higher" else
                              " (lower better)" if f.get("better") == "lower" else "") for f in fs]
        vals = [float(f["value"]) for f in fs]
        ax.barh(names, vals, color="tab:blue")
        ax.invert_yaxis()
        ax.set_xlabel(unit)
        for y, v in enumerate(vals):
            ax.text(v, y, f" {v:,.3g}", va="center", fontsize=8)
        ax.margins(x=0.15)
    fig.suptitle(f"gpucosim bench figures ({os.path.relpath(results, ROOT)})")
    return save(fig, outdir, "bench", formats)


def read_rows(path):
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def plot_sweep(table, out, x=None):
    """Each metric of a sweep table against the parameter x (default: the first parameter column
    with more than one value), one line per combination of the other parameters, the mean over the
    seeds with min..max bars; runs that did not pass are left out (and named in the title)."""
    rows = read_rows(table)
    if not rows:
        raise PlotError(f"{table}: no rows")
    cols = list(rows[0].keys())
    params = [c for c in cols[len(sweep.FIXED_COLS):cols.index("exit_status")]]
    metrics = [c for c in cols if c.startswith("m_")]
    good = [r for r in rows if r["verdict"] == "PASSED"]
    if not metrics or not good:
        raise PlotError(f"{table}: no metric from a run that passed")
    varying = [p for p in params if len({r[p] for r in rows}) > 1]
    x = x or (varying[0] if varying else "seed")
    others = [p for p in ["scenario"] + params if p != x and len({r[p] for r in rows}) > 1]
    fig, axes = plt.subplots(len(metrics), 1, figsize=(7, 3.2 * len(metrics)), squeeze=False)
    for ax, m in zip(axes[:, 0], metrics):
        series = collections.defaultdict(lambda: collections.defaultdict(list))
        for r in good:
            if r[m] != "":
                series[tuple(r[o] for o in others)][r[x]].append(float(r[m]))
        for key, pts in sorted(series.items()):
            xs = sorted(pts, key=lambda v: (float(v) if v.replace(".", "").isdigit() else 0, v))
            num = all(v.replace(".", "").isdigit() for v in xs)
            xv = [float(v) for v in xs] if num else list(range(len(xs)))
            mean = [sum(pts[v]) / len(pts[v]) for v in xs]
            err = [[mu - min(pts[v]) for v, mu in zip(xs, mean)], [max(pts[v]) - mu for v, mu in zip(xs, mean)]]
            label = ", ".join(f"{o}={k}" for o, k in zip(others, key)) or m[2:]
            ax.errorbar(xv, mean, yerr=err, marker="o", capsize=3, label=label)
            if not num:
                ax.set_xticks(xv, xs)
        ax.set_xlabel(x)
        ax.set_ylabel(m[2:])
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    left_out = len(rows) - len(good)
    fig.suptitle(f"{os.path.basename(table)}: {len(good)} runs" + (f" ({left_out} not passed, left out)"
                                                                    if left_out else ""))
    fig.tight_layout()
    fig.savefig(out, bbox_inches="tight")
    plt.close(fig)
    return out


def sweep_table(args, stem, scenarios, params, seeds):
    """Run a sweep (scripts/sweep.py on a local Dask cluster) and write its CSV; every run must pass."""
    jobs = sweep.grid(scenarios, params, seeds, args.backend, os.path.abspath(args.bin), 1800)
    from dask.distributed import Client, LocalCluster
    with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=40) as cluster, Client(cluster) as client:
        rows = sweep.run_grid(jobs, client)
    table = os.path.join(args.outdir, f"{stem}.csv")
    sweep.write_csv(rows, table, [n for n, _ in params])
    bad = [r for r in rows if r["verdict"] != "PASSED"]
    if bad:
        raise PlotError(f"{stem}: {len(bad)} of {len(rows)} runs did not pass, e.g. {bad[0]}")
    return rows, table


def plot_prio_latency(args):
    slices = args.timeslices.split(",")
    rows, table = sweep_table(args, "prio_latency", ["prio-latency"],
                              [("timeslice", slices), ("priorities", ["on", "off"])], [1])
    fig, ax = plt.subplots(figsize=(7, 4))
    for prio, label in (("on", "with copy priorities"), ("off", "without (plain time slices)")):
        pts = sorted((int(r["timeslice"]), r["m_prio_copy_latency_flood"]) for r in rows if r["priorities"] == prio)
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=label)
    idle = [r["m_prio_copy_latency_idle"] for r in rows if r["priorities"] == "on"]
    ax.axhline(sum(idle) / len(idle), color="gray", ls="--", label="alone (no flood)")
    ax.set_xscale("log")
    ax.set_xlabel("copy channels' time slice (cycles)")
    ax.set_ylabel("high-priority 16 KiB copy latency (cycles)")
    ax.set_title(f"prio-latency ({args.backend}): high-priority copy under a 16 x 8 KiB low-priority flood")
    ax.grid(alpha=0.3, which="both")
    ax.legend()
    return save(fig, args.outdir, "prio_latency", args.formats) + [table]


def plot_eviction(args):
    seeds = list(range(1, args.seeds + 1))
    rows, table = sweep_table(args, "eviction", ["eviction"], [("evict", ["on", "off"])], seeds)
    fig, ax = plt.subplots(figsize=(7, 4))
    w = 0.38
    for i, (ev, label, key) in enumerate((("on", "with eviction", "m_hp_kernel_latency"),
                                          ("off", "TMU_CTRL.NO_EVICT (prior art)", "m_hp_kernel_latency_no_evict"))):
        pts = sorted((int(r["seed"]), float(r[key])) for r in rows if r["evict"] == ev)
        ax.bar([p[0] + (i - 0.5) * w for p in pts], [p[1] for p in pts], width=w, label=label)
    ax.set_xticks(seeds, [f"seed {s}" for s in seeds])
    ax.set_ylim(0, ax.get_ylim()[1] * 1.25)   # room for the legend
    ax.set_ylabel("high-priority kernel launch to completion (cycles)")
    ax.set_title(f"eviction ({args.backend}): every task slot busy with low-priority grids")
    ax.legend()
    return save(fig, args.outdir, "eviction", args.formats) + [table]


def plot_fusion(args):
    """Hook for fused against unfused arrays: a `fusion` scenario printing metric fused_<name> and
    unfused_<name> lines (cycles, bytes) is plotted as pairs of bars."""
    listing = subprocess.run([args.bin, "list"], capture_output=True, text=True).stdout
    if not any(line.split()[:1] == ["fusion"] for line in listing.splitlines()):
        print("plots: fusion: no 'fusion' scenario in this build yet (fused vs unfused comes with the array layer)")
        return []
    rows, table = sweep_table(args, "fusion", ["fusion"], [], [1])
    pairs = sorted(k[len("m_fused_"):] for k in rows[0] if k.startswith("m_fused_") and "m_unfused_" + k[8:] in rows[0])
    if not pairs:
        raise PlotError("fusion: the scenario printed no metric fused_X / unfused_X pair")
    fig, ax = plt.subplots(figsize=(7, 4))
    xs = range(len(pairs))
    ax.bar([x - 0.2 for x in xs], [float(rows[0]["m_unfused_" + p]) for p in pairs], width=0.4, label="unfused")
    ax.bar([x + 0.2 for x in xs], [float(rows[0]["m_fused_" + p]) for p in pairs], width=0.4, label="fused")
    ax.set_xticks(list(xs), pairs)
    ax.set_ylabel("cycles")
    ax.legend()
    return save(fig, args.outdir, "fusion", args.formats) + [table]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "bin", "gpucosim"), help="gpucosim binary")
    ap.add_argument("--results", default=os.path.join(ROOT, "build", "bench", "results.json"),
                    help="bench figures (default build/bench/results.json)")
    ap.add_argument("--outdir", default=os.path.join(ROOT, "build", "plots"), help="where the files go")
    ap.add_argument("--backend", default="rtl", help="backend of the sweeps (default rtl)")
    ap.add_argument("--timeslices", default="250,500,1000,2000,3000,6000,12000",
                    help="time slices of the prio-latency plot (cycles, comma separated)")
    ap.add_argument("--seeds", type=int, default=3, help="seeds of the eviction plot (default 3)")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="local Dask workers")
    ap.add_argument("--only", default="bench,prio_latency,eviction,fusion", help="plots to draw (comma separated)")
    ap.add_argument("--formats", default="png,svg", help="image formats (default png,svg)")
    args = ap.parse_args(argv)
    known = {"bench": lambda: plot_bench(args.results, args.outdir, args.formats),
             "prio_latency": lambda: plot_prio_latency(args), "eviction": lambda: plot_eviction(args),
             "fusion": lambda: plot_fusion(args)}
    only = [o for o in args.only.split(",") if o]
    for o in only:
        if o not in known:
            ap.error(f"--only {o}: one of {', '.join(known)}")
    args.formats = [f for f in args.formats.split(",") if f]
    for f in args.formats:
        if f not in ("png", "svg"):
            ap.error(f"--formats {f}: png or svg")
    if any(not t.isdigit() or int(t) < 1 for t in args.timeslices.split(",")):
        ap.error(f"--timeslices {args.timeslices}: positive cycle counts, comma separated")
    if args.seeds < 1 or args.workers < 1:
        ap.error("--seeds and --workers: at least 1")
    if "bench" in only and not os.path.exists(args.results):
        ap.error(f"--results {args.results}: not found (run 'make bench' first)")
    if not os.access(args.bin, os.X_OK):
        ap.error(f"--bin {args.bin}: no such executable (run 'make')")
    os.makedirs(args.outdir, exist_ok=True)
    try:
        for o in only:
            known[o]()
    except PlotError as e:
        print(f"plots: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
