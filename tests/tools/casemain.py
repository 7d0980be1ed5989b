"""The command-line side shared by the Python tests in tests/tools: the same interface as the C
tests (--list prints the case names; arguments name cases; no argument runs them all), one
PASS / FAIL line per case and the closing 'N passed, N failed'."""
import subprocess
import sys


def main(prefix, cases):
    """cases: {name: function}; a case fails by raising AssertionError (or a lookup / subprocess
    error)."""
    if sys.argv[1:] == ["--list"]:
        print("\n".join(prefix + k for k in cases))
        sys.exit(0)
    names = [a.removeprefix(prefix) for a in sys.argv[1:]] or list(cases)
    passed = failed = 0
    for n in names:
        try:
            cases[n]()
            print(f"PASS: {prefix}{n}")
            passed += 1
        except (AssertionError, KeyError, subprocess.CalledProcessError) as e:
            print(f"FAIL: {prefix}{n}: {e!r}")
            failed += 1
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
