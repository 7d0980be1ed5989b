#!/usr/bin/env python3
"""AXI as types (issue 14): the RTL's bus ports are gc_axi_pkg's request / response structs, and the
flat pin lists of the harness boundary are written once, in rtl/gc_axi_pins.svh.

- structs: no module of rtl/ and no bench top of tests/rtl/ declares a flat AXI port (a
  `<prefix>_<channel><signal>_<i|o>` name such as m_arvalid_o, s_wdata_i, c_bready_i, if_rlast_i)
  in its own port list; the exceptions are named below with their reason.
- macros: gpu_top and every bench top that shows the memory master or the BAR0 slave (or a client
  port) to its C++ harness (and the cocotb top, tests/cocotb/gpu_top_cocotb.sv) takes those pins
  from the gc_axi_pins.svh macros, so the pin lists stand
  in one place; the macros declare every pin the C++ harness (cosim/harness.h) reads or drives.
- adapters: the conversions (gc_axi_pins, gc_axil_pins, tests/rtl/tb_cli_pins, tb_eng_pins) are
  wires only: no process, no register, so the structs cost no cycle.
- eng_ports: the engine command port (PBDMA -> copy engine, cmd_* / done_*) and the atomic-unit
  requester port (aq_* / as_*) are gc_eng_pkg's structs, defined there once: gc_pbdma, its parts
  and gc_copy_engine declare none of their fields as a flat port, ce_tb_top takes the flat pins its
  C++ drives from tests/rtl/tb_eng_pins.svh, and no other file defines those structs again.
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
COCOTB = os.path.join(ROOT, "tests", "cocotb")

# (file, reason): flat AXI ports allowed in these port lists
EXEMPT = {
    "xbar_tb_top.sv": "the bench drives each client's fields as packed arrays indexed by client; "
                      "the top packs them into cli_req_t / cli_rsp_t",
}
PIN = re.compile(r"\b(?:m|s|c|if)_(?:ar|aw|w|r|b)(?:valid|ready|addr|len|size|burst|id|data|strb|"
                 r"last|resp)_[io]\b")
PORT_DECL = re.compile(r"^\s*(?:input|output)\b[^;]*$", re.M)


def sources():
    for d, pat in ((RTL, r".*\.sv$"), (TB, r".*_tb_top\.sv$|.*_pins\.sv$"), (COCOTB, r".*\.sv$")):
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
        "GC_AXIL_SLAVE_PINS": ["gpu_top.sv", "gc_axil_pins.sv", "pbdma_tb_top.sv", "gpu_top_cocotb.sv"],
        "GC_AXI_MASTER_PINS": ["gpu_top.sv", "gc_axi_pins.sv", "pbdma_tb_top.sv", "simt_tb_top.sv",
                               "xbar_tb_top.sv", "gpu_top_cocotb.sv"],
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
                 os.path.join(TB, "tb_cli_pins.sv"), os.path.join(TB, "tb_eng_pins.sv")):
        assert os.path.exists(path), f"no adapter {os.path.relpath(path, ROOT)}"
        text = open(path).read()
        body = text[text.index(");\n"):]
        for word in ("always", "always_ff", "always_comb", "always_latch", "initial"):
            assert not re.search(rf"\b{word}\b", body), f"{os.path.basename(path)} has an {word} block"
        assert "assign" in body, f"{os.path.basename(path)} converts nothing"


# Flat fields of the engine command port and of an atomic-unit requester port
ENG_PIN = re.compile(r"\b(?:cmd_(?:valid|ready|ch|src|dst|line_len|line_count|pitch_in|pitch_out|copy|"
                     r"remap|const_a|const_b|components|sem|sem_four|sem_addr|sem_payload|sem_reduce|"
                     r"sem_red|sem_signed|intr)|ce_done(?:_err|_ch)?|aq_(?:valid|ready|op|red|signed|"
                     r"size|addr|wdata)|as_(?:valid|rdata|err))_[io]\b")
# (file, reason): these keep per-field ports (issue 14 names the PBDMA and copy-engine ports)
ENG_EXEMPT = {
    "gc_atomic_unit.sv": "the unit's N requesters as per-field arrays, with the SIMT core's LR/SC "
                         "fields (aq_xop, aq_rtag); gpu_top maps the aq_req_t ports onto them",
    "gc_simt.sv": "the compute engine takes only the launch (valid, ready, TMD address, channel) "
                  "and has the SIMT core's atomic requesters (LR/SC fields)",
    "gc_compute.sv": "the SIMT core's atomic requester (its log writes), inside gc_simt",
    "gc_sm.sv": "the SIMT core's atomic requesters (LR/SC fields), inside gc_simt",
    "gc_sm_lsu.sv": "the SIMT core's atomic requesters (LR/SC fields), inside gc_simt",
    "atomic_tb_top.sv": "the atomic unit's bench: its per-field requester arrays",
    "simt_tb_top.sv": "gc_simt's bench: its launch and requester ports",
}
ENG_USERS = ["gc_pbdma.sv", "gc_pbdma_eng.sv", "gc_pbdma_sem.sv", "gc_copy_engine.sv", "gpu_top.sv",
             "ce_tb_top.sv"]


def eng_ports():
    texts = dict(sources())
    bad = []
    for f, text in texts.items():
        if f in ENG_EXEMPT or f == "tb_eng_pins.sv":
            continue
        for decl in PORT_DECL.findall(port_list(text)):
            bad += [f"{f}: {pin}" for pin in ENG_PIN.findall(decl)]
    assert not bad, f"{len(bad)} flat engine-command / atomic ports: " + ", ".join(bad[:12])
    pkg = open(os.path.join(RTL, "gc_eng_pkg.sv")).read()
    for t in ("eng_cmd_t", "eng_req_t", "eng_rsp_t", "aq_req_t", "aq_rsp_t"):
        assert re.search(rf"}}\s*{t}\s*;", pkg), f"gc_eng_pkg defines no {t}"
    for f in ENG_USERS:
        assert re.search(r"\b(?:eng_req_t|aq_req_t)\b", texts[f]), f"{f} does not use gc_eng_pkg's structs"
    # one definition: no other file defines a struct with the command's or a requester's fields
    for d in (RTL, TB):
        for f in sorted(os.listdir(d)):
            if not f.endswith((".sv", ".svh")) or f == "gc_eng_pkg.sv":
                continue
            for body in re.findall(r"struct\s+packed\s*{(.*?)}", open(os.path.join(d, f)).read(), re.S):
                fields = set(re.findall(r"(\w+)\s*;", body))
                assert not {"line_len", "pitch_in", "sem_payload"} <= fields, \
                    f"{f} defines the engine command again"
                assert not {"op", "size", "wdata", "is_signed"} <= fields, \
                    f"{f} defines the atomic request again"
    svh = open(os.path.join(TB, "tb_eng_pins.svh")).read()
    top = port_list(texts["ce_tb_top.sv"])
    for macro in ("TB_ENG_CMD_PINS", "TB_AQ_PINS"):
        assert f"`define {macro}" in svh, f"tb_eng_pins.svh defines no {macro}"
        assert f"`{macro}" in top, f"ce_tb_top.sv does not take its pins from `{macro}"
        assert f"`{macro}" in port_list(texts["tb_eng_pins.sv"]), f"tb_eng_pins.sv lacks `{macro}"
    # every cmd_* / aq_* / as_* pin ce_tb.cpp touches is declared there
    cpp = open(os.path.join(TB, "ce_tb.cpp")).read()
    used = set(re.findall(r"(?:->|\.)((?:cmd|aq|as)_\w+_[io]|done(?:_err)?_o)\b", cpp))
    declared = set(re.findall(r"\b(\w+_[io])\b", svh))
    assert used, "ce_tb.cpp touches no command pin"
    missing = sorted(used - declared)
    assert not missing, f"ce_tb.cpp uses pins tb_eng_pins.svh does not declare: {missing}"


if __name__ == "__main__":
    main("axi_", {"structs": structs, "macros": macros, "adapters": adapters,
                  "eng_ports": eng_ports})
