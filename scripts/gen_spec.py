#!/usr/bin/env python3
"""Generate the SystemVerilog package, the C header and the spec document from spec/gpucosim.yaml.

The YAML file is the only place an encoding is written by hand.  This script checks it (unique
offsets, fields inside 32 bits and not overlapping unless they are documented aliases, enum
values that fit their fields) and writes

    <out>/gpucosim_pkg.sv    package gpucosim_pkg, for rtl/
    <out>/gpucosim_spec.h    C11 header, for hostdrv/, cosim/ and tests/
    <out>/spec.md            the readable register / format / class document

A file is rewritten only when its text changes, so make's incremental rebuilds stay incremental.
"""
import argparse
import os
import re
import sys

import yaml

BANNER = "GENERATED from spec/gpucosim.yaml by scripts/gen_spec.py. DO NOT EDIT."


class SpecError(Exception):
    pass


def parse_bits(text, where):
    """'msb:lsb' or 'n' -> (lsb, width)."""
    m = re.fullmatch(r"\s*(\d+)\s*(?::\s*(\d+)\s*)?", str(text))
    if not m:
        raise SpecError(f"{where}: bits '{text}' is not 'msb:lsb' or 'n'")
    msb = int(m.group(1))
    lsb = int(m.group(2)) if m.group(2) is not None else msb
    if msb < lsb or msb > 31:
        raise SpecError(f"{where}: bits '{text}' must satisfy 31 >= msb >= lsb")
    return lsb, msb - lsb + 1


# Fields that share bits on purpose (one word read two ways).
ALIASES = {("GP_ENTRY0", "OPERAND"), ("GP_ENTRY1", "OPCODE"), ("METHOD_HEADER", "IMMD_DATA")}


def load_fields(owner, fields, enums):
    out = []
    used = 0
    for name, f in (fields or {}).items():
        where = f"{owner}.{name}"
        if not isinstance(f, dict) or "bits" not in f:
            raise SpecError(f"{where}: a field needs 'bits'")
        lsb, width = parse_bits(f["bits"], where)
        mask = ((1 << width) - 1) << lsb
        if (owner.split(".")[-1], name) not in ALIASES:
            if used & mask:
                raise SpecError(f"{where}: bits {f['bits']} overlap another field")
            used |= mask
        values = dict(f.get("values", {}) or {})
        enum = f.get("enum")
        if enum:
            if enum not in enums:
                raise SpecError(f"{where}: unknown enum {enum}")
            values = {k: v["value"] for k, v in enums[enum]["values"].items()}
        for vname, v in values.items():
            if not 0 <= int(v) < (1 << width):
                raise SpecError(f"{where}: value {vname}={v} does not fit in {width} bits")
        out.append(dict(name=name, lsb=lsb, width=width, doc=f.get("doc", ""), values=values,
                        enum=enum, access=f.get("access")))
    return out


def load(path):
    with open(path) as fh:
        raw = yaml.safe_load(fh)
    spec = dict(id=raw["id"], version=raw["version"])
    spec["params"] = {k: (v["value"], v.get("doc", "")) for k, v in raw["params"].items()}
    spec["memory_map"] = raw["memory_map"]
    enums = raw["enums"]
    spec["enums"] = enums
    blocks = []
    for bname, b in raw["registers"].items():
        regs = []
        offsets = {}
        for rname, r in b["regs"].items():
            off = r["offset"]
            if off % 4:
                raise SpecError(f"{bname}.{rname}: offset {off:#x} is not 4-byte aligned")
            if off in offsets:
                raise SpecError(f"{bname}.{rname}: offset {off:#x} also used by {offsets[off]}")
            offsets[off] = rname
            if b.get("stride") and off >= b["stride"]:
                raise SpecError(f"{bname}.{rname}: offset {off:#x} is past the block stride")
            regs.append(dict(name=rname, offset=off, access=r["access"], doc=r.get("doc", ""),
                             fields=load_fields(f"{bname}.{rname}", r.get("fields"), enums)))
        count = b.get("count")
        if isinstance(count, str):
            count = spec["params"][count][0]
        blocks.append(dict(name=bname, base=b["base"], stride=b.get("stride"), count=count,
                           doc=b.get("doc", ""), regs=regs))
    spec["blocks"] = blocks
    spec["formats"] = [dict(name=n, doc=f.get("doc", ""), fields=load_fields(n, f["fields"], enums))
                       for n, f in raw["formats"].items()]
    classes = []
    for cname, c in raw["classes"].items():
        methods = []
        seen = {}
        for mname, m in c["methods"].items():
            off = m["offset"]
            if off % 4 or off >= 0x4000:
                raise SpecError(f"{cname}.{mname}: offset {off:#x} must be 4-aligned and below 0x4000")
            if off in seen:
                raise SpecError(f"{cname}.{mname}: offset {off:#x} also used by {seen[off]}")
            seen[off] = mname
            methods.append(dict(name=mname, offset=off, doc=m.get("doc", ""),
                                fields=load_fields(f"{cname}.{mname}", m.get("fields"), enums)))
        classes.append(dict(name=cname, id=c["id"], doc=c.get("doc", ""), methods=methods))
    spec["classes"] = classes
    spec["structs"] = load_structs(raw.get("structs") or {}, enums)
    spec["simt"] = load_simt(raw.get("simt") or {})
    return spec


