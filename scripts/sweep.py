#!/usr/bin/env python3
"""gpucosim-sweep: run a grid of scenarios x parameters x seeds on Dask, one table of every run.

Every combination of --scenario, each --param's values and --seeds is one run of
`gpucosim run SCENARIO ...`; each run is a Dask task.  A row of the table holds the run's
scenario, backend, seed and parameters, its exit status and verdict (PASSED when it
exits 0 and neither its `summary:` line says FAILED nor a check DIFFERS; SKIPPED on exit 77, the
scenario cannot run on this build; FAILED otherwise), its wall time, the Dask worker that ran it, and
every `metric NAME VALUE` line it printed, one column per metric.  The table is written as CSV
(--out) and, with --plot, plotted (scripts/plots.py: each metric against the first parameter,
one line per value of the others, the mean over the seeds with min..max bars).

Where it runs (Dask distributed, https://distributed.dask.org):
  (default)            a LocalCluster of --workers worker processes on this machine (default: one
                       per core)
  --scheduler ADDR     an existing Dask cluster (e.g. tcp://head:8786, started with
                       `dask scheduler` and `dask worker ADDR` on the nodes)
  --slurm N            N Slurm jobs of one worker each through dask-jobqueue (SLURMCluster;
                       --slurm-queue, --slurm-walltime, --slurm-memory)
On a cluster every worker must see the same gpucosim binary and firmware at the same path (a
shared file system) and have this repository's Python packages (requirements.txt).

Parameters (--param NAME=V1,V2,...; each maps to the scenario's option of that name):
  timeslice=N          --timeslice N (copy channels' time slice, cycles)
  stall=P              --stall P (random memory stalls, percent)
  priorities=on|off|N  on: the default; off: --no-copy-priorities; N: --copy-priorities N
  evict=on|off         off: --no-evict (eviction scenario)
  bytes=N, frames=N, rounds=N, copy-priorities=N, ...: --NAME N for any other option
A combination a scenario refuses (its option list) is a failed row with the CLI's error line.

Exit status: 0 when every run PASSED, 1 when any did not (the table is written either way),
2 for bad arguments (one line on stderr).
"""
import argparse
import csv
import itertools
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
METRIC_RE = re.compile(r"^metric (\w+) (-?[0-9.]+(?:[eE][-+]?\d+)?)$", re.M)
VERDICT_RE = re.compile(r"^summary: .*\bFAILED\b", re.M)
NAME_RE = re.compile(r"^[a-z][a-z0-9-]*$")
FIXED_COLS = ["scenario", "backend", "seed"]
RESULT_COLS = ["exit_status", "verdict", "wall_s", "worker", "error"]


def param_args(name, value):
    """The CLI options of one parameter value."""
    if name == "priorities":
        if value == "on":
            return []
        if value == "off":
            return ["--no-copy-priorities"]
        return ["--copy-priorities", value]
    if name == "evict":
        return [] if value == "on" else ["--no-evict"]
    return [f"--{name}", value]


def check_param(name, values):
    """A one-line error for a parameter that cannot work, or None."""
    if not NAME_RE.match(name):
        return f"--param {name}: a parameter name is lower case letters, digits and '-'"
    if name in ("seed", "backend"):
        return f"--param {name}: not a sweep parameter (--{'seeds' if name == 'seed' else 'backend'} sets it)"
    if name in ("waves", "timeline", "image", "quiet", "progress", "backend-stats", "max-cycles"):
        return f"--param {name}: not a sweep parameter (an output or run option, not a model parameter)"
    for v in values:
        if v == "":
            return f"--param {name}: empty value"
        if name == "priorities" and v not in ("on", "off") and not v.isdigit():
            return f"--param priorities={v}: on, off or a number of copy priorities"
        if name == "evict" and v not in ("on", "off"):
            return f"--param evict={v}: on or off"
        if name not in ("priorities", "evict") and not re.fullmatch(r"\d+", v):
            return f"--param {name}={v}: not a non-negative integer"
    return None


