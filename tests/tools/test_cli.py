#!/usr/bin/env python3
"""The gpucosim command line: what it accepts works, what it refuses it refuses before anything runs,
with one line on stderr naming what was wrong and exit status 2 (a run that fails: 1).  Runs
build/bin/gpucosim (or $GPUCOSIM_CLI).  Same interface as the C tests: --list, or case names."""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from casemain import main  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BUILD = os.environ.get("BUILD", os.path.join(ROOT, "build"))
CLI = os.environ.get("GPUCOSIM_CLI", os.path.join(BUILD, "bin", "gpucosim"))

# --bytes of the copy scenario: its source and destination buffers share the 64 MiB sysmem window,
# past its 64 KiB NULL guard, with the channel (a 64-entry ring of 512 bytes, a 64 KiB pushbuffer
# area, a 64-byte fence) and a 64-byte semaphore block: (2^26 - 65536 - 512 - 65536 - 64 - 64) / 2
# bytes each (rounded down to 64).
SYSMEM = 64 << 20
BYTES_MAX = (SYSMEM - 65536 - 512 - 65536 - 64 - 64) // 2 // 64 * 64
U64_MAX = (1 << 64) - 1
# variables that would change what the cases see
CLEAN = ("GPUCOSIM_BACKEND", "GPUCOSIM_SEED", "GPUCOSIM_WAVES", "GPUCOSIM_STALL_PCT", "GPUCOSIM_MAX_CYCLES",
         "GPUCOSIM_INJECT")


def run(*args, env=None, timeout=300):
    e = {k: v for k, v in os.environ.items() if k not in CLEAN}
    e.update(env or {})
    return subprocess.run([CLI, *args], capture_output=True, text=True, env=e, timeout=timeout)


def refused(p, pattern):
    """Exit 2, nothing on stdout (nothing ran), exactly one stderr line, matching pattern."""
    lines = p.stderr.splitlines()
    assert p.returncode == 2, f"exit {p.returncode}, stderr {p.stderr!r}"
    assert p.stdout == "", f"something ran: {p.stdout!r}"
    assert len(lines) == 1, f"want one line, got {lines!r}"
    assert re.fullmatch(pattern, lines[0]), f"{lines[0]!r} does not match {pattern!r}"


def passed(p, scenario="copy"):
    assert p.returncode == 0, f"exit {p.returncode}: {p.stdout[-500:]!r} {p.stderr[-2000:]!r}"
    assert f"summary: {scenario} PASSED" in p.stdout, p.stdout


def spec_version():
    with open(os.path.join(ROOT, "spec", "gpucosim.yaml")) as f:
        v = int(re.search(r"^version:\s*(0x[0-9a-fA-F]+|\d+)", f.read(), re.M).group(1), 0)
    return f"{v >> 16 & 0xFFFF}.{v >> 8 & 0xFF}.{v & 0xFF}"


def verilator_version():
    out = subprocess.run(["verilator", "--version"], capture_output=True, text=True).stdout.split()
    return out[1] if len(out) > 1 else "?"


# ------------------------------------------------------------------ cases
def t_version():
    p = run("--version")
    assert p.returncode == 0 and p.stderr == "", p
    assert f"spec version {spec_version()} " in p.stdout, p.stdout
    assert f"Verilator {verilator_version()}" in p.stdout, p.stdout


def t_run_help():
    p = run("run", "--help")
    assert p.returncode == 0 and p.stderr == "", p
    for opt in ("--bytes", "--timeline", "--seed", "--progress", "--quiet"):
        assert opt in p.stdout, opt
    p = run("run", "copy", "--help")
    assert p.returncode == 0 and p.stderr == "", p
    assert "--bytes" in p.stdout and f"1..{BYTES_MAX}" in p.stdout and "--timeline" not in p.stdout, p.stdout
    p = run("run", "ce-bandwidth", "-h")
    assert p.returncode == 0 and "--bytes" not in p.stdout and "--seed" in p.stdout, p.stdout
    p = run("run", "video-pipeline", "--help")
    assert "--frames" in p.stdout and "--timeline" in p.stdout and "--bytes" not in p.stdout, p.stdout


