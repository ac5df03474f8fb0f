"""Median per-test time of the tests that pass, for programs under N operations (issue 17's
"per-test median below 10 ms for programs of under 100 ops, warm"), from one JUnit report
of bench/suite_vs_lit.py.  A test's file is found by its path relative to one of the
folders (reported only where that is unique); its operations are counted approximately:
the lines outside comments that hold an operation (`dialect.op`, `return`, `module`).

    python bench/_junit_small.py REPORT.xml FOLDER [FOLDER...] [--under 100]
"""

import argparse
import re
import statistics
import xml.etree.ElementTree as ET
from pathlib import Path

OP = re.compile(r'(?:^|=\s*|\{\s*)"?(?:[a-z_][a-z0-9_]*\.[a-z_][\w.]*|return|module)\b')


def ops(path: Path) -> int:
    count = 0
    for line in path.read_text(errors="replace").splitlines():
        code = line.split("//", 1)[0].strip()
        if code and OP.search(code):
            count += 1
    return count


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("report", type=Path)
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("--under", type=int, default=100)
    args = ap.parse_args()
    small, large, unknown = [], [], 0
    for case in ET.parse(args.report).iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None or \
                case.find("skipped") is not None:
            continue
        rel = case.get("classname", "")
        found = [f / rel for f in args.folders if (f / rel).is_file()]
        found += [p for f in args.folders for p in f.rglob(Path(rel).name)
                  if str(p).endswith(rel) and p not in found]
        if len(set(found)) != 1:
            unknown += 1
            continue
        (small if ops(found[0]) < args.under else large).append(float(case.get("time") or 0))
    print(f"passing tests: {len(small)} under {args.under} ops, median "
          f"{1000 * statistics.median(small):.1f} ms; {len(large)} larger, median "
          f"{1000 * statistics.median(large):.1f} ms; {unknown} not matched to one file")


if __name__ == "__main__":
    main()
