#!/usr/bin/env python3
"""gpucosim soak: the randomized and end-to-end tests, long.

Every case of the given test programs (the differential test's random stream programs and kernel
launches, the front-end load, mutation, copy and task tests) runs once per memory-model seed
1..--seeds, each time with GPUCOSIM_SEED=seed and random ready/valid stalls (GPUCOSIM_STALL_PCT
cycling through 0, 25, 50, 75, 90), so the same programs meet different memory timings; then the
CLI's longest runs: the largest copy (--bytes at its upper end) on rtl and `kernels --rounds 20`
on rtl and ref.  One line per run, the output of each failure, and the closing line
`N passed, N failed`; exit status 0 only if nothing failed.
"""
import argparse
import concurrent.futures as cf
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_tests import command, list_cases  # noqa: E402

STALLS = (0, 25, 50, 75, 90)


def run(argv, env, timeout):
    t0 = time.monotonic()
    try:
        p = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=timeout)
        return p.returncode, p.stdout + p.stderr, time.monotonic() - t0
    except subprocess.TimeoutExpired:
        return -1, f"timed out after {timeout} s", time.monotonic() - t0


def add_cli_runs(runs, binary):
    """The largest copy the CLI accepts on the cycle-accurate backend (about 17 M cycles), and
    `kernels --rounds 20` on rtl and ref."""
    help_text = subprocess.run([binary, "run", "copy", "--help"], capture_output=True, text=True).stdout
    top = next(l for l in help_text.splitlines() if l.strip().startswith("--bytes")).rsplit("..", 1)[1].rstrip("]")
    env = {k: v for k, v in os.environ.items() if not k.startswith("GPUCOSIM_")}
    runs.append((f"gpucosim run copy --bytes {top} (rtl)", [binary, "run", "copy", "--bytes", top, "--quiet"], env,
                 "summary: copy PASSED"))
    for backend in ("rtl", "ref"):
        runs.append((f"gpucosim run kernels --rounds 20 ({backend})",
                     [binary, "run", "kernels", "--rounds", "20", "--backend", backend, "--quiet"], env,
                     "summary: kernels PASSED"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("programs", nargs="+", help="test programs (tcase binaries)")
    ap.add_argument("--bin", required=True, help="build/bin/gpucosim")
    ap.add_argument("--seeds", type=int, default=20, help="memory-model seeds per case (default %(default)s)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=3600, help="seconds per run")
    ap.add_argument("--no-cli", action="store_true", help="leave out the CLI's long runs")
    args = ap.parse_args()

    runs = []  # (name, argv, env, pass-check)
    for prog in args.programs:
        cases = list_cases(prog)
        if not isinstance(cases, list):
            cases = [None]
        for seed in range(1, args.seeds + 1):
            stall = STALLS[seed % len(STALLS)]
            env = dict(os.environ, GPUCOSIM_SEED=str(seed), GPUCOSIM_STALL_PCT=str(stall))
            for c in cases:
                name = f"{os.path.basename(prog)}/{c or ''} seed {seed} stall {stall}%"
                runs.append((name, command(prog) + ([c] if c else []), env, f"PASS: {c}" if c else None))
    if not args.no_cli:
        add_cli_runs(runs, args.bin)

    passed = failed = 0
    with cf.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futs = {pool.submit(run, argv, env, args.timeout): (name, want) for name, argv, env, want in runs}
        for fut in cf.as_completed(futs):
            name, want = futs[fut]
            rc, out, secs = fut.result()
            ok = rc == 0 and (want is None or want in out)
            print(f"{'PASS' if ok else 'FAIL'} {name} ({secs:.1f} s)", flush=True)
            if ok:
                passed += 1
            else:
                failed += 1
                tail = "\n".join(out.splitlines()[-40:])
                print(f"---- {name}: exit {rc}; last lines:\n{tail}\n----", flush=True)
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
