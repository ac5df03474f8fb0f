"""An `offload` GPU object (NVVM LLVM bitcode from gpu-module-to-binary) run by the cpu backend.

``-gpu-lower-to-nvvm-pipeline="cubin-format=llvm"`` leaves the device module
as LLVM bitcode for NVPTX.  Its kernels are plain LLVM IR apart from a few
things that only a GPU has; this module rewrites those onto the cpu backend's
kernel runtime (:mod:`.fibers`, :mod:`.layout`) and emits the entry points and
descriptors the provider's ``mgpuModuleLoad`` expects (as :mod:`.kernel` does
for the kernels we compile ourselves):

* address spaces are dropped (all memory is host memory); `addrspacecast`
  becomes a no-op `bitcast`;
* `llvm.nvvm.read.ptx.sreg.{tid,ctaid,ntid,nctaid}.{x,y,z}`, `laneid`,
  `warpsize`, the cluster registers (`clusterid`, `nclusterid`,
  `cluster.ctaid`, `cluster.nctaid`, `cluster.ctarank`, `cluster.nctarank`)
  read the running thread's block record
  (``gpurunner_cpu_current_block``; the fiber runtime keeps ``B_CUR_TID``);
* `llvm.nvvm.barrier0` / `barrier.cta.sync*` / `barrier.sync` call the fiber
  barrier; `llvm.nvvm.shfl.sync.*` the fiber shuffle (width from the clamp
  operand, as MLIR's lowering encodes it: clamp = width - 1, up: 32 - width);
* workgroup memory (`addrspace(3)` globals, dynamic shared memory) stays
  module globals: the kernels run their blocks one after another (the
  descriptor's serial flag), so one copy is one block's.  A zero-length one
  that is not external (mlir-opt 22's `__dynamic_shmem__N` is internal) is a
  static variable on a GPU (NVPTX): alone it reaches on into the dynamic area,
  beside other workgroup memory it overlaps it, and the object is refused.  Each
  kernel's static share (as ptxas lays it out) goes into its descriptor, so a
  launch is checked against the GPU's limits; `extern` zero-length is the
  dynamic area;
* `vprintf(fmt, args)` with a constant format becomes `printf` with the
  arguments read from the packed buffer (naturally aligned, floats as double,
  as MLIR's gpu.printf lowering packs them); `__assertfail` CUDA's device-side
  assert (the driver's line, the thread ends, the provider then answers as after
  CUDA_ERROR_ASSERT); `__nv_*` math the C library's function of the same name.

Anything else (`vote`, `redux`, `match`, `atom` intrinsics, ...) is refused at
the `gpu.binary` with the names of what is missing.
"""

from __future__ import annotations

import ctypes
import re

import llvmlite.binding as llvm

from runner_core.runtime.core import ASSERT_FAIL

from . import layout as L

_SREG = {"tid": L.B_CUR_TID, "ctaid": L.B_BID, "ntid": L.B_BDIM, "nctaid": L.B_GDIM}
_SHFL = re.compile(r"shfl\.sync\.(bfly|up|down|idx)\.(i32|f32)(p?)$")
_SHFL_MODE = {"bfly": L.SHUFFLE_MODE_CODES["xor"], "up": L.SHUFFLE_MODE_CODES["up"],
              "down": L.SHUFFLE_MODE_CODES["down"], "idx": L.SHUFFLE_MODE_CODES["idx"]}
_BARRIERS = {"barrier0", "barrier.cta.sync.aligned.all", "barrier.cta.sync.all",
             "barrier.sync", "barrier.cta.sync.aligned", "barrier.cta.sync"}
DYNAMIC_SHARED_BYTES = 256 * 1024  # what a kernel may ask for (an H100 allows 227 KiB)

# The line CUDA's driver prints for a failing device-side assert (as kernel.py's hook).
_ASSERT_FMT = ("%s:%d: %s: block: [%lld,%lld,%lld], thread: [%lld,%lld,%lld] "
               "Assertion `%s` failed.\n")
_ASSERT_FMT_IR = _ASSERT_FMT.replace("\n", "\\0A")

