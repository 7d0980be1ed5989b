#!/usr/bin/env python3
"""gpucosim regression runner.

Each test program named test_* lists its cases with `--list` and runs one case given its name (the
C tests via tests/common/tcase.h, the Python ones the same way).  Any other program (an RTL block
bench) is run whole as one case and passes when it exits 0.  Every case runs in its own process with
a timeout, two at a time by default; the runner prints one line per case, the output of each
failure, writes JUnit XML (junit-xml), and ends with the line `N passed, N failed` (with
`, N skipped` when a case printed `SKIP: <case>`: a check that cannot run on that backend).

A program given as BACKEND@PATH (e.g. ref@build/tests/test_copy) runs with GPUCOSIM_BACKEND=BACKEND
and its cases are named BACKEND/<case>: the same driver suite on every device backend.

--seed N / --stall P (make test SEED=N STALL=P) set GPUCOSIM_SEED / GPUCOSIM_STALL_PCT for every
program (the memory model's seed and random stall percentage) and pass +seed=N / +stall_pct=P to
the RTL block benches.  A failing case prints the one command that reproduces it: the environment
(seed, stall, backend), the program and the case.

--filter TEXT keeps the cases whose name contains TEXT; a leading ^ anchors it at the start of the
name and a trailing $ at the end (^cosim_ leaves out sc/cosim_..., ref/cosim_...); A|B keeps the
cases that match either alternative (each one anchored on its own).

--needs prints, one a line, the programs (as given) that may hold a case the filter keeps, and runs
nothing: `make test TESTS=x` builds only those.  A program is kept when its name matches, when it
is not built yet, when its test source (tests/*/NAME.c) is newer than it, or when the case list of
the binary already built has a match (.py programs list their cases directly).
"""
import argparse
import concurrent.futures as cf
import os
import shlex
import subprocess
import sys
import time

from junit_xml import TestCase, TestSuite


def command(prog):
    return [sys.executable, prog] if prog.endswith(".py") else [prog]


def split_backend(spec):
    """'ref@path' -> ('ref', 'path'); 'path' -> (None, 'path')."""
    if "@" in spec and not os.path.exists(spec):
        backend, prog = spec.split("@", 1)
        return backend, prog
    return None, spec


def env_for(backend, knobs):
    """The environment of a case: ours, the knobs (GPUCOSIM_SEED / GPUCOSIM_STALL_PCT), the backend."""
    env = dict(os.environ)
    env.update(knobs)
    if backend is not None:
        env["GPUCOSIM_BACKEND"] = backend
    return env


def bench_args(prog, knobs):
    """The plusargs of an RTL block bench (a program that is not test_*): its seed and stall."""
    if os.path.basename(prog).startswith("test_"):
        return []
    args = []
    if "GPUCOSIM_SEED" in knobs:
        args.append("+seed=" + knobs["GPUCOSIM_SEED"])
    if "GPUCOSIM_STALL_PCT" in knobs:
        args.append("+stall_pct=" + knobs["GPUCOSIM_STALL_PCT"])
    return args


def repro(prog, case, backend, knobs):
    """The one shell command that runs this case again the same way."""
    env = env_for(backend, knobs)
    words = [f"GPUCOSIM_SEED={env.get('GPUCOSIM_SEED', '1')}",
             f"GPUCOSIM_STALL_PCT={env.get('GPUCOSIM_STALL_PCT', '0')}",
             f"GPUCOSIM_BACKEND={env.get('GPUCOSIM_BACKEND', 'rtl')}"]
    words += [shlex.quote(w) for w in command(prog) + bench_args(prog, knobs) + ([case] if case else [])]
    return " ".join(words)


def matches(flt, name):
    """The --filter rule: a substring of name; ^ anchors it at the start, $ at the end; | separates
    alternatives."""
    if "|" in flt:
        return any(matches(alt, name) for alt in flt.split("|") if alt)
    start, end = flt.startswith("^"), flt.endswith("$") and len(flt) > 1
    core = flt[1 if start else 0:len(flt) - (1 if end else 0)]
    if start and end:
        return name == core
    if start:
        return name.startswith(core)
    if end:
        return name.endswith(core)
    return core in name


