#!/usr/bin/env python3
"""The cocotb peer check (tests/cocotb/peer_tests.py: cocotbext-axi's AXI-Lite master and AXI
slave around gpu_top, random backpressure on every channel) as cases of `make test`: each case
runs one cocotb test in its own simulator process ($BUILD/cocotb/gpu_top_cocotb) and passes when
cocotb's results file says it passed and the simulator exited 0 (an RTL assertion aborts it).
Same interface as the C tests: --list, or case names."""
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from casemain import main  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BUILD = os.path.abspath(os.environ.get("BUILD", os.path.join(ROOT, "build")))
SIM = os.path.join(BUILD, "cocotb", "gpu_top_cocotb")
TESTS = ("copies", "semaphores", "kernel")


def run(test):
    import find_libpython
    with tempfile.TemporaryDirectory() as d:
        results = os.path.join(d, "results.xml")
        env = dict(os.environ)
        env.update(MODULE="peer_tests", TESTCASE=test, TOPLEVEL="gpu_top_cocotb", TOPLEVEL_LANG="verilog",
                   PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "tests", "cocotb"), env.get("PYTHONPATH", "")]),
                   LIBPYTHON_LOC=find_libpython.find_libpython(), PYGPI_PYTHON_BIN=sys.executable,
                   VIRTUAL_ENV=sys.prefix,
                   COCOTB_RESULTS_FILE=results, COCOTB_REDUCED_LOG_FMT="1", COCOTB_ANSI_OUTPUT="0",
                   GC_KERNELS_ELF=os.path.join(BUILD, "firmware", "kernels.elf"))
        p = subprocess.run([SIM], capture_output=True, text=True, env=env, cwd=d, timeout=3000)
        out = p.stdout + p.stderr
        tail = "\n".join(out.splitlines()[-40:])
        assert p.returncode == 0, f"simulator exit status {p.returncode}:\n{tail}"
        assert os.path.exists(results), f"no cocotb results file:\n{tail}"
        cases = ET.parse(results).getroot().iter("testcase")
        got = [(c.get("name"), [x.tag for x in c if x.tag in ("failure", "error", "skipped")]) for c in cases]
        assert got == [(test, [])], f"cocotb results {got}:\n{tail}"
        print(out[-2000:])


if __name__ == "__main__":
    main("cocotb_", {t: (lambda t=t: run(t)) for t in TESTS})
