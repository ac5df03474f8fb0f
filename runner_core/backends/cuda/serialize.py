"""What the embedded ``mlir-opt`` shows of GPU serialization (compile-only tests).

Upstream's ``gpu-lower-to-nvvm-pipeline`` / ``gpu-module-to-binary`` turn each
``gpu.module`` into a ``gpu.binary``; tests then check the PTX (``-debug-only=
serialize-to-isa`` on stderr, or ``cubin-format=isa`` / ``format=isa``, where the
binary's object holds the PTX text) or the SASS (``-debug-only=dump-sass``).
The embedded ``mlir-opt`` defers lowering to the runner; only when one of
these is asked does it serialize here, through the cuda backend's own kernel
compiler (LLVM IR -> PTX with llvmlite's NVPTX target, for the chip, PTX
features and optimisation level the pipeline names).  Everything else stays
deferred.  SASS needs CUDA's ``ptxas`` and ``nvdisasm``; without them the
tool fails saying so (use ``--gpurunner-tools=system``).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass

from runner_core.errors import RunnerError

# Options of upstream's pipelines: (chip, features, opt-level, format) defaults.
_PIPELINES = ("gpu-lower-to-nvvm-pipeline", "gpu-lower-to-nvvm", "test-lower-to-nvvm")
DEBUG_TYPES = ("serialize-to-isa", "dump-sass")


@dataclass
class Serialization:
    chip: str = "sm_50"
    features: str = "+ptx60"
    opt: int = 2
    fmt: str = "fatbin"
    cmd_options: str = ""


def _options(text: str) -> dict[str, str]:
    m = re.search(r"\{(.*)\}", text, re.S)
    if not m:
        return {}
    out = {}
    for k, v1, v2 in re.findall(r"([\w-]+)=(?:\"([^\"]*)\"|(\S+))", m.group(1)):
        out[k] = v1 or v2
    return out


def requested(deferred: list[str]) -> Serialization | None:
    """The serialization the deferred passes ask for (None: nothing serializes)."""
    found = None
    for text in deferred:
        name = text.rsplit("(", 1)[-1].split("{", 1)[0].rstrip(")")
        opts = _options(text)
        if name in _PIPELINES:
            found = found or Serialization()
            found.chip = opts.get("cubin-chip", found.chip)
            found.features = opts.get("cubin-features", found.features)
            found.opt = int(opts.get("opt-level", found.opt))
            found.fmt = opts.get("cubin-format", found.fmt)
            found.cmd_options = opts.get("ptxas-cmd-options", found.cmd_options)
        elif name == "nvvm-attach-target":
            found = found or Serialization()
            found.chip = opts.get("chip", found.chip)
            found.features = opts.get("features", found.features)
            found.opt = int(opts.get("O", found.opt))
        elif name == "gpu-module-to-binary":
            found = found or Serialization()
            found.fmt = opts.get("format", found.fmt)
            found.cmd_options = opts.get("opts", found.cmd_options)
    return found


# Lowest PTX ISA (x10) LLVM's NVPTX back end accepts for a chip (NVPTXSubtarget).
_MIN_PTX = {"sm_50": 40, "sm_52": 40, "sm_53": 42, "sm_60": 50, "sm_61": 50, "sm_62": 50,
            "sm_70": 60, "sm_72": 61, "sm_75": 63, "sm_80": 70, "sm_86": 71, "sm_87": 74,
            "sm_89": 78, "sm_90": 78, "sm_90a": 80, "sm_100": 86, "sm_100a": 86,
            "sm_120": 87, "sm_120a": 87}


def check_ptx_version(chip: str, features: str) -> None:
    """LLVM aborts the process on a PTX ISA too old for the chip; say it as an error."""
    m = re.search(r"\+ptx(\d+)", features)
    need = _MIN_PTX.get(chip)
    if m and need and int(m.group(1)) < need:
        have = int(m.group(1))
        raise RunnerError(f"error: PTX version {have // 10}.{have % 10} does not support "
                          f"target '{chip}'. Minimum required PTX version is "
                          f"{need // 10}.{need % 10} (LLVM's NVPTX back end; pass "
                          f"cubin-features=+ptx{need} or later)")


def check_hopper_ptx(km, s: Serialization) -> None:
    """TMA / mbarrier-transaction / wgmma kernels need PTX 8.0; LLVM's NVPTX back end
    aborts the process where the chip's default ISA is older (sm_90: 7.8)."""
    from runner_core.codegen.nvgpu_tma import NEEDS_TARGET

    if not km.ctx.state.get(NEEDS_TARGET):
        return
    m = re.search(r"\+ptx(\d+)", s.features)
    have = int(m.group(1)) if m else _MIN_PTX.get(s.chip, 0)
    if have < 80:
        raise RunnerError(f"error: GPU module '{km.name}' uses sm_90 TMA / mbarrier / wgmma "
                          f"instructions, which need PTX 8.0; target '{s.chip}' gives PTX "
                          f"{have // 10}.{have % 10} (pass cubin-features=+ptx80 or "
                          "cubin-chip=sm_90a)")


