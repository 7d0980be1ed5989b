#!/usr/bin/env python3
"""AXI as types (issue 14): the RTL's bus ports are gc_axi_pkg's request / response structs, and the
flat pin lists of the harness boundary are written once, in rtl/gc_axi_pins.svh.

- structs: no module of rtl/ and no bench top of tests/rtl/ declares a flat AXI port (a
  `<prefix>_<channel><signal>_<i|o>` name such as m_arvalid_o, s_wdata_i, c_bready_i, if_rlast_i)
  in its own port list; the exceptions are named below with their reason.
- macros: gpu_top and every bench top that shows the memory master or the BAR0 slave (or a client
  port) to its C++ harness takes those pins from the gc_axi_pins.svh macros, so the pin lists stand
  in one place; the macros declare every pin the C++ harness (cosim/harness.h) reads or drives.
- adapters: the conversions (gc_axi_pins, gc_axil_pins, tests/rtl/tb_cli_pins) are wires only:
  no process, no register, so the structs cost no cycle.
Same interface as the C tests: --list, or case names."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from casemain import main  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RTL = os.path.join(ROOT, "rtl")
TB = os.path.join(ROOT, "tests", "rtl")

# (file, reason): flat AXI ports allowed in these port lists
PBDMA_WHY = ("the PBDMA (gc_pbdma and its parts, issue 13) keeps flat client-port pins; gpu_top maps "
             "them onto cli_req_t / cli_rsp_t at the instance")
EXEMPT = {
    "gc_pbdma.sv": PBDMA_WHY,
    "gc_pbdma_fetch.sv": PBDMA_WHY,
    "gc_pbdma_dec.sv": PBDMA_WHY,
    "xbar_tb_top.sv": "the bench drives each client's fields as packed arrays indexed by client; "
                      "the top packs them into cli_req_t / cli_rsp_t",
}
PIN = re.compile(r"\b(?:m|s|c|if)_(?:ar|aw|w|r|b)(?:valid|ready|addr|len|size|burst|id|data|strb|"
                 r"last|resp)_[io]\b")
PORT_DECL = re.compile(r"^\s*(?:input|output)\b[^;]*$", re.M)


def sources():
    for d, pat in ((RTL, r".*\.sv$"), (TB, r".*_tb_top\.sv$|.*_pins\.sv$")):
        for f in sorted(os.listdir(d)):
            if re.match(pat, f):
                yield f, open(os.path.join(d, f)).read()


def port_list(text):
    """The text of the first module's port list (from the module header to its `);`); '' for a
    package."""
    m = re.search(r"^module\s+\w+.*?^\);", text, re.S | re.M)
    if not m:
        return ""
    hdr = m.group(0)
    # the parameter list, if any, ends at the `) (` that opens the ports
    i = hdr.find(") (")
    return hdr[i:] if i >= 0 else hdr


def structs():
    bad = []
    for f, text in sources():
        if f in EXEMPT:
            continue
        for decl in PORT_DECL.findall(port_list(text)):
            for pin in PIN.findall(decl):
                bad.append(f"{f}: {pin}")
    assert not bad, f"{len(bad)} flat AXI ports outside gc_axi_pins.svh: " + ", ".join(bad[:12])


def macros():
    svh = open(os.path.join(RTL, "gc_axi_pins.svh")).read()
    users = {
        "GC_AXIL_SLAVE_PINS": ["gpu_top.sv", "gc_axil_pins.sv", "pbdma_tb_top.sv"],
        "GC_AXI_MASTER_PINS": ["gpu_top.sv", "gc_axi_pins.sv", "pbdma_tb_top.sv", "simt_tb_top.sv",
                               "xbar_tb_top.sv"],
        "GC_CLI_MASTER_PINS": ["tb_cli_pins.sv", "ce_tb_top.sv", "atomic_tb_top.sv"],
    }
    texts = dict(sources())
    for macro, files in users.items():
        assert f"`define {macro}" in svh, f"gc_axi_pins.svh defines no {macro}"
        for f in files:
            assert f"`{macro}" in port_list(texts[f]), f"{f} does not take its pins from `{macro}"
    # every pin the C++ harness touches is in the macros (harness.h: AxiMemPins <-> m_*, s_* master)
    harness = open(os.path.join(ROOT, "cosim", "harness.h")).read()
    used = set(re.findall(r"\bt\.((?:m|s)_\w+_[io])\b", harness))
    declared = set(PIN.findall(svh))
    assert used, "harness.h touches no pin"
    missing = sorted(used - declared)
    assert not missing, f"harness.h uses pins the macros do not declare: {missing}"


def adapters():
    for path in (os.path.join(RTL, "gc_axi_pins.sv"), os.path.join(RTL, "gc_axil_pins.sv"),
                 os.path.join(TB, "tb_cli_pins.sv")):
        assert os.path.exists(path), f"no adapter {os.path.relpath(path, ROOT)}"
        text = open(path).read()
        body = text[text.index(");\n"):]
        for word in ("always", "always_ff", "always_comb", "always_latch", "initial"):
            assert not re.search(rf"\b{word}\b", body), f"{os.path.basename(path)} has an {word} block"
        assert "assign" in body, f"{os.path.basename(path)} converts nothing"


if __name__ == "__main__":
    main("axi_", {"structs": structs, "macros": macros, "adapters": adapters})
