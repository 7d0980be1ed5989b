#!/usr/bin/env python3
"""Tests of scripts/gen_spec.py: it refuses broken specs with a clear message, and the real spec
generates the same text twice (so the build stays incremental).  Same interface as the C tests:
--list, or case names."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from casemain import main  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GEN = os.path.join(ROOT, "scripts", "gen_spec.py")
SPEC = os.path.join(ROOT, "spec", "gpucosim.yaml")


def gen(spec_text=None, check=False, out=None):
    with tempfile.TemporaryDirectory() as d:
        path = SPEC
        if spec_text is not None:
            path = os.path.join(d, "spec.yaml")
            with open(path, "w") as fh:
                fh.write(spec_text)
        argv = [sys.executable, GEN, "--spec", path, "--out", out or os.path.join(d, "gen")]
        if check:
            argv.append("--check")
        return subprocess.run(argv, capture_output=True, text=True)


def mutate(old, new):
    with open(SPEC) as fh:
        text = fh.read()
    assert old in text, f"spec no longer contains {old!r}"
    return text.replace(old, new, 1)


def expect_error(text, *needles):
    p = gen(text, check=True)
    assert p.returncode != 0, "a broken spec was accepted"
    for n in needles:
        assert n in p.stderr, f"error message {p.stderr.strip()!r} lacks {n!r}"


def case_real_spec_is_stable():
    with tempfile.TemporaryDirectory() as d:
        assert gen(out=d).returncode == 0
        first = {f: open(os.path.join(d, f)).read() for f in os.listdir(d)}
        stamp = {f: os.stat(os.path.join(d, f)).st_mtime_ns for f in first}
        assert gen(out=d).returncode == 0
        assert sorted(first) == ["gpucosim_pkg.sv", "gpucosim_spec.h", "spec.md"]
        for f, text in first.items():
            assert open(os.path.join(d, f)).read() == text
            assert os.stat(os.path.join(d, f)).st_mtime_ns == stamp[f], f"{f} rewritten unchanged"
            assert "DO NOT EDIT" in text.splitlines()[0]


def case_overlapping_fields():
    expect_error(mutate('ENGINE:  {bits: "20:16"}', 'ENGINE:  {bits: "15:12"}'), "SET_OBJECT.ENGINE", "overlap")


def case_duplicate_register_offset():
    expect_error(mutate("GP_GET:   {offset: 0x10,", "GP_GET:   {offset: 0x0C,"), "CHANNEL.GP_GET", "also used by GP_PUT")


def case_bad_bits():
    expect_error(mutate('LOG2: {bits: "4:0"}', 'LOG2: {bits: "0:4"}'), "GPFIFO_SIZE.LOG2", "msb")


def case_value_too_wide():
    expect_error(mutate("OPERATION:\n            bits: \"2:0\"", "OPERATION:\n            bits: \"1:0\""),
                 "SEM_EXECUTE.OPERATION", "does not fit")


def case_duplicate_method():
    expect_error(mutate("NOP:                 {offset: 0x0008", "NOP:                 {offset: 0x0020"),
                 "also used by")


def case_duplicate_csr():
    expect_error(mutate("TID_Y:    {number: 0xCC1", "TID_Y:    {number: 0xCC0"), "simt.csrs.TID_Y", "also used by TID_X")


def case_custom_insn_outside_custom_space():
    expect_error(mutate("EXIT: {opcode: 0x0B", "EXIT: {opcode: 0x33"), "simt.instructions.EXIT", "custom-0")


def case_duplicate_custom_insn():
    expect_error(mutate("EXIT: {opcode: 0x0B, funct3: 1", "EXIT: {opcode: 0x0B, funct3: 0"),
                 "simt.instructions.EXIT", "also used by BAR")


def case_overlapping_windows():
    expect_error(mutate("LOCAL:  {base: 0xF8000000", "LOCAL:  {base: 0xF0800000"), "simt.windows.LOCAL", "overlaps")


def case_struct_word_outside():
    expect_error(mutate("FLAGS:\n        offset: 0x30", "FLAGS:\n        offset: 0x40"), "TMD.FLAGS", "inside")


def case_struct_duplicate_word():
    expect_error(mutate("GRID_Y:      {offset: 0x0C", "GRID_Y:      {offset: 0x08"), "TMD.GRID_Y", "also used by GRID_X")


def case_fp_op_not_distinguishable():
    expect_error(mutate("FMAX:      {funct5: 0x05, funct3: 1", "FMAX:      {funct5: 0x05, funct3: 0"),
                 "simt.fp.op_fp.FMAX", "not distinguishable from FMIN")


def case_fp_csr_clashes_with_simt_csr():
    expect_error(mutate("FRM:    {number: 0x002", "FRM:    {number: 0xCC0"), "simt.fp.csrs.FRM", "also used by TID_X")


def case_fp_flag_bits():
    expect_error(mutate("NV: {bit: 4,", "NV: {bit: 5,"), "simt.fp.fflags", "below 5")
    expect_error(mutate("OF: {bit: 2,", "OF: {bit: 1,"), "simt.fp.fflags", "distinct")


def case_fp_opcode_too_wide():
    expect_error(mutate("OP_FP:    0x53", "OP_FP:    0x153"), "simt.fp.opcodes.OP_FP", "does not fit")


def case_header_is_assembler_safe():
    """Firmware .S files include the C header: the SIMT part must come before any C-only line."""
    with tempfile.TemporaryDirectory() as d:
        assert gen(out=d).returncode == 0
        lines = open(os.path.join(d, "gpucosim_spec.h")).read().splitlines()
        guard = lines.index("#ifndef __ASSEMBLER__")
        before = [l for l in lines[:guard] if l.startswith("#define GC_")]
        assert any("GC_SIMT_CSR_TID_X" in l for l in before) and any("GC_SIMT_INSN_BAR " in l for l in before)
        assert any("GC_FP_OPC_OP_FP " in l for l in before) and any("GC_FP_CSR_FCSR " in l for l in before)
        for l in before:
            value = l.split()[2]
            assert value.startswith("0x") or value.isdigit(), l
            assert not value.endswith(("u", "U", "ull")), f"suffix not accepted by the assembler: {l}"


CASES = {k[5:]: v for k, v in globals().items() if k.startswith("case_")}

if __name__ == "__main__":
    main("gen_spec_", CASES)