def load_structs(raw, enums):
    """Memory structures: words at byte offsets (4-aligned, unique, inside `size`), with fields."""
    out = []
    for sname, st in raw.items():
        size, align = st.get("size"), st.get("align", 4)
        if not isinstance(size, int) or size <= 0 or size % 4:
            raise SpecError(f"{sname}: size must be a positive multiple of 4")
        if align <= 0 or align & (align - 1):
            raise SpecError(f"{sname}: align {align} is not a power of two")
        words, seen = [], {}
        for wname, w in (st.get("words") or {}).items():
            off = w["offset"]
            if off % 4 or off + 4 > size:
                raise SpecError(f"{sname}.{wname}: offset {off:#x} must be 4-aligned and inside the {size}-byte struct")
            if off in seen:
                raise SpecError(f"{sname}.{wname}: offset {off:#x} also used by {seen[off]}")
            seen[off] = wname
            words.append(dict(name=wname, offset=off, doc=w.get("doc", ""),
                              fields=load_fields(f"{sname}.{wname}", w.get("fields"), enums)))
        out.append(dict(name=sname, size=size, align=align, doc=st.get("doc", ""), words=words))
    return out


# custom-0 and custom-1: the opcodes RISC-V leaves to extensions that need no other encoding space
CUSTOM_OPCODES = {0x0B: "custom-0", 0x2B: "custom-1"}


def load_simt(raw):
    """SIMT ISA additions: address windows, CSRs, custom instructions, the F extension."""
    simt = dict(doc=raw.get("doc", ""), windows=[], csrs=[], insns=[])
    spans = []
    for name, w in (raw.get("windows") or {}).items():
        base, size = w["base"], w["size"]
        if size <= 0 or base + size > 1 << 32:
            raise SpecError(f"simt.windows.{name}: [{base:#x}, +{size:#x}) is not inside the 32-bit thread space")
        for oname, ob, osz in spans:
            if base < ob + osz and ob < base + size:
                raise SpecError(f"simt.windows.{name}: overlaps window {oname}")
        guard = w.get("guard", 0)
        if guard < 0 or guard > size or (guard & (guard - 1)) or (guard and base % guard):
            raise SpecError(f"simt.windows.{name}: guard {guard:#x} is not a power of two <= the size dividing the base")
        spans.append((name, base, size))
        simt["windows"].append(dict(name=name, base=base, size=size, guard=guard, device=w.get("device"),
                                    doc=w.get("doc", "")))
    seen = {}
    for name, c in (raw.get("csrs") or {}).items():
        num = c["number"]
        if not 0 <= num < 1 << 12:
            raise SpecError(f"simt.csrs.{name}: number {num:#x} is not a 12-bit CSR number")
        if num in seen:
            raise SpecError(f"simt.csrs.{name}: number {num:#x} also used by {seen[num]}")
        seen[num] = name
        simt["csrs"].append(dict(name=name, number=num, doc=c.get("doc", "")))
    seen = {}
    for name, i in (raw.get("instructions") or {}).items():
        op, f3 = i["opcode"], i["funct3"]
        if op not in CUSTOM_OPCODES:
            raise SpecError(f"simt.instructions.{name}: opcode {op:#x} is not custom-0 (0x0b) or custom-1 (0x2b)")
        if not 0 <= f3 < 8:
            raise SpecError(f"simt.instructions.{name}: funct3 {f3} does not fit in 3 bits")
        if (op, f3) in seen:
            raise SpecError(f"simt.instructions.{name}: opcode {op:#x} funct3 {f3} also used by {seen[(op, f3)]}")
        seen[(op, f3)] = name
        simt["insns"].append(dict(name=name, opcode=op, funct3=f3, doc=i.get("doc", "")))
    simt["fp"] = load_fp(raw.get("fp"), {c["number"]: c["name"] for c in simt["csrs"]})
    return simt


