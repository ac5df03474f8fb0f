"""Dump the code the runner generates for every program, to check a refactoring changes none.

Two steps, so that the front end's own changes (printing, naming) made by others
at the same time cannot blur the comparison of code generation:

``capture DIR``
    Runs the plug-in over every ``.mlir`` file of ``integration_test/`` and the
    seed (``../shared/seed/async.mlir``) with the runner commands
    (``mlir-runner``, ``mlir-cpu-runner``, ``mlir-cuda-runner``, ``gpurunner``)
    replaced by a recorder: each invocation's program text (its input file or
    stdin, i.e. what the earlier ``mlir-opt`` stages produced), argv and
    ``GPURUNNER_*`` environment go to ``DIR/<file>.NN.json``, then the real
    runner runs it (so every RUN line of a file is reached).

``dump INPUTS OUT``
    For each recording and each backend (``cpu``, ``cuda``), as the engine does
    it: parse, the runner's preparation pipeline, host code generation, the
    entry thunk; writes ``host.<backend>.ll``.  For each ``gpu.module`` after
    the pipeline: the cpu backend's kernel IR (``<module>.cpu-kernel.ll``), the
    cuda backend's image header and NVPTX IR (``<module>.nvvm.json``,
    ``<module>.nvptx.ll``) and the PTX for ``sm_90`` that the runtime makes of
    it when loading (``<module>.sm_90.ptx``; llvmlite makes PTX without a GPU).
    An error at any stage is written instead (``*.error``), so errors are
    compared too.  No GPU is needed: nothing is run.

Compare two dumps with ``diff -r``.  Typical use::

    python bench/ir_identity.py capture bench/work/irid/inputs      # once, on main
    python bench/ir_identity.py dump bench/work/irid/inputs bench/work/irid/before
    ... change the code ...
    python bench/ir_identity.py dump bench/work/irid/inputs bench/work/irid/after
    diff -r bench/work/irid/before bench/work/irid/after && echo identical
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _seed() -> Path:
    """The seed next to the repository; from a worktree, next to the main checkout."""
    here = ROOT.parent / "shared" / "seed" / "async.mlir"
    if here.exists():
        return here
    try:
        common = subprocess.run(["git", "rev-parse", "--path-format=absolute",
                                 "--git-common-dir"], cwd=ROOT, capture_output=True,
                                text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return here
    return Path(common).parent.parent / "shared" / "seed" / "async.mlir"


SEED = _seed()
RUNNERS = ("mlir-runner", "mlir-cpu-runner", "mlir-cuda-runner", "gpurunner")
CAPTURE_ENV = "GPURUNNER_IR_CAPTURE_DIR"
ARCH = "sm_90"


# ------------------------------------------------------------------------- capture
def capture_tool(argv, stdin, env, cwd):
    """A runner stand-in (contract 1) that records what it was asked to run."""
    from runner_core.cli import _read_input, parse_args
    from runner_core.toolapi import ToolResult

    out = Path(env[CAPTURE_ENV])
    try:
        _opts, path, _flags = parse_args(list(argv[1:]))
        text, filename = _read_input(path, stdin, cwd)
    except Exception as err:  # noqa: BLE001 - recorded, not raised
        return ToolResult(1, b"", f"ir_identity: not recorded: {err}\n".encode())
    test = env.get("PYTEST_CURRENT_TEST", "")
    record = {"argv": list(argv), "filename": filename, "text": text, "test": test,
              "env": {k: v for k, v in env.items() if k.startswith("GPURUNNER_")
                      and k != CAPTURE_ENV}}
    # The source file and the order of its runner invocations name the recording.
    source = _source_of(cwd, env)
    record["source"] = source
    index = len(list(out.glob(f"{_safe(source)}.*.json")))
    (out / f"{_safe(source)}.{index:02d}.json").write_text(
        json.dumps(record, indent=1, sort_keys=True))
    from runner_core.cli import tool_main

    return tool_main(argv, stdin, env, cwd)


def _source_of(cwd: str, env) -> str:
    """The test file being run, relative to the repository (or the seed's name)."""
    test = env.get("PYTEST_CURRENT_TEST", "").split("::", 1)[0].split(" ", 1)[0]
    return test or os.path.basename(cwd)


def _safe(name: str) -> str:
    return name.replace("/", "__").replace(" ", "_")


def capture(directory: Path) -> int:
    directory.mkdir(parents=True, exist_ok=True)
    for old in directory.glob("*.json"):
        old.unlink()
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "integration_test").rglob("*.mlir"))
    if SEED.exists():
        files.append(str(SEED))
    tools = "\n".join(f"{name} = ir_identity:capture_tool" for name in RUNNERS)
    env = dict(os.environ)
    env[CAPTURE_ENV] = str(directory.resolve())
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "bench"), env.get("PYTHONPATH", "")])
    env.pop("PYTEST_ADDOPTS", None)
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
           "-o", f"gpurunner_embedded_tools={tools}", *files]
    res = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    got = sorted(directory.glob("*.json"))
    print(f"recorded {len(got)} runner invocations from {len(files)} files "
          f"(pytest exit {res.returncode})")
    if res.returncode:
        print(res.stdout[-3000:])
    sources = {json.loads(p.read_text())["source"] for p in got}
    missing = [f for f in files if not any(s.endswith(Path(f).name) for s in sources)]
    if missing:
        print("files without a recorded runner invocation:\n  " + "\n  ".join(missing))
    return 0 if got else 1