def gpu_module_ptx(gpu_module_op, s: Serialization, filename: str) -> str:
    """PTX of one gpu.module for ``s``'s chip and features, every defined function kept."""
    from . import compiler, nvptx
    from .hooks import NVPTXHooks

    check_ptx_version(s.chip, s.features)
    km = compiler.kernel_ir(gpu_module_op, NVPTXHooks(chip=s.chip), filename=filename)
    check_hopper_ptx(km, s)
    text = str(km.module)
    keep = [f.name for f in km.module.functions if not f.is_declaration]
    return nvptx.compile_ptx(text, s.chip, kernels=keep, opt=s.opt, name=km.name,
                             features=s.features)


def _with_module_target(s: Serialization, op) -> Serialization:
    """A ``#nvvm.target<chip = ..., features = ..., O = ...>`` on the gpu.module wins."""
    targets = getattr(op, "targets", None)
    text = " ".join(str(t) for t in (targets.data if targets is not None else ()))
    if "nvvm.target" not in text:
        return s
    out = Serialization(s.chip, s.features, s.opt, s.fmt, s.cmd_options)
    if m := re.search(r'chip\s*=\s*"([^"]+)"', text):
        out.chip = m.group(1)
    if m := re.search(r'features\s*=\s*"([^"]*)"', text):
        out.features = m.group(1)
    if m := re.search(r"\bO\s*=\s*(\d+)", text):
        out.opt = int(m.group(1))
    return out


def sass(ptx: str, chip: str) -> str:
    ptxas, nvdisasm = shutil.which("ptxas"), shutil.which("nvdisasm")
    if not ptxas or not nvdisasm:
        missing = " and ".join(n for n, p in (("ptxas", ptxas), ("nvdisasm", nvdisasm)) if not p)
        raise RunnerError(f"error: -debug-only=dump-sass needs CUDA's {missing}, not found on "
                          f"PATH; install the CUDA toolkit or run with "
                          f"--gpurunner-tools=system")
    with tempfile.TemporaryDirectory() as tmp:
        src, cubin = f"{tmp}/k.ptx", f"{tmp}/k.cubin"
        with open(src, "w") as f:
            f.write(ptx)
        for argv in ([ptxas, f"-arch={chip}", src, "-o", cubin], [nvdisasm, cubin]):
            done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
            if done.returncode != 0:
                # e.g. CUDA 13's ptxas no longer knows LLVM 22's default chip sm_50
                raise RunnerError(
                    f"error: -debug-only=dump-sass: `{' '.join(argv[:2])}` failed (exit "
                    f"{done.returncode}): {done.stderr.strip() or done.stdout.strip()}")
        return done.stdout


