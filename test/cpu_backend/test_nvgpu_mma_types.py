"""nvgpu.mma.sync of f64 (m8n8k4), i8 (m16n8k32), bf16 (m16n8k16) and f16
(m16n8k8): each lane loads its fragments from global memory at the positions the
PTX ISA's fragment figures give (written out here, separately from the runner's
tables), the warp multiplies, each lane stores its D elements; the result must be
numpy's A @ B + C.  Inputs are small integers (exact in every type).
GPURUNNER_TEST_BACKEND=cuda runs it on a GPU (saturation is not exercised)."""

from __future__ import annotations

import os
import re

import numpy as np
import pytest

from .runner import run

pytestmark = pytest.mark.integration
BACKEND = os.environ.get("GPURUNNER_TEST_BACKEND", "cpu")


def _a_pos(kind, r, p):
    """(row, col) of A register r, element p, as expressions of g = lane/4, t = lane%4."""
    if kind == "f64":
        return ("g", 0), ("t", 1, 0)
    if kind == "i8":
        return ("g", 8 * (r % 2)), ("t", 4, p + 16 * (r // 2))
    if kind == "f16k8":
        return ("g", 8 * r), ("t", 2, p)
    return ("g", 8 * (r % 2)), ("t", 2, p + 8 * (r // 2))  # 16-bit, k16


def _b_pos(kind, r, p):
    if kind == "f64":
        return ("t", 1, 0), ("g", 0)
    if kind == "i8":
        return ("t", 4, p + 16 * r), ("g", 0)
    return ("t", 2, p + 8 * r), ("g", 0)


KINDS = {  # kind: (m, n, k, in type, acc type, A regs x per, B regs x per, C regs)
    "f64": (8, 8, 4, "f64", "f64", (1, 1), (1, 1), 1),
    "i8": (16, 8, 32, "i8", "i32", (4, 4), (2, 4), 2),
    "bf16": (16, 8, 16, "bf16", "f32", (4, 2), (2, 2), 2),
    "f16k8": (16, 8, 8, "f16", "f32", (2, 2), (1, 2), 2),
}


def _program(kind):
    m, n, k, ti, ta, (ar, ap), (br, bp), cr = KINDS[kind]
    lines = ["%tid = gpu.thread_id x", "%c4 = arith.constant 4 : index",
             "%g = arith.divui %tid, %c4 : index", "%t = arith.remui %tid, %c4 : index"]
    n_ix = [0]

    def ix(e):
        n_ix[0] += 1
        v = f"%x{n_ix[0]}"
        if e[0] == "g":
            lines.append(f"{v}c = arith.constant {e[1]} : index")
            lines.append(f"{v} = arith.addi %g, {v}c : index")
        else:
            lines.append(f"{v}m = arith.constant {e[1]} : index")
            lines.append(f"{v}c = arith.constant {e[2]} : index")
            lines.append(f"{v}s = arith.muli %t, {v}m : index")
            lines.append(f"{v} = arith.addi {v}s, {v}c : index")
        return v

    def frag(name, mem, mt, regs, per, et, pos):
        vt = f"vector<{regs}x{per}x{et}>"
        z = "0.0" if et.startswith(("f", "bf")) else "0"
        lines.append(f"%{name}0 = arith.constant dense<{z}> : {vt}")
        j = 0
        for r in range(regs):
            for p in range(per):
                row, col = pos(kind, r, p)
                lines.append(f"%{name}e{j} = memref.load {mem}[{ix(row)}, {ix(col)}] : {mt}")
                lines.append(f"%{name}{j + 1} = vector.insert %{name}e{j}, %{name}{j} [{r}, {p}]"
                             f" : {et} into {vt}")
                j += 1
        return f"%{name}{j}", vt

    at, bt, ct = (f"memref<{m}x{k}x{ti}>", f"memref<{k}x{n}x{ti}>", f"memref<{m}x{n}x{ta}>")
    a, avt = frag("A", "%a", at, ar, ap, ti, _a_pos)
    b, bvt = frag("B", "%b", bt, br, bp, ti, _b_pos)
    c, cvt = frag("C", "%c", ct, cr, 2, ta, lambda _k, r, p: (("g", 8 * r), ("t", 2, p)))
    lines.append(f"%d = nvgpu.mma.sync({a}, {b}, {c}) {{mmaShape = [{m}, {n}, {k}]}} : "
                 f"({avt}, {bvt}, {cvt}) -> {cvt}")
    for r in range(cr):
        for p in range(2):
            lines.append(f"%o{r}{p} = vector.extract %d[{r}, {p}] : {ta} from {cvt}")
            lines.append(f"memref.store %o{r}{p}, %dout[{ix(('g', 8 * r))}, "
                         f"{ix(('t', 2, p))}] : {ct}")
    body = "\n      ".join(lines)
    host = []
    for name, rows, cols, t, seed in (("a", m, k, ti, 1), ("b", k, n, ti, 2),
                                      ("c", m, n, ta, 3)):
        host.append(_fill(name, rows, cols, t, seed, kind))
    return f"""
module attributes {{gpu.container_module}} {{
  gpu.module @m {{
    gpu.func @k(%a: {at}, %b: {bt}, %c: {ct}, %dout: {ct}) kernel {{
      {body}
      gpu.return
    }}
  }}
  func.func @main() {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %a = gpu.alloc host_shared () : {at}
    %b = gpu.alloc host_shared () : {bt}
    %c = gpu.alloc host_shared () : {ct}
    %d = gpu.alloc host_shared () : {ct}
{''.join(host)}
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%a : {at}, %b : {bt}, %c : {ct}, %d : {ct})
    %rows = arith.constant {m} : index
    %cols = arith.constant {n} : index
    scf.for %i = %c0 to %rows step %c1 {{
      scf.for %j = %c0 to %cols step %c1 {{
        %v = memref.load %d[%i, %j] : {ct}
        {_print(ta)}
      }}
    }}
    return
  }}
}}
"""


def _print(t):
    if t == "i32":
        return "vector.print %v : i32"
    if t == "f64":
        return "%w = arith.fptosi %v : f64 to i64\n        vector.print %w : i64"
    return "%w = arith.fptosi %v : f32 to i64\n        vector.print %w : i64"


def _values(rows, cols, seed, kind, acc):
    i, j = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    v = (i * 7 + j * 3 * seed + seed) % 11 - 5
    if kind == "i8" and not acc:
        v = v * 25  # i8 inputs up to +-125 (the kernel program scales the same way)
    return v


def _fill(name, rows, cols, t, seed, kind):
    return _fill_text(name, rows, cols, t, seed, kind, name == "c")


def _fill_text(name, rows, cols, t, seed, kind, acc):
    consts = "".join(f"    %c{v}_{name} = arith.constant {v} : index\n"
                     for v in sorted({rows, cols, 7, 3 * seed, seed, 11}))
    loops = f"""    scf.for %i{name} = %c0 to %c{rows}_{name} step %c1 {{
      scf.for %j{name} = %c0 to %c{cols}_{name} step %c1 {{
        %p{name} = arith.muli %i{name}, %c7_{name} : index
        %q{name} = arith.muli %j{name}, %c{3 * seed}_{name} : index
        %s{name} = arith.addi %p{name}, %q{name} : index
        %s2{name} = arith.addi %s{name}, %c{seed}_{name} : index
        %r{name} = arith.remui %s2{name}, %c11_{name} : index
        %ri{name} = arith.index_cast %r{name} : index to i32
        %five{name} = arith.constant 5 : i32
        %vi{name} = arith.subi %ri{name}, %five{name} : i32
        {_convert(name, t, kind, acc)}
        memref.store %val{name}, %{name}[%i{name}, %j{name}] : memref<{rows}x{cols}x{t}>
      }}
    }}
"""
    return consts + loops


def _convert(name, t, kind, acc):
    if t == "i32":
        return f"%val{name} = arith.addi %vi{name}, %vi{name} : i32"  # 2v
    if t == "i8":
        return (f"%k25{name} = arith.constant 25 : i32\n        %m{name} = arith.muli "
                f"%vi{name}, %k25{name} : i32\n        %val{name} = arith.trunci %m{name} : "
                f"i32 to i8")
    if t == "bf16":  # small integers: the high half of the f32 (no conversion libcall)
        return (f"%f{name} = arith.sitofp %vi{name} : i32 to f32\n        %w{name} = "
                f"arith.bitcast %f{name} : f32 to i32\n        %k16{name} = arith.constant 16 "
                f": i32\n        %h{name} = arith.shrui %w{name}, %k16{name} : i32\n        "
                f"%t{name} = arith.trunci %h{name} : i32 to i16\n        %val{name} = "
                f"arith.bitcast %t{name} : i16 to bf16")
    return f"%val{name} = arith.sitofp %vi{name} : i32 to {t}"


@pytest.mark.parametrize("kind", list(KINDS))
def test_mma_sync_types_match_numpy(kind):
    m, n, k, ti, ta, *_ = KINDS[kind]
    res = run(_program(kind), backend=BACKEND)
    assert res.returncode == 0, res.stderr.decode(errors="replace")[-3000:]
    got = np.array([int(x) for x in re.findall(r"-?\d+", res.stdout.decode())], np.int64)
    a = _values(m, k, 1, kind, False).astype(np.int64)
    b = _values(k, n, 2, kind, False).astype(np.int64)
    c = _values(m, n, 3, kind, True).astype(np.int64)
    if ta == "i32":
        c = 2 * c
    want = a @ b + c
    if kind == "i8":
        want = np.clip(want, -(2**31), 2**31 - 1)
    np.testing.assert_array_equal(got.reshape(m, n), want)
