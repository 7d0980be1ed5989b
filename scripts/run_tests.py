#!/usr/bin/env python3
"""gpucosim regression runner.

Each test program named test_* lists its cases with `--list` and runs one case given its name (the
C tests via tests/common/tcase.h, the Python ones the same way).  Any other program (an RTL block
bench) is run whole as one case and passes when it exits 0.  Every case runs in its own process with
a timeout, two at a time by default; the runner prints one line per case, the output of each
failure, writes JUnit XML (junit-xml), and ends with the line `N passed, N failed`.
"""
import argparse
import concurrent.futures as cf
import os
import subprocess
import sys
import time

from junit_xml import TestCase, TestSuite


def command(prog):
    return [sys.executable, prog] if prog.endswith(".py") else [prog]


def list_cases(prog):
    """The case names of prog, or None when it runs whole (RTL block benches: not test_*)."""
    if not os.path.basename(prog).startswith("test_"):
        return None
    try:
        out = subprocess.run(command(prog) + ["--list"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return e
    names = [l.strip() for l in out.stdout.splitlines() if l.strip()]
    if out.returncode != 0 or not names or any(" " in n for n in names):
        return None
    return names


def run_case(prog, case, timeout):
    argv = command(prog) + ([case] if case else [])
    t0 = time.monotonic()
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
        out = p.stdout + p.stderr
        ok = p.returncode == 0 and (case is None or f"PASS: {case}" in p.stdout)
        why = "" if ok else f"exit status {p.returncode}"
    except subprocess.TimeoutExpired as e:
        out = ((e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")) + \
              ((e.stderr or b"").decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or ""))
        ok, why = False, f"timed out after {timeout} s"
    return ok, why, out, time.monotonic() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("programs", nargs="+", help="test programs (binaries or .py files)")
    ap.add_argument("--jobs", type=int, default=2, help="cases run at once (default %(default)s)")
    ap.add_argument("--timeout", type=int, default=600, help="seconds per case (default %(default)s)")
    ap.add_argument("--filter", default="", help="only cases whose name contains this")
    ap.add_argument("--junit", help="write JUnit XML here")
    args = ap.parse_args()

    jobs, setup_failures = [], []
    for prog in args.programs:
        if not os.path.exists(prog):
            setup_failures.append((prog, f"test program {prog} does not exist (not built?)"))
            continue
        cases = list_cases(prog)
        if isinstance(cases, Exception):
            setup_failures.append((prog, f"{prog} --list failed: {cases}"))
            continue
        base = os.path.basename(prog)
        for c in cases or [None]:
            name = c or base
            if args.filter in name:
                jobs.append((prog, c, name))

    results = []
    with cf.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futs = {pool.submit(run_case, prog, c, args.timeout): (prog, c, name) for prog, c, name in jobs}
        for fut in cf.as_completed(futs):
            prog, c, name = futs[fut]
            ok, why, out, secs = fut.result()
            print(f"{'PASS' if ok else 'FAIL'} {name} ({secs:.1f} s)", flush=True)
            if not ok:
                tail = "\n".join(out.splitlines()[-60:])
                print(f"---- {name}: {why}; last lines of its output:\n{tail}\n----", flush=True)
            results.append((prog, name, ok, why, out, secs))

    for prog, why in setup_failures:
        print(f"FAIL {os.path.basename(prog)}: {why}")
        results.append((prog, os.path.basename(prog), False, why, "", 0.0))

    if args.junit:
        os.makedirs(os.path.dirname(args.junit) or ".", exist_ok=True)
        suites = {}
        for prog, name, ok, why, out, secs in sorted(results, key=lambda r: r[1]):
            tc = TestCase(name, classname=os.path.basename(prog), elapsed_sec=secs, stdout=out)
            if not ok:
                tc.add_failure_info(message=why, output=out[-4000:])
            suites.setdefault(os.path.basename(prog), []).append(tc)
        with open(args.junit, "w") as fh:
            TestSuite.to_file(fh, [TestSuite(k, v) for k, v in sorted(suites.items())])

    passed = sum(1 for r in results if r[2])
    failed = len(results) - passed
    if not results:
        print("no test case matched")
        failed = 1
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
