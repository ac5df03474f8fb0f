"""Where CUDA puts a kernel's dynamic shared area, for each alignment its ``.extern
.shared`` declaration asks and each amount of static shared memory beside it.

Why: TMA copies need a 128-byte aligned shared destination (1024 with the 128-byte
swizzle wgmma reads), and our sm_90 kernels faulted with MISALIGNED_ADDRESS where an
mbarrier sat in static shared memory next to an ``.extern .shared .align 1024`` area.
This prints the shared-window offsets the driver gave, so the code generator's rule
(``codegen/gpu_device.py``, ``dynamic_smem_alignment``) rests on what the hardware does.

Run on a machine with an NVIDIA GPU: ``python bench/gpu_smem_alignment.py``.
"""

from __future__ import annotations

import ctypes
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from runner_core.backends.cuda import driver as cuda  # noqa: E402

PTX = """
.version 8.0
.target {arch}
.address_size 64
.extern .shared .align {align} .b8 dyn[];
{static}
.visible .entry probe(.param .u64 out)
{{
  .reg .b64 %rd<4>;
  .reg .b32 %r<4>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, dyn;
  st.global.u32 [%rd1], %r1;
  {touch}
  mov.u32 %r3, %dynamic_smem_size;
  st.global.u32 [%rd1+8], %r3;
  ret;
}}
"""


def probe(arch: str, align: int, static: int, static_align: int, dyn: int) -> tuple:
    d = cuda.driver()
    if static:
        decl = f".shared .align {static_align} .b8 stat[{static}];"
        touch = "mov.u32 %r2, stat;\n  st.shared.u32 [stat], %r1;\n  st.global.u32 [%rd1+4], %r2;"
    else:
        decl, touch = "", "mov.u32 %r2, 0;\n  st.global.u32 [%rd1+4], %r2;"
    ptx = PTX.format(arch=arch, align=align, static=decl, touch=touch)
    mod = cuda.load_module(cuda.link_cubin(ptx, "probe"), "probe")
    fn = cuda.module_function(mod, "probe")
    out = cuda.check(d.cuMemAlloc(16), "alloc")
    holder = ctypes.c_uint64(int(out))
    params = (ctypes.c_void_p * 1)(ctypes.addressof(holder))
    cuda.check(d.cuLaunchKernel(d.CUfunction(fn), 1, 1, 1, 32, 1, 1, dyn, 0,
                                ctypes.addressof(params), 0), "launch")
    cuda.check(d.cuCtxSynchronize(), "sync")
    host = (ctypes.c_uint32 * 3)()
    cuda.check(d.cuMemcpyDtoH(ctypes.addressof(host), out, 12), "copy")
    cuda.check(d.cuMemFree(out), "free")
    cuda.unload_module(mod)
    return tuple(host)


def main() -> int:
    info = cuda.device_info(cuda.select_ordinal())
    ctx = cuda.context(info.ordinal)
    ctx.make_current()
    print(f"device {info.name} {info.arch}")
    print("extern_align static_bytes static_align dyn_bytes | dyn_offset static_offset "
          "dyn_size dyn_offset%128 dyn_offset%1024")
    for align in (16, 128, 1024):
        for static, salign in ((0, 8), (8, 8), (100, 8), (2000, 16), (8, 1024)):
            for dyn in (4096,):
                try:
                    off, soff, size = probe(info.arch, align, static, salign, dyn)
                    print(f"{align} {static} {salign} {dyn} | {off} {soff} {size} "
                          f"{off % 128} {off % 1024}")
                except Exception as err:  # noqa: BLE001 - a table of what happened
                    print(f"{align} {static} {salign} {dyn} | error {err}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
