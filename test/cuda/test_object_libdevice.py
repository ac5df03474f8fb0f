"""PTX objects from mlir-opt 22 and libdevice: why the H100 refused two lowered programs.

``cpu/gpu_all_reduce`` and ``gpu/all_reduce_3d`` lowered to PTX (``isa``) got
CUDA_ERROR_INVALID_PTX from ``cuModuleLoadData``.  Their PTX (read from the
object byte for byte, as the cuda backend hands it over) calls ``__nv_fminf``
and ``__nv_fmaxf`` that it only declares: Debian's mlir-opt links libdevice
only when it finds a CUDA toolkit (CUDA_ROOT/CUDA_HOME/CUDA_PATH).  NVIDIA's
ptxas says the same of that PTX, and accepts it for sm_90 once CUDA_ROOT is
given.  Real tools only; skipped where they are missing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from runner_core.backends import gpu_objects
from runner_core.backends.cuda import nvptx
from runner_core.ir.parse import parse_source

ROOT = Path(__file__).resolve().parents[2]
LLVM_BIN = Path(os.environ.get("GPURUNNER_LLVM_BIN", "/usr/lib/llvm-22/bin"))
TOOLKIT = next((r for r in ("/usr/local/cuda", "/usr/lib/cuda")
                if Path(r, "nvvm", "libdevice").is_dir()), None)
PTXAS = shutil.which("ptxas") or ("/usr/local/bin/ptxas" if Path("/usr/local/bin/ptxas").exists()
                                  else None)
pytestmark = pytest.mark.skipif(not (LLVM_BIN / "mlir-opt").exists(),
                                reason=f"LLVM 22's mlir-opt not found in {LLVM_BIN}")


def _ptx(cuda_root: str | None) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("CUDA_ROOT", "CUDA_HOME", "CUDA_PATH")}
    if cuda_root:
        env["CUDA_ROOT"] = cuda_root
    res = subprocess.run([str(LLVM_BIN / "mlir-opt"), "integration_test/cpu/gpu_all_reduce.mlir",
                          "-gpu-lower-to-nvvm-pipeline=cubin-format=isa"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    module = parse_source(res.stdout, "lowered.mlir")
    binary = gpu_objects.cuda_binary(next(o for o in module.walk() if o.name == "gpu.binary"))
    assert binary.format == "ptx" and binary.blob.endswith(b"\0")
    return binary.blob[:-1].decode()


def _ptxas(tmp_path: Path, ptx: str) -> subprocess.CompletedProcess:
    src = tmp_path / "k.ptx"
    src.write_text(ptx)
    return subprocess.run([PTXAS, "-arch=sm_90", str(src), "-o", str(tmp_path / "k.cubin")],
                          capture_output=True, text=True, timeout=120)


def test_without_a_toolkit_the_ptx_calls_libdevice_it_does_not_define(tmp_path):
    ptx = _ptx(None)
    assert nvptx.unresolved_libdevice(ptx) == ["__nv_fminf", "__nv_fmaxf"]
    if PTXAS:
        res = _ptxas(tmp_path, ptx)
        assert res.returncode != 0 and "Unresolved extern function '__nv_fminf'" in res.stderr


@pytest.mark.skipif(TOOLKIT is None, reason="no CUDA toolkit with libdevice here")
def test_with_cuda_root_libdevice_is_linked(tmp_path):
    ptx = _ptx(TOOLKIT)
    assert nvptx.unresolved_libdevice(ptx) == []
    if PTXAS:
        res = _ptxas(tmp_path, ptx)
        assert res.returncode == 0, res.stderr
