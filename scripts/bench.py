#!/usr/bin/env python3
"""gpucosim benchmarks: run the scenarios, print a table, write results.json.

results.json is a list of {"name", "value", "unit", "better": "higher"|"lower"}; later issues add
metrics by name.  Speed is measured here, never asserted in a test.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

CYCLES_RE = re.compile(r"cosim: (\d+) cycles in ([0-9.]+) s = (\d+) cycles/s")
SUMMARY_RE = re.compile(r"summary: copy PASSED: .* (\d+) cycles$", re.M)


CE_RE = re.compile(r"ce_efficiency bytes=(\d+) cycles=(\d+) efficiency=([0-9.]+) launch_cycles=(\d+)")
SPEED_RE = re.compile(r"cosim_speed: (\d+) cycles in ([0-9.]+) s = (\d+) cycles/s")
METRIC_RE = re.compile(r"^metric (\w+) ([0-9.]+)$", re.M)


def run_cmd(argv):
    p = subprocess.run(argv, capture_output=True, text=True, env={**os.environ, "GPUCOSIM_WAVES": ""})
    out = p.stdout + p.stderr
    if p.returncode != 0:
        sys.exit(f"bench: {' '.join(argv)} failed:\n{out}")
    return out


def run(binary, *args, scenario="copy"):
    return run_cmd([binary, "run", scenario, *args])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default="build/bin/gpucosim", help="the gpucosim binary (default %(default)s)")
    ap.add_argument("--out", default="build/bench/results.json", help="results file (default %(default)s)")
    ap.add_argument("--bin-lanes32", default="build/bin/gpucosim-lanes32",
                    help="gpucosim linked with gpu_top Verilated with LANES=32 (default %(default)s)")
    ap.add_argument("--kernel-rounds", type=int, default=4,
                    help="rounds of the kernels scenario per simt speed run (default %(default)s)")
    ap.add_argument("--repeat", type=int, default=3,
                    help="runs per speed figure; the median counts (default 3)")
    ap.add_argument("--counter", default="build/bin/cosim-speed-counter",
                    help="the harness linked with a trivial Verilated counter, for sim_speed_vs_counter "
                         "(default %(default)s)")
    ap.add_argument("--pbdma-tb", default="build/rtl_pbdma/Vpbdma_tb_top",
                    help="the PBDMA block bench, which prints the switch and wake figures (default %(default)s)")
    ap.add_argument("--simt-tbs", default="build/rtl_simt8/test_simt8,build/rtl_simt32/test_simt32",
                    help="SIMT block benches (comma separated), which print the IPC and streaming figures")
    args = ap.parse_args()

    results = []

    def add(name, value, unit, better, how):
        results.append({"name": name, "value": value, "unit": unit, "better": better})
        rows.append((name, value, unit, better, how))

    rows = []
    # the cycles/s of a run's speed line (CYCLES_RE or SPEED_RE), and its median over --repeat runs
    def rate_of(out, rx):
        return int(rx.search(out).group(3))

    def median_rate(argv_fn, rx):
        return int(statistics.median(rate_of(argv_fn(), rx) for _ in range(args.repeat)))
    # Simulation speed: the default scenario (the untraced model), with copies long enough (1 MiB
    # each) that the run takes a measurable wall time; the median of --repeat runs.  The same
    # harness (cosim.cpp's tick) on a trivial Verilated counter with gpu_top's ports: each default
    # run is paired with a counter run right after it (16 M cycles, about as long), and the ratio
    # is the median of the pairs' ratios, so that both runs of a pair see the same load.
    have_counter = bool(args.counter) and os.path.exists(args.counter)
    rates, pairs = [], []
    for _ in range(args.repeat):
        rate = rate_of(run(args.bin, "--bytes", str(1 << 20)), CYCLES_RE)
        rates.append(rate)
        if have_counter:
            counter_rate = rate_of(run_cmd([args.counter, str(16 << 20)]), SPEED_RE)
            pairs.append((rate / counter_rate, counter_rate))
    default_rate = int(statistics.median(rates))
    add("sim_cycles_per_s", default_rate, "cycles/s", "higher",
        f"default scenario, 2 x 1 MiB copies, untraced model, median of {args.repeat}")
    if have_counter:
        ratio = statistics.median(r for r, _ in pairs)
        counter_med = int(statistics.median(c for _, c in pairs))
        add("sim_speed_vs_counter", ratio, "ratio", "higher",
            f"sim_cycles_per_s / the harness on a trivial counter (cosim/speed/counter_top.sv, "
            f"{counter_med:,} cycles/s), each default run paired with a counter run: median of "
            f"{args.repeat} pair ratios")
    else:
        print(f"bench: {args.counter} is not built; sim_speed_vs_counter left out", file=sys.stderr)

    m = SUMMARY_RE.search(run(args.bin))
    add("copy_roundtrip_cycles_4KiB", int(m.group(1)), "cycles", "lower",
        "default scenario: doorbell to host release, 4 KiB sysmem->vidmem->sysmem")

    for m in CE_RE.finditer(run(args.bin, scenario="ce-bandwidth")):
        size = int(m.group(1))
        label = "64KiB" if size == 64 << 10 else "1MiB" if size == 1 << 20 else f"{size}B"
        add(f"ce_efficiency_{label}", float(m.group(3)), "of peak", "higher",
            f"vidmem->vidmem copy on CE0, the engine alone: {m.group(2)} cycles from taking the command to "
            f"its release (the completion record's stamps) / (bytes / 8 per cycle); {m.group(4)} cycles "
            f"from the host's launch release")

    add("sim_cycles_per_s_frontend", median_rate(lambda: run(args.bin, scenario="frontend-load"), CYCLES_RE),
        "cycles/s", "higher", f"8 busy channels on two copy engines, untraced model, median of {args.repeat}")

    # Simulation speed with the SIMT core busy: the kernels scenario (copies and four kernels per
    # round, on two streams), waves off, on the full device with 8-lane SMs (the default build)
    # and with 32-lane SMs (gpucosim-lanes32).  --backend-stats makes the runtime's quiet device
    # print the cosim close line.
    def kernels_speed(binary):
        rates, cyc = [], 0
        for _ in range(args.repeat):
            out = run(binary, "--backend", "rtl", "--rounds", str(args.kernel_rounds), "--backend-stats",
                      scenario="kernels")
            if "summary: kernels PASSED" not in out:
                sys.exit(f"bench: {binary} run kernels did not pass:\n{out}")
            m = CYCLES_RE.search(out)
            rates.append(int(m.group(3)))
            cyc = int(m.group(1))
        return int(statistics.median(rates)), cyc
    for name, binary in (("sim_cycles_per_s_simt8", args.bin), ("sim_cycles_per_s_simt32", args.bin_lanes32)):
        if not binary or not os.path.exists(binary):
            print(f"bench: {binary} is not built; {name} left out", file=sys.stderr)
            continue
        rate, cyc = kernels_speed(binary)
        lanes = "8" if name.endswith("simt8") else "32"
        add(name, rate, "cycles/s", "higher",
            f"gpu_top, LANES {lanes}: kernels scenario, {args.kernel_rounds} rounds ({cyc:,} cycles), untraced, "
            f"median of {args.repeat}")

    if args.pbdma_tb and os.path.exists(args.pbdma_tb):
        out = run_cmd([args.pbdma_tb])
        for name, value in METRIC_RE.findall(out):
            if name == "acquire_wake_cycles":
                add(name, float(value), "cycles", "lower",
                    "PBDMA block bench (tests/rtl/pbdma_tb.cpp): a resident acquire (SWITCH DIS), from the "
                    "release's B response to the acquire's completion (goal <= 4)")
            elif name == "channel_switch_cycles":
                add(name, float(value), "cycles", "lower",
                    "PBDMA block bench (tests/rtl/pbdma_tb.cpp), 4 channels, TIMESLICE 400: the leaving channel's "
                    "last method to the next channel's first method (goal <= 8)")
            elif name == "channel_switch_decision_cycles":
                add(name, float(value), "cycles", "lower",
                    "same switches: from the switch decision (sw_valid) to the next channel's first method; "
                    "with the prefetch (gc_pbdma_pf) no memory read in between")

    # SIMT core: IPC of an ALU-bound loop (peak: one warp instruction per cycle), streaming vecadd
    # bytes per cycle against the read channel, reconvergence after divergence (block benches)
    for tb in [t for t in (args.simt_tbs or "").split(",") if t]:
        if not os.path.exists(tb):
            print(f"bench: {tb} is not built; its SIMT figures left out", file=sys.stderr)
            continue
        tag = os.path.basename(tb).removeprefix("test_")
        out = run_cmd([tb, f"{tag}_perf_alu_ipc", f"{tag}_perf_stream", f"{tag}_perf_reconverge", f"{tag}_perf_fp",
                       f"{tag}_perf_fsaxpy"])
        # the default build (8 lanes) gives the names; other builds add their lane count
        sfx = "" if tag == "simt8" else "_" + tag.removeprefix("simt") + ("lanes" if tag[-1].isdigit() else "")
        m = re.search(r"IPC ([0-9.]+) of peak", out)
        if m:
            add(f"simt_ipc_alu{sfx}", float(m.group(1)), "of peak", "higher",
                "alu_loop, one CTA filling every warp slot: warp instructions / active cycles")
        # AXI reads and writes have their own 8-byte data channels (the memory serves 8 bytes per
        # cycle each way): vecadd reads 8 and writes 4 bytes per element, so the read channel is
        # its bound (12 bytes per cycle in all) and its use is the efficiency
        stream = r"perf: {} \d+ .* ([0-9.]+) bytes/cycle; the read channel carried ([0-9.]+) of its 8 bytes/cycle"
        m = re.search(stream.format("vecadd_x4"), out)
        if m:
            add(f"simt_mem_efficiency{sfx}", float(m.group(2)), "of peak", "higher",
                f"vecadd_x4 (c = a + b, 4 elements per thread per grid-stride iteration, all 8 loads "
                f"before the adds; results checked), 16384 elements from vidmem, 4 CTAs filling every "
                f"warp slot: read bytes / cycles / 8 (the read channel, the kernel's bound); target >= 0.8")
            add(f"simt_mem_bytes_per_cycle{sfx}", float(m.group(1)), "bytes/cycle", "higher",
                "vecadd_x4, same run: bytes read and written / cycles (peak 12: the read channel full)")
        m = re.search(stream.format("vecadd"), out)
        if m:
            add(f"simt_mem_efficiency_vecadd1{sfx}", float(m.group(2)), "of peak", "higher",
                f"plain vecadd (one element per thread per iteration, one round trip each), same run: "
                f"read channel use ({m.group(1)} bytes/cycle read and written)")
        m = re.search(r"saxpy_f32_cycles_per_elem ([0-9.]+)", out)
        if m:
            add(f"saxpy_f32_cycles_per_elem{sfx}", float(m.group(1)), "cycles", "lower",
                "fsaxpy (firmware/kernels/float.c: y = alpha * x + y in float, two roundings; results "
                "checked), 65536 elements from vidmem, 4 CTAs filling every warp slot: cycles / elements")
        m = re.search(r"FMA IPC ([0-9.]+) of peak", out)
        if m:
            add(f"simt_fma_ipc{sfx}", float(m.group(1)), "of peak", "higher",
                "fp_dep mode 1 (16 FMAs on 4 accumulators per iteration), every warp slot: warp instructions / active cycles")
        for what in ("fdiv", "fsqrt"):
            m = re.search(rf"{what}_latency_cycles ([0-9.]+)", out)
            if m:
                add(f"{what}_latency_cycles{sfx}", float(m.group(1)), "cycles", "lower",
                    f"one warp, a chain of dependent {what.upper()}s: cycles from one to the next (IF to IF)")
        m = re.search(r"([0-9.]+) active lanes per warp instruction \(of (\d+)\)", out)
        if m:
            add(f"simt_reconverge_lanes{sfx}", float(m.group(1)) / int(m.group(2)), "of lanes", "higher",
                "divergent prologue, then a uniform loop: active lanes per warp instruction / LANES")

    # Copy priorities: a high-priority copy under a low-priority flood, with and without.
    def prio_latency(*extra):
        out = run(args.bin, *extra, scenario="prio-latency")
        return {k: float(v) for k, v in METRIC_RE.findall(out)}
    on, off = prio_latency(), prio_latency("--no-copy-priorities")
    add("prio_copy_latency_ratio", on["prio_copy_latency_flood"] / off["prio_copy_latency_flood"], "ratio", "lower",
        f"prio-latency: high copy under flood {on['prio_copy_latency_flood']:.0f} cycles with copy priorities / "
        f"{off['prio_copy_latency_flood']:.0f} without")
    add("prio_copy_latency_vs_idle", on["prio_copy_latency_flood"] / on["prio_copy_latency_idle"], "ratio", "lower",
        f"prio-latency: under flood with copy priorities / alone ({on['prio_copy_latency_idle']:.0f} cycles)")

    # Task management unit (issue 6): a high-priority kernel under a saturating low-priority load
    # (every task slot busy), launch to completion, with eviction / with TMU_CTRL.NO_EVICT = 1.
    def hp_latency(*extra):
        out = run(args.bin, "--backend", "rtl", *extra, scenario="eviction")
        if "summary: eviction PASSED" not in out:
            sys.exit(f"bench: run eviction {' '.join(extra)} did not pass:\n{out}")
        return {k: float(v) for k, v in METRIC_RE.findall(out)}
    ev, nev = hp_latency()["hp_kernel_latency"], hp_latency("--no-evict")["hp_kernel_latency_no_evict"]
    add("hp_kernel_latency_ratio", ev / nev, "ratio", "lower",
        f"eviction scenario (rtl): hp_short launch to completion {ev:.0f} cycles with eviction / {nev:.0f} with "
        f"TMU_CTRL.NO_EVICT")

    # GPU-owned work queues (issue 16): a thread's work through an open GPU-owned queue vs a host round
    # trip that charges the host's reaction (--host-latency, default 8000 cycles = 8 us at 1 GHz,
    # docs/workqueue.md), at the default and across a sweep; and the items 32 producers push through one queue.
    def wq_bench(*extra):
        out = run(args.bin, "--backend", "rtl", *extra, scenario="work-queue-bench")
        if "summary: work-queue-bench PASSED" not in out:
            sys.exit(f"bench: run work-queue-bench {' '.join(extra)} did not pass:\n{out}")
        return {k: float(v) for k, v in METRIC_RE.findall(out)}
    wq = wq_bench()
    add("device_work_latency_ratio", wq["device_work_latency_ratio"], "ratio", "lower",
        f"work-queue-bench (rtl): thread decides -> work starts, GPU-owned queue {wq['device_work_latency_queue']:.0f} "
        f"cycles / host round trip {wq['device_work_latency_host']:.0f} cycles (host latency 8000); goal <= 0.1")
    for hl in (0, 1000, 2000, 4000, 16000, 32000):
        m = wq_bench("--host-latency", str(hl))
        add(f"device_work_latency_ratio_host{hl}", m["device_work_latency_ratio"], "ratio", "lower",
            f"the same with --host-latency {hl}: host round trip {m['device_work_latency_host']:.0f} cycles")
    add("gpu_queue_items_per_kcycle", wq["gpu_queue_items_per_kcycle"], "items/kc", "higher",
        "work-queue-bench (rtl): 32 producer threads, 1..4 blocks per reservation, one GPU-owned compute queue of "
        "1024 entries: items per 1000 cycles (first to last item stamp)")

    # RV32F (issue 15): the float kernels (fsaxpy, fdot, fmath) built for RV32IMAF vs RV32IMA with
    # libgcc's soft float, cycles on rtl.  Left out (said so) while the rtl SIMT core has no FPU.
    def float_cycles(image):
        argv = [args.bin, "run", "float-kernels", "--backend", "rtl", "--image", image]
        p = subprocess.run(argv, capture_output=True, text=True, env={**os.environ, "GPUCOSIM_WAVES": ""})
        out = p.stdout + p.stderr
        if p.returncode == 77:
            return None
        if p.returncode != 0 or "summary: float-kernels PASSED" not in out:
            sys.exit(f"bench: {' '.join(argv)} did not pass:\n{out}")
        return float(dict(METRIC_RE.findall(out))["float_kernels_cycles"])
    fw = os.path.join(os.path.dirname(os.path.abspath(args.bin)), "..", "firmware")
    hw = float_cycles(os.path.join(fw, "kernels.elf"))
    if hw is None:
        print("bench: the rtl SIMT core has no FPU (float-kernels SKIPPED); soft_vs_hw_float_speedup left out",
              file=sys.stderr)
    else:
        soft = float_cycles(os.path.join(fw, "kernels_soft.elf"))
        add("soft_vs_hw_float_speedup", soft / hw, "x", "higher",
            f"float-kernels (rtl): rv32ima soft float {soft:.0f} cycles / rv32imaf {hw:.0f} cycles")

    # Fused kernels (issue 17): ((a + b) * c - d) / e at 64 Ki elements through the array layer,
    # fused / one kernel per op (cycles: the TMU log; bytes: COMPUTE.LSU_BEATS), the host time of a
    # trace-cache hit and the time to get the fused kernel's program (cold compile, disk, memory).
    out = run(args.bin, "--backend", "rtl", scenario="fusion")
    if "summary: fusion PASSED" not in out:
        sys.exit(f"bench: gpucosim run fusion did not pass:\n{out}")
    fu = {k: float(v) for k, v in METRIC_RE.findall(out)}
    add("fusion_chain_cycle_ratio", fu["fusion_chain_cycle_ratio"], "ratio", "lower",
        "fusion (rtl): ((a+b)*c-d)/e, 64 Ki f32, fused cycles / unfused (4 kernels); goal <= 0.35, "
        "both bound by the one FDIV unit (docs/array.md)")
    add("fusion_chain_byte_ratio", fu["fusion_chain_byte_ratio"], "ratio", "lower",
        "fusion (rtl): LSU bytes fused / unfused (6 arrays moved against 12: 0.5 is the floor); goal <= 0.34")
    add("fusion_scalar_cycle_ratio", fu["fusion_scalar_cycle_ratio"], "ratio", "lower",
        "fusion (rtl): the chain with c, d, e scalars (the seed's constantf32), fused cycles / unfused")
    add("fusion_scalar_byte_ratio", fu["fusion_scalar_byte_ratio"], "ratio", "lower",
        "fusion (rtl): the chain with c, d, e scalars, LSU bytes fused / unfused (3 arrays moved against 9)")
    add("fusion_trace_hit_host_us", fu["fusion_trace_hit_host_us"], "us", "lower",
        "fusion: host time of a trace-cache hit (window, key, lookup), best of 3")
    for where, how in (("cold", "compiled by riscv64-unknown-elf-gcc"), ("disk", "from the disk cache"),
                       ("memory", "from the memory cache")):
        add(f"fusion_compile_ms_{where}", fu[f"fusion_compile_ms_{where}"], "ms", "lower",
            f"fusion: the fused kernel's program {how}")

    # Backends on the same scenario: wall time of video-pipeline (8 frames), best of --repeat.
    backends = [l.split()[0] for l in run_cmd([args.bin, "list"]).split("backends:")[1].splitlines() if l.strip()]

    def wall(backend):
        best_t = None
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            run(args.bin, "--backend", backend, "--frames", "8", scenario="video-pipeline")
            t = time.perf_counter() - t0
            best_t = t if best_t is None else min(best_t, t)
        return best_t
    t_rtl = wall("rtl")
    for name, backend, better in (("sim_speedup_ref_vs_rtl", "ref", "higher"), ("sim_slowdown_sc_vs_rtl", "sc", "lower")):
        if backend not in backends:
            print(f"bench: backend {backend} is not built; {name} left out", file=sys.stderr)
            continue
        t_b = wall(backend)
        ratio = t_rtl / t_b if backend == "ref" else t_b / t_rtl
        add(name, ratio, "x", better,
            f"video-pipeline --frames 8: rtl {t_rtl * 1000:.0f} ms, {backend} {t_b * 1000:.0f} ms wall (process included)")

    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    # the figures `make coverage` merged in (scripts/coverage.py) stay until it runs again
    if os.path.exists(args.out):
        with open(args.out) as fh:
            try:
                old = json.load(fh)
            except ValueError:
                old = []
        mine = {r["name"] for r in results}
        results += [r for r in old if isinstance(r, dict) and str(r.get("name", "")).endswith("_coverage")
                    and r["name"] not in mine]
    with open(args.out, "w") as fh:
        json.dump(results, fh, indent=2)
        fh.write("\n")
    w = max(len(r[0]) for r in rows)
    print(f"{'metric':<{w}}  {'value':>14}  {'unit':<9} {'better':<7} how")
    print("-" * (w + 60))
    for name, value, unit, better, how in rows:
        # fractions to 4 places: a figure just under its goal (0.9895 against 0.99) must not read as met
        v = (f"{value:,.0f}" if value >= 100 else f"{value:.4f}" if value < 1 else f"{value:.3f}") \
            if isinstance(value, (int, float)) else str(value)
        print(f"{name:<{w}}  {v:>14}  {unit:<9} {better:<7} {how}")
    print(f"\nwritten to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
