"""Which change closes the gap between gpu.all_reduce and hand-written CUDA?  An experiment.

    python bench/gpu_reduction_variants.py --prepare DIR   # here: PTX variants of block_sum
    python bench/gpu_reduction_variants.py DIR             # on a GPU: time them all

``--prepare`` writes the generated ``block_sum`` kernel of ``bench/gpu_kernels.py`` as
PTX (``current.ptx``), the same with 32-bit shared-memory pointers
(``short_ptr.ptx``: ``GPURUNNER_NVPTX_SHORT_PTR=1``), and the hand-written CUDA through
``nvcc -ptx`` (``hand_nvcc.ptx``: the same JIT path as ours), plus any ``*.ptx`` already
in DIR, and the kernel as gpu-kernel-outlining marks one launched with constant sizes
(``known256.ptx``: ``known_block_size = array<i32: 256, 1, 1>``, the size the bench
launches), plus any ``*.ptx`` already
in DIR (variants made by hand for the experiment: ``straight.ptx`` and
``straight_short.ptx`` were made with ``gpu_device_sync._one_round`` cut down to its
``whole_subgroups()`` path, a local edit not kept, i.e. what a kernel specialised for
block sizes that are multiples of 32 would run).  On the GPU each PTX is linked by
the driver as the runner links its kernels and timed against NVRTC's cubin of the
hand-written kernels in the same interleaved run (``gpu_kernels.time_pair``); every
result is checked against numpy first.  Prints one line per variant.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))


KNOWN_256 = "kernel attributes {known_block_size = array<i32: 256, 1, 1>}"


def _generated_ptx(short_ptr: bool, known_block: bool = False) -> str:
    import gpu_kernels as g

    from runner_core.backends.cuda import compiler, nvptx
    from runner_core.ir.parse import parse_source

    text = g.GENERATED
    if known_block:  # as gpu-kernel-outlining marks a kernel launched with constant sizes
        head = "gpu.func @block_sum(%in: memref<?xf32>, %out: memref<?xf32>) kernel"
        assert head in text
        text = text.replace(head, head[:-len("kernel")] + KNOWN_256)
    module = parse_source(text, "bench_kernels.mlir")
    (gm,) = [op for op in module.body.block.ops if op.name == "gpu.module"]
    km = compiler.kernel_ir(gm, filename="bench_kernels.mlir")
    return nvptx.compile_ptx(str(km.module), "sm_90", kernels=["block_sum"],
                             short_ptr=short_ptr)


def prepare(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for name, short, known in (("current", False, False), ("short_ptr", True, False),
                               ("known256", False, True)):
        # A fresh process per variant: the kernel IR is built for the data layout that
        # GPURUNNER_NVPTX_SHORT_PTR selects when runner_core is imported.
        code = (f"import sys; sys.path[:0] = [{str(HERE)!r}, {str(HERE.parent)!r}]; "
                f"import gpu_reduction_variants as v; "
                f"open({str(out / (name + '.ptx'))!r}, 'w').write(v._generated_ptx({short}, {known}))")
        env = {**os.environ, "GPURUNNER_NVPTX_SHORT_PTR": "1" if short else "0"}
        subprocess.run([sys.executable, "-c", code], check=True, env=env)
    import gpu_kernels as g

    cu = out / "hand.cu"
    cu.write_text(g.HANDWRITTEN)
    try:
        subprocess.run(["nvcc", "-ptx", "-arch=sm_90", "-O3", str(cu), "-o",
                        str(out / "hand_nvcc.ptx")], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError) as err:
        print(f"no hand_nvcc.ptx: {err}")
    cu.unlink()
    print("\n".join(sorted(p.name for p in out.glob("*.ptx"))))


class BlockSums:
    """The reduction's input on the GPU (16M f32 in blocks of 256) and numpy's answer."""

    def __init__(self):
        import gpu_kernels as g
        import numpy as np

        self.g, self.d = g, g.cu()
        self.n, self.block = 1 << 24, 256
        self.nb = self.n // self.block
        a = np.random.default_rng(0).random(self.n, dtype=np.float32)
        self.da = int(g.ck(self.d.cuMemAlloc(self.n * 4)))
        self.dout = int(g.ck(self.d.cuMemAlloc(self.nb * 4)))
        g.ck(self.d.cuMemcpyHtoD(g.dptr(self.da), a.ctypes.data, self.n * 4))
        self.want = a.reshape(self.nb, self.block).astype(np.float64).sum(axis=1)
        self.stream = g.ck(self.d.cuStreamCreate(0))

    def add(self, cases: dict, label: str, module: int, hand_style: bool) -> None:
        """The module's block_sum (and block_allsum, for hand-written CUDA's signature)."""
        g = self.g
        for kernel in (("block_sum", "block_allsum") if hand_style else ("block_sum",)):
            args = [("p", self.da), ("p", self.dout)] if hand_style else \
                g.memref1(self.da, self.n) + g.memref1(self.dout, self.nb)
            cases[f"{label}:{kernel}"] = (g.Kernel(module, kernel), args)

    def check_and_time(self, cases: dict, ref: str, reps: int) -> None:
        """Each kernel's sums checked against numpy, then two interleaved timings."""
        import numpy as np

        g, d, nb, stream = self.g, self.d, self.nb, self.stream
        launches = {label: (lambda k=k, args=args: k.launch((nb, 1, 1), (self.block, 1, 1),
                                                            args, stream))
                    for label, (k, args) in cases.items()}
        sums = np.empty(nb, np.float32)
        for label, launch in launches.items():
            g.ck(d.cuMemsetD32(g.dptr(self.dout), 0, nb))
            launch()
            g.ck(d.cuStreamSynchronize(stream))
            g.ck(d.cuMemcpyDtoH(sums.ctypes.data, g.dptr(self.dout), nb * 4))
            assert np.allclose(sums, self.want, rtol=1e-5), f"{label} wrong"
        for rep in range(2):
            ms = g.time_pair(launches, stream, reps=reps, what=f"rep{rep}")
            for label, t in sorted(ms.items(), key=lambda kv: kv[1]):
                print(f"rep {rep} {label:40s} {t * 1e3:7.2f} us  ratio vs {ref} "
                      f"{ms[ref] / t:.3f}", flush=True)


def run(folder: Path) -> None:
    import gpu_kernels as g

    from runner_core.backends.cuda import driver as cuda

    info = cuda.device_info(cuda.select_ordinal())
    ctx = cuda.context(info.ordinal)
    ctx.make_current()
    data = BlockSums()
    hw = cuda.load_module(g.nvrtc_cubin(g.HANDWRITTEN, info.arch)[0], "handwritten")
    cases: dict = {}
    data.add(cases, "nvrtc", hw, hand_style=True)
    for ptx in sorted(folder.glob("*.ptx")):
        mod = cuda.load_module(cuda.link_cubin(ptx.read_text(), ptx.stem), ptx.stem)
        data.add(cases, ptx.stem, mod, hand_style=ptx.stem.startswith("hand"))
    data.check_and_time(cases, "nvrtc:block_sum", reps=300)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--prepare", action="store_true")
    args = ap.parse_args()
    prepare(args.folder) if args.prepare else run(args.folder)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("GPURUNNER_CACHE_DIR", "/tmp/gpurunner-variants-cache")
    sys.exit(main())
