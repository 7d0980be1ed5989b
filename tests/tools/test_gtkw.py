#!/usr/bin/env python3
"""The committed GTKWave layout (cosim/gpucosim.gtkw) against a real FST of the default run
(`gpucosim run copy --waves`, what `make run WAVES=1` records: rtl backend, seed 1, no stalls,
whatever GPUCOSIM_* variables are set), read with fst2vcd -e (Debian's gtkwave package; -e keeps
the FST's enum tables).

- names: every signal line is, exactly, a trace name GTKWave 3.3 makes from the FST (its FST
  loader's rule, gtkwave_name below: a 1-bit `x [0:0]` is `x[0]`, an 8-bit `kill [7:0]` is
  `kill[7:0]`); GTKWave drops a line naming nothing without a word, so a renamed register or a
  wrong bit range would otherwise leave a row silently missing.
- enums: every line whose signal the FST gives an enum table shows as enum names (GTKWave applies the
  table when the line's format has no number base), none of the others asks for one, and each
  spec enum's table (gpucosim_pkg::*_e, generated from spec/gpucosim.yaml) holds every value of
  the spec, name for name; the layout references no translate-filter file.
- groups: each PBDMA and copy engine of the device is in the layout; those the default run
  drives are in open groups, the idle ones in closed groups.
- time_and_zoom: the FST counts ps, clk_i falls at N*1000 and rises at N*1000+500 (N = the cycle
  count gpucosim prints), the layout's comment says so, and the opening zoom shows several hundred
  cycles from [timestart] that include the default run's first PBDMA and copy engine activity.
Same interface as the C tests: --list, or case names."""
import functools
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from casemain import main  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import gen_spec  # noqa: E402

SAVEFILE = os.environ.get("GTKW_SAVEFILE", os.path.join(ROOT, "cosim", "gpucosim.gtkw"))
SPEC = os.path.join(ROOT, "spec", "gpucosim.yaml")
BUILD = os.environ.get("BUILD", os.path.join(ROOT, "build"))
GPUCOSIM = os.path.join(BUILD, "bin", "gpucosim-waves")   # the traced build (make waves-bin)

PS_PER_CYCLE = 1000
# GTKWave trace flags (gtkwave3 analyzer.h, enum TraceEntFlagBits)
TR_HEX, TR_DEC, TR_BIN, TR_OCT = 1 << 1, 1 << 2, 1 << 3, 1 << 4
TR_BLANK, TR_SIGNED, TR_ASCII = 1 << 9, 1 << 10, 1 << 11
TR_REAL, TR_CLOSED, TR_GRP_BEGIN, TR_GRP_END = 1 << 18, 1 << 22, 1 << 23, 1 << 24
TR_TIME, TR_ENUM = 1 << 31, 1 << 32
TR_NUMMASK = TR_ASCII | TR_HEX | TR_DEC | TR_BIN | TR_OCT | TR_SIGNED | TR_REAL | TR_TIME | TR_ENUM
# FST variable types GTKWave shows as integers / reals / strings, without a bit range in the name
INT_TYPES = {"parameter", "integer", "int", "shortint", "longint"}
REAL_TYPES = {"real", "real_parameter", "realtime", "shortreal"}


def gtkwave_name(name, length, vtype):
    """The trace name GTKWave 3.3's FST loader (fst.c: extractNextVar, then the [msb:lsb] / [msb]
    naming of fstReaderIterateHier's variables) makes of one FST variable, scope left out."""
    s = name.replace(" ", "")
    m = re.search(r"\[([-\d]*)(?::([-\d]*))?\]$", s)
    bits = vtype not in INT_TYPES | REAL_TYPES | {"string"} and length > 0
    if m and length > 1 and m.group(2) is None:  # `x[3]` of 8 bits: an array element, kept whole
        base, msb, lsb = s, length - 1, 0
    elif m:
        base = s[:m.start()]
        msb = int(m.group(1) or 0)
        lsb = int(m.group(2) or 0) if m.group(2) is not None else msb
    else:
        base, msb, lsb = s, -1, -1
    if length > 1 and bits:
        if msb == -1 and lsb == -1:
            msb, lsb = length - 1, 0
        return f"{base}[{msb}:{lsb}]"
    if length == 1 and bits and msb != -1 and lsb != -1:
        return f"{base}[{msb}]"
    return base


