#!/usr/bin/env python3
"""scripts/check_layers.py: the tree as it is passes (includes, and the symbols of the build's
objects: each layer links without the ones above it, the ref model's units use each other without
a circle); and each rule catches a violation planted in a copy of the tree (an upward include, a lower
layer including an upper layer's public header or the umbrella hostdrv.h, a public header including
the umbrella or an upper layer's header, the runtime including the driver's private header, the ref model including the driver, hostdrv
including the ref model, an include cycle in the ref model, a public header with no layer, a file above 1,000 lines
without its reason at the top or with a stale size there) or in objects compiled for the purpose (a lower layer calling an
upper one, a scenario calling under the runtime, scen_copies.c's driver-level scenarios calling the compute
layer (the chan layer they may), two ref units calling each other, the ref model
or another device model calling the driver).
Same interface as the C tests: --list, or case names."""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from casemain import main  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BUILD = os.environ.get("BUILD", os.path.join(ROOT, "build"))
GEN = os.path.join(BUILD, "gen") if os.path.isabs(BUILD) else os.path.join(ROOT, BUILD, "gen")
# the driver's objects of whichever variant the build has (both hold every DRV_CORE object)
OBJS = next((d for d in (os.path.join(os.path.dirname(GEN), v, "obj") for v in ("rel", "san")) if os.path.isdir(d)),
            os.path.join(os.path.dirname(GEN), "rel", "obj"))
SCRIPT = os.path.join(ROOT, "scripts", "check_layers.py")


def check(root=ROOT, objs=None):
    cmd = [sys.executable, SCRIPT, "--root", root, "--gen", GEN] + (["--objs", objs] if objs else [])
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def tree_copy(tmp):
    """The checked part of the tree (hostdrv/, cosim/) in tmp."""
    for d in ("hostdrv", "cosim"):
        shutil.copytree(os.path.join(ROOT, d), os.path.join(tmp, d))
    return tmp


def planted(path, line, expect, new_files=None):
    """Add `line` at the top of `path` (relative to a copy of the tree, with new_files {path: text}
    added): the check fails, naming the file and `expect`."""
    with tempfile.TemporaryDirectory() as tmp:
        tree_copy(tmp)
        for q, text in (new_files or {}).items():
            with open(os.path.join(tmp, q), "w", encoding="utf-8") as f:
                f.write(text)
        p = os.path.join(tmp, path)
        with open(p, encoding="utf-8") as f:
            text = f.read()
        with open(p, "w", encoding="utf-8") as f:
            f.write(line + "\n" + text)
        rc, out = check(tmp)
        assert rc == 1, f"rc {rc}: {out}"
        assert path in out and expect in out, out
        assert "violation(s)" in out, out


def tree():
    rc, out = check(ROOT, OBJS)
    assert rc == 0, out
    assert "objects" in out and "ref model acyclic" in out, out


# name: (file, the line planted at its top, what the report says, new files)
PLANTED = {
    "upward_include": ("hostdrv/mem/mem.c", '#include "gpucosim/runtime.h"', "upper layer runtime", None),
    # each lower layer has its own public header: the device layer may not include mem's, nor the
    # umbrella hostdrv.h (which includes chan.h); mem may not include chan's
    "device_includes_mem_header": ("hostdrv/device/status.c", '#include "gpucosim/mem.h"', "upper layer mem", None),
    "device_includes_umbrella": ("hostdrv/device/internal.h", '#include "gpucosim/hostdrv.h"', "upper layer chan",
                                 None),
    # a public header includes the lower layers' own headers: not the umbrella, not an upper layer
    "public_header_includes_umbrella": ("hostdrv/include/gpucosim/compute.h", '#include "gpucosim/hostdrv.h"',
                                        "not the umbrella hostdrv.h", None),
    "public_header_includes_upper": ("hostdrv/include/gpucosim/elf.h", '#include "gpucosim/runtime.h"',
                                     "upper layer runtime", None),
    "mem_includes_chan_header": ("hostdrv/mem/mem.c", '#include "gpucosim/chan.h"', "upper layer chan", None),
    "upward_include_folder": ("hostdrv/chan/sem.c", '#include "../compute/compute.c"', "upper layer compute", None),
    "runtime_includes_private": ("hostdrv/runtime/runtime.c", '#include "../device/internal.h"', "public headers",
                                 None),
    "ref_includes_driver": ("cosim/ref/ref_pbdma.c", '#include "gpucosim/hostdrv.h"', "only through", None),
    "driver_includes_ref": ("hostdrv/device/backends.c", '#include "ref/ref.h"', "does not include the ref model",
                            None),
    "ref_include_cycle": ("cosim/ref/ref_bus.h", '#include "ref_pbdma.h"', "include cycle", None),
    # a file above 1,000 lines says why at its top, with its size
    "big_file_without_reason": ("hostdrv/tools/big.c", "/* big.c */", "no reason at its top",
                                {"hostdrv/tools/big.c": "int x;\n" * 1001}),
    "big_file_stale_size": ("hostdrv/tools/big.c", "/* Size (~1.5k lines, above the tree's ~1,000): one table */",
                            "its top says ~1.5k lines, it has 1002", {"hostdrv/tools/big.c": "int x;\n" * 1001}),
    "unknown_public_header": ("hostdrv/runtime/runtime.c", '#include "gpucosim/newthing.h"',
                              "public header with no layer", {"hostdrv/include/gpucosim/newthing.h": "#pragma once\n"}),
}


