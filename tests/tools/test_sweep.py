#!/usr/bin/env python3
"""The sweep command (scripts/sweep.py) on a two-worker Dask LocalCluster, and the plots
(scripts/plots.py): the table has one row per grid point with what each run printed, a run that
fails is a FAILED row and a non-zero exit, bad arguments are refused in one line.  Runs
build/bin/gpucosim (or $GPUCOSIM_CLI).  Same interface as the C tests: --list, or case names."""
import csv
import itertools
import json
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from casemain import main  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BUILD = os.environ.get("BUILD", os.path.join(ROOT, "build"))
CLI = os.environ.get("GPUCOSIM_CLI", os.path.join(BUILD, "bin", "gpucosim"))
SWEEP = os.path.join(ROOT, "scripts", "sweep.py")
PLOTS = os.path.join(ROOT, "scripts", "plots.py")
METRIC_RE = re.compile(r"^metric (\w+) (\d+)$", re.M)
CLEAN = ("GPUCOSIM_BACKEND", "GPUCOSIM_SEED", "GPUCOSIM_WAVES", "GPUCOSIM_STALL_PCT", "GPUCOSIM_MAX_CYCLES")


def env():
    return {k: v for k, v in os.environ.items() if k not in CLEAN}


def sweep(*args, timeout=900):
    return subprocess.run([sys.executable, SWEEP, "--bin", CLI, *args], capture_output=True, text=True,
                          env=env(), timeout=timeout)


def table(path):
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def test_local_cluster_table():
    """2 time slices x priorities on/off x 2 seeds of prio-latency on rtl, two Dask workers: every
    grid point once, every run PASSED with its metrics, and a row's metrics are what the CLI prints
    for the same point run alone."""
    with tempfile.TemporaryDirectory() as d:
        out, png = os.path.join(d, "t.csv"), os.path.join(d, "t.png")
        p = sweep("--scenario", "prio-latency", "--param", "timeslice=500,3000", "--param", "priorities=on,off",
                  "--seeds", "1-2", "--workers", "2", "--out", out, "--plot", png)
        assert p.returncode == 0, p.stdout + p.stderr
        assert "8 runs on Dask (LocalCluster, 2 workers)" in p.stdout, p.stdout
        rows = table(out)
        assert len(rows) == 8, rows
        assert list(rows[0])[:5] == ["scenario", "backend", "seed", "timeslice", "priorities"], list(rows[0])
        got = sorted((r["timeslice"], r["priorities"], r["seed"]) for r in rows)
        want = sorted(itertools.product(["500", "3000"], ["on", "off"], ["1", "2"]))
        assert got == want, got
        workers = {r["worker"] for r in rows}
        assert all(w.startswith(("tcp://", "inproc://")) for w in workers) and len(workers) <= 2, workers
        for r in rows:
            assert r["scenario"] == "prio-latency" and r["backend"] == "rtl", r
            assert r["exit_status"] == "0" and r["verdict"] == "PASSED" and r["error"] == "", r
            assert int(r["m_prio_copy_latency_flood"]) > int(r["m_prio_copy_latency_idle"]) > 0, r
        with open(png, "rb") as fh:
            assert fh.read(8) == b"\x89PNG\r\n\x1a\n"
        # one point again through the CLI alone: the same figures
        r = next(r for r in rows if (r["timeslice"], r["priorities"], r["seed"]) == ("3000", "off", "2"))
        alone = subprocess.run([CLI, "run", "prio-latency", "--backend", "rtl", "--seed", "2", "--timeslice", "3000",
                                "--no-copy-priorities"], capture_output=True, text=True, env=env(), timeout=300)
        assert alone.returncode == 0, alone.stderr
        m = dict(METRIC_RE.findall(alone.stdout))
        assert m == {"prio_copy_latency_idle": r["m_prio_copy_latency_idle"],
                     "prio_copy_latency_flood": r["m_prio_copy_latency_flood"]}, (m, r)