def t_bytes_range():
    """Both ends run (the largest on the fast backend; the rtl one runs in `make soak`), one past
    each end and malformed values are refused."""
    for v in ("0", str(BYTES_MAX + 1), "33554432", "abc", "-1", "4096x", ""):
        refused(run("run", "copy", "--bytes", v, "--backend", "ref"),
                rf"gpucosim: --bytes '{re.escape(v)}' is not a number in 1\.\.{BYTES_MAX}")
    refused(run("run", "copy", "--bytes"), r"gpucosim: --bytes needs a value \(N\)")
    for backend in ("rtl", "ref"):
        p = run("run", "copy", "--bytes", "1", "--backend", backend)
        passed(p)
        assert "summary: copy PASSED: 1 bytes" in p.stdout
    p = run("run", "copy", "--bytes", str(BYTES_MAX), "--backend", "ref", "--quiet", timeout=600)
    passed(p)
    assert f"PASSED: {BYTES_MAX} bytes sysmem->vidmem->sysmem, 0 bytes differ" in p.stdout, p.stdout


def t_long_copy_waits():
    """8 MiB takes ~4M cycles per copy direction: longer than a fixed 2M-cycle wait, so the waits
    grow with the work; with stalls too."""
    passed(run("run", "copy", "--bytes", "8388608", "--backend", "ref", timeout=600))
    passed(run("run", "copy", "--bytes", "1048576", "--backend", "ref", "--stall", "90", "--quiet", timeout=600))