def test_source(prog):
    """tests/*/NAME.c of a test binary, or None."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for sub in ("unit", "cosim", "compute"):
        src = os.path.join(root, "tests", sub, os.path.basename(prog) + ".c")
        if os.path.exists(src):
            return src
    return None


def may_match(spec, flt):
    """True when program spec (BACKEND@PATH or PATH) may hold a case the filter keeps."""
    backend, prog = split_backend(spec)
    prefix = f"{backend}/" if backend else ""
    base = os.path.basename(prog)
    if matches(flt, prefix + base) or not os.path.exists(prog):
        return True
    src = test_source(prog)
    if src and os.path.getmtime(src) > os.path.getmtime(prog):
        return True
    cases = list_cases(prog)
    if not isinstance(cases, list):
        return isinstance(cases, Exception)
    return any(matches(flt, prefix + c) for c in cases)


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


def run_case(prog, case, timeout, backend, knobs):
    """(status, why, output, seconds); status is 'pass', 'fail' or 'skip'."""
    argv = command(prog) + bench_args(prog, knobs) + ([case] if case else [])
    t0 = time.monotonic()
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, env=env_for(backend, knobs))
        out = p.stdout + p.stderr
        if p.returncode == 0 and case is not None and f"SKIP: {case}" in p.stdout:
            return "skip", "", out, time.monotonic() - t0
        ok = p.returncode == 0 and (case is None or f"PASS: {case}" in p.stdout)
        why = "" if ok else f"exit status {p.returncode}"
    except subprocess.TimeoutExpired as e:
        out = ((e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")) + \
              ((e.stderr or b"").decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or ""))
        ok, why = False, f"timed out after {timeout} s"
    return ("pass" if ok else "fail"), why, out, time.monotonic() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("programs", nargs="+", help="test programs (binaries or .py files)")
    ap.add_argument("--jobs", type=int, default=2, help="cases run at once (default %(default)s)")
    ap.add_argument("--timeout", type=int, default=600, help="seconds per case (default %(default)s)")
    ap.add_argument("--filter", default="", help="only cases whose name contains this (^ / $ anchor it, | separates alternatives)")
    ap.add_argument("--junit", help="write JUnit XML here")
    ap.add_argument("--needs", action="store_true",
                    help="print the programs that may hold a matching case (one a line) and run nothing")
    ap.add_argument("--seed", type=int, help="GPUCOSIM_SEED for every program (+seed=N for the RTL benches)")
    ap.add_argument("--stall", type=int, help="GPUCOSIM_STALL_PCT (0..90) for every program (+stall_pct=P for the benches)")
    args = ap.parse_args()
    if args.seed is not None and args.seed < 0:
        ap.error(f"--seed {args.seed}: a seed is >= 0")
    if args.stall is not None and not 0 <= args.stall <= 90:
        ap.error(f"--stall {args.stall}: the stall percentage is 0..90")
    if args.needs:
        for spec in args.programs:
            if may_match(spec, args.filter):
                print(spec)
        return 0
    knobs = {}
    if args.seed is not None:
        knobs["GPUCOSIM_SEED"] = str(args.seed)
    if args.stall is not None:
        knobs["GPUCOSIM_STALL_PCT"] = str(args.stall)

    jobs, setup_failures = [], []
    for spec in args.programs:
        backend, prog = split_backend(spec)
        if not os.path.exists(prog):
            setup_failures.append((prog, f"test program {prog} does not exist (not built?)"))
            continue
        cases = list_cases(prog)
        if isinstance(cases, Exception):
            setup_failures.append((prog, f"{prog} --list failed: {cases}"))
            continue
        base = os.path.basename(prog)
        for c in cases or [None]:
            name = (f"{backend}/" if backend else "") + (c or base)
            if matches(args.filter, name):
                jobs.append((prog, c, name, backend))

    results = []
    with cf.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futs = {pool.submit(run_case, prog, c, args.timeout, backend, knobs): (prog, c, name, backend)
                for prog, c, name, backend in jobs}
        for fut in cf.as_completed(futs):
            prog, c, name, backend = futs[fut]
            status, why, out, secs = fut.result()
            print(f"{status.upper()} {name} ({secs:.1f} s)", flush=True)
            if status == "fail":
                tail = "\n".join(out.splitlines()[-60:])
                print(f"---- {name}: {why}; last lines of its output:\n{tail}\n"
                      f"---- reproduce {name}: {repro(prog, c, backend, knobs)}", flush=True)
            results.append((prog, name, status, why, out, secs))

    for prog, why in setup_failures:
        print(f"FAIL {os.path.basename(prog)}: {why}")
        results.append((prog, os.path.basename(prog), "fail", why, "", 0.0))

    if args.junit:
        os.makedirs(os.path.dirname(args.junit) or ".", exist_ok=True)
        suites = {}
        for prog, name, status, why, out, secs in sorted(results, key=lambda r: r[1]):
            tc = TestCase(name, classname=os.path.basename(prog), elapsed_sec=secs, stdout=out)
            if status == "fail":
                tc.add_failure_info(message=why, output=out[-4000:])
            elif status == "skip":
                tc.add_skipped_info(message="skipped: " + (out.strip().splitlines() or [""])[-1])
            suites.setdefault(os.path.basename(prog), []).append(tc)
        with open(args.junit, "w") as fh:
            TestSuite.to_file(fh, [TestSuite(k, v) for k, v in sorted(suites.items())])

    passed = sum(1 for r in results if r[2] == "pass")
    skipped = sum(1 for r in results if r[2] == "skip")
    failed = len(results) - passed - skipped
    if not results:
        print("no test case matched")
        failed = 1
    print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