def test_scheduler_address():
    """A running Dask cluster given by its address (`dask scheduler` and two `dask worker`
    processes, as on a real cluster): the sweep connects to it, every run lands in the table and
    was run by one of that cluster's workers."""
    dask = os.path.join(os.path.dirname(sys.executable), "dask")
    with tempfile.TemporaryDirectory() as d:
        sfile, out = os.path.join(d, "scheduler.json"), os.path.join(d, "t.csv")
        procs = [subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                   "--scheduler-file", sfile], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
        try:
            for _ in range(600):
                if os.path.exists(sfile) and os.path.getsize(sfile):
                    break
                time.sleep(0.1)
            with open(sfile) as fh:
                addr = json.load(fh)["address"]
            for _ in range(2):
                procs.append(subprocess.Popen([dask, "worker", addr, "--nworkers", "1", "--nthreads", "1",
                                               "--no-dashboard"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            p = sweep("--scenario", "copy", "--param", "bytes=64,4096", "--seeds", "1-2", "--backend", "ref",
                      "--scheduler", addr, "--connect-timeout", "60s", "--out", out)
            assert p.returncode == 0, p.stdout + p.stderr
            assert f"4 runs on Dask ({addr})" in p.stdout, p.stdout
            rows = table(out)
            assert sorted((r["bytes"], r["seed"]) for r in rows) == \
                sorted(itertools.product(["4096", "64"], ["1", "2"])), rows
            assert all(r["verdict"] == "PASSED" and r["worker"].startswith("tcp://127.0.0.1:") for r in rows), rows
        finally:
            # workers first, while their scheduler is still up (a worker whose scheduler went away
            # first may retry its connection for minutes before it exits); what has not exited
            # after 60 s is killed, so the teardown cannot fail a sweep that passed
            for q in reversed(procs):
                q.terminate()
            for q in reversed(procs):
                try:
                    q.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    q.kill()
                    q.wait()


def test_failed_run_row():
    """A grid point the scenario refuses (--bytes is the copy scenario's) and one that passes, on the
    ref backend: the table has both, the refused one FAILED with the CLI's error line, and the sweep
    exits 1 naming it."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "t.csv")
        p = sweep("--scenario", "copy,prio-latency", "--param", "bytes=4096", "--backend", "ref", "--workers", "2",
                  "--out", out)
        assert p.returncode == 1, p.stdout + p.stderr
        rows = {r["scenario"]: r for r in table(out)}
        assert rows["copy"]["verdict"] == "PASSED" and rows["copy"]["exit_status"] == "0", rows
        bad = rows["prio-latency"]
        assert bad["verdict"] == "FAILED" and bad["exit_status"] == "2", bad
        assert "--bytes" in bad["error"], bad
        assert "scenario=prio-latency seed=1 bytes=4096: FAILED (exit 2)" in p.stderr, p.stderr
        assert "1 passed, 1 not" in p.stdout, p.stdout


def test_seed_ends():
    """Both ends of the seed range (0 and 2^64-1) run and land in the table as given."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "t.csv")
        p = sweep("--scenario", "copy", "--seeds", f"0,{(1 << 64) - 1}", "--backend", "ref", "--workers", "2",
                  "--out", out)
        assert p.returncode == 0, p.stdout + p.stderr
        assert sorted(r["seed"] for r in table(out)) == ["0", str((1 << 64) - 1)]


def test_bad_arguments():
    """Each bad argument: exit 2, one line naming it, nothing run and no table."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "t.csv")
        for args, what in ((["--param", "timeslice=abc"], "timeslice=abc"),
                           (["--param", "timeslice"], "NAME=V1,V2"),
                           (["--param", "seed=1"], "--seeds"),
                           (["--param", "priorities=maybe"], "priorities=maybe"),
                           (["--param", "timeslice=1", "--param", "timeslice=2"], "given twice"),
                           (["--seeds", "5-1"], "--seeds 5-1"),
                           (["--seeds", str(1 << 64)], "--seeds"),
                           (["--workers", "0"], "--workers 0"),
                           (["--plot", os.path.join(d, "x.pdf")], ".png or .svg")):
            p = sweep("--scenario", "copy", "--out", out, *args)
            lines = p.stderr.strip().splitlines()
            assert p.returncode == 2, (args, p.returncode, p.stderr)
            assert what in lines[-1], (args, lines)
            assert p.stdout == "" and not os.path.exists(out), (args, p.stdout)
        p = subprocess.run([sys.executable, SWEEP, "--bin", os.path.join(d, "nope"), "--scenario", "copy"],
                           capture_output=True, text=True)
        assert p.returncode == 2 and "no such executable" in p.stderr, p.stderr


def test_plots_bench_and_sweep():
    """plots.py: the bench figures of a results.json as PNG and SVG; fused against unfused from the
    fusion scenario's metric pairs; a results.json of the wrong shape is refused."""
    with tempfile.TemporaryDirectory() as d:
        res = os.path.join(d, "results.json")
        with open(res, "w") as fh:
            json.dump([{"name": "sim_cycles_per_s", "value": 123456, "unit": "cycles/s", "better": "higher"},
                       {"name": "prio_copy_latency_ratio", "value": 0.6, "unit": "ratio", "better": "lower"}], fh)
        p = subprocess.run([sys.executable, PLOTS, "--bin", CLI, "--results", res, "--outdir", d,
                            "--only", "bench,fusion"], capture_output=True, text=True, env=env(), timeout=300)
        assert p.returncode == 0, p.stdout + p.stderr
        with open(os.path.join(d, "bench.png"), "rb") as fh:
            assert fh.read(8) == b"\x89PNG\r\n\x1a\n"
        with open(os.path.join(d, "bench.svg")) as fh:
            svg = fh.read()
        assert "<svg" in svg
        assert "wrote " + os.path.join(d, "fusion.png") in p.stdout, p.stdout
        with open(os.path.join(d, "fusion.png"), "rb") as fh:
            assert fh.read(8) == b"\x89PNG\r\n\x1a\n"
        with open(res, "w") as fh:
            json.dump({"oops": 1}, fh)
        p = subprocess.run([sys.executable, PLOTS, "--bin", CLI, "--results", res, "--outdir", d, "--only", "bench"],
                           capture_output=True, text=True, env=env(), timeout=300)
        assert p.returncode == 1 and "not a list of {name, value, unit} figures" in p.stderr, p.stderr
        p = subprocess.run([sys.executable, PLOTS, "--only", "nope"], capture_output=True, text=True)
        assert p.returncode == 2 and "--only nope" in p.stderr, p.stderr


if __name__ == "__main__":
    main("sweep_", {
        "local_cluster_table": test_local_cluster_table,
        "scheduler_address": test_scheduler_address,
        "failed_run_row": test_failed_run_row,
        "seed_ends": test_seed_ends,
        "bad_arguments": test_bad_arguments,
        "plots_bench_and_sweep": test_plots_bench_and_sweep,
    })
