#!/usr/bin/env python3
"""The committed GTKWave layout (cosim/gpucosim.gtkw) names only signals that exist: it records an
FST of the default scenario with build/bin/gpucosim, reads the FST's hierarchy with fst2vcd
(Debian's gtkwave package) and checks every signal path of the savefile against it.  A renamed
register in the RTL otherwise leaves a savefile that silently shows nothing.  Same interface as
the C tests: --list, or case names."""
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
SAVEFILE = os.path.join(ROOT, "cosim", "gpucosim.gtkw")
BUILD = os.environ.get("BUILD", os.path.join(ROOT, "build"))
GPUCOSIM = os.path.join(BUILD, "bin", "gpucosim")


def fst_signals(fst):
    """Every variable of the FST as a dotted path (scopes joined by '.')."""
    vcd = subprocess.run(["fst2vcd", fst], capture_output=True, text=True, check=True).stdout
    scope, sigs = [], set()
    for line in vcd.splitlines():
        t = line.split()
        if not t:
            continue
        if t[0] == "$enddefinitions":
            break
        if t[0] == "$scope":
            scope.append(t[2])
        elif t[0] == "$upscope":
            scope.pop()
        elif t[0] == "$var":
            sigs.add(".".join(scope + [t[4]]))
    return sigs


def savefile_paths():
    """Signal lines of the savefile (not comments, format flags, groups or settings)."""
    out = []
    for n, line in enumerate(open(SAVEFILE), 1):
        line = line.strip()
        if line and line[0] not in "[*@-#":
            out.append((n, line))
    return out


def case_paths_exist():
    assert shutil.which("fst2vcd"), "fst2vcd not found (Debian package gtkwave): run 'make setup'"
    assert os.access(GPUCOSIM, os.X_OK), f"{GPUCOSIM} not built: run 'make all'"
    with tempfile.TemporaryDirectory() as d:
        fst = os.path.join(d, "run.fst")
        r = subprocess.run([GPUCOSIM, "run", "copy", "--waves", fst], capture_output=True, text=True)
        assert r.returncode == 0, f"gpucosim run copy --waves failed: {r.stderr[-400:]}"
        sigs = fst_signals(fst)
    assert len(sigs) > 1000, f"only {len(sigs)} signals in the FST"
    paths = savefile_paths()
    assert len(paths) > 50, f"only {len(paths)} signal lines in {SAVEFILE}"
    missing = []
    for n, p in paths:
        # a bit range, or one element of an unpacked array, follows the variable name
        bare = re.sub(r"\[\d+:\d+\]$", "", p)
        if p not in sigs and bare not in sigs and re.sub(r"\[\d+\]$", "", bare) not in sigs:
            missing.append(f"line {n}: {p}")
    assert not missing, f"{len(missing)} savefile signals are not in the FST: " + "; ".join(missing[:10])


CASES = {k[5:]: v for k, v in globals().items() if k.startswith("case_")}

if __name__ == "__main__":
    main("gtkw_", CASES)
