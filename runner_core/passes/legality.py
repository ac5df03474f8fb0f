"""Would LLVM 22's `mlir-runner` accept this module after its recorded lowering passes?

The embedded mlir-opt records upstream lowerings (`gpurunner.deferred_passes`)
and the runner lowers everything itself, so a pipeline that forgets a pass
would pass here and fail with the real tools.  Strict runner names
(`STRICT_RUNNERS`) call `check_module` before running: it replays the
recorded passes over the kinds of the module's ops (`legality_table`) and
reports the first op the real runner would refuse, in its words:

* an op of a dialect mlir-runner 22 does not register: the parse error
  ``Dialect `scf' not found for custom op 'scf.for'`` (exit 1);
* otherwise `builtin.unrealized_conversion_cast` left by conversions done in
  different passes with no `reconcile-unrealized-casts` after them, or a GPU
  op with no translation: ``LLVM Translation failed for operation: ...``.

A recorded pass the table does not know cannot be judged: that is an error
naming the pass and the remedy (real tools), never a silent pass.
"""

from __future__ import annotations

from dataclasses import dataclass

from runner_core.errors import RunnerError, SourceLocation
from runner_core.passes import legality_table as T

STRICT_RUNNERS = frozenset({"mlir-runner", "mlir-cpu-runner"})
REMEDY = ("run the test with the real LLVM tools: --gpurunner-tools=system "
          "(or 'gpurunner_tools = system' in the ini file)")


class IllegalForRunner(RunnerError):
    """What real mlir-runner 22 would say about IR the recorded pipeline leaves."""


class UndecidedPass(RunnerError):
    """A recorded pass the legality model has no entry for."""


@dataclass
class SimOp:
    kind: str
    location: SourceLocation | None
    ancestors: tuple[str, ...]
    typed: bool  # has values of a type the LLVM type converter changes
    foldable: bool = False  # a pure op of constants: a greedy pass folds it to a constant
    constant_operands: bool = False  # every operand an arith.constant (PASS_FOLDS)


# ------------------------------------------------------------------ op kinds
def op_kind(op) -> str:
    """The op's name, qualified where LLVM 22's passes treat its forms differently."""
    from xdsl.dialects.builtin import IntegerType, VectorType

    name = op.name
    if name == "vector.print" and op.operands:
        t = op.operands[0].type
        if isinstance(t, VectorType):  # convert-vector-to-scf unrolls it (n-D: shape_cast)
            el = t.element_type
            narrow = isinstance(el, IntegerType) and el.width.data < 64
            nd = "-nd" if len(t.get_shape()) > 1 else ""
            return f"vector.print<vector{nd}{'-ext' if narrow else ''}>"
        if isinstance(t, IntegerType) and t.width.data < 64:
            return "vector.print<ext>"  # printed as i64: arith.extsi/extui first
    if name in ("vector.transfer_read", "vector.transfer_write"):
        vec = op.results[0].type if name == "vector.transfer_read" else op.operands[0].type
        if isinstance(vec, VectorType) and len(vec.get_shape()) > 1:
            return f"{name}<nd>"
    if name == "vector.contract" and _contract_unlowered(op):
        return "vector.contract<other>"
    if name in ("vector.extract", "vector.insert") and _dynamic_outer(op):
        return f"{name}<dynamic>"
    if name == "memref.subview" and not all(_constant(v) for v in op.operands[1:]):
        return "memref.subview<dynamic>"  # expand-strided-metadata computes with affine.apply
    if name in _GPU_ASYNC_CAPABLE and not any(_is_gpu_token(r) for r in op.results) and \
            "hostShared" not in op.properties:
        return f"{name}<sync>"  # gpu-to-llvm lowers only the async form (and host_shared)
    if name == "async.execute" and _captures_gpu_token(op):
        return "async.execute<gpu-token>"
    return name


_GPU_ASYNC_CAPABLE = frozenset({"gpu.alloc", "gpu.dealloc", "gpu.memcpy", "gpu.memset"})


