#!/usr/bin/env python3
"""The driver's layers and the ref model's units, checked (hostdrv/README.md draws them).

Includes (always): every `#include "..."` of hostdrv/ and cosim/ref/, resolved as the compiler
does (the including file's folder, then the Makefile's -I folders), is classified:
- hostdrv/<layer>/... and the public headers hostdrv/include/gpucosim/<h> (PUBLIC maps each to its
  layer): a file of a layer includes only its own layer and the ones below (LAYERS, lowest first),
  from the runtime up only their public headers; a public header includes the public headers of
  the layers it needs, never the umbrella hostdrv.h (whose users get device, mem and chan whole);
  only the device layer includes the device models' headers (cosim/*.h, cosim/sc/); no hostdrv
  file includes the ref model.
- cosim/ref/: the ref model includes its own files, the generated spec header and, in its backend
  file only, gpucosim/backend.h (it reaches the driver through the backend interface alone).
- no include cycle anywhere among these files.
Symbols (with --objs DIR: the object tree of a build, e.g. build/rel/obj): `nm` of every object
of hostdrv/ and cosim/; each undefined symbol is resolved to the unit that defines it.  A layer
uses only its own and lower layers (the device layer also the models: the Verilator harness, the
ref backend's ops table; the scenarios, hostdrv/tools/scen_*.c, the runtime and above and, below
it, only SCEN_BELOW_RUNTIME, and the layers SCEN_DRIVER_LAYERS names for its files); the device models use no hostdrv symbol; the ref model's units (one
per file stem) use each other without a cycle: the lower units reach the upper ones only through
the bus's events (cosim/ref/ref_bus.h).  So each layer links without the ones above it.

Sizes (always): a file of hostdrv/ or cosim/ above MAX_LINES lines says why at its top (in its
first TOP_LINES lines: "Size (~N.Nk lines, above the tree's ~1,000): <reason>"), with N.N within
0.1k of its real length.

Exit status 0 and one summary line when all holds; otherwise one line per violation, naming the
files (or objects and symbol), and status 1.  Status 2: bad usage (a missing folder)."""
import argparse
import os
import re
import subprocess
import sys

LAYERS = ["device", "mem", "chan", "compute", "runtime", "array", "tools"]
# The public headers (hostdrv/include/gpucosim/) and the layer each belongs to.
PUBLIC = {
    "device.h": "device",  # status codes, device open / close, MMIO, memory access, run, IRQ
    "mem.h": "mem",  # the sysmem / vidmem allocators (includes device.h)
    "chan.h": "chan",  # pushbuffer, ring, channels, semaphores, copies (includes mem.h)
    "hostdrv.h": "chan",  # the umbrella of device.h, mem.h and chan.h: the layer of the highest
    "backend.h": "device",
    "sc.h": "device",
    "props.h": "device",  # device queries: properties and counter snapshots (hostdrv/device/props.c)
    "elf.h": "compute",
    "compute.h": "compute",
    "runtime.h": "runtime",
    "workq.h": "runtime",  # GPU-owned work queues (hostdrv/runtime/workq.c)
    "array.h": "array",
}
PUBLIC_DIR = "hostdrv/include/gpucosim/"
UMBRELLA = "hostdrv.h"
# From this layer up, the lower layers are used through their public headers only (device/internal.h,
# the driver's private structures, is for mem, chan and compute).
PUBLIC_ONLY_FROM = "runtime"
# The scenarios (hostdrv/tools/scen_*.c) are built on the runtime's public API; below it they use
# only the device's clock and the hardware's records, through the device the runtime exposes
# (gcrt_device): these symbols.
SCEN_BELOW_RUNTIME = {"gc_device_run", "gc_device_cycles", "gc_mmio_read", "gc_compute_fault_read"}
# The one exception: the CLI's driver-level scenarios (copy, ce-bandwidth, frontend-load, in
# scen_copies.c) exercise the driver layer below the runtime on purpose: they open channels, write
# pushbuffers and wait on semaphores and copy-engine records themselves, so that the front end runs
# without the runtime's streams in between.  That file may use these layers' API too (not the
# compute layer's; its other scenario, video-pipeline, is on the runtime all the same).
SCEN_DRIVER_LAYERS = {"scen_copies.c": {"device", "mem", "chan"}}
# The -I folders of the Makefile's INCS, in order (build/gen is found through --gen).
INC_DIRS = ["hostdrv/include", "hostdrv/tools", "cosim", "tests/common", "firmware/include"]
MAX_LINES, TOP_LINES = 1000, 80
SIZE_RE = re.compile(r"Size \(~(\d+(?:\.\d)?)k lines, above the tree's ~1,000\): \S")
SIZE_EXT = (".c", ".h", ".cpp", ".hpp", ".py", ".sv", ".svh", ".mk")
INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def unit_of(path):
    """The unit a repository-relative path belongs to: a layer name, 'ref:<stem>', 'models',
    'spec' (generated / firmware interface headers), or None (outside the checked tree)."""
    parts = path.split("/")
    if parts[0] == "hostdrv":
        if parts[1:3] == ["include", "gpucosim"]:
            return PUBLIC.get(parts[3], "public?")
        if parts[1] in LAYERS:
            return parts[1]
        return None
    if parts[:2] == ["cosim", "ref"]:
        stem = os.path.splitext(parts[2])[0]
        return "ref:" + stem
    if parts[0] == "cosim":
        return "models"
    if parts[0] in ("firmware", "build") or path.startswith("GEN/"):
        return "spec"
    return None