def run_one(job):
    """One run (executed on a Dask worker): the row of the table."""
    argv = [job["bin"], "run", job["scenario"], "--backend", job["backend"], "--seed", str(job["seed"])]
    for name, value in job["params"]:
        argv += param_args(name, value)
    env = {k: v for k, v in os.environ.items()
           if k not in ("GPUCOSIM_WAVES", "GPUCOSIM_BACKEND", "GPUCOSIM_SEED", "GPUCOSIM_STALL_PCT")}
    row = {"scenario": job["scenario"], "backend": job["backend"], "seed": job["seed"]}
    row.update(dict(job["params"]))
    t0 = time.monotonic()
    try:
        p = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=job["timeout"])
        out, status = p.stdout, p.returncode
        err_lines = [l for l in p.stderr.splitlines() if l.strip() and not l.startswith("cosim:")]
    except subprocess.TimeoutExpired:
        out, status, err_lines = "", -1, [f"timed out after {job['timeout']} s"]
    except OSError as e:
        out, status, err_lines = "", -1, [f"cannot run {argv[0]}: {e.strerror}"]
    row["wall_s"] = round(time.monotonic() - t0, 3)
    try:
        from dask.distributed import get_worker
        row["worker"] = get_worker().address
    except (ImportError, ValueError):
        row["worker"] = "local"
    row["exit_status"] = status
    # the exit status is the scenario's verdict; a summary or check saying otherwise overrides it
    if status == 77:
        verdict = "SKIPPED"
    elif status != 0 or VERDICT_RE.search(out) or "DIFFERS" in out:
        verdict = "FAILED"
    else:
        verdict = "PASSED"
    row["verdict"] = verdict
    row["error"] = "" if status == 0 else (err_lines[-1] if err_lines else f"exit status {status}")
    for k, v in METRIC_RE.findall(out):
        row["m_" + k] = float(v) if "." in v or "e" in v.lower() else int(v)
    return row


def grid(scenarios, params, seeds, backend, binary, timeout):
    """The jobs of the grid, in a fixed order."""
    names = [n for n, _ in params]
    jobs = []
    for scen in scenarios:
        for combo in itertools.product(*[vals for _, vals in params]):
            for seed in seeds:
                jobs.append({"bin": binary, "scenario": scen, "backend": backend, "seed": seed,
                             "params": list(zip(names, combo)), "timeout": timeout})
    return jobs


def make_client(args):
    """A Dask client on the cluster the arguments name (see the module doc)."""
    from dask.distributed import Client, LocalCluster
    if args.scheduler:
        return Client(args.scheduler, timeout=args.connect_timeout), None
    if args.slurm:
        from dask_jobqueue import SLURMCluster
        cluster = SLURMCluster(cores=1, processes=1, memory=args.slurm_memory, queue=args.slurm_queue,
                               walltime=args.slurm_walltime)
        cluster.scale(jobs=args.slurm)
        return Client(cluster), cluster
    cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                           dashboard_address=None, silence_logs=40)
    return Client(cluster), cluster


def run_grid(jobs, client):
    """Every job on the cluster; rows in the order of jobs."""
    futures = client.map(run_one, jobs, pure=False)
    return client.gather(futures)