def _constant(value) -> bool:
    return getattr(getattr(value, "op", None), "name", "") == "arith.constant"


def _dynamic_outer(op) -> bool:
    """A non-constant position before the last dimension (convert-vector-to-llvm
    folds constant positions and lowers a dynamic last one to extractelement)."""
    static = op.properties.get("static_position")
    if static is None:
        return False
    source = op.operands[0 if op.name == "vector.extract" else 1].type
    rank = len(source.get_shape())
    dynamic = iter(op.operands[(1 if op.name == "vector.extract" else 2):])
    for i, p in enumerate(static.get_values()):
        if p == -(2 ** 63):
            v = next(dynamic, None)
            if i < rank - 1 and v is not None and not _constant(v):
                return True
    return False


def _contract_unlowered(op) -> bool:
    """convert-vector-to-llvm lowers only `add` contractions of operands of the
    accumulator's element type."""
    from xdsl.dialects.builtin import VectorType

    kind = op.properties.get("kind")
    if kind is not None and "<add>" not in str(kind):
        return True

    def element(t):
        return t.element_type if isinstance(t, VectorType) else t

    acc = element(op.operands[2].type)
    return element(op.operands[0].type) != acc or element(op.operands[1].type) != acc


def _foldable(op) -> bool:
    return (op.name in T.FOLDABLE and bool(op.operands) and not op.regions
            and all(_constant(v) for v in op.operands))


def _is_gpu_token(value) -> bool:
    return getattr(value.type, "name", "") == "gpu.async.token"


def _captures_gpu_token(execute) -> bool:
    """An async.execute whose body uses a !gpu.async.token from outside it: the
    function async-to-async-runtime outlines takes the token as an argument."""
    from runner_core.ir.parse import walk_ops

    for inner in walk_ops(execute):
        for v in inner.operands:
            if not _is_gpu_token(v):
                continue
            owner = v.op if hasattr(v, "op") else v.block.parent_op()
            if owner is None or not execute.is_ancestor(owner):
                return True
    return False


def _changing(t) -> bool:
    from xdsl.dialects.builtin import (
        ComplexType,
        FunctionType,
        IndexType,
        MemRefType,
        UnrankedMemRefType,
        VectorType,
    )

    if isinstance(t, IndexType | MemRefType | UnrankedMemRefType | ComplexType):
        return True
    if isinstance(t, VectorType):
        return len(t.get_shape()) > 1 or isinstance(t.element_type, IndexType)
    if isinstance(t, FunctionType):
        return any(_changing(x) for x in (*t.inputs.data, *t.outputs.data))
    return False


def _typed(op) -> bool:
    if any(_changing(v.type) for v in (*op.operands, *op.results)):
        return True
    ftype = getattr(op, "function_type", None)
    if ftype is not None and _changing(ftype):
        return True
    return any(_changing(a.type) for r in op.regions for b in r.blocks for a in b.args)


def _async_carried(op) -> str | None:
    """The async type an scf/cf op carries (loop-carried tokens and values)."""
    if not op.name.startswith(("scf.", "cf.")):
        return None
    values = [*op.operands, *op.results,
              *(a for r in op.regions for b in r.blocks for a in b.args)]
    for v in values:
        t = v.type
        if t.name.startswith("async."):
            return t.name.split(".", 1)[1]
    return None


def collect(module) -> list[SimOp]:
    """The module's ops (not the module itself), in textual order."""
    from runner_core.ir.parse import op_location

    out: list[SimOp] = []
    stack = [(o, ("builtin.module",)) for r in module.regions for b in r.blocks
             for o in b.ops]
    stack.reverse()
    while stack:
        op, anc = stack.pop()
        out.append(SimOp(op_kind(op), op_location(op), anc, _typed(op), _foldable(op),
                         bool(op.operands) and all(_constant(v) for v in op.operands)))
        carried = _async_carried(op)
        if carried:  # no LLVM 22 pass converts async types outside async/func ops
            out.append(SimOp(f"!async.{carried}", op_location(op), anc, False))
        inner = [(o, (*anc, op.name)) for r in op.regions for b in r.blocks for o in b.ops]
        stack.extend(reversed(inner))
    return out


