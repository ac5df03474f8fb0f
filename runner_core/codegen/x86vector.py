"""x86vector dialect: the AVX intrinsics LLVM 22's `convert-vector-to-llvm{enable-x86vector}`
calls, on the host only.

The op's result is the CPU's own approximation (not IEEE), so it must run on
the instruction itself: a machine without AVX, or a GPU kernel, gets a located
error naming the op, where real mlir-runner would fail to select the intrinsic.
"""

from __future__ import annotations

from .registry import Registry

registry = Registry()
lowering = registry.lowering


def _host_has_avx() -> bool:
    import llvmlite.binding as llvm

    from runner_core.targets.host import native_target_machine

    if not native_target_machine(0).triple.startswith(("x86_64", "i686", "i386")):
        return False
    return bool(llvm.get_host_cpu_features().get("avx", False))


@lowering("x86vector.avx.rsqrt")
def _avx_rsqrt(ctx, op) -> None:
    if ctx.target.name != "host":
        raise ctx.unsupported(op, f"'x86vector.avx.rsqrt' on target '{ctx.target.name}' "
                                  "(an x86 AVX instruction: host code only)")
    if not _host_has_avx():
        raise ctx.unsupported(op, "'x86vector.avx.rsqrt' on this machine: the host CPU has "
                                  "no AVX (LLVM cannot select llvm.x86.avx.rsqrt.ps.256)")
    (a,) = ctx.get_all(op.operands)
    fn = ctx.declare("llvm.x86.avx.rsqrt.ps.256", a.type, [a.type])
    ctx.set_results(op, [ctx.builder.call(fn, [a])])