def t_progress():
    p = run("run", "copy", "--bytes", "1048576", "--backend", "ref", "--progress", "100000")
    passed(p)
    prog = [l for l in p.stderr.splitlines() if l.startswith("gpucosim: progress:")]
    cycles = [int(re.match(r"gpucosim: progress: cycle (\d+) after [\d.]+ s \(\d+ cycles/s\)$", l).group(1))
              for l in prog]
    assert len(cycles) >= 2, p.stderr
    # one line per 100000-cycle boundary passed, in order
    assert [c // 100000 for c in cycles] == list(range(1, len(cycles) + 1)), cycles
    p = run("run", "copy", "--bytes", "262144", "--backend", "ref", "--progress", "100000", "--quiet")
    passed(p)
    assert p.stderr == "", p.stderr  # --quiet: no progress, no backend lines
    p = run("run", "copy", "--bytes", "262144", "--backend", "ref")
    assert "progress" not in p.stderr, p.stderr  # stderr is not a terminal here
    refused(run("run", "copy", "--progress", "0"), r"gpucosim: --progress '0' is not a number in 1\.\.\d+")


def t_progress_on_a_terminal():
    """Without --progress, a terminal on stderr gets a line every 1,000,000 cycles (8 MiB: ~2 M
    cycles a direction on ref); --quiet turns it off."""
    import pty
    for quiet, want in ((False, True), (True, False)):
        master, slave = pty.openpty()
        e = {k: v for k, v in os.environ.items() if k not in CLEAN}
        args = [CLI, "run", "copy", "--bytes", "8388608", "--backend", "ref"] + (["--quiet"] if quiet else [])
        p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=slave, env=e, text=True)
        os.close(slave)
        chunks = []
        while True:
            try:
                d = os.read(master, 4096)
            except OSError:  # EIO: the child closed the terminal
                break
            if not d:
                break
            chunks.append(d)
        out = p.communicate(timeout=300)[0]
        os.close(master)
        err = b"".join(chunks).decode()
        assert p.returncode == 0 and "summary: copy PASSED" in out, (out, err)
        lines = re.findall(r"gpucosim: progress: cycle (\d+) ", err)
        if want:
            assert [int(c) // 1000000 for c in lines] == list(range(1, len(lines) + 1)) and len(lines) >= 3, err
        else:
            assert lines == [] and err == "", err


def t_options_a_scenario_does_not_take():
    with tempfile.TemporaryDirectory() as d:
        tl = os.path.join(d, "t.json")
        refused(run("run", "ce-bandwidth", "--bytes", "4096"),
                r"gpucosim: scenario 'ce-bandwidth' does not take --bytes \(gpucosim run ce-bandwidth --help lists its "
                r"options\)")
        refused(run("run", "copy", "--timeline", tl), r"gpucosim: scenario 'copy' does not take --timeline .*")
        assert not os.path.exists(tl)
        refused(run("run", "copy-priority", "--bytes", "4096"), r"gpucosim: scenario 'copy-priority' does not take .*")
        refused(run("run", "copy-priority", "--frames", "2"), r"gpucosim: scenario 'copy-priority' does not take "
                                                               r"--frames .*")
        refused(run("run", "kernels", "--no-evict"), r"gpucosim: scenario 'kernels' does not take --no-evict .*")
        refused(run("run", "frontend-load", "--rounds", "2"), r"gpucosim: scenario 'frontend-load' does not take .*")
    refused(run("run", "copy", "--frobnicate"), r"gpucosim: unknown option '--frobnicate' .*")
    refused(run("run", "nosuch"), r"gpucosim: no scenario 'nosuch' \(gpucosim list shows them\)")
    refused(run("run", "copy", "extra"), r"gpucosim: unexpected argument 'extra' .*")


def t_bad_timeline_refused_before_the_run():
    p = run("run", "copy-priority", "--backend", "ref", "--timeline", "/nonexistent-dir/t.json")
    refused(p, r"gpucosim: cannot write the timeline '/nonexistent-dir/t\.json': No such file or directory")
    with tempfile.TemporaryDirectory() as d:
        refused(run("run", "copy-priority", "--backend", "ref", "--timeline", d),
                rf"gpucosim: cannot write the timeline '{re.escape(d)}': it is a directory")
        # a good one is written, and only after the run
        tl = os.path.join(d, "t.json")
        p = run("run", "copy-priority", "--backend", "ref", "--timeline", tl)
        passed(p, "copy-priority")
        assert os.path.getsize(tl) > 0


def t_bad_waves_refused():
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "w.fst")
        refused(run("run", "copy", "--backend", "ref", "--waves", f),
                r"gpucosim: the ref backend has no signals to write a waveform of \(waves '.*w\.fst': use --backend "
                r"rtl or sc\)")
        assert not os.path.exists(f)
        refused(run("run", "copy", "--backend", "ref", env={"GPUCOSIM_WAVES": f}),
                r"gpucosim: the ref backend has no signals .*")
        assert not os.path.exists(f)
        # an option refused after --waves leaves no file either
        refused(run("run", "copy", "--waves", f, "--stall", "91"), r"gpucosim: --stall '91' is not a number in 0\.\.90")
        assert not os.path.exists(f)
    # (on sc: the default build's rtl model has no tracing, refused below)
    refused(run("run", "copy", "--backend", "sc", "--waves", "/nonexistent-dir/w.fst"),
            r"gpucosim: cannot write the waveform '/nonexistent-dir/w\.fst': No such file or directory")
    # the default build has no tracing: it names the traced one and leaves no file
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "w.fst")
        for how in ({"args": ("--waves", f)}, {"env": {"GPUCOSIM_WAVES": f}}):
            refused(run("run", "copy", *how.get("args", ()), env=how.get("env")),
                    r"gpucosim: this model is built without tracing \(waves '.*w\.fst'\): waveforms come from "
                    r"build/bin/gpucosim-waves \(make waves-bin, or make run WAVES=1\)")
            assert not os.path.exists(f)


def t_bad_environment_refused():
    cases = [("GPUCOSIM_SEED", "abc", U64_MAX), ("GPUCOSIM_SEED", "-1", U64_MAX), ("GPUCOSIM_SEED", "1 ", U64_MAX),
             ("GPUCOSIM_SEED", str(U64_MAX + 1), U64_MAX), ("GPUCOSIM_STALL_PCT", "95", 90),
             ("GPUCOSIM_STALL_PCT", "ten", 90), ("GPUCOSIM_MAX_CYCLES", "-5", U64_MAX)]
    for var, val, top in cases:
        refused(run("run", "copy", "--backend", "ref", env={var: val}),
                rf"gpucosim: {var}='{re.escape(val)}' is not a number in 0\.\.{top}")
    # the accepted ends
    p = run("run", "copy", "--backend", "ref", env={"GPUCOSIM_SEED": str(U64_MAX), "GPUCOSIM_STALL_PCT": "90"})
    passed(p)
    assert f"seed {U64_MAX}" in p.stdout