# ---------------------------------------------------------------- pipelines
def flatten(texts: list[str]) -> list[tuple[str, tuple[str, ...]]]:
    """Recorded pass texts -> (pass name, anchors) in order; pipelines expanded."""
    from runner_core.passes.pipeline_text import NestSpec, parse_pipeline_tree

    out: list[tuple[str, tuple[str, ...]]] = []

    def walk(items, anchors):
        for item in items:
            if isinstance(item, NestSpec):
                inner = anchors if item.anchor in ("builtin.module", "any") else (
                    *anchors, item.anchor)
                walk(item.items, inner)
            elif item.name in T.PIPELINES:
                walk(parse_pipeline_tree(",".join(T.PIPELINES[item.name])).items, anchors)
            else:
                out.append((_variant(item), anchors))

    for text in texts:
        walk(parse_pipeline_tree(text).items, ())
    return out


def _variant(item) -> str:
    """The table key of a pass: its name, or `name{option}` where an option changes
    what LLVM 22's pass converts (`legality_table.OPTION_VARIANTS`)."""
    for option in T.OPTION_VARIANTS.get(item.name, ()):
        value = str(item.options.get(option, "false")).lower()
        if value in ("", "true", "1"):
            return f"{item.name}{{{option}}}"
    return item.name


def is_legacy(passes: list[tuple[str, tuple[str, ...]]]) -> bool:
    return any(name in T.LEGACY_2021 for name, _ in passes)


# --------------------------------------------------------------- simulation
def _matches(kind: str, pattern: str) -> bool:
    if pattern.endswith(".*"):
        return kind.startswith(pattern[:-1])
    return kind == pattern or kind.split("<", 1)[0] == pattern


def _apply(rule: T.Rule, kind: str):
    """None when the rule leaves `kind`; else LLVM or the kinds it becomes."""
    if kind in rule.keeps or kind.split("<", 1)[0] in rule.keeps:
        return None
    for pattern, result in rule.converts:
        if _matches(kind, pattern):
            return result
    return None


def _is_llvm(kind: str) -> bool:
    return kind.split(".", 1)[0] in ("llvm", "nvvm", "rocdl") or kind == "builtin.module"


@dataclass
class Outcome:
    ops: list[SimOp]
    cast_steps: set[int]
    last_reconcile: int
    cast_location: SourceLocation | None


def _first_of_each_class(ops: list[SimOp]) -> list[SimOp]:
    """`ops` less every op equal to an earlier one but for its location.

    What a pass makes of an op, and every verdict on it, depends on its class (all fields
    but the location), and each verdict reports the first op in textual order that earns
    it; the first op of each class, kept in order, earns the same verdicts at the same
    locations.  A module has thousands of ops of a few dozen classes: replaying each op
    through a long pipeline was a sixth of a cold run."""
    seen: set[tuple] = set()
    out: list[SimOp] = []
    for op in ops:
        key = (op.kind, op.ancestors, op.typed, op.foldable, op.constant_operands)
        if key not in seen:
            seen.add(key)
            out.append(op)
    return out


