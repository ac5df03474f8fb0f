"""Real MLIR in, embedded runner out: lower .mlir tests with LLVM 22's mlir-opt, run the result.

For every RUN line of the given files (or folders) whose pipeline is
``mlir-opt ... | [mlir-opt ... |]* mlir-runner ...``, the ``mlir-opt`` stages
run with the real tool (``--tool-dir``, default /usr/lib/llvm-22/bin); the
lowered program is saved under ``--save`` (default bench/work/interop/) and
run twice: by the real ``mlir-runner`` (runtime libraries from LLVM's lib
directory) and by the embedded runner (``gpurunner``, the same arguments).
Each RUN line is classified:

* same: both runners exit alike with the same stdout;
* differ: they do not (the output diff is shown);
* embedded-only: the real runner cannot run it (a GPU program on a machine
  without a CUDA-enabled mlir-runner); the embedded output is then checked with
  the RUN line's own FileCheck stage;
* not lowerable: the real mlir-opt rejects the pipeline.

    python bench/interop_lower.py integration_test/runner integration_test/cpu
    python bench/interop_lower.py DIR --format llvm --backend cpu   # GPU tests on the cpu backend
    python bench/interop_lower.py DIR --lower-only                  # only save lowered files
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pytest_gpurunner.script import run_commands  # noqa: E402

RUNNERS = {"mlir-runner", "mlir-cpu-runner", "mlir-cuda-runner"}
LIBS = ("mlir_c_runner_utils", "mlir_runner_utils", "mlir_async_runtime", "mlir_cuda_runtime",
        "mlir_float16_utils", "mlir_arm_runner_utils")


def substitute(command: str, path: Path, lib_dir: str, fmt: str) -> str:
    subs = {f"%{lib}": f"{lib_dir}/lib{lib}.so" for lib in LIBS}
    subs.update({"%mlir_lib_dir": lib_dir, "%linalg_test_lib_dir": lib_dir,
                 "%mlir_runner_utils_dir": lib_dir, "%shlibext": ".so",
                 "%gpu_compilation_format": fmt, "%s": str(path), "%S": str(path.parent),
                 "%p": str(path.parent)})
    for name in sorted(subs, key=len, reverse=True):
        command = command.replace(name, subs[name])
    return command


def split_pipeline(command: str) -> tuple[list[list[str]], list[str] | None, list[list[str]]]:
    """(mlir-opt stages, runner argv, stages after the runner)."""
    opts: list[list[str]] = []
    stages = [shlex.split(s) for s in command.split("|")]
    for i, words in enumerate(stages):
        if words and words[0] == "not":
            return opts, None, []
        if words and words[0] == "mlir-opt":
            opts.append(words[1:])
            continue
        if words and words[0] in RUNNERS and opts:
            argv = [w for w in words[1:]]
            # `2>&1` and friends are the shell's business: drop redirections.
            argv = [w for w in argv if not re.match(r"^\d?>", w)]
            return opts, argv, stages[i + 1:]
        return opts, None, []
    return opts, None, []


ADDRESS = re.compile(rb"base@ = 0x[0-9a-f]+")


def normalized(out: bytes) -> bytes:
    """Output with heap addresses (``printMemref``'s ``base@``) blanked: they differ run to run."""
    return ADDRESS.sub(b"base@ = 0x?", out)


VARIANT_KEY = "cubin-format=%gpu_compilation_format"


def _entry(out: Path, runner: list[str], after: list[list[str]], source: Path, save: Path,
           merged: bool = False) -> dict:
    """What bench/gpu_check_interop.py needs to run one lowered program elsewhere: runner
    arguments with library names instead of this machine's paths, and the FileCheck stage
    with its check file (a file outside the checkout is copied next to the programs)."""
    runner = [re.sub(r"^(--shared-libs=).*/lib(mlir_\w+)\.so$", r"\1\2", a) for a in runner]
    check = next((s for s in after if s and s[0] == "FileCheck"), None)
    check_args, check_file = [], ""
    if check:
        check_args = [a for a in check[1:] if a != str(source.resolve())]
        try:
            check_file = source.resolve().relative_to(ROOT).as_posix()
        except ValueError:
            copy = save / "checks" / source.name
            copy.parent.mkdir(exist_ok=True)
            copy.write_bytes(source.read_bytes())
            try:  # relative, so the manifest works in another checkout (the GPU machine)
                check_file = copy.resolve().relative_to(ROOT).as_posix()
            except ValueError:
                check_file = str(copy.resolve())
    try:
        lowered = out.resolve().relative_to(ROOT).as_posix()
    except ValueError:  # --save outside the checkout
        lowered = str(out.resolve())
    return {"lowered": lowered, "runner": runner,
            "filecheck": check_args, "check_file": check_file, "has_check": bool(check),
            "stderr_to_filecheck": merged}


def toolkit_env(fmt: str) -> dict | None:
    """mlir-opt's environment: for PTX/cubin/fatbin objects, ``CUDA_ROOT`` naming a CUDA
    toolkit (when none is named and one is installed), so gpu-module-to-binary links
    libdevice; without it LLVM 22 leaves ``.extern .func __nv_*`` in the PTX, which no
    driver loads (CUDA_ERROR_INVALID_PTX).  The 'llvm' (offload) objects are left alone."""
    if fmt == "llvm" or any(os.environ.get(v) for v in ("CUDA_ROOT", "CUDA_HOME", "CUDA_PATH")):
        return None
    for root in ("/usr/local/cuda", "/usr/lib/cuda"):
        if Path(root, "nvvm", "libdevice").is_dir():
            return dict(os.environ, CUDA_ROOT=root)
    return None


def run(argv: list[str], data: bytes | None, env: dict | None = None) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(argv, input=data, capture_output=True, timeout=300, env=env)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(argv, 124, b"", b"timeout after 300 s")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--tool-dir", default="/usr/lib/llvm-22/bin")
    ap.add_argument("--format", default="isa", help="%%gpu_compilation_format (isa, bin, fatbin, llvm)")
    ap.add_argument("--save", default=str(ROOT / "bench" / "work" / "interop"))
    ap.add_argument("--backend", default="cpu", help="GPURUNNER_BACKEND of the embedded runner")
    ap.add_argument("--lower-only", action="store_true")
    ap.add_argument("--no-real", action="store_true", help="do not run the real mlir-runner")
    ap.add_argument("--variants", action="store_true",
                    help="also lower -gpu-lower-to-nvvm-pipeline programs to bin, fatbin and "
                         "llvm objects for sm_90 (for the GPU check)")
    args = ap.parse_args()

    tool_dir = Path(args.tool_dir)
    lib_dir = str((tool_dir / ".." / "lib").resolve())
    save = Path(args.save)
    save.mkdir(parents=True, exist_ok=True)
    files: list[Path] = []
    for p in map(Path, args.paths):
        files += sorted(p.rglob("*.mlir")) if p.is_dir() else [p]
    gpurunner = str(Path(sys.executable).parent / "gpurunner")
    # The embedded runner stands in for the real one (as in hybrid mode): same input rules.
    env = dict(os.environ, GPURUNNER_BACKEND=args.backend, GPURUNNER_LLVM_ONLY="1")
    counts: dict[str, int] = {}
    manifest: list[dict] = []
    for path in files:
        try:
            rel = path.resolve().relative_to(ROOT).as_posix()
        except ValueError:
            rel = path.as_posix().lstrip("/")
        commands = []
        for n, command in enumerate(run_commands(path)):
            commands.append((f"run{n}", command))
            if args.variants and VARIANT_KEY in command:
                for fmt in ("bin", "fatbin", "llvm"):
                    commands.append((f"run{n}-{fmt}", command.replace(
                        VARIANT_KEY, f"cubin-format={fmt} cubin-chip=sm_90 "
                                     f"cubin-features=+ptx80")))
        for tag, command in commands:
            fmt = tag.split("-", 1)[1] if "-" in tag else args.format
            command = substitute(command, path.resolve(), lib_dir, args.format)
            opts, runner, after = split_pipeline(command)
            if runner is None:
                continue
            data = None
            verdict, detail = "", ""
            for opt in opts:
                res = run([str(tool_dir / "mlir-opt"), *opt], data, toolkit_env(fmt))
                if res.returncode:
                    verdict = "not lowerable"
                    detail = res.stderr.decode(errors="replace").splitlines()[:3]
                    break
                data = res.stdout
            if not verdict:
                out = save / (rel.replace("/", "__") + f".{tag}.mlir")
                out.write_bytes(data)
                stage = next((st for st in command.split("|")
                              if st.split() and st.split()[0] in RUNNERS), "")
                manifest.append(_entry(out, runner, after, path, save, "2>&1" in stage.split()))
                if args.lower_only:
                    verdict = "lowered"
                else:
                    mine = run([gpurunner, *runner], data, env)
                    ref = None if args.no_real else run([str(tool_dir / "mlir-runner"), *runner], data)
                    if ref is not None and b"cuda" not in b" ".join(map(str.encode, runner)) \
                            and not ref.stderr.startswith(b"JIT session error"):
                        if (ref.returncode == 0) == (mine.returncode == 0) and normalized(ref.stdout) == normalized(mine.stdout):
                            verdict = "same"
                        else:
                            verdict = "differ"
                            detail = list(difflib.unified_diff(
                                normalized(ref.stdout).decode(errors="replace").splitlines(),
                                normalized(mine.stdout).decode(errors="replace").splitlines(),
                                "real", "embedded", lineterm="", n=1))[:12]
                            detail += [f"real exit {ref.returncode}, embedded exit {mine.returncode}"]
                            detail += mine.stderr.decode(errors="replace").splitlines()[:4]
                    else:
                        check = [s for s in after if s and s[0] == "FileCheck"]
                        if mine.returncode and not check:
                            verdict = "embedded fails"
                        elif check:
                            fc = run([str(tool_dir / "FileCheck"), *check[0][1:]], mine.stdout)
                            verdict = "embedded-only pass" if fc.returncode == 0 else "embedded-only FAIL"
                            if fc.returncode:
                                detail = (mine.stderr.decode(errors="replace").splitlines()[:6]
                                          + fc.stderr.decode(errors="replace").splitlines()[:6])
                        else:
                            verdict = "embedded-only pass"
            counts[verdict] = counts.get(verdict, 0) + 1
            print(f"{verdict:20} {rel} {tag}", flush=True)
            for line in detail:
                print(f"    {line}")
    old = {}
    listing = save / "manifest.json"
    if listing.exists():
        old = {e["lowered"]: e for e in json.loads(listing.read_text())}
    old.update({e["lowered"]: e for e in manifest})
    listing.write_text(json.dumps(sorted(old.values(), key=lambda e: e["lowered"]), indent=1))
    print("summary: " + ", ".join(f"{k}={v}" for k, v in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