@functools.lru_cache(maxsize=None)
def default_run():
    """(vars, tables, changes) of the FST of `gpucosim run copy --waves`: vars maps each GTKWave
    trace name to dict(id, len, type, enum); tables maps an enum handle to (name, {item: value});
    changes maps an FST id to its [(time, value)] list; plus the header's timescale."""
    assert shutil.which("fst2vcd"), "fst2vcd not found (Debian package gtkwave): run 'make setup'"
    assert os.access(GPUCOSIM, os.X_OK), f"{GPUCOSIM} not built: run 'make waves-bin'"
    with tempfile.TemporaryDirectory() as d:
        fst = os.path.join(d, "run.fst")
        # the default run exactly: rtl backend, seed 1, no stalls, whatever GPUCOSIM_* the suite sets
        env = {k: v for k, v in os.environ.items() if not k.startswith("GPUCOSIM_")}
        r = subprocess.run([GPUCOSIM, "run", "copy", "--waves", fst], capture_output=True, text=True, env=env)
        assert r.returncode == 0, f"gpucosim run copy --waves failed: {r.stderr[-400:]}"
        vcd = subprocess.run(["fst2vcd", "-e", fst], capture_output=True, text=True, check=True).stdout
    lines = iter(vcd.splitlines())
    scope, vars_, tables, pending, timescale = [], {}, {}, None, None
    for line in lines:
        t = line.split()
        if not t:
            continue
        if t[0] == "$enddefinitions":
            break
        if t[0] == "$timescale":
            timescale = next(lines).strip()
        elif t[0] == "$scope":
            scope.append(t[2])
        elif t[0] == "$upscope":
            scope.pop()
        elif t[0] == "$attrbegin" and t[1:3] == ["misc", "07"]:
            if t[3] == '""':  # the enum table of the next variable
                pending = int(t[4])
            else:  # an enum table: name, count, count item names, count binary values, handle
                n = int(t[4])
                items, values = t[5:5 + n], t[5 + n:5 + 2 * n]
                tables[int(t[5 + 2 * n])] = (t[3], {i: int(v, 2) for i, v in zip(items, values)})
        elif t[0] == "$var":
            vtype, length, ident = t[1], int(t[2]), t[3]
            name = ".".join(scope + [gtkwave_name(" ".join(t[4:-1]), length, vtype)])
            vars_[name] = dict(id=ident, len=length, type=vtype, enum=pending)
            pending = None
    changes, now = {}, 0
    for line in lines:
        if not line:
            continue
        if line[0] == "#":
            now = int(line[1:])
        elif line[0] in "bBrRsS":
            val, ident = line[1:].split()
            changes.setdefault(ident, []).append((now, val))
        elif line[0] in "01xXzZ":
            changes.setdefault(line[1:].strip(), []).append((now, line[0]))
    assert len(vars_) > 1000, f"only {len(vars_)} variables in the FST"
    return vars_, tables, changes, timescale


def savefile():
    """The layout as GTKWave reads it: settings ([name] value), the zoom line, translate-filter
    lines, and each signal / comment / group line with the trace flags in force and whether an
    enclosing group is closed."""
    settings, zoom, filters, rows = {}, None, [], []
    flags, groups = 0, []
    for n, line in enumerate(open(SAVEFILE), 1):
        line = line.rstrip("\n")
        if not line or line.startswith("[*]"):
            continue
        if line[0] == "[":
            key, _, val = line[1:].partition("]")
            settings.setdefault(key, []).append(val.strip())
        elif line[0] == "*":
            zoom = float(line[1:].split()[0])
        elif line[0] == "@":
            flags = int(line[1:], 16)
        elif line[0] == "^":
            filters.append((n, line))
        elif line[0] == "-":
            if flags & TR_GRP_BEGIN:
                groups.append((line[1:], bool(flags & TR_CLOSED)))
            elif flags & TR_GRP_END:
                assert groups and groups[-1][0] == line[1:], f"line {n}: group end {line[1:]!r} opens nothing"
                groups.pop()
            rows.append(dict(line=n, kind="comment", text=line[1:], flags=flags))
        else:
            assert line[0] not in "#:+!?>", f"line {n}: this test does not read {line[0]!r} lines: {line}"
            rows.append(dict(line=n, kind="signal", name=line, flags=flags,
                             closed=any(c for _, c in groups), group=[g for g, _ in groups]))
    assert not groups, f"groups never closed: {groups}"
    return settings, zoom, filters, rows


def signals():
    return [r for r in savefile()[3] if r["kind"] == "signal"]


def case_names():
    vars_ = default_run()[0]
    sig = signals()
    assert len(sig) > 50, f"only {len(sig)} signal lines in {SAVEFILE}"
    missing = [f"line {r['line']}: {r['name']}" for r in sig if r["name"] not in vars_]
    assert not missing, (f"{len(missing)} savefile signals are not GTKWave trace names of the FST "
                         "(GTKWave drops them): " + "; ".join(missing[:10]))