def t_seed_range():
    refused(run("run", "copy", "--seed", "-1"), rf"gpucosim: --seed '-1' is not a number in 0\.\.{U64_MAX}")
    refused(run("run", "copy", "--seed", str(U64_MAX + 1)), rf"gpucosim: --seed '{U64_MAX + 1}' is not a number .*")
    refused(run("run", "copy", "--seed", "+3"), r"gpucosim: --seed '\+3' is not a number .*")
    for seed in ("0", str(U64_MAX), "0xffffffffffffffff"):
        p = run("run", "copy", "--backend", "ref", "--seed", seed)
        passed(p)
        assert f"seed {int(seed, 0)}\n" in p.stdout, p.stdout


def t_other_ranges():
    refused(run("run", "video-pipeline", "--frames", "17"), r"gpucosim: --frames '17' is not a number in 1\.\.16")
    refused(run("run", "video-pipeline", "--frames", "0"), r"gpucosim: --frames '0' is not a number in 1\.\.16")
    refused(run("run", "copy-priority", "--copy-priorities", "2"), r"gpucosim: --copy-priorities '2' is not a number "
                                                                     r"in 3\.\.8")
    refused(run("run", "copy-priority", "--copy-priorities", "9"), r"gpucosim: --copy-priorities '9' .*")
    refused(run("run", "kernels", "--rounds", "1001"), r"gpucosim: --rounds '1001' is not a number in 1\.\.1000")
    refused(run("run", "copy-priority", "--timeslice", "0"), r"gpucosim: --timeslice '0' is not a number in "
                                                              r"1\.\.4294967295")
    refused(run("run", "copy", "--stall", "91"), r"gpucosim: --stall '91' is not a number in 0\.\.90")
    for f in ("1", "16"):
        passed(run("run", "video-pipeline", "--backend", "ref", "--frames", f), "video-pipeline")
    for n in ("3", "8"):
        passed(run("run", "copy-priority", "--backend", "ref", "--copy-priorities", n), "copy-priority")
    passed(run("run", "copy", "--backend", "ref", "--stall", "90"))


def t_watchdog_message():
    backends = ["rtl", "ref"] + (["sc"] if os.path.exists(os.path.join(BUILD, "lib", "libgpucosim_sc.so")) else [])
    for backend in backends:
        p = run("run", "copy", "--backend", backend, "--max-cycles", "2000")
        assert p.returncode == 1, p
        err = [l for l in p.stderr.splitlines() if l.startswith("gpucosim:")]
        assert len(err) == 1, err
        last = err[0]
        assert re.fullmatch(r"gpucosim: copy: copy 2: watchdog: waiting for semaphore 0x[0-9a-f]{10} to hold 0x00000002 "
                            r"\(it holds 0x00000000\) after 2000 cycles \(limit 2000\): .*CE0 COPY for channel 0, \d+ "
                            r"bytes moved.*", last), last
    # a runtime scenario: the runtime's wait names the watchdog too
    p = run("run", "copy-priority", "--backend", "ref", "--max-cycles", "3000")
    assert p.returncode == 1
    err = [l for l in p.stderr.splitlines() if l.startswith("gpucosim:")]
    assert len(err) == 1 and re.fullmatch(r"gpucosim: synchronize: GCRT_ERROR_TIMEOUT: gcrt_device_synchronize: watchdog: "
                                          r"the run stopped after 3000 cycles \(limit 3000\): .*channel 0 at GP_GET \d+ "
                                          r"of GP_PUT \d+.*", err[0]), err
    # at open: the watchdog, not a wrong ID
    p = run("run", "copy", "--max-cycles", "5")
    assert p.returncode == 1
    err = [l for l in p.stderr.splitlines() if l.startswith("gpucosim:")]
    assert len(err) == 1 and "watchdog: MMIO read of 0x0000 after " in err[0] and "(limit 5)" in err[0], err
    assert "answers ID" not in p.stderr


