"""Per-test comparison of two JUnit reports of the same files (bench/suite_vs_lit.py):
the tests both pass, matched by file stem where the stem is unique in both, their summed
and median times.  Run: python bench/_junit_pairs.py LIT.xml PLUGIN.xml"""

import statistics
import sys
import xml.etree.ElementTree as ET
from pathlib import PurePosixPath


def load(path):
    out = {}
    for case in ET.parse(path).iter("testcase"):
        stem = PurePosixPath(case.get("name", "")).name.removesuffix(".mlir")
        bad = case.find("failure") is not None or case.find("error") is not None
        skipped = case.find("skipped") is not None
        out.setdefault(stem, []).append(("skip" if skipped else "fail" if bad else "pass",
                                         float(case.get("time") or 0)))
    return {k: v[0] for k, v in out.items() if len(v) == 1}


def main():
    a, b = load(sys.argv[1]), load(sys.argv[2])
    both = sorted(k for k in a.keys() & b.keys() if a[k][0] == b[k][0] == "pass")
    ta = [a[k][1] for k in both]
    tb = [b[k][1] for k in both]
    print(f"tests passing in both (unique stems): {len(both)}; summed time {sum(ta):.2f} s vs "
          f"{sum(tb):.2f} s ({sum(ta) / max(sum(tb), 1e-9):.1f}x); median "
          f"{1000 * statistics.median(ta):.1f} ms vs {1000 * statistics.median(tb):.1f} ms")


if __name__ == "__main__":
    main()
