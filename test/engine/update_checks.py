"""Regenerate the CHECK lines of test/engine/programs/*.mlir from upstream's output.

Like LLVM's update_test_checks.py: each program's RUN pipeline is run with the
real tools (Debian's mlir-opt/mlir-runner 22 and runtime libraries), and the
trailing block of ``// CHECK`` lines is replaced by one matching that output
exactly (memref base pointers as a regex).  Run by hand after adding or
changing a program; the tests then hold our engine to upstream's output.

    python test/engine/update_checks.py [files...]
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from pytest_gpurunner.script import run_commands

HERE = Path(__file__).parent
LLVM = Path("/usr/lib/llvm-22")
REAL_LIBS = {
    "%mlir_runner_utils": str(LLVM / "lib/libmlir_runner_utils.so"),
    "%mlir_c_runner_utils": str(LLVM / "lib/libmlir_c_runner_utils.so"),
}
BASE = re.compile(r"base@ = 0x[0-9a-f]+")
# Debian's tools and runtime libraries, which the differential tests compare against.
HAVE_LLVM = all(p.exists() for p in (LLVM / "bin/mlir-opt", LLVM / "bin/mlir-runner",
                                      *map(Path, REAL_LIBS.values())))


def mask(data: bytes) -> bytes:
    """Program output with memref base pointers (different every run) masked."""
    return _BASE_BYTES.sub(b"base@ = 0x(masked)", data)


_BASE_BYTES = re.compile(BASE.pattern.encode())


def pipeline(path: Path) -> list[str]:
    """The stages of the file's one RUN command before its FileCheck stage."""
    (cmd,) = run_commands(path)
    stages = [s.strip() for s in cmd.split("|")]
    assert stages[-1].startswith("FileCheck"), stages[-1]
    return stages[:-1]


def upstream_output(path: Path) -> bytes:
    cmd = " | ".join(pipeline(path))
    for k, v in REAL_LIBS.items():
        cmd = cmd.replace(k, v)
    cmd = cmd.replace("%s", str(path))
    cmd = re.sub(r"\bmlir-opt\b", str(LLVM / "bin/mlir-opt"), cmd)
    cmd = re.sub(r"\bmlir-runner\b", str(LLVM / "bin/mlir-runner"), cmd)
    res = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], capture_output=True)
    if res.returncode != 0:
        raise SystemExit(f"{path}: upstream failed:\n{res.stderr.decode()}")
    return res.stdout


def escape(line: str) -> str:
    out = []
    i = 0
    while i < len(line):
        two = line[i:i + 2]
        if two == "[[":
            out.append(r"{{\[\[}}")
            i += 2
        elif two == "{{":
            out.append(r"{{\{\{}}")
            i += 2
        else:
            out.append(line[i])
            i += 1
    text = "".join(out)
    return BASE.sub("base@ = {{0x[0-9a-f]+}}", text)


def check_block(output: str) -> list[str]:
    lines = output.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    block = []
    for i, line in enumerate(lines):
        kind = "CHECK" if i == 0 else "CHECK-NEXT"
        if line.strip() == "":
            block.append(f"// {'CHECK-EMPTY' if i else 'CHECK'}:")
        else:
            block.append(f"// {kind}: {escape(line.rstrip())}")
    return block


def update(path: Path) -> None:
    out = upstream_output(path).decode()
    text = path.read_text().rstrip("\n").split("\n")
    while text and (text[-1].startswith("// CHECK") or text[-1] == ""):
        text.pop()
    path.write_text("\n".join(text + [""] + check_block(out)) + "\n")


if __name__ == "__main__":
    files = [Path(a) for a in sys.argv[1:]] or sorted((HERE / "programs").glob("*.mlir"))
    for f in files:
        update(f)
        print("updated", f)