def t_copy_records():
    """The copy scenario prints each copy's start and end from CE0's four-word records: the engine
    takes a copy after its doorbell, ends it later, and takes copy 2 after copy 1 ended."""
    backends = ["rtl", "ref"] + (["sc"] if os.path.exists(os.path.join(BUILD, "lib", "libgpucosim_sc.so")) else [])
    for backend in backends:
        p = run("run", "copy", "--backend", backend, "--bytes", "4096")
        passed(p)
        door = int(re.search(r"cycle +(\d+): GP_PUT doorbell", p.stdout).group(1))
        recs = [tuple(map(int, m)) for m in
                re.findall(r"copy \d: CE0 took it at cycle (\d+), released at (\d+) \((\d+) cycles", p.stdout)]
        assert len(recs) == 2, p.stdout
        (s1, e1, d1), (s2, e2, d2) = recs
        assert door < s1 < e1 < s2 < e2 and d1 == e1 - s1 and d2 == e2 - s2, (backend, door, recs)


def t_device_open_failure_has_a_reason():
    p = run("run", "copy", env={"GPUCOSIM_INJECT": "bogus"})
    assert p.returncode == 1
    assert p.stdout == "", p.stdout  # nothing before the error
    err = p.stderr.splitlines()
    assert len(err) == 1, err
    assert re.fullmatch(r"gpucosim: copy: opening the device: cannot open backend 'rtl': cosim_open: unknown inject "
                        r"mode 'bogus' \(.*\)", err[0]), err[0]


def t_runtime_open_failure_has_a_reason():
    """Every runtime scenario: the one-line error and nothing on stdout (no "device:" line before it)."""
    for scenario in ("copy-priority", "video-pipeline", "prio-latency", "kernels", "nested-priority", "eviction",
                     "childless-parent", "fusion"):
        p = run("run", scenario, env={"GPUCOSIM_INJECT": "bogus"})
        assert p.returncode == 1, (scenario, p)
        assert p.stdout == "", (scenario, p.stdout)
        assert p.stderr.splitlines() == ["gpucosim: opening the device: cannot open backend 'rtl': cosim_open: unknown "
                                         "inject mode 'bogus' (flip-write, drop-sem, stall-reads)"], (scenario, p.stderr)
    # and once it opened, the line comes first
    p = run("run", "copy-priority", "--backend", "ref")
    assert p.returncode == 0 and p.stdout.startswith("device: backend ref\n"), p.stdout[:200]


def t_no_c_expressions_in_messages():
    """A failing run names what it was doing, not the C call (copy with the watchdog, bad inject)."""
    for args, env in ((("run", "copy", "--backend", "ref", "--max-cycles", "100"), None),
                      (("run", "copy", "--backend", "ref"), {"GPUCOSIM_INJECT": "nope"})):
        p = run(*args, env=env)
        assert p.returncode != 0
        assert not re.search(r"gc_\w+\(|&\w+\)|->", p.stderr), p.stderr


def t_unknown_command():
    p = run("frobnicate")
    assert p.returncode == 2 and p.stdout == "" and len(p.stderr.splitlines()) == 1, p
    p = run("--help")
    assert p.returncode == 0 and "gpucosim --version" in p.stdout, p


