"""Built-in ``mlir_c_runner_utils``: the scalar printers and small C helpers.

These are tiny C functions in the real library; here they are written in
LLVM IR that calls libc (``fprintf(stdout, "%g", ...)`` and friends), JIT-
compiled once per process.  Going through the same libc calls with the same
formats is what makes the output byte-identical (``-nan``, ``inf``,
exponents), and compiled code keeps ``vector.print`` in a hot loop free of
Python.  ``memrefCopy`` walks arbitrary strides and is written in Python.
"""

from __future__ import annotations

import ctypes

from . import apfloat_wrappers, float16_utils
from . import memref_access as ma
from .cstdio import symbol_address
from .provider import Provider

_HEAD = r"""
@stdout = external global ptr
@stderr = external global ptr
declare i32 @fprintf(ptr, ptr, ...)
declare i32 @fputs(ptr, ptr)
declare i32 @fputc(i32, ptr)
declare i32 @gettimeofday(ptr, ptr)
declare ptr @malloc(i64)
declare ptr @aligned_alloc(i64, i64)
declare void @free(ptr)

@fmt_flops = private unnamed_addr constant [12 x i8] c"%lf GFLOPS\0A\00"

define void @printString(ptr %s) {
  %f = load ptr, ptr @stdout
  call i32 @fputs(ptr %s, ptr %f)
  ret void
}
define void @printNewline() {
  %f = load ptr, ptr @stdout
  call i32 @fputc(i32 10, ptr %f)
  ret void
}
define void @printFlops(double %flops) {
  %f = load ptr, ptr @stderr
  %g = fdiv double %flops, 1.0e9
  call i32 (ptr, ptr, ...) @fprintf(ptr %f, ptr @fmt_flops, double %g)
  ret void
}
define double @rtclock() {
  %tv = alloca [2 x i64], align 8
  call i32 @gettimeofday(ptr %tv, ptr null)
  %sec = load i64, ptr %tv
  %up = getelementptr i64, ptr %tv, i64 1
  %usec = load i64, ptr %up
  %s = sitofp i64 %sec to double
  %u = sitofp i64 %usec to double
  %us = fmul double %u, 1.0e-6
  %r = fadd double %s, %us
  ret double %r
}
define ptr @mlirAlloc(i64 %size) {
  %p = call ptr @malloc(i64 %size)
  ret ptr %p
}
define ptr @mlirAlignedAlloc(i64 %alignment, i64 %size) {
  %p = call ptr @aligned_alloc(i64 %alignment, i64 %size)
  ret ptr %p
}
define void @mlirFree(ptr %p) {
  call void @free(ptr %p)
  ret void
}
define void @mlirAlignedFree(ptr %p) {
  call void @free(ptr %p)
  ret void
}
"""

# Scalar printers: (function, argument type, C format).  A float reaches
# fprintf as a double, as C's variadic promotion passes it.
_SCALARS = (("printI64", "i64", "%ld"), ("printU64", "i64", "%lu"),
            ("printF32", "float", "%g"), ("printF64", "double", "%g"))
# Punctuation printers: (function, the text it writes).
_PUNCTUATION = (("printOpen", "( "), ("printClose", " )"), ("printComma", ", "))


def _c_string(name: str, text: str) -> str:
    """A private NUL-terminated constant ``@name`` holding ASCII ``text``."""
    return (f'@{name} = private unnamed_addr constant [{len(text) + 1} x i8] '
            f'c"{text}\\00"\n')


def _scalar_printer(name: str, ty: str, fmt: str) -> str:
    convert, arg = "", f"{ty} %x"
    if ty == "float":
        convert, arg = "  %d = fpext float %x to double\n", "double %d"
    return (_c_string(f"fmt.{name}", fmt)
            + f"define void @{name}({ty} %x) {{\n"
            f"  %f = load ptr, ptr @stdout\n{convert}"
            f"  call i32 (ptr, ptr, ...) @fprintf(ptr %f, ptr @fmt.{name}, {arg})\n"
            "  ret void\n}\n")


def _text_printer(name: str, text: str) -> str:
    return (_c_string(f"text.{name}", text)
            + f"define void @{name}() {{\n"
            "  %f = load ptr, ptr @stdout\n"
            f"  call i32 @fputs(ptr @text.{name}, ptr %f)\n"
            "  ret void\n}\n")


_IR = "".join([_HEAD, *(_scalar_printer(*row) for row in _SCALARS),
               *(_text_printer(*row) for row in _PUNCTUATION)])

_EXPORTS = ["printI64", "printU64", "printF32", "printF64", "printString", "printOpen",
            "printClose", "printComma", "printNewline", "printFlops", "rtclock", "mlirAlloc",
            "mlirAlignedAlloc", "mlirFree", "mlirAlignedFree"]

_COPY_T = ctypes.CFUNCTYPE(None, ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p)


def _memref_copy(elem_size: int, src_ptr: int, dst_ptr: int) -> None:
    """``memrefCopy(elemSize, UnrankedMemRef *src, UnrankedMemRef *dst)``."""
    try:
        src = ma.read_unranked(src_ptr)
        dst = ma.read_unranked(dst_ptr)
        if src.rank == 0:
            ctypes.memmove(dst.aligned + dst.offset * elem_size,
                           src.aligned + src.offset * elem_size, elem_size)
            return
        if any(s == 0 for s in src.sizes):
            return
        inner_contig = src.strides[-1] == 1 and dst.strides[-1] == 1
        run = src.sizes[-1] if inner_contig else 1
        outer = src.sizes[:-1] if inner_contig else src.sizes
        for idx in ma.iter_indices(outer):
            so = src.offset + sum(i * s for i, s in zip(idx, src.strides, strict=False))
            do = dst.offset + sum(i * s for i, s in zip(idx, dst.strides, strict=False))
            ctypes.memmove(dst.aligned + do * elem_size, src.aligned + so * elem_size,
                           run * elem_size)
    except Exception as err:  # never let an exception cross into C (ctypes would print it)
        ma.report_internal_error("memrefCopy", err)


class CRunnerUtils(Provider):
    name = "mlir_c_runner_utils"
    aliases = ("c_runner_utils",)

    def build_symbols(self):
        from runner_core.targets.host import compile_ir

        imports = {n: symbol_address(n) for n in ("stdout", "stderr")}
        self._lib = compile_ir(_IR, opt=2, exports=_EXPORTS, imports=imports,
                               name="gpurunner_c_runner_utils")
        syms = dict(self._lib.addresses)
        self._copy_cb = _COPY_T(_memref_copy)
        syms["memrefCopy"] = ctypes.cast(self._copy_cb, ctypes.c_void_p).value
        syms.update(float16_utils.symbols())  # libmlir_float16_utils.so comes with it
        syms.update(apfloat_wrappers.symbols())  # and libmlir_apfloat_wrappers.so
        return syms


PROVIDER = CRunnerUtils()