def load_fp(raw, csr_numbers):
    """simt.fp: the F extension's opcodes, OP-FP selectors, rounding modes, flags, classes, CSRs."""
    if raw is None:
        return None
    where = "simt.fp"

    def field(value, bits, what):
        if not isinstance(value, int) or not 0 <= value < 1 << bits:
            raise SpecError(f"{what}: {value!r} does not fit in {bits} bits")
        return value

    fp = dict(doc=raw.get("doc", ""), canonical_nan=field(raw["canonical_nan"], 32, f"{where}.canonical_nan"),
              fmt_s=field(raw["fmt_s"], 2, f"{where}.fmt_s"), width_w=field(raw["width_w"], 3, f"{where}.width_w"))
    fp["opcodes"] = {n: field(v, 7, f"{where}.opcodes.{n}") for n, v in raw["opcodes"].items()}
    if len(set(fp["opcodes"].values())) != len(fp["opcodes"]):
        raise SpecError(f"{where}.opcodes: two opcodes share a value")
    fp["op_fp"], seen = [], {}
    for n, i in raw["op_fp"].items():
        ins = dict(name=n, funct5=field(i["funct5"], 5, f"{where}.op_fp.{n}.funct5"),
                   funct3=i.get("funct3"), rs2=i.get("rs2"), doc=i.get("doc", ""))
        if ins["funct3"] is not None:
            field(ins["funct3"], 3, f"{where}.op_fp.{n}.funct3")
        if ins["rs2"] is not None:
            field(ins["rs2"], 5, f"{where}.op_fp.{n}.rs2")
        for other in seen.get(ins["funct5"], []):
            # Two instructions of one funct5 must be told apart by a selector both of them name.
            if not any(ins[k] is not None and other[k] is not None and ins[k] != other[k] for k in ("funct3", "rs2")):
                raise SpecError(f"{where}.op_fp.{n}: not distinguishable from {other['name']}")
        seen.setdefault(ins["funct5"], []).append(ins)
        fp["op_fp"].append(ins)
    fp["rm"] = {n: (field(v["value"], 3, f"{where}.rm.{n}"), v.get("doc", "")) for n, v in raw["rm"].items()}
    for key, width in (("fflags", 5), ("fclass", 10)):
        fp[key] = {n: (field(v["bit"], 5, f"{where}.{key}.{n}"), v.get("doc", ""))
                   for n, v in raw[key].items()}
        bits = [b for b, _ in fp[key].values()]
        if len(set(bits)) != len(bits) or max(bits) >= width:
            raise SpecError(f"{where}.{key}: bits must be distinct and below {width}")
    fp["csrs"] = []
    for n, c in raw["csrs"].items():
        num = field(c["number"], 12, f"{where}.csrs.{n}.number")
        if num in csr_numbers:
            raise SpecError(f"{where}.csrs.{n}: number {num:#x} also used by {csr_numbers[num]}")
        csr_numbers[num] = n
        fp["csrs"].append(dict(name=n, number=num, bits=c["bits"], doc=c.get("doc", "")))
    return fp


def fp_constants(fp):
    """simt.fp as (name, bits, value, doc) rows, in the order both generated files list them."""
    rows = [("GC_FP_CANONICAL_NAN", 32, fp["canonical_nan"], ""), ("GC_FP_FMT_S", 2, fp["fmt_s"], ""),
            ("GC_FP_WIDTH_W", 3, fp["width_w"], "")]
    rows += [(f"GC_FP_OPC_{n}", 7, v, "") for n, v in fp["opcodes"].items()]
    for i in fp["op_fp"]:
        rows.append((f"GC_FP_F5_{i['name']}", 5, i["funct5"], i["doc"]))
        if i["funct3"] is not None:
            rows.append((f"GC_FP_F3_{i['name']}", 3, i["funct3"], ""))
        if i["rs2"] is not None:
            rows.append((f"GC_FP_RS2_{i['name']}", 5, i["rs2"], ""))
    rows += [(f"GC_FP_RM_{n}", 3, v, doc) for n, (v, doc) in fp["rm"].items()]
    rows += [(f"GC_FP_FLAG_{n}_BIT", 0, b, doc) for n, (b, doc) in fp["fflags"].items()]
    rows += [(f"GC_FP_CLASS_{n}_BIT", 0, b, doc) for n, (b, doc) in fp["fclass"].items()]
    rows += [(f"GC_FP_CSR_{c['name']}", 12, c["number"], c["doc"]) for c in fp["csrs"]]
    return rows


def fp_csr_bits(fp, name):
    return next(c["bits"] for c in fp["csrs"] if f"GC_FP_CSR_{c['name']}" == name)


def enum_width(spec, ename):
    widths = {f["width"] for b in spec["blocks"] for r in b["regs"] for f in r["fields"] if f["enum"] == ename}
    if not widths:
        top = max(v["value"] for v in spec["enums"][ename]["values"].values())
        return max(1, top.bit_length())
    return max(widths)