def sources(root):
    out = []
    for top in ("hostdrv", "cosim/ref"):
        for d, _, files in os.walk(os.path.join(root, top)):
            for f in files:
                if f.endswith((".c", ".h")):
                    out.append(os.path.relpath(os.path.join(d, f), root))
    return sorted(out)


def resolve(root, gen, src, inc):
    cands = [os.path.join(os.path.dirname(src), inc)] + [os.path.join(d, inc) for d in INC_DIRS]
    for c in cands:
        c = os.path.normpath(c)
        if os.path.isfile(os.path.join(root, c)):
            return c
    if os.path.isfile(os.path.join(gen, inc)):
        return "GEN/" + inc
    return None


def check_includes(root, gen):
    errors, graph = [], {}
    for src in sources(root):
        with open(os.path.join(root, src), encoding="utf-8") as f:
            text = f.read()
        u = unit_of(src)
        graph[src] = []
        for inc in INCLUDE_RE.findall(text):
            dst = resolve(root, gen, src, inc)
            if dst is None:
                errors.append(f'{src}: #include "{inc}" names no file of the tree')
                continue
            graph[src].append(dst)
            v = unit_of(dst)
            if v == "public?":
                errors.append(f'{src}: #include "{inc}": a public header with no layer: add it to PUBLIC in '
                              f'scripts/check_layers.py (and to hostdrv/README.md)')
            elif u.startswith("ref:"):
                if v is not None and v.startswith("ref:") or v == "spec":
                    continue
                if dst == "hostdrv/include/gpucosim/backend.h" and u == "ref:backend_ref":
                    continue
                errors.append(f'{src}: #include "{inc}": the ref model reaches the driver only through '
                              f'gpucosim/backend.h, in backend_ref.c')
            elif v is not None and v.startswith("ref:"):
                errors.append(f'{src}: #include "{inc}": hostdrv does not include the ref model (cosim/ref/); '
                              f'it is a backend (gc_backend_ref)')
            elif v == "models":
                if u != "device":
                    errors.append(f'{src}: #include "{inc}": only the device layer includes the device models')
            elif src.startswith(PUBLIC_DIR) and dst == PUBLIC_DIR + UMBRELLA:
                errors.append(f'{src}: #include "{inc}": a public header includes the headers of the layers it '
                              f'needs, not the umbrella {UMBRELLA}')
            elif v in LAYERS and LAYERS.index(v) > LAYERS.index(u):
                errors.append(f'{src}: #include "{inc}": layer {u} includes {dst} of the upper layer {v}')
            elif (v in LAYERS and v != u and LAYERS.index(u) >= LAYERS.index(PUBLIC_ONLY_FROM)
                  and dst.startswith("hostdrv/" + v + "/")):
                errors.append(f'{src}: #include "{inc}": layer {u} uses the layers below it through their '
                              f'public headers (include/gpucosim/) only')
    errors += [f"include cycle: {' -> '.join(c)}" for c in cycles(graph)]
    return errors, len(graph)


def cycles(graph):
    """Each cycle of a directed graph once (as a list of nodes, first repeated at the end)."""
    found, seen, state = [], set(), {}

    def dfs(n, stack):
        state[n] = 1
        stack.append(n)
        for m in sorted(set(graph.get(n, []))):
            if state.get(m) == 1:
                cyc = stack[stack.index(m):] + [m]
                key = frozenset(cyc)
                if key not in seen:
                    seen.add(key)
                    found.append(cyc)
            elif m not in state:
                dfs(m, stack)
        stack.pop()
        state[n] = 2

    for n in sorted(graph):
        if n not in state:
            dfs(n, [])
    return found


def nm(path, *flags):
    r = subprocess.run(["nm", "-P", *flags, path], capture_output=True, text=True, check=True)
    return [ln.split()[0] for ln in r.stdout.splitlines() if ln.strip()]