_PRELUDE = f"""
declare ptr @gpurunner_cpu_current_block()
declare void @gpurunner_cpu_barrier(ptr)
declare {{i64, i1}} @gpurunner_cpu_shuffle(ptr, i32, i64, i32, i32)
declare void @{ASSERT_FAIL}(ptr, ptr)
declare i32 @printf(ptr, ...)

define internal i64 @__gr.slot(i64 %i) alwaysinline {{
  %b = call ptr @gpurunner_cpu_current_block()
  %p = getelementptr i64, ptr %b, i64 %i
  %v = load i64, ptr %p
  ret i64 %v
}}

define internal i32 @__gr.linear() alwaysinline {{
  %tx = call i64 @__gr.slot(i64 {L.B_CUR_TID})
  %ty = call i64 @__gr.slot(i64 {L.B_CUR_TID + 1})
  %tz = call i64 @__gr.slot(i64 {L.B_CUR_TID + 2})
  %bx = call i64 @__gr.slot(i64 {L.B_BDIM})
  %by = call i64 @__gr.slot(i64 {L.B_BDIM + 1})
  %z1 = mul i64 %tz, %by
  %z2 = add i64 %z1, %ty
  %z3 = mul i64 %z2, %bx
  %l = add i64 %z3, %tx
  %r = trunc i64 %l to i32
  ret i32 %r
}}

; PTX's c operand: segment mask in bits 12:8, clamp lane in 4:0.  MLIR's gpu.shuffle
; lowering gives no segment mask and clamp = width - 1 (up: 32 - width).
define internal {{i64, i1}} @__gr.shfl(i32 %mode, i64 %bits, i32 %off, i32 %clamp) {{
  %b = call ptr @gpurunner_cpu_current_block()
  %c = lshr i32 %clamp, 8
  %seg = and i32 %c, 31
  %lane = and i32 %clamp, 31
  %isup = icmp eq i32 %mode, {L.SHUFFLE_MODE_CODES["up"]}
  %wup = sub i32 32, %lane
  %wother = add i32 %lane, 1
  %wlane = select i1 %isup, i32 %wup, i32 %wother
  %wseg = sub i32 32, %seg
  %hasseg = icmp ne i32 %seg, 0
  %w = select i1 %hasseg, i32 %wseg, i32 %wlane
  %r = call {{i64, i1}} @gpurunner_cpu_shuffle(ptr %b, i32 %mode, i64 %bits, i32 %off, i32 %w)
  ret {{i64, i1}} %r
}}

; CUDA's device-side assertion: the driver's line, the launch marked (the provider then
; answers as a context after CUDA_ERROR_ASSERT), and this thread ends; the others go on.
@__gr.assert_fmt = private unnamed_addr constant [{len(_ASSERT_FMT) + 1} x i8] c"{_ASSERT_FMT_IR}\\00"
@stderr = external global ptr
declare i32 @fprintf(ptr, ptr, ...)
declare void @gpurunner_cpu_thread_exit(ptr)
define internal void @__assertfail(ptr %msg, ptr %file, i32 %line, ptr %fn, i64 %size) {{
  %b = call ptr @gpurunner_cpu_current_block()
  %lp = getelementptr i64, ptr %b, i64 {L.B_LAUNCH}
  %launch = load ptr, ptr %lp
  %ap = getelementptr i64, ptr %launch, i64 {L.L_ASSERTED}
  %old = atomicrmw xchg ptr %ap, i64 1 monotonic
  %bx = call i64 @__gr.slot(i64 {L.B_BID})
  %by = call i64 @__gr.slot(i64 {L.B_BID + 1})
  %bz = call i64 @__gr.slot(i64 {L.B_BID + 2})
  %tx = call i64 @__gr.slot(i64 {L.B_CUR_TID})
  %ty = call i64 @__gr.slot(i64 {L.B_CUR_TID + 1})
  %tz = call i64 @__gr.slot(i64 {L.B_CUR_TID + 2})
  %err = load ptr, ptr @stderr
  %r = call i32 (ptr, ptr, ...) @fprintf(ptr %err, ptr @__gr.assert_fmt, ptr %file, i32 %line,
      ptr %fn, i64 %bx, i64 %by, i64 %bz, i64 %tx, i64 %ty, i64 %tz, ptr %msg)
  call void @gpurunner_cpu_thread_exit(ptr %b)
  unreachable
}}
"""


