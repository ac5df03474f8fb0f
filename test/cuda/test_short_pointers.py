"""``GPURUNNER_NVPTX_SHORT_PTR=1``: 32-bit shared pointers in the kernels we generate.

Off by default until a GPU has run it; here, with no GPU, each of the project's GPU
programs is compiled both ways in a fresh interpreter (the option is read at import):
the short form addresses shared memory through 32-bit registers, keeps the same
instructions otherwise, and ptxas (where installed) assembles it.
"""

from __future__ import annotations

import base64
import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from test_nvgpu_ptx import _ptx_of
from test_ptx import assemble

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = ["block_reduce.mlir", "tma_wgmma_gemm.mlir", "matmul_tiled.mlir"]
PIPELINE = "-gpu-lower-to-nvvm-pipeline=cubin-chip=sm_90a cubin-features=+ptx80 cubin-format=isa"

SCRIPT = """\
import base64, json, os, sys
from runner_core.opt import tool_main
r = tool_main(["mlir-opt", sys.argv[1], "-convert-linalg-to-loops", sys.argv[2]], b"",
              dict(os.environ), os.getcwd())
print(json.dumps({"rc": r.returncode, "err": r.stderr.decode(),
                  "out": base64.b64encode(r.stdout).decode()}))
"""


def _ptx(path: Path, short: bool) -> str:
    env = {**os.environ, "GPURUNNER_NVPTX_SHORT_PTR": "1" if short else "0",
           "GPURUNNER_CACHE_DIR": ""}
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(path), PIPELINE], env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    res = json.loads(out.stdout.splitlines()[-1])
    assert res["rc"] == 0, res["err"]
    return _ptx_of(base64.b64decode(res["out"]))


def _shared_accesses(ptx: str) -> list[str]:
    """The address register of every shared-memory load and store."""
    return re.findall(r"(?:ld|st)\.shared\S*\s+[^\[\n]*\[(%\w+)", ptx)


def _opcodes(ptx: str) -> Counter:
    return Counter(m.group(1) for m in re.finditer(r"^\s+(?:@!?%p\d+\s+)?([a-z][\w.:]*)", ptx,
                                                   re.M)
                   if not m.group(1).startswith(("mov", "cvt", "cvta", "add", "mul", "shl",
                                                 "and", "sub", "mad", "ld.param", "or", "shr",
                                                 "setp", "selp", "neg")))


@pytest.mark.parametrize("name", PROGRAMS)
def test_short_shared_pointers(name, tmp_path):
    path = ROOT / "integration_test" / "gpu" / name
    long_ptx, short_ptx = _ptx(path, False), _ptx(path, True)
    assert "p3:32:32" not in long_ptx
    long_regs, short_regs = _shared_accesses(long_ptx), _shared_accesses(short_ptx)
    if long_regs:
        assert all(r.startswith("%rd") for r in long_regs)
        assert short_regs and not any(r.startswith("%rd") for r in short_regs), short_regs
    # The same memory, barrier, shuffle and tensor-core instructions, only the address
    # arithmetic around them differs.
    keep = re.compile(r"^(ld\.(shared|global)|st\.|bar\.|shfl|wgmma|cp\.async|mbarrier|red|atom)")
    assert {k for k in _opcodes(short_ptx) if keep.match(k)} == \
        {k for k in _opcodes(long_ptx) if keep.match(k)}
    assemble(short_ptx, "sm_90a", tmp_path)
