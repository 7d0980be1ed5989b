#!/usr/bin/env python3
"""Tests of scripts/run_tests.py's seed / stall knobs (make test SEED=N STALL=P): every program gets
GPUCOSIM_SEED / GPUCOSIM_STALL_PCT, an RTL block bench +seed=N +stall_pct=P, a failing case prints
the one command that reproduces it, and values outside the ranges are refused.  Fake test programs
(small shell scripts) stand in for the real ones.  Same interface as the C tests: --list, or case
names."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from casemain import main  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
RUNNER = os.path.join(os.path.dirname(os.path.dirname(HERE)), "scripts", "run_tests.py")

# A test_* program: two cases; "bad" fails and both print what they were given.
FAKE_TEST = """#!/bin/sh
if [ "$1" = --list ]; then echo good; echo bad; exit 0; fi
echo "env seed=$GPUCOSIM_SEED stall=$GPUCOSIM_STALL_PCT backend=$GPUCOSIM_BACKEND"
if [ "$1" = bad ]; then echo "FAIL: bad"; exit 1; fi
echo "PASS: $1"
"""
# An RTL block bench (not test_*): run whole; fails so that its arguments show.
FAKE_BENCH = """#!/bin/sh
echo "bench args: $*"
exit 1
"""


def write(d, name, text):
    path = os.path.join(d, name)
    with open(path, "w") as fh:
        fh.write(text)
    os.chmod(path, 0o755)
    return path


def run(*args, env=None):
    e = dict(os.environ)
    for k in ("GPUCOSIM_SEED", "GPUCOSIM_STALL_PCT", "GPUCOSIM_BACKEND"):
        e.pop(k, None)
    e.update(env or {})
    return subprocess.run([sys.executable, RUNNER, *args], capture_output=True, text=True, env=e)


def case_knobs_reach_every_program():
    with tempfile.TemporaryDirectory() as d:
        t = write(d, "test_fake", FAKE_TEST)
        b = write(d, "Vfake_tb_top", FAKE_BENCH)
        p = run("--seed", "3", "--stall", "50", t, "ref@" + t, b)
        assert p.returncode == 1, p.stdout
        out = p.stdout
        assert "env seed=3 stall=50 backend=\n" in out, out              # rtl (default) program
        assert "env seed=3 stall=50 backend=ref" in out, out             # BACKEND@program
        assert "bench args: +seed=3 +stall_pct=50" in out, out          # the block bench
        assert "PASS test_fake/good" not in out and "PASS good" in out and "PASS ref/good" in out, out
        assert out.rstrip().endswith("2 passed, 3 failed"), out


def case_reproduce_line():
    with tempfile.TemporaryDirectory() as d:
        t = write(d, "test_fake", FAKE_TEST)
        b = write(d, "Vfake_tb_top", FAKE_BENCH)
        out = run("--seed", "7", "--stall", "90", "ref@" + t, b).stdout
        assert f"---- reproduce ref/bad: GPUCOSIM_SEED=7 GPUCOSIM_STALL_PCT=90 GPUCOSIM_BACKEND=ref {t} bad" in out, out
        assert (f"---- reproduce Vfake_tb_top: GPUCOSIM_SEED=7 GPUCOSIM_STALL_PCT=90 GPUCOSIM_BACKEND=rtl {b} "
                "+seed=7 +stall_pct=90") in out, out
        # without knobs: what the environment gave, else the defaults (seed 1, no stalls, rtl)
        out = run(t, env={"GPUCOSIM_SEED": "5"}).stdout
        assert f"---- reproduce bad: GPUCOSIM_SEED=5 GPUCOSIM_STALL_PCT=0 GPUCOSIM_BACKEND=rtl {t} bad" in out, out
        assert "env seed=5 stall= backend=" in out, out


def case_range_ends():
    with tempfile.TemporaryDirectory() as d:
        t = write(d, "test_fake", FAKE_TEST)
        for stall in ("0", "90"):
            p = run("--seed", "0", "--stall", stall, "--filter", "good", t)
            assert p.returncode == 0 and f"env seed=0 stall={stall}" not in p.stdout, p.stdout  # output only on failure
            assert p.stdout.rstrip().endswith("1 passed, 0 failed"), p.stdout
        for args, needle in ((["--stall", "91"], "--stall 91: the stall percentage is 0..90"),
                             (["--stall", "-1"], "--stall -1: the stall percentage is 0..90"),
                             (["--seed", "-2"], "--seed -2: a seed is >= 0"),
                             (["--seed", "x"], "invalid int value: 'x'")):
            p = run(*args, t)
            assert p.returncode == 2 and needle in p.stderr, (args, p.stderr)
            assert "passed" not in p.stdout, p.stdout


def case_filter_anchors():
    """--filter: a substring of the case name; ^ anchors it at the start, $ at the end."""
    with tempfile.TemporaryDirectory() as d:
        t = write(d, "test_fake", FAKE_TEST)
        for flt, want in (("good", {"PASS good", "PASS ref/good"}), ("^good", {"PASS good"}),
                          ("^ref/", {"PASS ref/good", "FAIL ref/bad"}), ("ood$", {"PASS good", "PASS ref/good"}),
                          ("^good$", {"PASS good"}), ("^good$|^ref/bad", {"PASS good", "FAIL ref/bad"}),
                          ("bad|nothing", {"FAIL bad", "FAIL ref/bad"})):
            out = run("--filter", flt, t, "ref@" + t).stdout
            got = {" ".join(l.split()[:2]) for l in out.splitlines() if l.startswith(("PASS ", "FAIL "))}
            assert got == want, (flt, got, out)


def case_needs():
    """--needs prints the programs that may hold a matching case (make test TESTS=x builds only
    those): by case list, by program name, unbuilt ones always; it runs no case."""
    with tempfile.TemporaryDirectory() as d:
        t = write(d, "test_fake", FAKE_TEST)
        o = write(d, "test_other", FAKE_TEST.replace("echo good; echo bad", "echo other_one"))
        b = write(d, "Vfake_tb_top", FAKE_BENCH)
        missing = os.path.join(d, "test_missing")
        progs = [t, "ref@" + t, o, b, missing]

        def needs(flt):
            p = run("--needs", "--filter", flt, *progs)
            assert p.returncode == 0 and "env seed" not in p.stdout and "bench args" not in p.stdout, p.stdout
            return set(p.stdout.split())
        assert needs("good") == {t, "ref@" + t, missing}
        assert needs("^good") == {t, missing}
        assert needs("other") == {o, missing}
        assert needs("Vfake") == {b, missing}
        assert needs("nothing") == {missing}
        assert needs("other|Vfake") == {o, b, missing}


CASES = {k[5:]: v for k, v in globals().items() if k.startswith("case_")}

if __name__ == "__main__":
    main("run_tests_", CASES)
