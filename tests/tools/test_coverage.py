#!/usr/bin/env python3
"""scripts/coverage.py's toggle waivers (rtl/coverage_waivers.txt): a waived point leaves the
figures and the filtered coverage file, nothing else does; a waiver without a reason, with a bad
regex or matching no point is refused with the file and line; and the project's own waiver list
parses, each entry with its reason.  Same interface as the C tests: --list, or case names."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from casemain import main  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import coverage as cov  # noqa: E402  (scripts/coverage.py, not the PyPI package)


def point(page, name, hits, f="rtl/gc_x.sv", line=10):
    keys = {"f": f, "l": str(line), "page": page, "o": name, "h": "TOP.u_x"}
    return "C '" + "".join(f"\x01{k}\x02{v}" for k, v in keys.items()) + f"' {hits}\n"


def write(d, name, text):
    p = os.path.join(d, name)
    with open(p, "w", encoding="latin-1") as fh:
        fh.write(text)
    return p


DAT = ("# SystemC::Coverage-3\n" + point("v_toggle/gc_x__N8_W2", "addr_q[39]", 0) + point("v_toggle/gc_x", "addr_q[3]", 5)
       + point("v_toggle/gc_y", "addr_q[39]", 0, f="rtl/gc_y.sv") + point("v_line/gc_x", "block", 1)
       + point("v_toggle/tb_top", "addr_q[39]", 0, f="tests/rtl/tb.sv"))


def t_waived_points_leave():
    with tempfile.TemporaryDirectory() as d:
        merged = write(d, "merged.dat", DAT)
        wv = cov.load_waivers(write(d, "w.txt", "# comment\n\ngc_x  addr_q\\[3[2-9]\\]  above the 4 GiB modelled\n"))
        out = os.path.join(d, "design.dat")
        used = cov.apply_waivers(merged, out, wv)
        assert used == {0: 1}, used      # gc_x's bit 39 only: not gc_y's, not bit 3
        cov.check_used("w.txt", wv, used)
        pts = cov.rtl_points(out)
        assert cov.fraction(pts, "toggle") == (0.5, 2), cov.fraction(pts, "toggle")   # gc_x[3] hit, gc_y[39] not
        assert cov.fraction(pts, "line") == (1.0, 1)
        # without the waiver: three toggle points of the design (the bench file is not the design)
        assert cov.fraction(cov.rtl_points(merged), "toggle") == (1 / 3, 3)


def refused(text, want):
    with tempfile.TemporaryDirectory() as d:
        try:
            cov.load_waivers(write(d, "w.txt", text))
        except cov.CovError as e:
            assert want in str(e), str(e)
            return
        raise AssertionError(f"{text!r} was accepted")


def t_waiver_without_reason():
    refused("gc_x addr_q\\[39\\]\n", "w.txt:1: a waiver is 'module regex reason' (no reason given)")


def t_waiver_bad_regex():
    refused("# c\ngc_x addr_q[39 a reason\n", "w.txt:2: bad regex 'addr_q[39'")


def t_stale_waiver():
    with tempfile.TemporaryDirectory() as d:
        merged = write(d, "merged.dat", DAT)
        wv = cov.load_waivers(write(d, "w.txt", "gc_x addr_q\\[39\\] r\ngc_x gone_q r2\n"))
        used = cov.apply_waivers(merged, os.path.join(d, "o.dat"), wv)
        try:
            cov.check_used("w.txt", wv, used)
        except cov.CovError as e:
            assert "w.txt:2 (gc_x gone_q)" in str(e) and "w.txt:1" not in str(e), str(e)
            return
        raise AssertionError("a waiver matching nothing was accepted")


def t_project_waivers_parse():
    wv = cov.load_waivers(os.path.join(ROOT, "rtl", "coverage_waivers.txt"))
    assert wv, "rtl/coverage_waivers.txt has no waiver"
    mods = {os.path.basename(f)[:-3] for f in os.listdir(os.path.join(ROOT, "rtl")) if f.endswith(".sv")}
    for m, _, reason, no in wv:
        assert m in mods, f"rtl/coverage_waivers.txt:{no}: no module {m} in rtl/"
        assert len(reason.split()) >= 3, f"rtl/coverage_waivers.txt:{no}: reason too short: {reason!r}"


def t_partial_filter_quoted():
    """`make coverage TESTS='a|b'` hands the runner the regex whole (it went to the shell as a pipe)."""
    out = subprocess.run(["make", "-n", "coverage", "COV_ONLY=test_frontend", "TESTS=register_bits|subchannel"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300).stdout
    assert "--filter 'register_bits|subchannel'" in out, "make -n coverage: the runner's --filter is not quoted"


if __name__ == "__main__":
    main("coverage_", {"waived_points_leave": t_waived_points_leave, "waiver_without_reason": t_waiver_without_reason,
                       "waiver_bad_regex": t_waiver_bad_regex, "stale_waiver": t_stale_waiver,
                       "project_waivers_parse": t_project_waivers_parse,
                       "partial_filter_quoted": t_partial_filter_quoted})