# --------------------------------------------------------------------------- dump
def _api():
    """The code-generation entry points, wherever the current layout keeps them."""
    from runner_core import engine
    from runner_core.backends import cpu, cuda
    from runner_core.backends.cuda.image import parse_image
    from runner_core.backends.cuda.nvptx import compile_ptx
    from runner_core.codegen import lower_module
    from runner_core.codegen.target import host_target

    backends = {"cpu": cpu.BACKEND, "cuda": cuda.BACKEND}

    def lower_host(module, backend, opts, check_bounds):
        from runner_core.codegen import bounds

        return lower_module(module, host_target(), name=os.path.basename(opts.filename),
                            filename=opts.filename, backend=backends[backend],
                            options={"opt_level": opts.opt_level, bounds.OPTION: check_bounds})

    def cpu_kernel_ir(op, opts, options):
        return cpu.BACKEND.compile_gpu_module(op, filename=opts.filename,
                                              options=options).blob.decode()

    def cuda_image(op, opts, options):
        return cuda.BACKEND.compile_gpu_module(op, filename=opts.filename, options=options).blob

    return engine, lower_host, cpu_kernel_ir, cuda_image, parse_image, compile_ptx


def _write_error(path: Path, err: BaseException) -> None:
    text = f"{type(err).__name__}: {err}\n"
    if not isinstance(err, _runner_error()):
        text += traceback.format_exc()
    path.with_suffix(path.suffix + ".error").write_text(text)


def _runner_error():
    from runner_core.errors import RunnerError

    return RunnerError


def dump_one(record: dict, out: Path) -> None:
    from runner_core.cli import parse_args
    from runner_core.codegen import bounds
    from runner_core.runtime.bounds_state import requested
    from runner_core.toolapi import recursion_headroom

    engine, lower_host, cpu_kernel_ir, cuda_image, parse_image, compile_ptx = _api()
    out.mkdir(parents=True, exist_ok=True)
    opts, _path, _flags = parse_args(record["argv"][1:])
    opts.filename = record["filename"]
    env = record["env"]
    check_bounds = requested(opts.bounds_check, env)
    pipeline = opts.pass_pipeline if opts.pass_pipeline is not None else engine.default_pipeline()
    options = {"opt_level": opts.opt_level, bounds.OPTION: check_bounds}
    with recursion_headroom():
        for backend in ("cpu", "cuda"):
            target = out / f"host.{backend}.ll"
            try:
                module = engine.parse(record["text"], opts.filename)
                engine.run_passes(module, pipeline)
                llmod, ctx = lower_host(module, backend, opts, check_bounds)
                info = engine.check_entry(ctx, opts.entry, opts.entry_result)
                engine.add_entry_thunk(llmod, info, opts.entry_result)
                target.write_text(str(llmod))
            except Exception as err:  # noqa: BLE001 - recorded for comparison
                _write_error(target, err)
        try:
            module = engine.parse(record["text"], opts.filename)
            engine.run_passes(module, pipeline)
        except Exception as err:  # noqa: BLE001
            _write_error(out / "kernels", err)
            return
        gpu_modules = [op for op in module.walk() if op.name == "gpu.module"]
        for op in gpu_modules:
            name = op.sym_name.data
            target = out / f"{name}.cpu-kernel.ll"
            try:
                target.write_text(cpu_kernel_ir(op, opts, dict(options)))
            except Exception as err:  # noqa: BLE001
                _write_error(target, err)
            target = out / f"{name}.nvptx.ll"
            try:
                image = parse_image(cuda_image(op, opts, dict(options)))
            except Exception as err:  # noqa: BLE001
                _write_error(target, err)
                continue
            target.write_text(image.ir)
            header = {"module": image.module, "opt": image.opt, "host_ops": image.host_ops,
                      "kernels": {k: [s.location, s.launches] for k, s in image.kernels.items()}}
            (out / f"{name}.nvvm.json").write_text(json.dumps(header, indent=1, sort_keys=True))
            target = out / f"{name}.{ARCH}.ptx"
            try:
                target.write_text(compile_ptx(image.ir, ARCH, kernels=list(image.kernels) or None,
                                              opt=image.opt, name=image.module))
            except Exception as err:  # noqa: BLE001
                _write_error(target, err)


def dump(inputs: Path, out: Path) -> int:
    records = sorted(inputs.glob("*.json"))
    if not records:
        print(f"no recordings in {inputs}; run 'capture' first")
        return 1
    counts = {"host": 0, "cpu-kernel": 0, "nvptx": 0, "ptx": 0, "errors": 0}
    for path in records:
        target = out / path.stem
        dump_one(json.loads(path.read_text()), target)
        for f in target.iterdir():
            if f.name.endswith(".error"):
                counts["errors"] += 1
            elif f.name.startswith("host."):
                counts["host"] += 1
            elif f.name.endswith(".cpu-kernel.ll"):
                counts["cpu-kernel"] += 1
            elif f.name.endswith(".nvptx.ll"):
                counts["nvptx"] += 1
            elif f.name.endswith(".ptx"):
                counts["ptx"] += 1
    print(f"{len(records)} recordings -> {out}: " + ", ".join(f"{v} {k}" for k, v in
                                                                counts.items()))
    return 0


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "capture":
        return capture(Path(argv[1]))
    if len(argv) == 3 and argv[0] == "dump":
        return dump(Path(argv[1]), Path(argv[2]))
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