def objects(tmp, files):
    """Compile {path: C source} into tmp/src and tmp/obj (path.o), as the Makefile lays them out."""
    for path, text in files.items():
        src = os.path.join(tmp, "src", path)
        os.makedirs(os.path.dirname(src), exist_ok=True)
        with open(src, "w", encoding="utf-8") as f:
            f.write(text)
        obj = os.path.join(tmp, "obj", path + ".o")
        os.makedirs(os.path.dirname(obj), exist_ok=True)
        subprocess.run(["cc", "-c", "-o", obj, src], check=True)
    os.makedirs(os.path.join(tmp, "src", "hostdrv"), exist_ok=True)
    return check(os.path.join(tmp, "src"), os.path.join(tmp, "obj"))


def symbols(files, want_rc, expect):
    """Objects compiled from files {path: C source}: the check exits want_rc, its report holding
    every string of expect."""
    with tempfile.TemporaryDirectory() as tmp:
        rc, out = objects(tmp, files)
        assert rc == want_rc and all(e in out for e in expect), out


SCEN_FILES = {
    "hostdrv/chan/channel.c": "int gc_channel_submit(void) { return 0; }\n",
    "hostdrv/device/device.c": "int gc_mmio_read(void) { return 0; }\n",
    "hostdrv/runtime/runtime.c": "int gcrt_ops(void) { return 0; }\n",
}
# name: (object sources, exit status, what the report says)
SYMBOLS = {
    "symbols_upward_call": ({
        "hostdrv/device/device.c": "void gc_channel_close(void *c);\nvoid close_all(void) { gc_channel_close(0); }\n",
        "hostdrv/chan/channel.c": "void gc_channel_close(void *c) { (void)c; }\n",
    }, 1, ["hostdrv/device/device.c: uses gc_channel_close", "upper layer chan"]),
    "symbols_downward_call": ({
        "hostdrv/device/device.c": "int gc_dev(void) { return 1; }\n",
        "hostdrv/chan/channel.c": "int gc_dev(void);\nint gc_ch(void) { return gc_dev(); }\n",
    }, 0, ["objects"]),
    # the runtime, and a register read through its device
    "symbols_scenario_on_runtime": ({**SCEN_FILES, "hostdrv/tools/scen_copies.c":
                                     "int gc_mmio_read(void);\nint gcrt_ops(void);\n"
                                     "int scen(void) { return gc_mmio_read() + gcrt_ops(); }\n"}, 0, ["objects"]),
    "symbols_scenario_below_runtime": ({**SCEN_FILES, "hostdrv/tools/scen_priorities.c":
                                        "int gc_channel_submit(void);\nint scen(void) { return gc_channel_submit(); }\n"},
                                       1, ["scen_priorities.c: uses gc_channel_submit", "runtime's API"]),
    # scen_copies.c's driver-level scenarios (copy, ce-bandwidth, frontend-load) use the chan, mem
    # and device layers; not the compute layer
    "symbols_driver_scenario_on_chan": ({**SCEN_FILES, "hostdrv/tools/scen_copies.c":
                                         "int gc_channel_submit(void);\nint scen(void) { return gc_channel_submit(); }\n"},
                                        0, ["objects"]),
    "symbols_driver_scenario_below_chan": ({**SCEN_FILES, "hostdrv/compute/compute.c":
                                            "int gc_compute_bind(void) { return 0; }\n",
                                            "hostdrv/tools/scen_copies.c":
                                            "int gc_compute_bind(void);\nint scen(void) { return gc_compute_bind(); }\n"},
                                           1, ["scen_copies.c: uses gc_compute_bind", "runtime's API"]),
    "symbols_ref_cycle": ({
        "cosim/ref/ref_pbdma.c": "void ref_ce_step(void);\nvoid ref_pbdma_ce_done(void) {}\n"
                                 "void ref_pbdma_step(void) { ref_ce_step(); }\n",
        "cosim/ref/ref_ce.c": "void ref_pbdma_ce_done(void);\nvoid ref_ce_step(void) { ref_pbdma_ce_done(); }\n",
    }, 1, ["ref model use cycle", "ref:ref_ce", "ref:ref_pbdma"]),
    "symbols_ref_calls_driver": ({
        "hostdrv/device/device.c": "int gc_mem_write(void) { return 0; }\n",
        "cosim/ref/ref_bus.c": "int gc_mem_write(void);\nint ref_bus(void) { return gc_mem_write(); }\n",
    }, 1, ["the ref model calls nothing of the driver"]),
    "symbols_model_calls_driver": ({
        "hostdrv/chan/channel.c": "int gc_channel_submit(void) { return 0; }\n",
        "cosim/harness.c": "int gc_channel_submit(void);\nint tick(void) { return gc_channel_submit(); }\n",
    }, 1, ["cosim/harness.c: uses gc_channel_submit", "device models"]),
}


def bad_usage():
    r = subprocess.run([sys.executable, SCRIPT, "--root", "/nonexistent"], capture_output=True, text=True)
    assert r.returncode == 2 and "has no hostdrv/ folder" in r.stderr and not r.stdout, (r.returncode, r.stderr)
    r = subprocess.run([sys.executable, SCRIPT, "--objs", "/nonexistent/obj"], capture_output=True, text=True)
    assert r.returncode == 2 and "does not exist" in r.stderr, (r.returncode, r.stderr)


if __name__ == "__main__":
    main("layers_", {
        "tree": tree,
        **{name: (lambda a=args: planted(*a)) for name, args in PLANTED.items()},
        **{name: (lambda a=args: symbols(*a)) for name, args in SYMBOLS.items()},
        "bad_usage": bad_usage,
    })