def t_copy_priority_verdict():
    """The verdict and the exit status agree: a time slice too short for the walk-through's order
    completes (forward progress) but fails with the reason; both ends of --timeslice run."""
    for backend in ("rtl", "ref"):
        for ts in ("1", "100"):
            p = run("run", "copy-priority", "--backend", backend, "--timeslice", ts)
            assert p.returncode == 1, f"--timeslice {ts}: exit {p.returncode}: {p.stdout[-800:]!r} {p.stderr[-800:]!r}"
            assert "PASSED" not in p.stdout and "summary: copy-priority FAILED" in p.stdout, p.stdout
            assert "order DIFFERS" in p.stdout and "0 bytes differ" in p.stdout, p.stdout
            assert re.search(r"^why: Clow's \"sem acq Shigh 0\" before Mlow2 passed .* between Chigh's \"sem dec "
                             r"Shigh\" after Mhigh1", p.stdout, re.M), p.stdout
        for ts in ("10000", "4294967295"):
            passed(run("run", "copy-priority", "--backend", backend, "--timeslice", ts), "copy-priority")


def t_work_queue():
    """work-queue (and --prior-art) pass on rtl and ref; work-queue-bench takes --host-latency at both
    ends of its range and refuses what cannot work: a value outside it, the option on another
    scenario, the ref backend (its threads' cycles are modelled); its two paths' parts add up."""
    for backend in ("rtl", "ref"):
        passed(run("run", "work-queue", "--backend", backend), "work-queue")
        p = run("run", "work-queue", "--backend", backend, "--prior-art")
        assert p.returncode == 0 and "summary: work-queue (prior art: the CPU creates the work) PASSED" in p.stdout, \
            p.stdout
    refused(run("run", "work-queue-bench", "--host-latency", "1000001"),
            r"gpucosim: --host-latency '1000001' is not a number in 0\.\.1000000")
    refused(run("run", "work-queue", "--host-latency", "5"), r"gpucosim: scenario 'work-queue' does not take "
                                                             r"--host-latency .*")
    refused(run("run", "work-queue-bench", "--backend", "ref"), r"gpucosim: work-queue-bench: not on the ref backend.*")
    for hl in ("0", "1000000"):
        p = run("run", "work-queue-bench", "--host-latency", hl)
        passed(p, "work-queue-bench")
        m = dict(re.findall(r"^metric (\w+) ([0-9.]+)$", p.stdout, re.M))
        assert float(m["device_work_latency_host"]) >= int(hl), p.stdout
        assert float(m["gpu_queue_items_per_kcycle"]) > 0, p.stdout
        # the parts of both paths (hardware records) add up to their totals
        parts = re.findall(r"^  parts: (.*)$", p.stdout, re.M)
        assert len(parts) == 2, p.stdout
        qsum, hsum = (sum(int(v) for v in re.findall(r" (\d+)(?:,|$)", x)) for x in parts)
        assert qsum == int(m["device_work_latency_queue"]), p.stdout
        react = int(re.search(r"host reaction (\d+),", parts[1]).group(1))
        assert hsum == int(m["device_work_latency_host"]), p.stdout
        # the reaction is host_latency from the kernel's end (at 0, the synchronize's own wait)
        assert react == int(hl) if int(hl) else 0 < react < 1000, p.stdout


def t_info():
    """`gpucosim info` prints the properties read from the configuration registers, on every
    backend; what it does not take is refused with one line."""
    for backend in ("rtl", "ref", "sc"):
        p = run("info", "--backend", backend)
        assert p.returncode == 0 and p.stderr == "", f"{backend}: exit {p.returncode} {p.stderr!r}"
        for want in (rf"device: backend {backend}, id 0x47505543, spec version {re.escape(spec_version())}",
                     r"  channels +16", r"  runlists +3 ", r"  copy engines +2", r"  SMs +1", r"  warps per SM +4",
                     r"  lanes per warp +8", r"  shared memory +8192 bytes per SM", r"  local memory +1024 bytes per thread",
                     r"  FPU +yes", r"  TMU task slots +4", r"  TMU entries +16", r"  device priorities +0\.\.63 ",
                     r"  window SYSMEM +0x00000000 \+ 0x80000000 \(device 0x0000000000, NULL guard 64 KiB\)",
                     r"  window LOCAL +0xf8000000 \+ 0x01000000"):
            assert re.search(want, p.stdout, re.M), f"{backend}: {want!r} not in {p.stdout!r}"
    p = run("info", "--backend", "ref", env={"GPUCOSIM_INJECT": "no-fpu"})
    assert p.returncode == 0 and re.search(r"  FPU +no ", p.stdout), p.stdout
    p = run("info", "--help")
    assert p.returncode == 0 and "usage: gpucosim info [options]" in p.stdout and "--counters" in p.stdout, p.stdout
    refused(run("info", "--bytes", "64"), r"gpucosim: command 'info' does not take --bytes \(gpucosim info --help lists "
                                         r"its options\)")
    refused(run("info", "copy"), r"gpucosim: unexpected argument 'copy' \(gpucosim info \[options\]\)")
    refused(run("info", "--backend", "nope"), r"gpucosim: no backend 'nope' \(gpucosim list shows them\)")