# --------------------------------------------------------------------------------------------- C
def gen_c(spec):
    L = [f"/* {BANNER} */", "#ifndef GPUCOSIM_SPEC_H", "#define GPUCOSIM_SPEC_H", ""]
    # The SIMT ISA constants come first, as plain integers, so that firmware .S files can include
    # this header too (everything after them is C only).
    gen_c_simt(spec, L)
    L += ["#ifndef __ASSEMBLER__", "", "#include <stdint.h>", ""]
    L.append(f"#define GC_ID 0x{spec['id']:08X}u")
    L.append(f"#define GC_VERSION 0x{spec['version']:08X}u")
    L.append("")
    L.append("/* Parameters (the SIMT_ ones are at the top, assembler-safe) */")
    for k, (v, doc) in spec["params"].items():
        if not k.startswith("SIMT_"):
            L.append(f"#define GC_{k} {v}u /* {doc} */")
    L.append("")
    L.append("/* Memory map */")
    for k, w in spec["memory_map"].items():
        L.append(f"#define GC_{k}_BASE 0x{w['base']:010X}ull /* {w['doc']} */")
        L.append(f"#define GC_{k}_SIZE 0x{w['size']:X}ull")
    L.append("")

    def field_macros(prefix, fields):
        for f in fields:
            p = f"{prefix}_{f['name']}"
            mask = (1 << f["width"]) - 1
            L.append(f"#define {p}_SHIFT {f['lsb']}u")
            L.append(f"#define {p}_WIDTH {f['width']}u")
            L.append(f"#define {p}_MASK 0x{mask:X}u")
            L.append(f"#define {p}(v) ((((uint32_t)(v)) & 0x{mask:X}u) << {f['lsb']}u)")
            L.append(f"#define {p}_GET(w) ((((uint32_t)(w)) >> {f['lsb']}u) & 0x{mask:X}u)")
            if not f["enum"]:
                for vname, v in f["values"].items():
                    L.append(f"#define {p}_{vname} {v}u")

    L.append("/* Enumerations */")
    for ename, e in spec["enums"].items():
        for vname, v in e["values"].items():
            L.append(f"#define GC_{ename}_{vname} {v['value']}u /* {v.get('doc', '')} */")
        n = max(v["value"] for v in e["values"].values()) + 1
        names = ["\"?\""] * n
        docs = ["\"?\""] * n
        for vname, v in e["values"].items():
            names[v["value"]] = f"\"{vname}\""
            docs[v["value"]] = '"' + v.get("doc", "").replace('"', "'") + '"'
        low = ename.lower()
        L.append(f"static inline const char *gc_{low}_name(uint32_t v) {{")
        L.append(f"    static const char *const names[{n}] = {{{', '.join(names)}}};")
        L.append(f"    return v < {n}u ? names[v] : \"?\";")
        L.append("}")
        L.append(f"static inline const char *gc_{low}_doc(uint32_t v) {{")
        L.append(f"    static const char *const docs[{n}] = {{{', '.join(docs)}}};")
        L.append(f"    return v < {n}u ? docs[v] : \"unknown\";")
        L.append("}")
    L.append("")

    L.append("/* Registers (BAR0 byte offsets) */")
    for b in spec["blocks"]:
        L.append(f"#define GC_REG_{b['name']}_BASE 0x{b['base']:04X}u")
        if b["stride"]:
            L.append(f"#define GC_REG_{b['name']}_STRIDE 0x{b['stride']:X}u")
            L.append(f"#define GC_REG_{b['name']}_COUNT {b['count']}u")
        for r in b["regs"]:
            if b["stride"]:
                L.append(f"#define GC_REG_{b['name']}_{r['name']}(n) "
                         f"(0x{b['base']:04X}u + (uint32_t)(n) * 0x{b['stride']:X}u + 0x{r['offset']:02X}u)")
            else:
                L.append(f"#define GC_REG_{b['name']}_{r['name']} 0x{b['base'] + r['offset']:04X}u")
            field_macros(f"GC_{b['name']}_{r['name']}", r["fields"])
    L.append("")

    L.append("/* Memory formats */")
    for fm in spec["formats"]:
        field_macros(f"GC_{fm['name']}", fm["fields"])
    L.append("")

    L.append("/* Method classes (byte offsets) */")
    for c in spec["classes"]:
        L.append(f"#define GC_CLASS_{c['name']} 0x{c['id']:04X}u")
        for m in c["methods"]:
            L.append(f"#define GC_{c['name']}_{m['name']} 0x{m['offset']:04X}u")
            field_macros(f"GC_{c['name']}_{m['name']}", m["fields"])
    L.append("")
    L.append("/* Method name of a class's byte offset, or NULL. */")
    L.append("static inline const char *gc_method_name(uint32_t class_id, uint32_t offset) {")
    host = next(c for c in spec["classes"] if c["name"] == "HOST")
    L.append("    switch (offset) {")
    for m in host["methods"]:
        L.append(f"    case 0x{m['offset']:04X}u: return \"{m['name']}\";")
    L.append("    default: break;")
    L.append("    }")
    for c in spec["classes"]:
        if c is host:
            continue
        L.append(f"    if (class_id == 0x{c['id']:04X}u) {{")
        L.append("        switch (offset) {")
        for m in c["methods"]:
            L.append(f"        case 0x{m['offset']:04X}u: return \"{m['name']}\";")
        L.append("        default: break;")
        L.append("        }")
        L.append("    }")
    L.append("    return 0;")
    L.append("}")
    L.append("")
    L.append("/* Method-header and GPFIFO-entry encoders, built from the format fields above. */")
    L.append("static inline uint32_t gc_method_header(uint32_t sec_op, uint32_t subch, uint32_t mthd_byte, uint32_t count) {")
    L.append("    return GC_METHOD_HEADER_SEC_OP(sec_op) | GC_METHOD_HEADER_COUNT(count) |")
    L.append("           GC_METHOD_HEADER_SUBCHANNEL(subch) | GC_METHOD_HEADER_ADDRESS(mthd_byte >> 2);")
    L.append("}")
    for fn, op in [("incr", "INC_METHOD"), ("nonincr", "NON_INC_METHOD"), ("oneincr", "ONE_INC")]:
        L.append(f"static inline uint32_t gc_mh_{fn}(uint32_t subch, uint32_t mthd_byte, uint32_t count) {{")
        L.append(f"    return gc_method_header(GC_METHOD_HEADER_SEC_OP_{op}, subch, mthd_byte, count);")
        L.append("}")
    L.append("static inline uint32_t gc_mh_immd(uint32_t subch, uint32_t mthd_byte, uint32_t data13) {")
    L.append("    return GC_METHOD_HEADER_SEC_OP(GC_METHOD_HEADER_SEC_OP_IMMD_DATA_METHOD) | GC_METHOD_HEADER_IMMD_DATA(data13) |")
    L.append("           GC_METHOD_HEADER_SUBCHANNEL(subch) | GC_METHOD_HEADER_ADDRESS(mthd_byte >> 2);")
    L.append("}")
    L.append("static inline uint32_t gc_mh_end_segment(void) {")
    L.append("    return GC_METHOD_HEADER_SEC_OP(GC_METHOD_HEADER_SEC_OP_END_PB_SEGMENT);")
    L.append("}")
    L.append("static inline uint32_t gc_gp_entry0(uint64_t pb_addr) {")
    L.append("    return GC_GP_ENTRY0_GET((uint32_t)pb_addr >> 2);")
    L.append("}")
    L.append("static inline uint32_t gc_gp_entry1(uint64_t pb_addr, uint32_t length_dwords, uint32_t level, uint32_t sync) {")
    L.append("    return GC_GP_ENTRY1_GET_HI((uint32_t)(pb_addr >> 32)) | GC_GP_ENTRY1_LEVEL(level) |")
    L.append("           GC_GP_ENTRY1_LENGTH(length_dwords) | GC_GP_ENTRY1_SYNC(sync);")
    L.append("}")
    L.append("")
    L.append("/* Memory structures (byte offsets of 32-bit words) */")
    for st in spec["structs"]:
        L.append(f"#define GC_{st['name']}_SIZE {st['size']}u")
        L.append(f"#define GC_{st['name']}_ALIGN {st['align']}u")
        for w in st["words"]:
            L.append(f"#define GC_{st['name']}_{w['name']} 0x{w['offset']:02X}u")
            field_macros(f"GC_{st['name']}_{w['name']}", w["fields"])
    L.append("")
    L.append("/* SIMT windows: device address of each global window's base */")
    for w in spec["simt"]["windows"]:
        if w["device"] is not None:
            L.append(f"#define GC_SIMT_WIN_{w['name']}_DEVICE 0x{w['device']:010X}ull")
    L.append("")
    L.append("#endif /* __ASSEMBLER__ */")
    L.append("#endif")
    return "\n".join(L) + "\n"


