#!/usr/bin/env python3
"""gpucosim soak: the long runs that `make test` samples.

- Every case of the given test programs (the differential test's random stream programs, kernel
  launches and random F programs, the front-end load, mutation, copy and task tests) runs once
  per seed 1..--seeds, with GPUCOSIM_SEED=seed, random ready/valid stalls (GPUCOSIM_STALL_PCT
  cycling through 0, 25, 50, 75, 90) and GPUCOSIM_FUZZ_SEED=seed (test_diff's random programs
  start seed x 1000 further: programs `make test` never ran), so new programs meet other timings.
- The CLI's longest runs: the largest copy (--bytes at its upper end) on rtl and
  `kernels --rounds 20` on rtl and ref.
- With --fp-chunks N: N files of 10^4 SoftFloat vectors per RV32F operation (scripts/
  gen_fp_vectors.py, seeds 1001..1000+N; N = 100 gives 10^6 per operation), each through the ref
  model's FPU (test_fp fp_vectors) and the RTL FPU's bench (fpu_tb): both must match every result
  and flag bit for bit.
One line per run, the output of each failure, and one closing summary line
`soak: N passed, N failed (...)`; exit status 0 only if nothing failed.
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


def add_fp_runs(runs, args):
    """One run per chunk: generate its vectors, then the ref FPU and the RTL FPU on them."""
    os.makedirs(args.fp_dir, exist_ok=True)
    for k in range(1, args.fp_chunks + 1):
        path = os.path.join(args.fp_dir, f"soak_{k}.txt")
        seed = 1000 + k
        script = (f"{sys.executable} {args.fp_gen} --per-op 10000 --seed {seed} --out {path} && "
                  f"GC_FP_VECTORS={path} {args.fp_test} fp_vectors && {args.fpu_tb} +vectors={path} && rm -f {path}")
        runs.append((f"SoftFloat vectors chunk {k} (seed {seed}): ref_fp and the RTL FPU", ["bash", "-c", script],
                     dict(os.environ), None))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("programs", nargs="*", help="test programs (tcase binaries)")
    ap.add_argument("--bin", required=True, help="build/bin/gpucosim")
    ap.add_argument("--seeds", type=int, default=20, help="memory-model seeds per case (default %(default)s)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=3600, help="seconds per run")
    ap.add_argument("--no-cli", action="store_true", help="leave out the CLI's long runs")
    ap.add_argument("--fp-chunks", type=int, default=0,
                    help="files of 10^4 SoftFloat vectors per RV32F operation (default 0: none; 100 = 10^6)")
    ap.add_argument("--fp-gen", default="scripts/gen_fp_vectors.py", help="the vector generator")
    ap.add_argument("--fp-test", default="build/tests/test_fp", help="the ref FPU's vector test")
    ap.add_argument("--fpu-tb", default="build/rtl_fpu/Vfpu_tb_top", help="the RTL FPU's bench")
    ap.add_argument("--fp-dir", default="build/fpvec", help="where the chunks are written (each removed once it passed)")
    args = ap.parse_args()
    if args.seeds < 0 or args.fp_chunks < 0:
        ap.error("--seeds and --fp-chunks must be >= 0")

    runs = []  # (name, argv, env, pass-check)
    for prog in args.programs:
        cases = list_cases(prog)
        if not isinstance(cases, list):
            cases = [None]
        for seed in range(1, args.seeds + 1):
            stall = STALLS[seed % len(STALLS)]
            env = dict(os.environ, GPUCOSIM_SEED=str(seed), GPUCOSIM_STALL_PCT=str(stall), GPUCOSIM_FUZZ_SEED=str(seed))
            for c in cases:
                name = f"{os.path.basename(prog)}/{c or ''} seed {seed} stall {stall}%"
                runs.append((name, command(prog) + ([c] if c else []), env, f"PASS: {c}" if c else None))
    ntests = len(runs)
    if not args.no_cli:
        add_cli_runs(runs, args.bin)
    ncli = len(runs) - ntests
    if args.fp_chunks:
        add_fp_runs(runs, args)

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
    print(f"soak: {passed} passed, {failed} failed ({ntests} test-case runs over {args.seeds} seeds with random "
          f"stalls and fuzz seeds, {ncli} long CLI runs, {args.fp_chunks} x 10^4 SoftFloat vectors per RV32F "
          f"operation through ref_fp and the RTL FPU)")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
