"""Workgroup memory that LLVM 22 lays out differently from what a CUDA programmer means.

`gpu.dynamic_shared_memory` and zero-length `memref.global`s in workgroup memory mean
"the dynamic shared memory" (CUDA's `extern __shared__`), and the embedded runner
compiles them so.  LLVM 22 does not: `convert-gpu-to-nvvm` makes each of them an
internal zero-length global, and the NVPTX back end prints that as a static one-byte
`.shared` variable.  ptxas then gives each its own address, before the dynamic area:
two such buffers no longer alias (upstream's sm90 GEMM loads through one and multiplies
from the other), and one of them overlaps the kernel's other workgroup memory
(measured on an H100: wrong sums in a program with attributions; 4100 static bytes where
4096 were declared).  A kernel with one such buffer and nothing else in workgroup
memory is laid out harmlessly.

So a strict runner name (mlir-runner 22's verdict) refuses the other kernels with the
reason: passing them would be a verdict the real tools do not give.
"""

from __future__ import annotations

from runner_core.errors import SourceLocation

WORKGROUP = 3


def _space(mtype) -> int | None:
    space = getattr(mtype, "memory_space", None)
    data = getattr(space, "data", None)
    value = getattr(getattr(space, "value", None), "data", None)
    if isinstance(value, int):
        return value
    if isinstance(data, int):
        return data
    text = str(space)
    if "workgroup" in text:
        return WORKGROUP
    return None


def _elements(mtype) -> int | None:
    shape = list(mtype.get_shape()) if hasattr(mtype, "get_shape") else []
    n = 1
    for d in shape:
        if d < 0:
            return None
        n *= d
    return n


def first_demoted_kernel(module) -> tuple[str, SourceLocation | None] | None:
    """(the zero-length buffer's name, where it is used) of the first kernel that LLVM 22
    lays out with overlapping or split workgroup buffers, or None."""
    from xdsl.dialects.builtin import MemRefType

    from runner_core.ir.parse import op_location

    globals_: dict[str, int | None] = {}
    for op in module.walk():
        if op.name == "memref.global":
            t = op.properties.get("type") or op.attributes.get("type")
            t = getattr(t, "type", t)
            if isinstance(t, MemRefType) and _space(t) == WORKGROUP:
                globals_[op.properties["sym_name"].data] = _elements(t)
    for func in module.walk():
        if func.name not in ("gpu.func", "gpu.launch"):  # a kernel, outlined or not yet
            continue
        zero: dict[str, SourceLocation | None] = {}
        other = func.num_workgroup_attributions
        used: set[str] = set()
        for op in func.walk():
            if op.name == "gpu.dynamic_shared_memory":
                zero.setdefault("gpu.dynamic_shared_memory", op_location(op))
            elif op.name == "memref.get_global":
                name = op.properties.get("name") or op.attributes.get("name")
                sym = getattr(getattr(name, "root_reference", None), "data", None)
                if sym in globals_ and sym not in used:
                    used.add(sym)
                    if globals_[sym] == 0:
                        zero.setdefault(f"@{sym}", op_location(op))
                    else:
                        other += 1
            elif op.name == "nvgpu.mbarrier.create":
                other += 1
        if zero and len(zero) + other >= 2:
            name, loc = next(iter(zero.items()))
            return name, loc
    return None


def message(name: str, loc: SourceLocation | None) -> str:
    where = f'loc("{loc.filename}":{loc.line}:{loc.column}): ' if loc else ""
    return (f"{where}error: gpurunner: LLVM 22 compiles the zero-length workgroup buffer "
            f"{name} as a static one-byte shared variable (convert-gpu-to-nvvm, then NVPTX), "
            f"so it does not alias the dynamic shared memory and overlaps or splits from this "
            f"kernel's other workgroup memory: the real mlir-runner computes with "
            f"misplaced buffers here\n  note: run with --gpurunner-tools=system to see what "
            f"the real tools give, or name the runner gpurunner, which gives this memory "
            f"CUDA's `extern __shared__` meaning")