def gen_c_simt(spec, L):
    simt = spec["simt"]
    L.append("/* SIMT parameters (plain integers: usable from C, C++ and assembly) */")
    for k, (v, doc) in spec["params"].items():
        if k.startswith("SIMT_"):
            L.append(f"#define GC_{k} {v} /* {doc} */")
    L.append("/* SIMT thread address windows */")
    for w in simt["windows"]:
        L.append(f"#define GC_SIMT_WIN_{w['name']}_BASE 0x{w['base']:08X} /* {w['doc']} */")
        L.append(f"#define GC_SIMT_WIN_{w['name']}_SIZE 0x{w['size']:08X}")
        L.append(f"#define GC_SIMT_WIN_{w['name']}_GUARD 0x{w['guard']:08X} /* NULL guard: bytes at the base no thread reaches */")
    L.append("/* SIMT CSR numbers (read-only) */")
    for c in simt["csrs"]:
        L.append(f"#define GC_SIMT_CSR_{c['name']} 0x{c['number']:03X} /* {c['doc']} */")
    L.append("/* SIMT custom instructions (I-type, rd = rs1 = 0, imm = 0): opcode, funct3, the word */")
    for i in simt["insns"]:
        L.append(f"#define GC_SIMT_INSN_{i['name']}_OPCODE 0x{i['opcode']:02X} /* {CUSTOM_OPCODES[i['opcode']]} */")
        L.append(f"#define GC_SIMT_INSN_{i['name']}_FUNCT3 {i['funct3']}")
        L.append(f"#define GC_SIMT_INSN_{i['name']} 0x{i['opcode'] | (i['funct3'] << 12):08X} /* {i['doc']} */")
    if simt["fp"]:
        L.append("/* RV32F (simt.fp): opcodes, OP-FP funct5 (and the funct3 / rs2 that select), rounding modes,")
        L.append("   fflags and FCLASS bits (_BIT = bit number, plain name = mask), CSR numbers */")
        for name, bits, value, doc in fp_constants(simt["fp"]):
            text = f"0x{value:0{(bits + 3) // 4}X}" if bits in (7, 12, 32) or name.startswith("GC_FP_F5_") else str(value)
            L.append(f"#define {name} {text}" + (f" /* {doc} */" if doc else ""))
            if name.endswith("_BIT"):
                L.append(f"#define {name[:-4]} 0x{1 << value:X}")
            if name.startswith("GC_FP_CSR_"):
                L.append(f"#define {name}_MASK 0x{(1 << fp_csr_bits(simt['fp'], name)) - 1:X}")
    L.append("")


