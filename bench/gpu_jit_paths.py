"""Does the way PTX becomes a cubin cost the reduction its last few per cent?  An experiment.

    python bench/gpu_jit_paths.py DIR [--sass OUT]    # on a GPU; DIR holds *.ptx

``bench/gpu_reduction_variants.py`` found that NVRTC's cubin of the hand-written
all-reduce ran at 0.98 of NVRTC's sum kernel while nvcc's PTX of the *same* source,
assembled by the driver as the runner assembles its kernels, ran at 0.93: the path from
PTX to SASS, not the PTX, looked like the gap.  This script times, in one interleaved
run against NVRTC's cubin, every ``*.ptx`` of DIR (and NVRTC's own PTX of the
hand-written kernels) assembled several ways:

* ``driver``: ``cuLinkCreate`` as the runner calls it (no options);
* ``driver+<option>``: the same with one ``CUjit_option`` set (optimisation level,
  position-independent code off, L1 cache mode);
* ``ptxas``: CUDA's ``ptxas -O3`` for the device's architecture, where it is installed.

Every kernel's result is checked against numpy first.  With ``--sass OUT``, the SASS of
each cubin (``cuobjdump -sass``, where installed) is written to OUT for comparison.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))


def _nvrtc_ptx(source: str, arch: str) -> str:
    from cuda.bindings import nvrtc

    err, prog = nvrtc.nvrtcCreateProgram(source.encode(), b"handwritten.cu", 0, [], [])
    opts = [f"--gpu-architecture=compute_{arch.removeprefix('sm_')}".encode()]
    (err,) = nvrtc.nvrtcCompileProgram(prog, len(opts), opts)
    if int(err) != 0:
        raise RuntimeError(f"NVRTC: {err}")
    err, size = nvrtc.nvrtcGetPTXSize(prog)
    buf = b" " * size
    nvrtc.nvrtcGetPTX(prog, buf)
    return buf.rstrip(b"\0 ").decode()


def _option_sets() -> dict[str, dict[int, int]]:
    from cuda.bindings import driver as drv

    o = drv.CUjit_option
    c = drv.CUjit_cacheMode
    return {"driver": {},
            "driver+O3": {int(o.CU_JIT_OPTIMIZATION_LEVEL): 3},
            "driver+O4": {int(o.CU_JIT_OPTIMIZATION_LEVEL): 4},
            "driver+nopic": {int(o.CU_JIT_POSITION_INDEPENDENT_CODE): 0},
            "driver+cache_ca": {int(o.CU_JIT_CACHE_MODE): int(c.CU_JIT_CACHE_OPTION_CA)},
            "driver+cache_cg": {int(o.CU_JIT_CACHE_MODE): int(c.CU_JIT_CACHE_OPTION_CG)}}


def _ptxas(ptx: str, arch: str) -> bytes | None:
    tool = shutil.which("ptxas")
    if not tool:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        src, out = os.path.join(tmp, "k.ptx"), os.path.join(tmp, "k.cubin")
        Path(src).write_text(ptx)
        subprocess.run([tool, f"-arch={arch}", "-O3", src, "-o", out], check=True,
                       capture_output=True)
        return Path(out).read_bytes()


def _sass(cubin: bytes, label: str, out: Path) -> None:
    tool = shutil.which("cuobjdump")
    if not tool:
        return
    with tempfile.NamedTemporaryFile(suffix=".cubin") as fh:
        fh.write(cubin)
        fh.flush()
        text = subprocess.run([tool, "-sass", fh.name], capture_output=True, text=True).stdout
    (out / (label.replace(":", "__").replace("+", "_") + ".sass")).write_text(text)


def run(folder: Path, sass: Path | None) -> None:
    import gpu_kernels as g
    from gpu_reduction_variants import BlockSums

    from runner_core.backends.cuda import driver as cuda

    info = cuda.device_info(cuda.select_ordinal())
    ctx = cuda.context(info.ordinal)
    ctx.make_current()
    ref_cubin = g.nvrtc_cubin(g.HANDWRITTEN, info.arch)[0]
    images = {"nvrtc_cubin": ref_cubin}
    ptxs = {p.stem: p.read_text() for p in sorted(folder.glob("*.ptx"))}
    try:
        ptxs["nvrtc_ptx"] = _nvrtc_ptx(g.HANDWRITTEN, info.arch)
    except Exception as err:  # an experiment: report and go on with the rest
        print(f"no NVRTC PTX: {err}")
    for stem, text in ptxs.items():
        for label, options in _option_sets().items():
            try:
                images[f"{stem}@{label}"] = cuda.link_cubin(text, stem, options)
            except Exception as err:
                print(f"{stem}@{label}: {err}")
        try:
            built = _ptxas(text, info.arch)
        except (OSError, subprocess.CalledProcessError) as err:
            print(f"{stem}@ptxas: {err}")
            built = None
        if built is not None:
            images[f"{stem}@ptxas"] = built
    if sass is not None:
        sass.mkdir(parents=True, exist_ok=True)
        for label, image in images.items():
            _sass(image, label, sass)
    data = BlockSums()
    cases: dict = {}
    for label, image in images.items():
        data.add(cases, label, cuda.load_module(image, label),
                 hand_style=label.startswith(("nvrtc", "hand")))
    data.check_and_time(cases, "nvrtc_cubin:block_sum", reps=200)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--sass", type=Path)
    args = ap.parse_args()
    run(args.folder, args.sass)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("GPURUNNER_CACHE_DIR", "/tmp/gpurunner-jit-paths-cache")
    sys.exit(main())
