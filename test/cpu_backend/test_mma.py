"""Tensor-core ops (`gpu.subgroup_mma_*`) on the cpu backend against a numpy model.

The model is the tensor cores' arithmetic: f16 inputs widened to f32, the
accumulator's value plus the products summed in k order in f32, an f16
accumulator rounded once at the end; loads and stores follow `leadDimension`
and `transpose` (column-major).  Values are random f16 numbers, so rounding
differences would show.
"""

from __future__ import annotations

import numpy as np
import pytest

from .runner import run


def _memref_values(stdout: bytes, count: int) -> list[np.ndarray]:
    """The data of each printed memref, flat."""
    out = []
    for chunk in stdout.decode().split("data =")[1:count + 1]:
        body = chunk.split("Unranked")[0]
        out.append(np.array([float(x) for x in body.replace("[", " ").replace("]", " ")
                             .replace(",", " ").split()]))
    return out


def _fill(name: str, values: np.ndarray, ty: str) -> str:
    """Host code storing ``values`` (2-D) into memref ``name`` of element type ``ty``."""
    lines = []
    for (i, j), v in np.ndenumerate(values):
        lit = float(v).hex() if False else repr(float(v))
        lines.append(f"    %v_{name}_{i}_{j} = arith.constant {lit} : {ty}\n"
                     f"    memref.store %v_{name}_{i}_{j}, %{name}[%i{i}, %i{j}] : "
                     f"memref<{values.shape[0]}x{values.shape[1]}x{ty}>")
    return "\n".join(lines)


def _program(a, b, c, *, acc="f32", load_t=False, store_t=False, extra="") -> str:
    idx = "\n".join(f"    %i{k} = arith.constant {k} : index" for k in range(33))
    tr_a = ", transpose" if load_t else ""
    tr_s = ", transpose" if store_t else ""
    a_src = a.T if load_t else a
    return f"""module attributes {{gpu.container_module}} {{
  gpu.module @m {{
    gpu.func @k(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16x{acc}>) kernel {{
      %c0 = arith.constant 0 : index
      %A = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {{leadDimension = 16 : index{tr_a}}} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %B = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {{leadDimension = 16 : index}} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
      %C = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {{leadDimension = 16 : index}} : memref<16x16x{acc}> -> !gpu.mma_matrix<16x16x{acc}, "COp">
      %D = gpu.subgroup_mma_compute %A, %B, %C : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16x{acc}, "COp">
{extra}
      gpu.subgroup_mma_store_matrix %R, %c[%c0, %c0] {{leadDimension = 16 : index{tr_s}}} : !gpu.mma_matrix<16x16x{acc}, "COp">, memref<16x16x{acc}>
      gpu.return
    }}
  }}
  func.func @main() {{
{idx}
    %a = gpu.alloc host_shared () : memref<16x16xf16>
    %b = gpu.alloc host_shared () : memref<16x16xf16>
    %c = gpu.alloc host_shared () : memref<16x16x{acc}>
{_fill("a", a_src, "f16")}
{_fill("b", b, "f16")}
{_fill("c", c, acc)}
    gpu.launch_func @m::@k blocks in (%i1, %i1, %i1) threads in (%i32, %i1, %i1)
        args(%a : memref<16x16xf16>, %b : memref<16x16xf16>, %c : memref<16x16x{acc}>)
    %u = memref.cast %c : memref<16x16x{acc}> to memref<*x{acc}>
    call @printMemref{acc.upper()}(%u) : (memref<*x{acc}>) -> ()
    return
  }}
  func.func private @printMemref{acc.upper()}(memref<*x{acc}>)
}}
"""


def _model(a, b, c, acc_type) -> np.ndarray:
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    out = np.empty((16, 16), dtype=np.float32)
    for i in range(16):
        for j in range(16):
            s = np.float32(c[i, j])
            for k in range(16):
                s = np.float32(s + np.float32(a32[i, k] * b32[k, j]))
            out[i, j] = s
    return out.astype(acc_type)


def _random(rng, shape, dtype=np.float16):
    return (rng.standard_normal(shape) * 2).astype(dtype)


@pytest.mark.parametrize("acc,load_t,store_t", [("f32", False, False), ("f16", False, False),
                                                ("f32", True, False), ("f32", False, True)])
def test_compute_matches_tensor_core_model(acc, load_t, store_t):
    rng = np.random.default_rng(13)
    dtype = np.float32 if acc == "f32" else np.float16
    a, b, c = _random(rng, (16, 16)), _random(rng, (16, 16)), _random(rng, (16, 16), dtype)
    src = _program(a, b, c, acc=acc, load_t=load_t, store_t=store_t,
                   extra="      %R = arith.constant 0 : index" and "")
    src = src.replace("gpu.subgroup_mma_store_matrix %R,", "gpu.subgroup_mma_store_matrix %D,")
    res = run(src)
    assert res.returncode == 0, res.stderr.decode()
    (got,) = _memref_values(res.stdout, 1)
    want = _model(a, b, c, dtype)
    if store_t:
        want = want.T
    # printMemref prints 6 significant digits: compare what it would print.
    assert [f"{x:g}" for x in got] == [f"{float(x):g}" for x in want.flatten()]


def test_elementwise_and_constant():
    rng = np.random.default_rng(7)
    a, b, c = _random(rng, (16, 16)), _random(rng, (16, 16)), _random(rng, (16, 16), np.float32)
    extra = """      %two = arith.constant 2.0 : f32
      %K = gpu.subgroup_mma_constant_matrix %two : !gpu.mma_matrix<16x16xf32, "COp">
      %M = gpu.subgroup_mma_elementwise mulf %D, %K : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      %N = gpu.subgroup_mma_elementwise negatef %C : (!gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      %R = gpu.subgroup_mma_elementwise maxf %M, %N : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">"""
    res = run(_program(a, b, c, extra=extra))
    assert res.returncode == 0, res.stderr.decode()
    (got,) = _memref_values(res.stdout, 1)
    want = np.maximum(_model(a, b, c, np.float32) * np.float32(2), -c)
    assert [f"{x:g}" for x in got] == [f"{float(x):g}" for x in want.flatten()]


def test_transposed_load_with_a_transpose_compute():
    """Upstream's column-major form: `transpose` on the load and `a_transpose` on the
    compute (a layout hint for the fragment) give A^T's memory times B."""
    rng = np.random.default_rng(1)
    a, b, c = _random(rng, (16, 16)), _random(rng, (16, 16)), _random(rng, (16, 16), np.float32)
    src = _program(a, b, c, load_t=True).replace(
        '%C : !gpu.mma_matrix<16x16xf16, "AOp">',
        '%C {a_transpose} : !gpu.mma_matrix<16x16xf16, "AOp">').replace(
        "gpu.subgroup_mma_store_matrix %R,", "gpu.subgroup_mma_store_matrix %D,")
    assert "a_transpose" in src
    res = run(src)
    assert res.returncode == 0, res.stderr.decode()
    (got,) = _memref_values(res.stdout, 1)
    want = _model(a, b, c, np.float32)
    assert [f"{x:g}" for x in got] == [f"{float(x):g}" for x in want.flatten()]
