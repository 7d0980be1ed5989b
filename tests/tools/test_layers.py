#!/usr/bin/env python3
"""scripts/check_layers.py: the tree as it is passes (includes, and the symbols of the build's
objects: each layer links without the ones above it, the ref model's units use each other without
a circle); and each rule catches a violation planted in a copy of the tree (an upward include, the
ref model including the driver, hostdrv including the ref model, an include cycle in the ref model,
a public header with no layer) or in objects compiled for the purpose (a lower layer calling an
upper one, two ref units calling each other, the ref model calling the driver).
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
OBJS = os.path.join(os.path.dirname(GEN), "rel", "obj")
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


def planted(path, line, expect):
    """Add `line` at the top of `path` (relative to a copy of the tree): the check fails, naming
    the file and `expect`."""
    with tempfile.TemporaryDirectory() as tmp:
        tree_copy(tmp)
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


def upward_include():
    planted("hostdrv/mem/mem.c", '#include "gpucosim/runtime.h"', "upper layer runtime")


def upward_include_folder():
    planted("hostdrv/chan/sem.c", '#include "../compute/compute.c"', "upper layer compute")


def ref_includes_driver():
    planted("cosim/ref/ref_pbdma.c", '#include "gpucosim/hostdrv.h"', "only through")


def driver_includes_ref():
    planted("hostdrv/device/backends.c", '#include "ref/ref.h"', "does not include the ref model")


def ref_include_cycle():
    planted("cosim/ref/ref_bus.h", '#include "ref_pbdma.h"', "include cycle")


def unknown_public_header():
    with tempfile.TemporaryDirectory() as tmp:
        tree_copy(tmp)
        with open(os.path.join(tmp, "hostdrv/include/gpucosim/newthing.h"), "w", encoding="utf-8") as f:
            f.write("#pragma once\n")
        p = os.path.join(tmp, "hostdrv/runtime/runtime.c")
        with open(p, encoding="utf-8") as f:
            text = f.read()
        with open(p, "w", encoding="utf-8") as f:
            f.write('#include "gpucosim/newthing.h"\n' + text)
        rc, out = check(tmp)
        assert rc == 1 and "public header with no layer" in out and "runtime.c" in out, out


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


def symbols_upward_call():
    with tempfile.TemporaryDirectory() as tmp:
        rc, out = objects(tmp, {
            "hostdrv/device/device.c": "void gc_channel_close(void *c);\nvoid close_all(void) { gc_channel_close(0); }\n",
            "hostdrv/chan/channel.c": "void gc_channel_close(void *c) { (void)c; }\n",
        })
        assert rc == 1 and "hostdrv/device/device.c: uses gc_channel_close" in out and "upper layer chan" in out, out


def symbols_downward_call():
    with tempfile.TemporaryDirectory() as tmp:
        rc, out = objects(tmp, {
            "hostdrv/device/device.c": "int gc_dev(void) { return 1; }\n",
            "hostdrv/chan/channel.c": "int gc_dev(void);\nint gc_ch(void) { return gc_dev(); }\n",
        })
        assert rc == 0, out


def symbols_ref_cycle():
    with tempfile.TemporaryDirectory() as tmp:
        rc, out = objects(tmp, {
            "cosim/ref/ref_pbdma.c": "void ref_ce_step(void);\nvoid ref_pbdma_ce_done(void) {}\n"
                                     "void ref_pbdma_step(void) { ref_ce_step(); }\n",
            "cosim/ref/ref_ce.c": "void ref_pbdma_ce_done(void);\nvoid ref_ce_step(void) { ref_pbdma_ce_done(); }\n",
        })
        assert rc == 1 and "ref model use cycle" in out and "ref:ref_ce" in out and "ref:ref_pbdma" in out, out


def symbols_ref_calls_driver():
    with tempfile.TemporaryDirectory() as tmp:
        rc, out = objects(tmp, {
            "hostdrv/device/device.c": "int gc_mem_write(void) { return 0; }\n",
            "cosim/ref/ref_bus.c": "int gc_mem_write(void);\nint ref_bus(void) { return gc_mem_write(); }\n",
        })
        assert rc == 1 and "the ref model calls nothing of the driver" in out, out


def bad_usage():
    r = subprocess.run([sys.executable, SCRIPT, "--root", "/nonexistent"], capture_output=True, text=True)
    assert r.returncode == 2 and "has no hostdrv/ folder" in r.stderr and not r.stdout, (r.returncode, r.stderr)
    r = subprocess.run([sys.executable, SCRIPT, "--objs", "/nonexistent/obj"], capture_output=True, text=True)
    assert r.returncode == 2 and "does not exist" in r.stderr, (r.returncode, r.stderr)


if __name__ == "__main__":
    main("layers_", {
        "tree": tree,
        "upward_include": upward_include,
        "upward_include_folder": upward_include_folder,
        "ref_includes_driver": ref_includes_driver,
        "driver_includes_ref": driver_includes_ref,
        "ref_include_cycle": ref_include_cycle,
        "unknown_public_header": unknown_public_header,
        "symbols_upward_call": symbols_upward_call,
        "symbols_downward_call": symbols_downward_call,
        "symbols_ref_cycle": symbols_ref_cycle,
        "symbols_ref_calls_driver": symbols_ref_calls_driver,
        "bad_usage": bad_usage,
    })