def case_enums():
    vars_, tables, _, _ = default_run()
    _, _, filters, _ = savefile()
    assert not filters, (f"line {filters[0][0]}: a translate filter ({filters[0][1]}); the layout "
                         "takes enum names from the FST's enum tables (one source: the RTL types)")
    spec = gen_spec.load(SPEC)["enums"]
    shown, bad = set(), []
    for r in signals():
        v = vars_.get(r["name"])
        if v is None:
            continue  # case_names reports it
        as_enum = (r["flags"] & TR_NUMMASK) == 0 or bool(r["flags"] & TR_ENUM)
        if v["enum"] is None:
            if r["flags"] & TR_ENUM:
                bad.append(f"line {r['line']}: {r['name']} asks for enum names but the FST has no table for it")
            continue
        if not as_enum:
            bad.append(f"line {r['line']}: {r['name']} has enum table {tables[v['enum']][0]} but "
                       f"format @{r['flags']:x} shows a number")
        tname, items = tables[v["enum"]]
        m = re.fullmatch(r"gpucosim_pkg::(\w+)_e", tname)
        if m:
            ename = m.group(1).upper()
            assert ename in spec, f"{r['name']}: enum {tname} is not in the spec"
            want = {f"{ename}_{k}": e["value"] for k, e in spec[ename]["values"].items()}
            assert items == want, f"{r['name']}: FST enum table {tname} {items} is not the spec's {want}"
            shown.add(ename)
        else:
            assert items, f"{r['name']}: empty enum table {tname}"
    assert not bad, f"{len(bad)} enum display errors: " + "; ".join(bad[:10])
    for need in ("PBDMA_STATE", "CE_STATE", "SIMT_FAULT"):
        assert need in shown, f"no signal of the layout shows spec enum {need}"


def active(prefix):
    """{instance scope: whether its state_q leaves its reset value in the default run} for each
    instance prefix[n] / prefixN (its state_q directly inside it, or one or two modules further down)."""
    vars_, _, changes, _ = default_run()
    out = {}
    for name, v in vars_.items():
        m = re.fullmatch(re.escape(prefix) + r"(\[\d+\]|\d+)(\.\w+){0,2}\.state_q\[\d+:0\]", name)
        if m:
            out[prefix + m.group(1)] = len({val for _, val in changes.get(v["id"], [])}) > 1
    return out


def case_groups():
    sig = signals()
    checked = 0
    for prefix in ("TOP.gpu_top.u_pbdma", "TOP.gpu_top.u_ce"):
        inst = active(prefix)
        assert len(inst) >= 2 and any(inst.values()), f"{prefix}: instances {inst}"
        for scope, used in inst.items():
            rows = [r for r in sig if r["name"].startswith(scope + ".")]
            assert rows, f"the layout does not show {scope}"
            closed = {r["closed"] for r in rows}
            want = not used
            assert closed == {want}, (f"{scope} is {'driven' if used else 'idle'} in the default run, so "
                                      f"it belongs in {'closed' if want else 'open'} groups: lines "
                                      f"{[r['line'] for r in rows if r['closed'] != want]} are not")
            checked += 1
    assert checked >= 5, f"only {checked} PBDMA / CE instances"


def case_time_and_zoom():
    vars_, _, changes, timescale = default_run()
    settings, zoom, _, rows = savefile()
    assert timescale == "1ps", f"FST timescale {timescale}"
    clk = changes[vars_["TOP.clk_i"]["id"]]
    edges = [(t, v) for t, v in clk if t > 0]
    assert len(edges) > 2000, f"only {len(edges)} clock edges"
    wrong = [(t, v) for t, v in edges if t % PS_PER_CYCLE != (500 if v == "1" else 0)]
    assert not wrong, f"clk_i edges off the 1000 ps cycle grid: {wrong[:5]}"
    text = open(SAVEFILE).read()
    assert "1 ps" in text and "1000 ps" in text and "N*1000+500" in text, \
        "the layout's comment does not state the FST time unit (1 ps, 1000 ps per cycle, rising edge N*1000+500)"
    assert zoom is not None and "timestart" in settings, "no zoom line or [timestart]"
    start = int(settings["timestart"][0])
    # GTKWave: 2**-zoom time units per 200 pixels (wavewindow.c calczoom, zoom base 2)
    ps_per_px = 2 ** -zoom / 200
    # the wave pane: the window less the two panes left of it and ~20 px of handles and scroll bar
    # (GTKWave 3.3.118 under Xvfb draws 960 px for [size] 1600, [sst_width] 280, [signals_width] 340)
    width = (int(settings["size"][0].split()[0]) - int(settings["sst_width"][0])
             - int(settings["signals_width"][0]) - 20)
    span = width * ps_per_px
    cycles = span / PS_PER_CYCLE
    assert 300 <= cycles <= 3000, f"the opening view shows {cycles:.0f} cycles ({width} px at {ps_per_px} ps/px)"
    first = {}
    for prefix in ("TOP.gpu_top.u_pbdma", "TOP.gpu_top.u_ce"):
        for scope, used in active(prefix).items():
            if used:
                state = [n for n in vars_ if re.fullmatch(re.escape(scope) + r"(\.\w+){0,2}\.state_q\[\d+:0\]", n)]
                ch = changes[vars_[state[0]]["id"]]
                first[scope] = min(t for t, _ in ch if t > 0)
    late = {s: t for s, t in first.items() if not start <= t < start + span}
    assert not late, f"first activity of {late} (ps) is outside the opening view {start}..{start + span:.0f} ps"


CASES = {k[5:]: v for k, v in globals().items() if k.startswith("case_")}

if __name__ == "__main__":
    main("gtkw_", CASES)