def check_symbols(root, objs):
    defined, undefined = {}, {}
    for d, _, files in os.walk(objs):
        for f in files:
            if not f.endswith(".o"):
                continue
            path = os.path.join(d, f)
            src = os.path.relpath(path, objs)[: -len(".o")]  # hostdrv/chan/ring.c
            u = unit_of(src)
            if u is None or not os.path.isfile(os.path.join(root, src)):
                continue  # outside the checked tree, or left over from a file since moved
            for s in nm(path, "-g", "--defined-only"):
                defined[s] = (u, src)
            undefined[src] = (u, nm(path, "-u"))
    errors, edges = [], {}
    for src, (u, syms) in sorted(undefined.items()):
        for s in syms:
            if s not in defined:
                continue  # libc, libm, the Verilated model
            v, where = defined[s]
            if v == u:
                continue
            if u.startswith("ref:"):
                if v.startswith("ref:"):
                    edges.setdefault(u, set()).add(v)
                else:
                    errors.append(f"{src}: uses {s} of {where}: the ref model calls nothing of the driver")
            elif u not in LAYERS:
                errors.append(f"{src}: uses {s} of {where}: the device models call nothing of the driver "
                              f"or of another model")
            elif v in LAYERS:
                if LAYERS.index(v) > LAYERS.index(u):
                    errors.append(f"{src}: uses {s} of {where}: layer {u} calls the upper layer {v}")
                elif (os.path.basename(src).startswith("scen_") and u == "tools" and
                      LAYERS.index(v) < LAYERS.index("runtime") and s not in SCEN_BELOW_RUNTIME and
                      v not in SCEN_DRIVER_LAYERS.get(os.path.basename(src), ())):
                    errors.append(f"{src}: uses {s} of {where}: the scenarios use the runtime's API (below it "
                                  f"only {', '.join(sorted(SCEN_BELOW_RUNTIME))}; scen_copies.c's driver-level "
                                  f"scenarios also the device, mem and chan layers)")
            elif u != "device":
                errors.append(f"{src}: uses {s} of {where}: only the device layer uses the device models")
    errors += [f"ref model use cycle: {' -> '.join(c)}" for c in cycles({k: sorted(v) for k, v in edges.items()})]
    return errors, len(undefined)


def check_sizes(root):
    """Files of hostdrv/ and cosim/ above MAX_LINES lines without their reason at the top."""
    errors = []
    for top in ("hostdrv", "cosim"):
        for d, dirs, files in os.walk(os.path.join(root, top)):
            dirs[:] = [x for x in dirs if x != "__pycache__"]
            for f in sorted(files):
                if not f.endswith(SIZE_EXT):
                    continue
                path = os.path.join(d, f)
                with open(path, encoding="utf-8", errors="replace") as fh:
                    lines = fh.read().splitlines()
                if len(lines) <= MAX_LINES:
                    continue
                rel = os.path.relpath(path, root)
                m = SIZE_RE.search("\n".join(lines[:TOP_LINES]))
                if not m:
                    errors.append(f"{rel}: {len(lines)} lines, above {MAX_LINES}, and no reason at its top "
                                  f'("Size (~N.Nk lines, above the tree\'s ~1,000): why")')
                elif abs(float(m.group(1)) * 1000 - len(lines)) > 100:
                    errors.append(f"{rel}: its top says ~{m.group(1)}k lines, it has {len(lines)}")
    return errors


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("--gen", default="build/gen", help="the generated headers' folder")
    ap.add_argument("--objs", help="object tree of a build (e.g. build/rel/obj): check the symbols too")
    a = ap.parse_args()
    if not os.path.isdir(os.path.join(a.root, "hostdrv")):
        print(f"check_layers: error: {a.root} has no hostdrv/ folder", file=sys.stderr)
        return 2
    if a.objs and not os.path.isdir(a.objs):
        print(f"check_layers: error: object folder '{a.objs}' does not exist (build first)", file=sys.stderr)
        return 2
    gen = a.gen if os.path.isabs(a.gen) else os.path.join(a.root, a.gen)
    errors, nfiles = check_includes(a.root, gen)
    errors += check_sizes(a.root)
    nobjs = 0
    if a.objs:
        e, nobjs = check_symbols(a.root, a.objs)
        errors += e
    for e in errors:
        print(f"check_layers: {e}")
    if errors:
        print(f"check_layers: {len(errors)} violation(s)")
        return 1
    print(f"check_layers: {nfiles} files" + (f", {nobjs} objects" if a.objs else "") +
          ": layers downward only (" + " < ".join(LAYERS) + "), no include cycle, ref model acyclic, "
          f"every file above {MAX_LINES} lines says why")
    return 0


if __name__ == "__main__":
    sys.exit(main())
