#!/usr/bin/env python3
"""The gpucosim scenarios that tests/tools/test_cli.py does not run, each with its options, on the
backends it supports: its verdict (summary line) and its exit status agree, its own checks all say
ok, and the option changes what it says it changes (--no-evict: no eviction; --prior-art: the
parent at the lowest priority; --no-copy-priorities: priorities off; --backend-stats: the backend's
open and close lines; --image: the image named; a missing image: one line naming it, exit 1).
Runs build/bin/gpucosim (or $GPUCOSIM_CLI).  Same interface as the C tests: --list, or case names."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from casemain import main  # noqa: E402
from test_cli import BUILD, passed, run  # noqa: E402

KERNELS = os.path.abspath(os.path.join(BUILD, "firmware", "kernels.elf"))


def checks_ok(p):
    lines = [l for l in p.stdout.splitlines() if l.startswith("check: ")]
    assert lines, p.stdout[-1000:]
    bad = [l for l in lines if not l.endswith(": ok")]
    assert not bad, bad


def scenario(name, *opts, backends=("rtl", "ref"), checks=True):
    """Run it on each backend; each run passes with all its checks ok (checks: it prints some).
    The runs' stdout."""
    outs = []
    for b in backends:
        p = run("run", name, "--backend", b, "--quiet", *opts)
        passed(p, name)
        if checks:
            checks_ok(p)
        assert "DIFFERS" not in p.stdout and "FAILED" not in p.stdout, p.stdout[-1000:]
        outs.append(p.stdout)
    return outs


def t_nested_priority():
    for out in scenario("nested-priority", backends=("rtl", "ref", "sc")):
        assert re.search(r"LAUNCH_FAIL DEPTH at priority 7 level 4\): ok", out), out[-1500:]


def t_eviction_and_no_evict():
    for out in scenario("eviction"):
        assert re.search(r"summary: eviction PASSED: .*, 1 eviction, ", out), out[-500:]
        assert re.search(r"^metric hp_kernel_latency \d+$", out, re.M), out[-500:]
    for out in scenario("eviction", "--no-evict"):
        assert re.search(r"summary: eviction PASSED: .*, 0 evictions, ", out), out[-500:]
        assert re.search(r"^metric hp_kernel_latency_no_evict \d+$", out, re.M), out[-500:]


def t_childless_parent_and_prior_art():
    scenario("childless-parent")
    scenario("childless-parent", "--prior-art")


def t_prio_latency_on_and_off():
    for opts, state in (((), "on"), (("--no-copy-priorities",), "off"), (("--copy-priorities", "8"), "on")):
        for b in ("rtl", "ref"):
            p = run("run", "prio-latency", "--backend", b, "--quiet", *opts)
            assert p.returncode == 0, (b, opts, p.stderr[-1000:])
            assert re.search(rf"^summary: prio-latency \(copy priorities {state}\): high-priority 16 KiB copy "
                             rf"\d+ cycles alone, \d+ cycles under 16 low-priority 8 KiB copies", p.stdout, re.M), \
                p.stdout[-800:]
            for m in ("prio_copy_latency_idle", "prio_copy_latency_flood"):
                assert re.search(rf"^metric {m} \d+$", p.stdout, re.M), p.stdout[-800:]


def t_float_kernels_image():
    for out in scenario("float-kernels", "--image", KERNELS, checks=False):
        assert f"summary: float-kernels PASSED: {KERNELS}: fsaxpy, fdot, fmath: 3 of 3 results match" in out, out[-800:]


def t_missing_image():
    missing = os.path.join(BUILD, "no-such-dir", "kernels.elf")
    for s in ("kernels", "float-kernels", "eviction"):
        p = run("run", s, "--image", missing)
        assert p.returncode == 1, (s, p.returncode, p.stderr)
        assert p.stdout == "", p.stdout
        assert p.stderr.splitlines() == [f"gpucosim: {s}: no kernel image at {missing} (build it with `make firmware`, "
                                         "or name one with --image FILE)"], p.stderr


def t_backend_stats():
    quiet = run("run", "nested-priority")
    loud = run("run", "nested-priority", "--backend-stats")
    passed(quiet, "nested-priority")
    passed(loud, "nested-priority")
    both = quiet.stdout + quiet.stderr
    assert "cosim: seed" not in both and not re.search(r"cosim: \d+ cycles in", both), both[-800:]
    both = loud.stdout + loud.stderr
    assert "cosim: seed 1 (repeat with GPUCOSIM_SEED=1 or --seed)" in both, both[-800:]
    assert re.search(r"^cosim: \d+ cycles in [\d.]+ s = \d+ cycles/s \(seed 1\)$", both, re.M), both[-800:]


def t_fusion_ref():
    out = scenario("fusion", backends=("ref",), checks=False)[0]
    want = ("0 elements differ from the host, 1 fused kernel expected (got 1, with scalars 1), "
            "4 unfused (got 4, with scalars 4)")
    assert want in out and "fusion PASSED" in out, out[-800:]


if __name__ == "__main__":
    main("scen_", {"nested_priority": t_nested_priority, "eviction_and_no_evict": t_eviction_and_no_evict,
                   "childless_parent_and_prior_art": t_childless_parent_and_prior_art,
                   "prio_latency_on_and_off": t_prio_latency_on_and_off, "float_kernels_image": t_float_kernels_image,
                   "missing_image": t_missing_image, "backend_stats": t_backend_stats, "fusion_ref": t_fusion_ref})
