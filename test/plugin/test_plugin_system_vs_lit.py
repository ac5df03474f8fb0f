"""``mlir-opt | mlir-runner | FileCheck`` CPU tests: the plug-in in system mode agrees with lit.

The same small suite runs once under ``lit`` (upstream's runner of these files)
and once under pytest with ``--gpurunner-tools=system`` and Debian's LLVM 22
tools; every file must get the same verdict from both.  The suite contains
passing, failing, XFAIL, UNSUPPORTED and error-checking tests, so agreement is
not agreement on "everything passes".
"""

import json
import os
import subprocess
import sys
import textwrap

import pytest

LLVM = "/usr/lib/llvm-22"
pytestmark = pytest.mark.skipif(not os.path.exists(f"{LLVM}/bin/mlir-runner"),
                                reason="Debian's mlir-22-tools are not installed")

LOWER = ("mlir-opt %s -convert-vector-to-llvm -finalize-memref-to-llvm -convert-func-to-llvm "
         "-convert-arith-to-llvm -reconcile-unrealized-casts")
RUNNER = "mlir-runner -e main --entry-point-result=void"

SUITE = {
    "vector_print.mlir": ("PASS", f"""
        // RUN: {LOWER} | {RUNNER} --shared-libs=%mlir_c_runner_utils | FileCheck %s
        func.func @main() {{
          %c = arith.constant 42 : i64
          %v = arith.addi %c, %c : i64
          // CHECK: 84
          vector.print %v : i64
          return
        }}
    """),
    "memref_print.mlir": ("PASS", f"""
        // RUN: {LOWER} | {RUNNER} \\
        // RUN:   --shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s
        func.func private @printMemrefI32(memref<*xi32>)
        func.func @main() {{
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %v = arith.constant 84 : i32
          %m = memref.alloc() : memref<2xi32>
          memref.store %v, %m[%c0] : memref<2xi32>
          memref.store %v, %m[%c1] : memref<2xi32>
          %u = memref.cast %m : memref<2xi32> to memref<*xi32>
          // CHECK: rank = 1 offset = 0 sizes = [2] strides = [1] data =
          // CHECK-NEXT: [84,  84]
          call @printMemrefI32(%u) : (memref<*xi32>) -> ()
          memref.dealloc %m : memref<2xi32>
          return
        }}
    """),
    "result_i32.mlir": ("PASS", """
        // RUN: mlir-opt %s -convert-func-to-llvm -convert-arith-to-llvm \\
        // RUN:   -reconcile-unrealized-casts | mlir-runner -e main --entry-point-result=i32 \\
        // RUN:   | FileCheck %s
        // CHECK: 7
        func.func @main() -> i32 {
          %c = arith.constant 7 : i32
          return %c : i32
        }
    """),
    "wrong_value.mlir": ("FAIL", f"""
        // RUN: {LOWER} | {RUNNER} --shared-libs=%mlir_c_runner_utils | FileCheck %s
        func.func @main() {{
          %c = arith.constant 3 : i64
          // CHECK: 4
          vector.print %c : i64
          return
        }}
    """),
    "diagnostic.mlir": ("PASS", """
        // RUN: not mlir-opt %s 2>&1 | FileCheck %s
        // CHECK: error: use of undeclared SSA value name
        func.func @main() {
          %x = arith.addi %a, %a : i32
          return
        }
    """),
    "expected_failure.mlir": ("XFAIL", f"""
        // XFAIL: *
        // RUN: {LOWER} | {RUNNER} --shared-libs=%mlir_c_runner_utils | FileCheck %s
        func.func @main() {{
          %c = arith.constant 1 : i64
          // CHECK: 2
          vector.print %c : i64
          return
        }}
    """),
    "needs_feature.mlir": ("UNSUPPORTED", """
        // REQUIRES: some-accelerator-we-lack
        // RUN: mlir-runner %s
    """),
    "runner_error.mlir": ("FAIL", f"""
        // RUN: {LOWER} | {RUNNER} --shared-libs=%mlir_c_runner_utils | FileCheck %s
        // CHECK: 1
        func.func @not_main() {{
          return
        }}
    """),
}

LIT_CFG = f"""
import os
import lit.formats

config.name = "gpurunner-system-compare"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.environment["PATH"] = "{LLVM}/bin" + os.pathsep + os.environ["PATH"]
for name in ("mlir_c_runner_utils", "mlir_runner_utils"):
    config.substitutions.append(("%" + name, "{LLVM}/lib/lib" + name + ".so"))
"""


def lit_verdicts(root) -> dict[str, str]:
    results = root / "lit.json"
    subprocess.run([sys.executable, "-c", "import lit.main; lit.main.main()", "-q", "-j", "1",
                    "-o", str(results), str(root)], capture_output=True, text=True, timeout=300)
    data = json.loads(results.read_text())
    return {t["name"].split(" :: ", 1)[1]: t["code"] for t in data["tests"]}


def test_system_mode_gives_lits_verdicts(pytester: pytest.Pytester, ini):
    root = pytester.path
    for name, (_expected, text) in SUITE.items():
        (root / name).write_text(textwrap.dedent(text).lstrip())
    (root / "lit.cfg").write_text(LIT_CFG)
    ini(f"""
        gpurunner_tools = system
        gpurunner_tool_dirs = {LLVM}/bin
    """, fake_tools=False)

    from_lit = lit_verdicts(root)
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-rA", "--junitxml=j.xml")
    outcomes = {}
    import xml.etree.ElementTree as ET

    for case in ET.parse(root / "j.xml").getroot().iter("testcase"):
        name = case.get("name") + ".mlir"
        if case.find("failure") is not None:
            outcomes[name] = "FAIL"
        elif (skipped := case.find("skipped")) is not None:
            outcomes[name] = "XFAIL" if skipped.get("type") == "pytest.xfail" else "UNSUPPORTED"
        else:
            outcomes[name] = "PASS"
    expected = {name: verdict for name, (verdict, _) in SUITE.items()}
    assert from_lit == expected, f"lit itself disagrees with the suite's expectations: {from_lit}"
    assert outcomes == from_lit, result.stdout.str()
    # The runtime library names were derived from the system runner's location.
    result.stdout.fnmatch_lines([f"gpurunner: %mlir_lib_dir={LLVM}/lib (next to {LLVM}/bin/mlir-runner)"])
