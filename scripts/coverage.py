#!/usr/bin/env python3
"""gpucosim coverage report (the last step of `make coverage`, mk/tools.mk).

Inputs: the Verilator coverage files of every model run ($BUILD/dat/*.dat, written by
cosim/gc_cov.h), the driver's gcov data (*.gcno / *.gcda beside the objects of $BUILD/rel/obj and
$BUILD/san/obj: `make coverage` rebuilds those from clean each run, so none is stale) and the
toggle waivers (--waivers, rtl/coverage_waivers.txt: signals that cannot toggle by construction,
each with its reason; their toggle points are left out of the figures and the report).
Outputs, in $BUILD:
  merged.dat        the RTL coverage merged by verilator_coverage
  design.dat        merged.dat less the waived toggle points
  rtl.info          its lcov tracefile (verilator_coverage --write-info), design files only
  driver.info       the driver's lcov tracefile (gcovr --lcov): hostdrv/ and cosim/ref/
  html/index.html   the HTML report of both (Debian lcov's genhtml)
  summary.txt       the figures and the least covered files
and the figures, merged by name into --results (the bench's other figures stay), each with a
"scope": "full", or "partial: ..." naming what ran (--partial: a subset, said in every output):
  rtl_line_coverage    covered / all line and branch points (v_line, v_branch) of the design
  rtl_toggle_coverage  covered / all toggle points (v_toggle: each bit's 0->1 and 1->0)
  driver_line_coverage covered / instrumented lines of the driver (gcov)
A point counts as covered when any instance of its module hit it.  The design is rtl/*.sv less
the protocol checkers (gc_axi_check.sv, gc_axil_check.sv: they watch, they are not the device);
the bench tops (tests/rtl/) and the generated package are left out of the figures.
"""
import argparse
import collections
import glob
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHECKERS = ("rtl/gc_axi_check.sv", "rtl/gc_axil_check.sv")
DRIVER_DIRS = ("hostdrv/", "cosim/ref/")
POINT_RE = re.compile(r"^C '(.*)' (\d+)$")
GCOV_DIRS = ("rel/obj", "san/obj")   # where the driver's gcov objects are (Makefile: variant)


class CovError(Exception):
    pass


def run(argv, **kw):
    p = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, **kw)
    if p.returncode != 0:
        raise CovError(f"{' '.join(argv[:3])} ... failed (exit {p.returncode}): "
                       f"{(p.stderr or p.stdout).strip().splitlines()[-1:] or ['no output']}")
    return p.stdout


def design_file(f):
    f = os.path.relpath(os.path.join(ROOT, f), ROOT) if not os.path.isabs(f) else os.path.relpath(f, ROOT)
    return f if f.startswith("rtl/") and f.endswith(".sv") and f not in CHECKERS else None