def apply(module, deferred: list[str], debug_only: set[str], err: list[str],
          filename: str) -> None:
    """Serialize ``module``'s gpu.modules where the pipeline and flags ask to see the result."""
    s = requested(deferred)
    if s is not None:
        # LLVM 22 aborts serializing for a chip newer than the PTX ISA named; so do we
        # (as an error), whether or not anything is printed.
        for op in [o for o in module.walk() if o.name in ("gpu.module", "gpu.launch")]:
            t = _with_module_target(s, op) if op.name == "gpu.module" else s
            check_ptx_version(t.chip, t.features)
    wants_isa = s is not None and s.fmt == "isa"
    if s is None or not (wants_isa or debug_only & set(DEBUG_TYPES)):
        return
    # The pipeline outlines gpu.launch bodies first (the runner would do it later).
    work = module if wants_isa else module.clone()
    if any(o.name == "gpu.launch" for o in work.walk()):
        from runner_core.ir.context import shared_context
        from runner_core.passes.outlining import KernelOutliningPass, sink_into_launch

        for launch in [o for o in work.walk() if o.name == "gpu.launch"]:
            sink_into_launch(launch)
        KernelOutliningPass().run(work, shared_context())
    for op in [o for o in work.walk() if o.name == "gpu.module"]:
        name = op.sym_name.data
        ptx = gpu_module_ptx(op, _with_module_target(s, op), filename)
        if "serialize-to-isa" in debug_only:
            err.append(ptx if ptx.endswith("\n") else ptx + "\n")
        if "dump-sass" in debug_only:
            err.append(sass(ptx, s.chip))
        if wants_isa:
            _pad_launches(work, op, name)
            _replace_with_binary(op, name, ptx, s)


def _pad_launches(module, gpu_module_op, name: str) -> None:
    """Add the alignment slack of ``codegen.gpu_device.dynamic_smem_pad`` to the dynamic
    shared size of each launch of such a kernel, in the IR: once the module is a
    ``gpu.binary`` the host lowering can no longer tell, and any runner that loads the
    PTX must give the kernel those bytes."""
    from xdsl.dialects import arith
    from xdsl.dialects.builtin import IntegerAttr

    from runner_core.codegen.gpu_device import dynamic_smem_pad

    for launch in [o for o in module.walk() if o.name == "gpu.launch_func"]:
        if launch.kernel_module_name != name or launch.dynamicSharedMemorySize is None:
            continue
        pad = dynamic_smem_pad(gpu_module_op, launch.kernel_name)
        if not pad:
            continue
        size = launch.dynamicSharedMemorySize
        const = arith.ConstantOp(IntegerAttr(pad, size.type))
        add = arith.AddiOp(size, const)
        launch.parent_block().insert_ops_before([const, add], launch)
        at = len(launch.asyncDependencies) + 6 + (3 if launch.clusterSizeX is not None else 0)
        operands = list(launch.operands)
        operands[at] = add.result
        launch.operands = operands


def _replace_with_binary(op, name: str, ptx: str, s: Serialization) -> None:
    """``gpu.binary @name [#gpu.object<#nvvm.target<...>, assembly = "PTX">]``."""
    binary = _isa_binary(name, ptx, s.chip, s.features, s.opt)
    parent = op.parent_block()
    parent.insert_op_before(binary, op)
    op.detach()
    op.erase()


def _escape(text: str) -> str:
    """MLIR string literal escapes: printable ASCII as is, the rest as ``\\XX``."""
    return "".join(ch if 32 <= ord(ch) <= 126 and ch not in '"\\' else
                   "".join(f"\\{b:02X}" for b in ch.encode()) for ch in text)


def _isa_binary(name: str, ptx: str, chip: str, features: str, opt: int):
    """What ``format=isa`` gives: the PTX as the object's text (upstream's printed form)."""
    from xdsl.dialects.builtin import ArrayAttr, StringAttr
    from xdsl.parser import Parser

    from runner_core.ir.context import shared_context
    from runner_core.ir.dialects.gpu_binary import BinaryOp

    # Upstream prints only the parameters that differ from their defaults.
    params = [p for p, default in ((f"O = {opt}", opt == 2), (f'chip = "{chip}"', chip == "sm_50"),
                                   (f'features = "{features}"', features == "+ptx60"))
              if not default]
    target = f"#nvvm.target<{', '.join(params)}>" if params else "#nvvm.target"
    obj = Parser(shared_context(), f'#gpu.object<{target}, assembly = "{_escape(ptx)}">'
                 ).parse_attribute()
    return BinaryOp.create(properties={"sym_name": StringAttr(name), "objects": ArrayAttr([obj])})
