"""GPU check of issue 14: programs lowered by the real mlir-opt 22, run by the embedded runner.

``bench/interop_lower.py --lower-only --variants DIR...`` (run where LLVM 22
is installed, with a CUDA toolkit so PTX objects link libdevice) saves each
lowered program under bench/work/interop/ with a manifest.json (runner
arguments, FileCheck arguments, check file).  Here, on a machine with a GPU
and no LLVM 22, every program holding a ``gpu.binary`` runs on the embedded
runner's cuda backend (a fresh process each, standing in for mlir-runner 22:
``GPURUNNER_LLVM_ONLY=1``, as in hybrid mode) and its output goes through
the RUN line's FileCheck stage (the plug-in's FileCheck: LLVM's binary from
llvm-testing-tools where installed).  One line per program:

    PASS <lowered file>
    PASS <lowered file> (expected: <what the real tools do too>)
    FAIL <lowered file>: <why>   (then the first lines of the runner's stderr / FileCheck's)
    SKIP <lowered file> (needs a GPU)   (--backend cpu: an object the cpu backend refuses)

Programs LLVM 22's lowering breaks (:data:`EXPECTED`) pass when they fail the
way the real tools fail on a GPU (reasoned from the lowered code; see
integration_test/test_lowered_by_mlir_opt.py), not when they print what the
source's CHECK lines say.

    python bench/gpu_check_interop.py [--manifest bench/work/interop/manifest.json] [-k WORD]
                                      [--jobs 4] [--backend cuda|cpu]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DESTROYED = "failed with 'CUDA_ERROR_CONTEXT_IS_DESTROYED'"


@dataclass
class Outcome:
    code: int
    out: bytes
    err: bytes
    filecheck_ok: bool | None  # None: no FileCheck stage
    filecheck_err: bytes = b""


# lowered-file substring -> (what the real tools do, predicate on the outcome)
EXPECTED = {
    "gpu_barrier_memory": (
        "LLVM 22's NVPTX demotes __dynamic_shmem__0 to a static variable that overlaps the "
        "workgroup buffers: wrong numbers, FileCheck fails",
        lambda o: o.code == 0 and o.filecheck_ok is False),
    "shared_memory_limits": (
        "LLVM 22's NVPTX demotes __dynamic_shmem__0 (4100 static bytes): 227 KiB of dynamic "
        "shared memory no longer fits, cuFuncSetAttribute INVALID_VALUE",
        lambda o: o.code != 0 and b"cuFuncSetAttribute" in o.err
        and b"CUDA_ERROR_INVALID_VALUE" in o.err),
    "streams_concurrent": (
        "gpu-to-llvm reuses a destroyed stream: the driver refuses the launch and copy on it "
        "(CONTEXT_IS_DESTROYED, reported), the second CHECK fails; on a GPU the refused "
        "launch leaves its ping-pong partner spinning: a hang, as with mlir-runner 22",
        lambda o: o.code == 124 or (o.code == 0 and o.filecheck_ok is False
                                    and DESTROYED.encode() in o.err)),
    "gpu__tma_wgmma_gemm": (
        "LLVM 22's NVPTX demotes the dynamic area and the zero-length workgroup buffer to "
        "separate one-byte statics: TMA fills one, wgmma reads another, wrong products "
        "(H100, 2026-12-06)",
        lambda o: o.code == 0 and o.filecheck_ok is False),
    "sm90__gemm_f32_f16_f16_128x128x128": (
        "the same demotion in upstream's GEMM: every product wrong ('Incorrect Results :16384'"
        ", H100, 2026-12-06; launched by hand with its descriptors it faulted, "
        "CUDA_ERROR_MISALIGNED_ADDRESS)",
        lambda o: (o.code == 0 and o.filecheck_ok is False) or
        (o.code != 0 and b"MISALIGNED" in o.err)),
    "TensorCore__wmma-matmul-f64": (
        "this copy of the test (the sm80/ one has it) does not gpu.host_register the result "
        "memref, so the kernel stores to pageable host memory: CUDA_ERROR_ILLEGAL_ADDRESS",
        lambda o: o.code != 0 and b"ILLEGAL_ADDRESS" in o.err),
    "seed_modern": (
        "gpu-to-llvm gives streams to mgpuEvent*/mgpuStreamWaitEvent (reported, "
        "CONTEXT_IS_DESTROYED), no device order is left: exit 0, the numbers race",
        lambda o: o.code == 0 and DESTROYED.encode() in o.err),
    "gpu_tasks": (
        "gpu-to-llvm gives a stream to mgpuEventSynchronize/Destroy (reported, "
        "CONTEXT_IS_DESTROYED): exit 0, the final print races with the last kernel",
        lambda o: o.code == 0 and DESTROYED.encode() in o.err),
    "alloc-host-shared": (
        "printI64 comes from mlir_c_runner_utils, which the RUN line does not load: "
        "mlir-runner 22 says 'Symbols not found' too",
        lambda o: o.code != 0 and b"Symbols not found" in o.err),
    "cpu__gpu_host_ops": (
        "synchronous gpu.alloc/memcpy/dealloc: gpu-to-llvm 22 lowers only the async forms, "
        "so casts are left and mlir-runner 22's translation fails (checked with it)",
        lambda o: o.code != 0 and b"LLVM Translation failed for operation: "
        b"builtin.unrealized_conversion_cast" in o.err),
    "cpu__gpu_all_reduce": (
        "synchronous gpu.alloc/memcpy/dealloc: gpu-to-llvm 22 lowers only the async forms, "
        "so casts are left and mlir-runner 22's translation fails (checked with it)",
        lambda o: o.code != 0 and b"LLVM Translation failed for operation: "
        b"builtin.unrealized_conversion_cast" in o.err),
    "async_gpu_tokens": (
        "gpu-to-llvm leaves `gpu.alloc async host_shared` and func.call: mlir-runner 22 "
        "cannot parse it (Dialect `func' not found)",
        lambda o: o.code != 0 and b"Dialect `func' not found" in o.err),
}


# Programs whose expected outcome on a GPU is a hang get this much time, not --timeout.
HANGS = {"streams_concurrent": 20.0}


def _expectation(lowered: str):
    return next(((k, v) for k, v in EXPECTED.items() if k in lowered), None)


def _run_one(e: dict, env: dict, timeout: float) -> tuple[str, list[str]]:
    from pytest_gpurunner.llvm_filecheck import filecheck_tool

    lowered = ROOT / e["lowered"]
    timeout = min([timeout] + [t for k, t in HANGS.items() if k in e["lowered"]])
    try:
        res = subprocess.run([sys.executable, "-m", "runner_core.cli", *e["runner"]],
                             input=lowered.read_bytes(), capture_output=True, env=env,
                             cwd=str(ROOT), timeout=timeout)
        o = Outcome(res.returncode, res.stdout, res.stderr, None)
    except subprocess.TimeoutExpired:
        o = Outcome(124, b"", f"timeout after {timeout:g} s".encode(), None)
    if e["has_check"] and o.code != 124:
        merged = e.get("stderr_to_filecheck", False)  # `mlir-runner ... 2>&1 | FileCheck`
        fc = filecheck_tool(["FileCheck", str(ROOT / e["check_file"]), *e["filecheck"]],
                            o.out + o.err if merged else o.out, env, str(ROOT))
        o.filecheck_ok, o.filecheck_err = fc.returncode == 0, fc.stderr
    expected = _expectation(e["lowered"])
    err_lines = o.err.decode(errors="replace").splitlines()
    if env.get("GPURUNNER_BACKEND") == "cpu" and o.code != 0 and b"(needs a GPU)" in o.err:
        return f"SKIP {e['lowered']} (needs a GPU)", err_lines[:1]
    if expected is not None:
        what, ok = expected[1]
        if ok(o):
            racy = "" if o.filecheck_ok is None else \
                f"; FileCheck {'passed' if o.filecheck_ok else 'failed'}"
            return f"PASS {e['lowered']} (expected: {what}{racy})", []
        return (f"FAIL {e['lowered']}: not the expected failure ({what})",
                err_lines[:8] + o.filecheck_err.decode(errors="replace").splitlines()[:6])
    if o.code != 0:
        return f"FAIL {e['lowered']}: runner exit {o.code}", err_lines[:8]
    if o.filecheck_ok is False:
        return (f"FAIL {e['lowered']}: FileCheck",
                o.filecheck_err.decode(errors="replace").splitlines()[:10] + err_lines[:4])
    return f"PASS {e['lowered']}", []


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--manifest", default=str(ROOT / "bench/work/interop/manifest.json"))
    ap.add_argument("-k", default="", help="only lowered files whose name contains this")
    ap.add_argument("--timeout", type=float, default=180)
    ap.add_argument("--jobs", type=int, default=4, help="programs run at once")
    ap.add_argument("--cuda-runtime", metavar="PATH",
                    help="a real libmlir_cuda_runtime.so (upstream's CudaRuntimeWrappers.cpp "
                         "built elsewhere) given by path in place of the built-in one")
    ap.add_argument("--backend", default="cuda",
                    help="GPURUNNER_BACKEND (cpu: the 'offload' objects, on a machine without GPU)")
    args = ap.parse_args()

    entries = [e for e in json.loads(Path(args.manifest).read_text())
               if args.k in e["lowered"] and b"gpu.binary" in (ROOT / e["lowered"]).read_bytes()]
    if args.cuda_runtime:
        lib = os.path.abspath(args.cuda_runtime)
        for e in entries:
            e["runner"] = [f"--shared-libs={lib}" if a.startswith("--shared-libs=") and
                           a.split("=", 1)[1].endswith(("mlir_cuda_runtime",
                                                        "mlir_cuda_runtime.so")) else a
                           for a in e["runner"]]
    env = dict(os.environ, GPURUNNER_BACKEND=args.backend, GPURUNNER_LLVM_ONLY="1")
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        # As each finishes: a slow program does not hold back the lines of the others.
        futures = [pool.submit(_run_one, e, env, args.timeout) for e in entries]
        for done in as_completed(futures):
            line, detail = done.result()
            counts[line.split()[0]] += 1
            print(line, flush=True)
            for d in detail:
                print(f"    {d}")
    print(f"summary: PASS={counts['PASS']} FAIL={counts['FAIL']} SKIP={counts['SKIP']}")
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