def simulate(ops: list[SimOp], passes: list[tuple[str, tuple[str, ...]]]) -> Outcome:
    """Replay `passes` over `ops`; raises UndecidedPass for a pass not in the table.
    The outcome's ops are the first of each class (:func:`_first_of_each_class`)."""
    cast_steps: dict[int, SourceLocation | None] = {}
    last_reconcile = -1
    current = _first_of_each_class([op for op in ops if not _is_llvm(op.kind)])
    for step, (name, anchors) in enumerate(passes):
        if name in T.TRANSPARENT:
            if name == "gpu-kernel-outlining":
                current = _first_of_each_class(_outline(current))
            continue
        rule = T.PASSES.get(name)
        if rule is None:
            raise UndecidedPass(
                f"error: gpurunner: cannot tell what LLVM 22's mlir-runner would do after "
                f"the recorded pass '{name}' (the embedded mlir-opt records it without "
                f"running it, and the legality model has no entry for it)\n  note: {REMEDY}")
        if rule.reconciles:
            last_reconcile = step
            continue
        if name == "gpu-module-to-binary":
            current = _to_binary(current)
            continue
        folds = T.PASS_FOLDS.get(name, ())
        if not any(_expansion(rule, kind) is not None for kind in {op.kind for op in current}) \
                and not (name in T.FOLDING and any(op.foldable for op in current)) \
                and not (folds and any(op.constant_operands and op.kind in folds
                                       for op in current)):
            continue  # the pass changes no op here (most steps of a long pipeline)
        nxt: list[SimOp] = []
        for op in current:
            if anchors and not all(a in op.ancestors for a in anchors) or (
                    name == "gpu-to-llvm" and "gpu.module" in op.ancestors):
                nxt.append(op)
                continue
            if (op.foldable and name in T.FOLDING) or (
                    op.constant_operands and op.kind in folds):
                op = SimOp("arith.constant", op.location, op.ancestors, op.typed)
            expanded = _expansion(rule, op.kind)
            if expanded is None:
                nxt.append(op)
                continue
            kinds, to_llvm = expanded
            if to_llvm and op.typed:
                cast_steps.setdefault(step, op.location)
            nxt.extend(SimOp(k, op.location, op.ancestors, op.typed) for k in kinds)
        current = _first_of_each_class(nxt)
    where = cast_steps[max(cast_steps)] if cast_steps else None
    return Outcome(current, set(cast_steps), last_reconcile, where)


_EXPANSIONS: dict[int, tuple[T.Rule, dict[str, tuple[tuple[str, ...], bool] | None]]] = {}


def _expansion(rule: T.Rule, kind: str) -> tuple[tuple[str, ...], bool] | None:
    """What :func:`_convert` makes of an op of `kind` under `rule`, once per (rule, kind):
    None (left as it is) or (the kinds it becomes, in order; whether a step reached LLVM).
    A module has hundreds of ops of a few dozen kinds and a pipeline dozens of passes:
    replaying every op through the patterns was half of a cold test's time
    (bench/results/suite-vs-lit-*.md)."""
    entry = _EXPANSIONS.get(id(rule))
    if entry is None or entry[0] is not rule:
        entry = _EXPANSIONS[id(rule)] = (rule, {})
    memo = entry[1]
    if kind in memo:
        return memo[kind]
    if _apply(rule, kind) is None:
        memo[kind] = None
        return None
    probe = SimOp(kind, None, (), True)
    reached: dict[int, SourceLocation | None] = {}
    kinds = tuple(o.kind for o in _convert(probe, rule, 0, reached))
    memo[kind] = (kinds, bool(reached))
    return memo[kind]


def _convert(op: SimOp, rule: T.Rule, step: int, cast_steps, depth: int = 0) -> list[SimOp]:
    """`op` after one pass (the pass also converts what it introduces), in order."""
    result = _apply(rule, op.kind) if depth < 8 else None
    if result is None:
        return [op]
    if result == T.LLVM:
        if op.typed:
            cast_steps.setdefault(step, op.location)
        return []
    out: list[SimOp] = []
    for k in result:
        new = SimOp(k, op.location, op.ancestors, op.typed)
        out.extend([new] if k == op.kind else _convert(new, rule, step, cast_steps, depth + 1))
    return out


def _outline(ops: list[SimOp]) -> list[SimOp]:
    out = []
    for op in ops:
        if op.kind == "gpu.launch":
            out.append(SimOp("gpu.launch_func", op.location, op.ancestors, op.typed))
        elif "gpu.launch" in op.ancestors:
            if op.kind != "gpu.terminator":
                out.append(SimOp(op.kind, op.location, ("builtin.module", "gpu.module",
                                                        "gpu.func"), op.typed))
        else:
            out.append(op)
    return out