# ---------------------------------------------------------------------------------------------- SV
def gen_sv(spec):
    L = [f"// {BANNER}", "package gpucosim_pkg;", ""]
    L.append(f"  localparam logic [31:0] GC_ID = 32'h{spec['id']:08X};")
    L.append(f"  localparam logic [31:0] GC_VERSION = 32'h{spec['version']:08X};")
    for k, (v, doc) in spec["params"].items():
        L.append(f"  localparam int unsigned GC_{k} = {v};  // {doc}")
    for k, w in spec["memory_map"].items():
        L.append(f"  localparam logic [63:0] GC_{k}_BASE = 64'h{w['base']:016X};")
        L.append(f"  localparam logic [63:0] GC_{k}_SIZE = 64'h{w['size']:016X};")
    L.append("")
    for ename, e in spec["enums"].items():
        w = enum_width(spec, ename)
        items = [f"    {ename}_{vname} = {w}'d{v['value']}" for vname, v in e["values"].items()]
        L.append(f"  // {e.get('doc', '')}")
        L.append("  typedef enum logic [%d:0] {\n%s\n  } %s_e;" % (w - 1, ",\n".join(items), ename.lower()))
        top = max(v["value"] for v in e["values"].values())
        L.append(f"  localparam int unsigned GC_{ename}_VALUE_BITS = {max(1, top.bit_length())};"
                 f"  // the bits {ename}'s largest value ({top}) needs")
    L.append("")

    def field_params(prefix, fields):
        for f in fields:
            p = f"{prefix}_{f['name']}"
            L.append(f"  localparam int unsigned {p}_LSB = {f['lsb']};")
            L.append(f"  localparam int unsigned {p}_W = {f['width']};")
            if not f["enum"]:
                for vname, v in f["values"].items():
                    L.append(f"  localparam logic [{f['width'] - 1}:0] {p}_{vname} = {f['width']}'d{v};")

    for b in spec["blocks"]:
        L.append(f"  localparam logic [15:0] GC_REG_{b['name']}_BASE = 16'h{b['base']:04X};")
        if b["stride"]:
            L.append(f"  localparam logic [15:0] GC_REG_{b['name']}_STRIDE = 16'h{b['stride']:04X};")
        for r in b["regs"]:
            if b["stride"]:
                L.append(f"  localparam logic [15:0] GC_REG_{b['name']}_{r['name']} = 16'h{r['offset']:04X};  // within block")
            else:
                L.append(f"  localparam logic [15:0] GC_REG_{b['name']}_{r['name']} = 16'h{b['base'] + r['offset']:04X};")
            field_params(f"GC_{b['name']}_{r['name']}", r["fields"])
    L.append("")
    for fm in spec["formats"]:
        field_params(f"GC_{fm['name']}", fm["fields"])
    L.append("")
    for c in spec["classes"]:
        L.append(f"  localparam logic [15:0] GC_CLASS_{c['name']} = 16'h{c['id']:04X};")
        for m in c["methods"]:
            L.append(f"  localparam logic [11:0] GC_{c['name']}_{m['name']}_DW = 12'h{m['offset'] >> 2:03X};"
                     f"  // byte offset 0x{m['offset']:04X}")
            field_params(f"GC_{c['name']}_{m['name']}", m["fields"])
    L.append("")
    for st in spec["structs"]:
        L.append(f"  localparam int unsigned GC_{st['name']}_SIZE = {st['size']};")
        L.append(f"  localparam int unsigned GC_{st['name']}_ALIGN = {st['align']};")
        for w in st["words"]:
            L.append(f"  localparam int unsigned GC_{st['name']}_{w['name']}_OFS = {w['offset']};")
            field_params(f"GC_{st['name']}_{w['name']}", w["fields"])
    L.append("")
    for w in spec["simt"]["windows"]:
        L.append(f"  localparam logic [31:0] GC_SIMT_WIN_{w['name']}_BASE = 32'h{w['base']:08X};")
        L.append(f"  localparam logic [31:0] GC_SIMT_WIN_{w['name']}_SIZE = 32'h{w['size']:08X};")
        L.append(f"  localparam logic [31:0] GC_SIMT_WIN_{w['name']}_GUARD = 32'h{w['guard']:08X};")
        if w["device"] is not None:
            L.append(f"  localparam logic [63:0] GC_SIMT_WIN_{w['name']}_DEVICE = 64'h{w['device']:016X};")
    for c in spec["simt"]["csrs"]:
        L.append(f"  localparam logic [11:0] GC_SIMT_CSR_{c['name']} = 12'h{c['number']:03X};")
    for i in spec["simt"]["insns"]:
        L.append(f"  localparam logic [6:0] GC_SIMT_INSN_{i['name']}_OPCODE = 7'h{i['opcode']:02X};")
        L.append(f"  localparam logic [2:0] GC_SIMT_INSN_{i['name']}_FUNCT3 = 3'd{i['funct3']};")
    if spec["simt"]["fp"]:
        L.append("  // RV32F (simt.fp)")
        for name, bits, value, _doc in fp_constants(spec["simt"]["fp"]):
            if name.endswith("_BIT"):
                L.append(f"  localparam int unsigned {name} = {value};")
            else:
                L.append(f"  localparam logic [{bits - 1}:0] {name} = {bits}'h{value:X};")
    L.append("")
    L.append("endpackage")
    return "\n".join(L) + "\n"