def counters_of(out):
    """The last counter snapshot a run printed: {"cycle": N, "ce0_bytes": N, "tasks": N, ...}."""
    i = out.rindex("counters: cycle ")
    text = out[i:]
    c = {"cycle": int(re.match(r"counters: cycle (\d+)", text).group(1))}
    m = re.search(r"compute: tasks (\d+), ctas (\d+), warp_instrs (\d+), thread_instrs (\d+)", text)
    if m:
        c.update(tasks=int(m.group(1)), ctas=int(m.group(2)), warp_instrs=int(m.group(3)), thread_instrs=int(m.group(4)))
    for e, b, busy in re.findall(r"^  ce (\d+): bytes (\d+), busy_cycles (\d+)", text, re.M):
        c[f"ce{e}_bytes"], c[f"ce{e}_busy"] = int(b), int(busy)
    c["channels"] = {int(ch): int(n) for ch, n in re.findall(r"^  channel (\d+): methods (\d+)", text, re.M)}
    return c


def t_counters():
    """`run ... --counters`: the snapshot printed as the device closes holds what the hardware
    counted for the run (copy: CE0 wrote the two 4 KiB copies; kernels: one task per kernel)."""
    for backend in ("rtl", "ref", "sc"):
        p = run("run", "copy", "--backend", backend, "--counters")
        passed(p)
        c = counters_of(p.stdout)
        assert c["ce0_bytes"] == 2 * 4096 and c["ce1_bytes"] == 0, (backend, c)
        assert 0 < c["ce0_busy"] < c["cycle"], (backend, c)
        assert c["channels"] and all(n > 0 for n in c["channels"].values()), (backend, c)
    p = run("run", "kernels", "--backend", "ref", "--counters")
    passed(p, "kernels")
    c = counters_of(p.stdout)
    kernels = int(re.search(r"summary: kernels PASSED: .*?(\d+) kernels", p.stdout).group(1))
    assert c["tasks"] == kernels and c["ctas"] >= kernels, (c, kernels)
    assert c["warp_instrs"] <= c["thread_instrs"] <= 8 * c["warp_instrs"], c
    p = run("run", "copy")
    assert "counters:" not in p.stdout, p.stdout


if __name__ == "__main__":
    main("cli_", {
        "version": t_version,
        "run_help": t_run_help,
        "bytes_range": t_bytes_range,
        "long_copy_waits": t_long_copy_waits,
        "progress": t_progress,
        "progress_on_a_terminal": t_progress_on_a_terminal,
        "options_a_scenario_does_not_take": t_options_a_scenario_does_not_take,
        "bad_timeline_refused_before_the_run": t_bad_timeline_refused_before_the_run,
        "bad_waves_refused": t_bad_waves_refused,
        "bad_environment_refused": t_bad_environment_refused,
        "seed_range": t_seed_range,
        "other_ranges": t_other_ranges,
        "watchdog_message": t_watchdog_message,
        "copy_records": t_copy_records,
        "device_open_failure_has_a_reason": t_device_open_failure_has_a_reason,
        "runtime_open_failure_has_a_reason": t_runtime_open_failure_has_a_reason,
        "no_c_expressions_in_messages": t_no_c_expressions_in_messages,
        "unknown_command": t_unknown_command,
        "copy_priority_verdict": t_copy_priority_verdict,
        "work_queue": t_work_queue,
        "info": t_info,
        "counters": t_counters,
    })