def write_csv(rows, path, param_names):
    metrics = sorted({k for r in rows for k in r if k.startswith("m_")})
    cols = FIXED_COLS + param_names + RESULT_COLS + metrics
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=cols, restval="")
        w.writeheader()
        for r in rows:
            w.writerow(r)
    return cols


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="gpucosim-sweep", description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--scenario", action="append", required=True,
                    help="scenario to run (repeat, or comma separated)")
    ap.add_argument("--param", action="append", default=[], metavar="NAME=V1,V2",
                    help="a parameter and its values (repeatable)")
    ap.add_argument("--seeds", default="1", help="seeds: a list 1,2,3 or a range 1-8 (default 1)")
    ap.add_argument("--backend", default="rtl", help="device backend (default rtl)")
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "bin", "gpucosim"), help="gpucosim binary")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "sweep", "sweep.csv"), help="CSV table")
    ap.add_argument("--plot", metavar="FILE", help="also plot the table (PNG or SVG by extension)")
    ap.add_argument("--timeout", type=int, default=1800, help="seconds per run (default 1800)")
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                       help="local worker processes (default: one per core)")
    where.add_argument("--scheduler", help="address of an existing Dask scheduler (tcp://host:8786)")
    where.add_argument("--slurm", type=int, metavar="JOBS", help="run on Slurm: JOBS one-worker jobs")
    ap.add_argument("--connect-timeout", default="30s", help="time to reach --scheduler (default 30s)")
    ap.add_argument("--slurm-queue", help="Slurm partition")
    ap.add_argument("--slurm-walltime", default="01:00:00", help="Slurm job wall time (default 01:00:00)")
    ap.add_argument("--slurm-memory", default="2GB", help="memory per Slurm job (default 2GB)")
    args = ap.parse_args(argv)

    args.scenarios = [s for a in args.scenario for s in a.split(",") if s]
    if not args.scenarios:
        ap.error("--scenario: no scenario named")
    try:
        if re.fullmatch(r"\d+-\d+", args.seeds):
            lo, hi = map(int, args.seeds.split("-"))
            if lo > hi:
                raise ValueError
            args.seed_list = list(range(lo, hi + 1))
        else:
            args.seed_list = [int(s) for s in args.seeds.split(",")]
        if any(s < 0 or s >= 1 << 64 for s in args.seed_list):
            raise ValueError
    except ValueError:
        ap.error(f"--seeds {args.seeds}: a list of seeds 0..2^64-1 (1,2,3) or a range (1-8)")
    args.params, seen = [], set()
    for p in args.param:
        name, eq, vals = p.partition("=")
        if not eq:
            ap.error(f"--param {p}: NAME=V1,V2,...")
        values = vals.split(",")
        bad = check_param(name, values)
        if bad:
            ap.error(bad)
        if name in seen:
            ap.error(f"--param {name}: given twice")
        seen.add(name)
        args.params.append((name, values))
    if args.workers is not None and args.workers < 1:
        ap.error(f"--workers {args.workers}: at least 1")
    if args.slurm is not None and args.slurm < 1:
        ap.error(f"--slurm {args.slurm}: at least 1 job")
    if args.timeout < 1:
        ap.error(f"--timeout {args.timeout}: at least 1 second")
    if not os.access(args.bin, os.X_OK):
        ap.error(f"--bin {args.bin}: no such executable (run 'make')")
    if args.plot and os.path.splitext(args.plot)[1].lower() not in (".png", ".svg"):
        ap.error(f"--plot {args.plot}: the file name ends in .png or .svg")
    return args


def main(argv=None):
    args = parse_args(argv)
    jobs = grid(args.scenarios, args.params, args.seed_list, args.backend, os.path.abspath(args.bin), args.timeout)
    client, cluster = make_client(args)
    try:
        where = args.scheduler or (f"Slurm, {args.slurm} jobs" if args.slurm else f"LocalCluster, {args.workers} workers")
        print(f"sweep: {len(jobs)} runs on Dask ({where})", flush=True)
        t0 = time.monotonic()
        rows = run_grid(jobs, client)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    write_csv(rows, args.out, [n for n, _ in args.params])
    bad = [r for r in rows if r["verdict"] not in ("PASSED", "SKIPPED")]
    for r in bad:
        desc = " ".join(f"{k}={r.get(k)}" for k in ["scenario", "seed"] + [n for n, _ in args.params])
        print(f"sweep: {desc}: {r['verdict']} (exit {r['exit_status']}) {r['error']}", file=sys.stderr)
    if args.plot:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import plots
        try:
            plots.plot_sweep(args.out, args.plot)
        except plots.PlotError as e:
            print(f"sweep: no plot: {e}", file=sys.stderr)
            return 1
        print(f"sweep: plot written to {args.plot}")
    print(f"sweep: {len(rows)} runs in {time.monotonic() - t0:.1f} s, {len(rows) - len(bad)} passed, "
          f"{len(bad)} not; table {args.out}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