# ---------------------------------------------------------------------------------------------- MD
def gen_md(spec):
    L = [f"<!-- {BANNER} -->", "# gpucosim specification", "",
         f"Device id `0x{spec['id']:08X}`, spec version `0x{spec['version']:08X}`.", "",
         "## Parameters", "", "| name | value | meaning |", "|---|---|---|"]
    for k, (v, doc) in spec["params"].items():
        L.append(f"| {k} | {v} | {doc} |")
    L += ["", "## Memory map", "", "| window | base | size | meaning |", "|---|---|---|---|"]
    for k, w in spec["memory_map"].items():
        L.append(f"| {k} | `0x{w['base']:010X}` | `0x{w['size']:X}` | {w['doc']} |")

    def fields_table(fields):
        if not fields:
            return
        L.extend(["", "| field | bits | values | meaning |", "|---|---|---|---|"])
        for f in fields:
            msb = f["lsb"] + f["width"] - 1
            bits = f"{msb}:{f['lsb']}" if f["width"] > 1 else f"{f['lsb']}"
            vals = f"enum {f['enum']}" if f["enum"] else ", ".join(f"{k}={v}" for k, v in f["values"].items())
            L.append(f"| {f['name']} | {bits} | {vals} | {f['doc']} |")

    L += ["", "## Enumerations"]
    for ename, e in spec["enums"].items():
        L += ["", f"### {ename}", "", e.get("doc", ""), "", "| name | value | meaning |", "|---|---|---|"]
        for vname, v in e["values"].items():
            L.append(f"| {vname} | {v['value']} | {v.get('doc', '')} |")
    L += ["", "## Registers (BAR0)"]
    for b in spec["blocks"]:
        L += ["", f"### {b['name']}", "", b["doc"]]
        if b["stride"]:
            L.append(f"Instance n at `0x{b['base']:04X} + n * 0x{b['stride']:X}`, n < {b['count']}.")
        for r in b["regs"]:
            L += ["", f"#### {b['name']}.{r['name']} (`+0x{r['offset']:03X}`, {r['access']})", "", r["doc"]]
            fields_table(r["fields"])
    L += ["", "## Memory formats"]
    for fm in spec["formats"]:
        L += ["", f"### {fm['name']}", "", fm["doc"]]
        fields_table(fm["fields"])
    L += ["", "## Method classes", "",
          "Methods below 0x100 are host methods on every subchannel; the others go to the class bound "
          "to the subchannel by SET_OBJECT."]
    for c in spec["classes"]:
        L += ["", f"### {c['name']} (class `0x{c['id']:04X}`)", "", c["doc"]]
        for m in c["methods"]:
            L += ["", f"#### {m['name']} (`0x{m['offset']:04X}`)", "", m["doc"]]
            fields_table(m["fields"])
    L += ["", "## Memory structures"]
    for st in spec["structs"]:
        L += ["", f"### {st['name']} ({st['size']} bytes, {st['align']}-byte aligned)", "", st["doc"]]
        for w in st["words"]:
            L += ["", f"#### {st['name']}.{w['name']} (`+0x{w['offset']:02X}`)", "", w["doc"]]
            fields_table(w["fields"])
    simt = spec["simt"]
    L += ["", "## SIMT ISA", "", simt["doc"], "", "### Thread address windows", "",
          "| window | thread addresses | NULL guard (faults NULL_ACCESS) | device address of the base | meaning |",
          "|---|---|---|---|---|"]
    for w in simt["windows"]:
        dev = f"`0x{w['device']:010X}`" if w["device"] is not None else "(on chip)"
        grd = f"`0x{w['base']:08X}` .. `0x{w['base'] + w['guard'] - 1:08X}`" if w["guard"] else "none"
        L.append(f"| {w['name']} | `0x{w['base']:08X}` .. `0x{w['base'] + w['size'] - 1:08X}` | {grd} | {dev} | {w['doc']} |")
    L += ["", "### CSRs (read-only; a write faults ILLEGAL_INSTRUCTION)", "", "| CSR | number | meaning |", "|---|---|---|"]
    for c in simt["csrs"]:
        L.append(f"| {c['name']} | `0x{c['number']:03X}` | {c['doc']} |")
    L += ["", "### Custom instructions", "", "| instruction | opcode | funct3 | word | meaning |", "|---|---|---|---|---|"]
    for i in simt["insns"]:
        L.append(f"| {i['name']} | `0x{i['opcode']:02X}` ({CUSTOM_OPCODES[i['opcode']]}) | {i['funct3']} | "
                 f"`0x{i['opcode'] | (i['funct3'] << 12):08X}` | {i['doc']} |")
    fp = simt["fp"]
    if fp:
        L += ["", "### Single-precision floating point (F)", "", fp["doc"], "",
              f"Canonical NaN `0x{fp['canonical_nan']:08X}`; fmt S = {fp['fmt_s']}; FLW / FSW funct3 = {fp['width_w']}.",
              "", "| opcode | value |", "|---|---|"]
        L += [f"| {n} | `0x{v:02X}` |" for n, v in fp["opcodes"].items()]
        L += ["", "OP-FP instructions (funct7 = funct5 << 2 | fmt; an empty funct3 is the rounding mode, an empty rs2 a source):",
              "", "| instruction | funct5 | funct3 | rs2 | meaning |", "|---|---|---|---|---|"]
        for i in fp["op_fp"]:
            f3 = "" if i["funct3"] is None else str(i["funct3"])
            r2 = "" if i["rs2"] is None else str(i["rs2"])
            L.append(f"| {i['name'].replace('_', '.')} | `0x{i['funct5']:02X}` | {f3} | {r2} | {i['doc']} |")
        L += ["", "| rounding mode | rm | meaning |", "|---|---|---|"]
        L += [f"| {n} | {v} | {d} |" for n, (v, d) in fp["rm"].items()]
        L += ["", "| fflags | bit | meaning |", "|---|---|---|"]
        L += [f"| {n} | {b} | {d} |" for n, (b, d) in fp["fflags"].items()]
        L += ["", "| FCLASS result | bit | meaning |", "|---|---|---|"]
        L += [f"| {n} | {b} | {d} |" for n, (b, d) in fp["fclass"].items()]
        L += ["", "| CSR | number | bits | meaning |", "|---|---|---|---|"]
        L += [f"| {c['name'].lower()} | `0x{c['number']:03X}` | {c['bits']} | {c['doc']} |" for c in fp["csrs"]]
    return "\n".join(L) + "\n"


def write_if_changed(path, text):
    if os.path.exists(path):
        with open(path) as fh:
            if fh.read() == text:
                return False
    tmp = path + ".tmp"
    with open(tmp, "w") as fh:
        fh.write(text)
    os.replace(tmp, path)
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--spec", default="spec/gpucosim.yaml", help="the YAML spec (default: %(default)s)")
    ap.add_argument("--out", default="build/gen", help="output directory (default: %(default)s)")
    ap.add_argument("--check", action="store_true", help="only validate the spec")
    args = ap.parse_args()
    try:
        spec = load(args.spec)
    except (SpecError, KeyError, yaml.YAMLError) as e:
        print(f"gen_spec: {args.spec}: {e}", file=sys.stderr)
        return 1
    if args.check:
        return 0
    os.makedirs(args.out, exist_ok=True)
    for name, fn in [("gpucosim_pkg.sv", gen_sv), ("gpucosim_spec.h", gen_c), ("spec.md", gen_md)]:
        write_if_changed(os.path.join(args.out, name), fn(spec))
    return 0


if __name__ == "__main__":
    sys.exit(main())
