#!/usr/bin/env python3
"""gpucosim benchmarks: run the scenarios, print a table, write results.json.

results.json is a list of {"name", "value", "unit", "better": "higher"|"lower"}; later issues add
metrics by name.  Speed is measured here, never asserted in a test.
"""
import argparse
import json
import os
import re
import subprocess
import sys

CYCLES_RE = re.compile(r"cosim: (\d+) cycles in ([0-9.]+) s = (\d+) cycles/s")
SUMMARY_RE = re.compile(r"summary: copy PASSED: .* (\d+) cycles$", re.M)


def run(binary, *args):
    p = subprocess.run([binary, "run", "copy", *args], capture_output=True, text=True,
                       env={**os.environ, "GPUCOSIM_WAVES": ""})
    out = p.stdout + p.stderr
    if p.returncode != 0:
        sys.exit(f"bench: {binary} run copy {' '.join(args)} failed:\n{out}")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default="build/bin/gpucosim", help="the gpucosim binary (default %(default)s)")
    ap.add_argument("--out", default="build/bench/results.json", help="results file (default %(default)s)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per speed figure; the best counts (default 3)")
    args = ap.parse_args()

    results = []

    def add(name, value, unit, better, how):
        results.append({"name": name, "value": value, "unit": unit, "better": better})
        rows.append((name, value, unit, better, how))

    rows = []
    # Simulation speed: the default scenario, waves off, with copies long enough (1 MiB each) that
    # the run takes a measurable wall time.
    best = 0
    for _ in range(args.repeat):
        m = CYCLES_RE.search(run(args.bin, "--bytes", str(1 << 20)))
        best = max(best, int(m.group(3)))
    add("sim_cycles_per_s", best, "cycles/s", "higher", "default scenario, 2 x 1 MiB copies, waves off")

    m = SUMMARY_RE.search(run(args.bin))
    add("copy_roundtrip_cycles_4KiB", int(m.group(1)), "cycles", "lower",
        "default scenario: doorbell to host release, 4 KiB sysmem->vidmem->sysmem")

    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    with open(args.out, "w") as fh:
        json.dump(results, fh, indent=2)
        fh.write("\n")
    w = max(len(r[0]) for r in rows)
    print(f"{'metric':<{w}}  {'value':>14}  {'unit':<9} {'better':<7} how")
    print("-" * (w + 60))
    for name, value, unit, better, how in rows:
        v = f"{value:,.0f}" if isinstance(value, (int, float)) and value >= 100 else f"{value:.3f}"
        print(f"{name:<{w}}  {v:>14}  {unit:<9} {better:<7} {how}")
    print(f"\nwritten to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