def load_waivers(path):
    """[(module, compiled regex of the signal bit, reason, line number)] from the waiver list:
    one waiver a line, `module  regex  reason` (the regex matches a toggle point's whole signal
    name, e.g. araddr_q\\[3[2-9]\\]); blank lines and # comments are skipped.  A waiver without
    a reason, or whose regex does not compile, is an error."""
    out = []
    with open(path) as fh:
        for no, raw in enumerate(fh, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(None, 2)
            if len(parts) < 3:
                raise CovError(f"{path}:{no}: a waiver is 'module regex reason' (no reason given)")
            try:
                rx = re.compile(parts[1])
            except re.error as e:
                raise CovError(f"{path}:{no}: bad regex {parts[1]!r}: {e}")
            out.append((parts[0], rx, parts[2], no))
    return out


def point_fields(raw):
    m = POINT_RE.match(raw.rstrip("\n"))
    if not m:
        return None, None
    kv = dict(item.split("\x02", 1) for item in m.group(1).split("\x01") if "\x02" in item)
    return kv, int(m.group(2))


def waived(kv, waivers):
    """The waiver (its index) that covers this toggle point, or None."""
    page = kv.get("page", "")
    if not page.startswith("v_toggle/"):
        return None
    mod = page.split("/", 1)[1].split("__", 1)[0]   # gc_sm__N4_NB8...: Verilator's name of a parameterization
    for i, (wm, rx, _, _) in enumerate(waivers):
        if wm == mod and rx.fullmatch(kv.get("o", "")):
            return i
    return None


def apply_waivers(merged, out, waivers):
    """Copy merged to out without the waived toggle points; the number of points per waiver."""
    used = collections.Counter()
    with open(merged, encoding="latin-1") as fi, open(out, "w", encoding="latin-1") as fo:
        for raw in fi:
            kv, _ = point_fields(raw)
            w = waived(kv, waivers) if kv is not None else None
            if w is None:
                fo.write(raw)
            else:
                used[w] += 1
    return used


def check_used(path, waivers, used):
    """A waiver that matches no toggle point is stale (a renamed signal, a wrong regex): an error."""
    unused = [f"{path}:{no} ({m} {rx.pattern})" for i, (m, rx, _, no) in enumerate(waivers) if not used[i]]
    if unused:
        raise CovError("waivers that match no toggle point (stale: remove or fix them): " + ", ".join(unused))


def rtl_points(merged):
    """{(kind, file, line, point): hits} over the design files; kind 'line' or 'toggle'."""
    pts = collections.Counter()
    with open(merged, encoding="latin-1") as fh:
        for raw in fh:
            kv, hits = point_fields(raw)
            if kv is None:
                continue
            f = design_file(kv.get("f", ""))
            page = kv.get("page", "")
            if f is None:
                continue
            kind = "toggle" if page.startswith("v_toggle") else \
                   "line" if page.startswith(("v_line", "v_branch")) else None
            if kind is None:
                continue
            # per module, not per instance: drop the hierarchy (h) from the key
            key = (kind, f, int(kv.get("l", 0)), kv.get("n", ""), kv.get("o", ""), page.split("/")[0])
            pts[key] += hits
    return pts


def fraction(pts, kind):
    sel = [v for k, v in pts.items() if k[0] == kind]
    return (sum(1 for v in sel if v > 0) / len(sel)) if sel else 0.0, len(sel)


def per_file(pts, kind):
    d = collections.defaultdict(lambda: [0, 0])
    for k, v in pts.items():
        if k[0] == kind:
            d[k[1]][1] += 1
            d[k[1]][0] += v > 0
    return d


def merge_results(path, figures, scope):
    """Put figures (name -> (value, unit, better)) into the bench's results.json, replacing
    same-named entries and keeping every other one; each carries "scope": what ran ("full", or
    "partial: ..." for a subset run)."""
    old = []
    if os.path.exists(path):
        with open(path) as fh:
            old = json.load(fh)
        if not isinstance(old, list):
            raise CovError(f"{path}: not a list of figures")
    names = set(figures)
    out = [r for r in old if r.get("name") not in names]
    out += [{"name": n, "value": round(v, 4), "unit": u, "better": b, "scope": scope}
            for n, (v, u, b) in figures.items()]
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as fh:
        json.dump(out, fh, indent=2)
        fh.write("\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build/coverage", help="the coverage build (default %(default)s)")
    ap.add_argument("--waivers", help="toggle waiver list (module regex reason a line): points left out")
    ap.add_argument("--results", default="build/bench/results.json", help="figures file to merge into")
    ap.add_argument("--partial", metavar="WHAT",
                    help="a partial run (WHAT: which programs / cases ran): its figures are merged with "
                         "scope 'partial: WHAT' and every output says PARTIAL")
    args = ap.parse_args(argv)
    b = os.path.abspath(args.build)
    try:
        dats = sorted(glob.glob(os.path.join(b, "dat", "*.dat")))
        if not dats:
            raise CovError(f"no Verilator coverage files in {b}/dat (did the coverage run happen?)")
        merged = os.path.join(b, "merged.dat")
        run(["verilator_coverage", "--write", merged] + dats)
        waivers = load_waivers(args.waivers) if args.waivers else []
        design = os.path.join(b, "design.dat")
        used = apply_waivers(merged, design, waivers)
        check_used(args.waivers, waivers, used)
        pts = rtl_points(design)
        line, nline = fraction(pts, "line")
        toggle, ntoggle = fraction(pts, "toggle")
        if not nline or not ntoggle:
            raise CovError(f"{merged}: no line or no toggle points of rtl/ (built without COVERAGE=1?)")

        all_info = os.path.join(b, "rtl_all.info")
        rtl_info = os.path.join(b, "rtl.info")
        run(["verilator_coverage", "--write-info", all_info, design])
        run(["lcov", "--quiet", "--extract", all_info, "*rtl/*.sv", "-o", rtl_info + ".tmp"])
        run(["lcov", "--quiet", "--remove", rtl_info + ".tmp"] + [f"*{c}" for c in CHECKERS] + ["-o", rtl_info])
        os.remove(rtl_info + ".tmp")

        drv_info = os.path.join(b, "driver.info")
        drv_json = os.path.join(b, "driver.json")
        filters = []
        for d in DRIVER_DIRS:
            filters += ["--filter", re.escape(d)]
        gdirs = [os.path.join(b, d) for d in GCOV_DIRS if os.path.isdir(os.path.join(b, d))]
        if not gdirs:
            raise CovError(f"no gcov objects under {b} ({', '.join(GCOV_DIRS)}): built without COVERAGE=1?")
        # the driver is compiled twice (rel for the CLI, san for the tests): a function's coverage
        # from the two objects differs in its inlining, so functions are merged per compilation
        run([sys.executable, "-m", "gcovr", "--root", ROOT, *filters, "--merge-mode-functions", "separate",
             "--lcov", drv_info,
             "--json-summary", drv_json, *gdirs])
        # gcovr writes DA:line,count,md5; Debian's genhtml 1.16 takes a third field as a checksum of
        # its own kind and refuses the file: keep line and count only
        with open(drv_info) as fh:
            info = re.sub(r"^(DA:\d+,\d+),\S+$", r"\1", fh.read(), flags=re.M)
        with open(drv_info, "w") as fh:
            fh.write(info)
        with open(drv_json) as fh:
            js = json.load(fh)
        if not js.get("line_total"):
            raise CovError(f"no gcov data for {', '.join(DRIVER_DIRS)} under {b} (built without COVERAGE=1?)")
        driver = js["line_covered"] / js["line_total"]

        html = os.path.join(b, "html")
        run(["genhtml", "--quiet", "--legend", "--title", "gpucosim: RTL (Verilator) and driver (gcov)",
             "--output-directory", html, rtl_info, drv_info])
    except CovError as e:
        print(f"coverage: {e}", file=sys.stderr)
        return 1

    figures = {"rtl_line_coverage": (line, "fraction", "higher"),
               "rtl_toggle_coverage": (toggle, "fraction", "higher"),
               "driver_line_coverage": (driver, "fraction", "higher")}
    merge_results(args.results, figures, f"partial: {args.partial}" if args.partial else "full")
    lines = ([f"PARTIAL coverage run ({args.partial}): not the figures of the whole suite", ""]
             if args.partial else []) + [f"rtl_line_coverage     {line:.3f}  ({nline} line/branch points, goal 0.90)",
             f"rtl_toggle_coverage   {toggle:.3f}  ({ntoggle} toggle points, goal 0.80; "
             f"{sum(used.values())} waived by {len(waivers)} waivers)",
             f"driver_line_coverage  {driver:.3f}  ({js['line_total']} lines, goal 0.85)", "",
             "least covered design files (line, toggle):"]
    pl, pt = per_file(pts, "line"), per_file(pts, "toggle")
    for f in sorted(pl, key=lambda f: pl[f][0] / pl[f][1]):
        t = pt.get(f, [0, 0])
        lines.append(f"  {f:<28} line {pl[f][0] / pl[f][1]:.3f} ({pl[f][1] - pl[f][0]} missed)  "
                     f"toggle {(t[0] / t[1]) if t[1] else 0:.3f} ({t[1] - t[0]} missed)")
    lines.append("driver files below 0.85 (gcov lines):")
    for f in sorted(js.get("files", []), key=lambda f: f.get("line_percent", 0)):
        if f.get("line_total") and f["line_covered"] / f["line_total"] < 0.85:
            lines.append(f"  {f['filename']:<36} {f['line_covered'] / f['line_total']:.3f} "
                         f"({f['line_total'] - f['line_covered']} lines missed)")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(b, "summary.txt"), "w") as fh:
        fh.write(text)
    where = (f"PARTIAL run ({args.partial}): " if args.partial else "") + \
        f"figures merged into {args.results}" + (" with that scope" if args.partial else "")
    print(text + f"coverage: {os.path.relpath(html, ROOT)}/index.html; {where}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