# A zero-length workgroup global that is not external: not the dynamic shared memory on a
# GPU (only `.extern .shared ... []` is), see cpu_module.
_DEMOTED = re.compile(r"^@\"?([\w.$]+)\"? = (?:internal|private) (?:unnamed_addr )?"
                      r"addrspace\(3\) global \[0 x i8\]", re.M)


_SHARED = re.compile(r"^@\"?([\w.$]+)\"? = (?:internal|private) (?:unnamed_addr )?"
                     r"addrspace\(3\) global ", re.M)
_FUNCTION = re.compile(r"^define [^@]*@\"?([\w.$]+)\"?\(.*?^}", re.M | re.S)


def _overlapping_shared(text: str) -> tuple[str, str, str] | None:
    """(function, zero-length global, other shared global) where a function uses both.

    Alone in its kernel, the demoted variable sits at the start of the block's shared
    memory and its accesses run on into the dynamic area: the mapping onto the dynamic
    area is then what a GPU does."""
    demoted = set(_DEMOTED.findall(text))
    if not demoted:
        return None
    shared = set(_SHARED.findall(text)) - demoted
    for m in _FUNCTION.finditer(text):
        used = set(re.findall(r"@\"?([\w.$]+)", m.group(0)))
        mine, other = sorted(used & demoted), sorted(used & shared)
        if mine and other:
            return m.group(1), mine[0], other[0]
    return None


_SHARED_DEF = re.compile(r"^@\"?([\w.$]+)\"? = (?!external)[^\n]*addrspace\(3\) global "
                         r"[^\n]*?(?:, align (\d+))?$", re.M)


def _static_shared(mod, text: str, td) -> dict[str, int]:
    """Bytes of static shared memory each function would have on a GPU: the defined
    `addrspace(3)` globals it names, laid out in declaration order at their alignment
    (what ptxas reports for these kernels), a zero-length one taking 1 byte (NVPTX's
    `.b8 name;`).  The provider checks launches against it, as the driver does."""
    types = {g.name: g.global_value_type for g in mod.global_variables}
    globs = []
    for m in _SHARED_DEF.finditer(text):
        ty = types.get(m.group(1))
        if ty is None:
            continue
        align = int(m.group(2)) if m.group(2) else td.get_abi_alignment(ty)
        globs.append((m.group(1), max(td.get_abi_size(ty), 1), max(align, 1)))
    out = {}
    for m in _FUNCTION.finditer(text):
        used = set(re.findall(r"@\"?([\w.$]+)", m.group(0)))
        total = 0
        for name, size, align in globs:
            if name in used:
                total = (total + align - 1) // align * align + size
        out[m.group(1)] = total
    return out


class NotRunnable(Exception):
    """What of an object the cpu backend cannot run (the message names it)."""


def _sreg(name: str) -> str | None:
    m = re.fullmatch(r"read\.ptx\.sreg\.(tid|ctaid|ntid|nctaid)\.([xyz])", name)
    if m:
        slot = _SREG[m.group(1)] + "xyz".index(m.group(2))
        return (f"  %v = call i64 @__gr.slot(i64 {slot})\n  %r = trunc i64 %v to i32\n"
                "  ret i32 %r\n")
    m = re.fullmatch(r"read\.ptx\.sreg\.(cluster\.ctaid|cluster\.nctaid|clusterid|nclusterid)"
                     r"\.([xyz])", name)
    if m:  # a cluster is a box of blocks of the grid (each block one without clusters)
        d = "xyz".index(m.group(2))
        op = {"cluster.ctaid": "urem", "clusterid": "udiv", "nclusterid": "udiv"}.get(m.group(1))
        base = L.B_GDIM if m.group(1) == "nclusterid" else L.B_BID
        value = "%c" if op is None else "%v"
        return (f"  %c = call i64 @__gr.slot(i64 {L.B_CLUSTER + d})\n"
                + (f"  %b = call i64 @__gr.slot(i64 {base + d})\n  %v = {op} i64 %b, %c\n"
                   if op else "")
                + f"  %r = trunc i64 {value} to i32\n  ret i32 %r\n")
    if name in ("read.ptx.sreg.cluster.ctarank", "read.ptx.sreg.cluster.nctarank"):
        lines = []
        for d in range(3):
            lines.append(f"  %c{d} = call i64 @__gr.slot(i64 {L.B_CLUSTER + d})")
            lines.append(f"  %b{d} = call i64 @__gr.slot(i64 {L.B_BID + d})")
            lines.append(f"  %i{d} = urem i64 %b{d}, %c{d}")
        if name.endswith("nctarank"):
            lines += ["  %n1 = mul i64 %c0, %c1", "  %v = mul i64 %n1, %c2"]
        else:  # x fastest, as PTX's %cluster_ctarank
            lines += ["  %z1 = mul i64 %i2, %c1", "  %z2 = add i64 %z1, %i1",
                      "  %z3 = mul i64 %z2, %c0", "  %v = add i64 %z3, %i0"]
        return "\n".join(lines) + "\n  %r = trunc i64 %v to i32\n  ret i32 %r\n"
    if name == "read.ptx.sreg.laneid":
        return "  %l = call i32 @__gr.linear()\n  %r = and i32 %l, 31\n  ret i32 %r\n"
    if name == "read.ptx.sreg.warpsize":
        return "  ret i32 32\n"
    return None