def _to_binary(ops: list[SimOp]) -> list[SimOp]:
    out = []
    for op in ops:
        inside = "gpu.module" in op.ancestors
        if inside and not (_is_llvm(op.kind) or op.kind.startswith("gpu.")):
            raise IllegalForRunner(
                f"{_loc(op.location)}error: the recorded gpu-module-to-binary would fail: "
                f"'{op.kind.split('<')[0]}' is left in the gpu.module (LLVM 22 translates "
                f"only LLVM/NVVM ops to a GPU binary)\n  note: {REMEDY}")
        if op.kind == "gpu.module":
            out.append(SimOp("gpu.binary", op.location, op.ancestors, False))
        elif not inside:
            out.append(op)
    return out


def _loc(location: SourceLocation | None) -> str:
    if location is None:
        return 'loc(unknown): '
    return f'loc("{location.filename}":{location.line}:{location.column}): '


# ------------------------------------------------------------------ verdict
def first_illegal(outcome: Outcome) -> str | None:
    """mlir-runner 22's message for the module left, or None when it would run."""
    remaining = outcome.ops
    for op in remaining:
        dialect = op.kind.split(".", 1)[0]
        if dialect == "!async":
            return (f'{_loc(op.location)}error: `!"async"<"{op.kind[7:]}">` type created with '
                    f"unregistered dialect. If this is intended, please call "
                    f"allowUnregisteredDialects() on the MLIRContext, or use "
                    f"-allow-unregistered-dialect with the MLIR opt tool used\n"
                    f"could not parse the input IR")
        if dialect not in T.RUNNER_DIALECTS:
            name = op.kind.split("<", 1)[0]
            return (f"{_loc(op.location)}error: Dialect `{dialect}' not found for custom op "
                    f"'{name}' \ncould not parse the input IR")
    if len(outcome.cast_steps) >= 2 and max(outcome.cast_steps) > outcome.last_reconcile:
        raise UndecidedPass(
            f"{_loc(outcome.cast_location)}error: gpurunner: LLVM 22's mlir-runner may refuse "
            f"this module with 'LLVM Translation failed for operation: "
            f"builtin.unrealized_conversion_cast': the recorded passes convert it to LLVM in "
            f"several steps with no reconcile-unrealized-casts after the last, and whether "
            f"casts are left depends on the order of the patterns inside those passes "
            f"(not modelled)\n  note: end the pipeline with -reconcile-unrealized-casts, or "
            f"{REMEDY}")
    for op in remaining:
        if op.kind == "builtin.unrealized_conversion_cast" and outcome.last_reconcile < 0:
            return (f"{_loc(op.location)}error: LLVM Translation failed for operation: "
                    f"builtin.unrealized_conversion_cast\nError: could not convert to LLVM IR")
        if op.kind.startswith("gpu.") and op.kind not in T.GPU_TRANSLATED and \
                "gpu.module" not in op.ancestors and op.kind != "gpu.module":
            # A gpu op on memrefs is fed by a cast back from the LLVM struct first.
            what = "builtin.unrealized_conversion_cast" if op.typed else \
                op.kind.split("<", 1)[0]
            return (f"{_loc(op.location)}error: LLVM Translation failed for operation: "
                    f"{what}\nError: could not convert to LLVM IR")
    return None


def check_module(module, recorded: list[str], legacy_syntax: bool = False) -> None:
    """Raise what LLVM 22's mlir-runner would say about `module` after `recorded`."""
    passes = flatten(recorded)
    if legacy_syntax or is_legacy(passes):
        return
    message = first_illegal(simulate(collect(module), passes))
    if message is not None:
        raise IllegalForRunner(message)
    from runner_core.passes import shared_memory_layout

    demoted = shared_memory_layout.first_demoted_kernel(module)
    if demoted is not None:
        raise IllegalForRunner(shared_memory_layout.message(*demoted))
