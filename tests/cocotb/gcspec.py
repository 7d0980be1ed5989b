"""The encodings of spec/gpucosim.yaml for the cocotb tests, read through scripts/gen_spec.py's
loader (the one source of every encoding: nothing here is written twice)."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import gen_spec  # noqa: E402


class Spec:
    def __init__(self, path=os.path.join(ROOT, "spec", "gpucosim.yaml")):
        s = gen_spec.load(path)
        self.params = {k: v[0] for k, v in s["params"].items()}
        self.memory_map = s["memory_map"]
        self.windows = {w["name"]: w for w in s["simt"]["windows"]}
        self._blocks = {b["name"]: b for b in s["blocks"]}
        self._classes = {c["name"]: c for c in s["classes"]}
        self._structs = {st["name"]: st for st in s["structs"]}
        self._formats = {f["name"]: f for f in s["formats"]}

    def reg(self, block, name, idx=0):
        """BAR0 offset of register block.name (of instance idx for arrayed blocks)."""
        b = self._blocks[block]
        r = next(r for r in b["regs"] if r["name"] == name)
        return b["base"] + (b["stride"] or 0) * idx + r["offset"]

    @staticmethod
    def _enc(fields, owner, **vals):
        word = 0
        for k, v in vals.items():
            f = next((f for f in fields if f["name"] == k), None)
            if f is None:
                raise KeyError(f"{owner}: no field {k}")
            if isinstance(v, str):
                v = f["values"][v]
            if not 0 <= v < (1 << f["width"]):
                raise ValueError(f"{owner}.{k}: {v} does not fit in {f['width']} bits")
            word |= v << f["lsb"]
        return word

    def _field(self, fields, name):
        return next(f for f in fields if f["name"] == name)

    def reg_fields(self, block, name, **vals):
        r = next(r for r in self._blocks[block]["regs"] if r["name"] == name)
        return self._enc(r["fields"], f"{block}.{name}", **vals)

    def reg_get(self, block, name, field, word):
        r = next(r for r in self._blocks[block]["regs"] if r["name"] == name)
        f = self._field(r["fields"], field)
        return (word >> f["lsb"]) & ((1 << f["width"]) - 1)

    def class_id(self, cls):
        return self._classes[cls]["id"]

    def method(self, cls, name):
        return next(m for m in self._classes[cls]["methods"] if m["name"] == name)["offset"]

    def method_fields(self, cls, name, **vals):
        m = next(m for m in self._classes[cls]["methods"] if m["name"] == name)
        return self._enc(m["fields"], f"{cls}.{name}", **vals)

    def fmt(self, name, **vals):
        return self._enc(self._formats[name]["fields"], name, **vals)

    def struct_size(self, name):
        return self._structs[name]["size"]

    def struct_word(self, name, word, value=None, **vals):
        """(byte offset, value) of a struct word: value as is, or encoded from its fields."""
        w = next(w for w in self._structs[name]["words"] if w["name"] == word)
        return w["offset"], value if value is not None else self._enc(w["fields"], f"{name}.{word}", **vals)

    def thread_to_device(self, addr):
        for w in self.windows.values():
            if w.get("device") is not None and w["base"] <= addr < w["base"] + w["size"]:
                return w["device"] + (addr - w["base"])
        raise ValueError(f"thread address {addr:#x} is in no global-memory window")

    def device_to_thread(self, dev):
        for w in self.windows.values():
            if w.get("device") is not None and w["device"] <= dev < w["device"] + w["size"]:
                return w["base"] + (dev - w["device"])
        raise ValueError(f"device address {dev:#x} is in no SIMT window")