def _definition(name: str, decl: str) -> str | None:
    """LLVM IR defining ``@__gr.nvvm.<name>`` (the intrinsic ``llvm.nvvm.<name>``)."""
    fn = f'@"__gr.nvvm.{name}"'
    body = _sreg(name)
    if body is not None:
        return f"define internal i32 {fn}() alwaysinline {{\n{body}}}\n"
    if name in _BARRIERS:
        params = ", ".join(f"{t} %a{i}" for i, t in enumerate(_param_types(decl)))
        return (f"define internal void {fn}({params}) {{\n"
                "  %b = call ptr @gpurunner_cpu_current_block()\n"
                "  call void @gpurunner_cpu_barrier(ptr %b)\n  ret void\n}\n")
    m = _SHFL.match(name)
    if m:
        kind, ty, with_pred = m.groups()
        vt = "i32" if ty == "i32" else "float"
        ret = f"{{{vt}, i1}}" if with_pred else vt
        to_bits = ("  %i = bitcast float %v to i32\n" if ty == "f32" else "  %i = add i32 %v, 0\n")
        from_bits = ("  %o = bitcast i32 %o32 to float\n" if ty == "f32"
                     else "  %o = add i32 %o32, 0\n")
        tail = ("  %p0 = insertvalue {T, i1} undef, T %o, 0\n  %p1 = insertvalue {T, i1} %p0, "
                "i1 %ok, 1\n  ret {T, i1} %p1\n").replace("T", vt) if with_pred \
            else f"  ret {vt} %o\n"
        return (f"define internal {ret} {fn}(i32 %mask, {vt} %v, i32 %off, i32 %clamp) {{\n"
                f"{to_bits}  %bits = zext i32 %i to i64\n"
                f"  %r = call {{i64, i1}} @__gr.shfl(i32 {_SHFL_MODE[kind]}, i64 %bits, "
                "i32 %off, i32 %clamp)\n"
                "  %x = extractvalue {i64, i1} %r, 0\n  %ok = extractvalue {i64, i1} %r, 1\n"
                f"  %o32 = trunc i64 %x to i32\n{from_bits}{tail}}}\n")
    return None


def _param_types(decl: str) -> list[str]:
    inside = decl[decl.index("(") + 1:decl.rindex(")")].strip()
    return [p.split()[0] for p in inside.split(",")] if inside else []


# -- printf ----------------------------------------------------------------------------
_CONV = re.compile(rb"%[-+ #0]*(?:\*|\d+)?(?:\.(?:\*|\d+))?(hh|h|ll|l|j|z|t|L)?"
                   rb"([diouxXeEfFgGaAcspn%])")


def _decode_c_string(text: str) -> bytes:
    return re.sub(rb"\\([0-9A-Fa-f]{2})", lambda m: bytes([int(m.group(1), 16)]),
                  text.encode("latin-1"))


def _arg_types(fmt: bytes) -> list[str]:
    """LLVM types of the arguments a format reads, as gpu.printf's lowering packs them."""
    out = []
    for m in _CONV.finditer(fmt):
        length, conv = m.group(1), m.group(2)
        if conv == b"%":
            continue
        if b"*" in m.group(0):
            raise NotRunnable("a printf format with '*' width or precision")
        if conv in b"eEfFgGaA":
            out.append("double")
        elif conv in b"sp":
            out.append("ptr")
        elif length in (b"l", b"ll", b"j", b"z", b"t"):
            out.append("i64")
        else:
            out.append("i32")
    return out


def _printf_wrapper(name: str, fmt_global: str, fmt: bytes) -> str:
    types = _arg_types(fmt)
    fields = ", ".join(types) or "i8"
    lines = [f"define internal i32 @{name}(ptr %buf) {{"]
    args = []
    for i, t in enumerate(types):
        lines.append(f"  %p{i} = getelementptr {{{fields}}}, ptr %buf, i32 0, i32 {i}")
        lines.append(f"  %a{i} = load {t}, ptr %p{i}")
        args.append(f"{t} %a{i}")
    lines.append(f"  %r = call i32 (ptr, ...) @printf(ptr {fmt_global}"
                 + "".join(f", {a}" for a in args) + ")")
    lines += ["  ret i32 %r", "}"]
    return "\n".join(lines) + "\n"


# -- the rewrite -----------------------------------------------------------------------
def _libm(name: str) -> bool:
    try:
        getattr(ctypes.CDLL(None), name)
        return True
    except AttributeError:
        return False


def cpu_module(bitcode: bytes, host_triple: str, host_layout: str) -> tuple[str, list[tuple]]:
    """(LLVM IR for the cpu provider, [(kernel, parameter types, sizes)]); raises
    NotRunnable naming what the object uses that the cpu backend has not got."""
    from runner_core.backends.cuda.nvptx import _kernel_names
    from runner_core.targets.host import _init

    _init()
    try:
        mod = llvm.parse_bitcode(bitcode)
    except RuntimeError as err:
        detail = " ".join(str(err).split())
        raise NotRunnable(f"is not LLVM bitcode this LLVM reads ({detail})") from None
    text = str(mod)
    kernels = sorted(_kernel_names(text))
    if not kernels:
        raise NotRunnable("no kernel (ptx_kernel function) in the object")
    td = llvm.create_target_data(host_layout)
    shared = _static_shared(mod, text, td)
    signatures = []
    for name in kernels:
        fn = mod.get_function(name)
        types = [str(a.type) for a in fn.arguments]
        sizes = [td.get_abi_size(a.type) for a in fn.arguments]
        signatures.append((name, types, sizes, shared.get(name, 0)))

    clash = _overlapping_shared(text)
    if clash:
        kernel, demoted, other = clash
        raise NotRunnable(
            f"reads dynamic shared memory through @{demoted}, an internal zero-length "
            f"workgroup global (mlir-opt 22's convert-gpu-to-nvvm makes it internal), in "
            f"@{kernel}, which has other workgroup memory too (@{other}): LLVM's NVPTX back "
            f"end turns @{demoted} into a static shared variable of its own, not the dynamic "
            f"area, so on a GPU its accesses run into @{other} as ptxas lays them out; the "
            f"cpu backend cannot say what a GPU computes then")
    lines = [ln for ln in text.splitlines()
             if not ln.startswith(("target datalayout", "target triple"))]
    text = "\n".join(lines) + "\n"
    text = re.sub(r"\s*addrspace\(\d+\)", "", text)
    text = text.replace("addrspacecast", "bitcast")
    text = re.sub(r'\s*"target-(cpu|features)"="[^"]*"', "", text)
    text = re.sub(r"\bptx_kernel\s+", "", text)
    text = re.sub(r"\[0 x i8\] (undef|poison|zeroinitializer)",
                  f"[{DYNAMIC_SHARED_BYTES} x i8] zeroinitializer", text)
    # `extern __shared__` (external, zero-length): the dynamic shared memory, defined here.
    text = re.sub(r"^(@\S+ = )external ((?:\w+ )*)global \[0 x i8\]",
                  rf"\1internal \2global [{DYNAMIC_SHARED_BYTES} x i8] zeroinitializer",
                  text, flags=re.M)

    missing: list[str] = []
    defs: list[str] = []
    for name in sorted(set(re.findall(r"@llvm\.nvvm\.([\w.]+)", text))):
        decl = next((ln for ln in text.splitlines()
                     if ln.startswith("declare") and f"@llvm.nvvm.{name}(" in ln), "")
        body = _definition(name, decl)
        if body is None:
            missing.append(f"llvm.nvvm.{name}")
            continue
        defs.append(body)
        text = text.replace(decl + "\n", "") if decl else text
        text = re.sub(rf"@llvm\.nvvm\.{re.escape(name)}(?=\()", f'@"__gr.nvvm.{name}"', text)
    for name in sorted(set(re.findall(r"^declare [^@]*@__nv_(\w+)\(", text, re.M))):
        if _libm(name):
            text = re.sub(rf"@__nv_{name}\b", f"@{name}", text)
        else:
            missing.append(f"__nv_{name}")
    text = re.sub(r"^declare [^@]*@__assertfail\(.*\n", "", text, flags=re.M)

    def printf_site(m: re.Match) -> str:
        fmt_name = m.group(1)
        g = re.search(rf"^@{re.escape(fmt_name)} = .*c\"((?:[^\"\\]|\\[0-9A-Fa-f]{{2}})*)\"",
                      text, re.M)
        if g is None:
            raise NotRunnable(f"vprintf with a format that is not a constant (@{fmt_name})")
        wrapper = f"__gr.vprintf.{fmt_name}"
        if wrapper not in printf_wrappers:
            printf_wrappers[wrapper] = _printf_wrapper(wrapper, f"@{fmt_name}",
                                                       _decode_c_string(g.group(1)))
        return f"call i32 @{wrapper}(ptr {m.group(2)})"

    printf_wrappers: dict[str, str] = {}
    text = re.sub(r"call i32 @vprintf\(ptr (?:noundef )?(?:nonnull )?@([\w.$]+), "
                  r"ptr (?:noundef )?(?:nonnull )?(%[\w.]+|null)\)", printf_site, text)
    if "@vprintf(" in text.replace("declare i32 @vprintf(", ""):
        missing.append("vprintf with an argument buffer the cpu backend cannot read")
    text = re.sub(r"^declare [^@]*@vprintf\(.*\n", "", text, flags=re.M)
    if missing:
        raise NotRunnable("uses " + ", ".join(missing) + ", which the cpu backend does not map")
    header = f'target triple = "{host_triple}"\ntarget datalayout = "{host_layout}"\n'
    return (header + text + _PRELUDE + "".join(defs) + "".join(printf_wrappers.values())
            + _entry_points(signatures)), signatures


def _entry_points(signatures: list[tuple]) -> str:
    """``@k.thread`` (one GPU thread, run as a fiber) and ``@__gpurunner_kdesc.k``."""
    out = []
    flags = L.FLAG_FIBERS | L.FLAG_SERIAL
    for name, types, sizes, static in signatures:
        lines = [f'define internal void @"{name}.thread"(ptr %blk, i64 %tx, i64 %ty, i64 %tz, '
                 "ptr %params) {"]
        for d, v in enumerate(("%tx", "%ty", "%tz")):
            lines.append(f"  %s{d} = getelementptr i64, ptr %blk, i64 {L.B_CUR_TID + d}")
            lines.append(f"  store i64 {v}, ptr %s{d}")
        args = []
        for i, t in enumerate(types):
            lines.append(f"  %q{i} = getelementptr ptr, ptr %params, i64 {i}")
            lines.append(f"  %r{i} = load ptr, ptr %q{i}")
            lines.append(f"  %v{i} = load {t}, ptr %r{i}")
            args.append(f"{t} %v{i}")
        lines.append(f'  call void @"{name}"({", ".join(args)})')
        lines += ["  ret void", "}"]
        cname = name.encode() + b"\0"
        esc = "".join(chr(b) if 32 <= b < 127 and b not in (34, 92) else f"\\{b:02X}"
                      for b in cname)
        n = len(types)
        lines.append(f'@"__gr.kname.{name}" = private constant [{len(cname)} x i8] c"{esc}"')
        lines.append(f'@"__gr.ksizes.{name}" = private constant [{n} x i64] ['
                     + ", ".join(f"i64 {s}" for s in sizes) + "]")
        lines.append(f'@"{L.KDESC_PREFIX}{name}" = constant {{ptr, ptr, i64, i64, ptr, ptr, '
                     f'i64, i64, ptr}} {{ptr null, ptr @"{name}.thread", i64 0, i64 {flags}, '
                     f'ptr @"__gr.kname.{name}", ptr null, i64 {static}, i64 {n}, '
                     f'ptr @"__gr.ksizes.{name}"}}')
        out.append("\n".join(lines) + "\n")
    return "".join(out)
