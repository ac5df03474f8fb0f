"""State shared by every lowering function while one MLIR module is emitted.

A :class:`LoweringContext` owns the llvmlite module and builder, the map from
MLIR SSA values (and blocks) to LLVM values (and basic blocks), the type
converter and target description, and helpers to reach external (runtime)
functions.  Dialect modules only ever talk to this object, which is what lets
the same lowering functions serve the host, CPU-kernel and NVPTX targets.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import llvmlite.ir as ir
from xdsl.ir import Block, Operation, Region, SSAValue

from runner_core.errors import RunnerError
from runner_core.ir.locations import op_location

from . import small_floats
from .diag import unsupported
from .registry import LoweringTable
from .target import TargetDescription
from .types import I8, PTR, TypeConverter, UnsupportedType


@dataclass
class FunctionInfo:
    """A function symbol of the MLIR module and how it is reached in LLVM."""

    name: str
    mlir_type: Any  # builtin.FunctionType
    function: ir.Function  # expanded ABI
    external: bool
    c_interface: bool
    op: Operation | None = None


@dataclass
class _BlockInfo:
    block: ir.Block
    phis: list[ir.PhiInstr] = field(default_factory=list)


class LoweringContext:
    """Everything a lowering function needs; one per emitted LLVM module."""

    def __init__(self, target: TargetDescription, module: ir.Module, filename: str = "",
                 options: dict | None = None, backend: Any = None,
                 lowerings: LoweringTable | None = None):
        self.target = target
        # What this module's ops lower through (codegen.lowerings.table_for(target.name)).
        self.lowerings = lowerings if lowerings is not None else LoweringTable(target.name)
        # The run's backend (gpu_host.DeviceCompiler): compiles the gpu.modules of host code.
        self.backend = backend
        self.options: dict[str, Any] = dict(options or {})
        self.types = TypeConverter(target)
        self.module = module
        self.filename = filename
        self.functions: dict[str, FunctionInfo] = {}
        self.globals: dict[str, Any] = {}
        # Free-form per-module state for plug-in lowerings (e.g. kernel tables).
        self.state: dict[str, Any] = {}
        self.builder: ir.IRBuilder | None = None
        self.function: ir.Function | None = None
        self._values: dict[SSAValue, Any] = {}
        self._blocks: dict[Block, _BlockInfo] = {}
        self._alloca_block: ir.Block | None = None
        self._strings: dict[bytes, ir.GlobalVariable] = {}
        self._yield_handlers: list[tuple[frozenset[str], Callable]] = []

    # ------------------------------------------------------------------ values
    def get(self, value: SSAValue):
        try:
            return self._values[value]
        except KeyError:
            owner = getattr(value, "owner", None)
            where = f" (defined by '{owner.name}')" if isinstance(owner, Operation) else ""
            raise RunnerError(f"internal error: value used before it was lowered{where}") from None

    def get_all(self, values: Iterable[SSAValue]) -> list:
        return [self.get(v) for v in values]

    def set(self, value: SSAValue, lowered) -> None:
        self._values[value] = lowered

    def set_results(self, op: Operation, lowered: Iterable) -> None:
        lowered = list(lowered)
        if len(lowered) != len(op.results):
            raise RunnerError(f"internal error: '{op.name}' lowered to {len(lowered)} values "
                              f"for {len(op.results)} results")
        for r, v in zip(op.results, lowered, strict=True):
            self._values[r] = v

    def has(self, value: SSAValue) -> bool:
        return value in self._values

    # ------------------------------------------------------------------- types
    def convert(self, t) -> ir.Type:
        return self.types.convert(t)

    # --------------------------------------------------------------- functions
    def begin_function(self, fn: ir.Function) -> ir.Block:
        """Start emitting ``fn``'s body; returns the block to emit into."""
        self.function = fn
        self._alloca_block = fn.append_basic_block("allocas")
        body = fn.append_basic_block("entry")
        self.builder = ir.IRBuilder(body)
        return body

    def end_function(self) -> None:
        if self._alloca_block is not None and not self._alloca_block.is_terminated:
            ab = ir.IRBuilder(self._alloca_block)
            ab.branch(self.function.blocks[1])
        self.function = None
        self.builder = None
        self._alloca_block = None
        self._values.clear()
        self._blocks.clear()

    def entry_alloca(self, ty: ir.Type, count: int = 1, align: int | None = None,
                     name: str = "") -> ir.Value:
        """Stack slot allocated once per call of the current function."""
        ab = ir.IRBuilder(self._alloca_block)
        size = None if count == 1 else ir.Constant(self.types.index, count)
        slot = ab.alloca(ty, size=size, name=name)
        if align:
            slot.align = align
        return slot

    def new_block(self, name: str = "") -> ir.Block:
        return self.function.append_basic_block(name)

    # ------------------------------------------------------------------ lowering
    def lower_op(self, op: Operation) -> None:
        for names, handler in reversed(self._yield_handlers):
            if op.name in names:
                handler(op)
                return
        fn = self.lowerings.lookup(op.name)
        why = small_floats.refused_arithmetic(op)
        if why is not None:
            raise unsupported(op, why)
        if fn is None:
            raise unsupported(op, hint=f"no lowering of '{op.name}' for target "
                                       f"'{self.target.name}'")
        try:
            fn(self, op)
        except UnsupportedType as err:
            raise unsupported(op, f"{err} in '{op.name}'") from None

    def lower_ops(self, block: Block, *, skip_terminator: bool = True) -> Operation | None:
        """Lower a block's ops in order; return its terminator (not lowered) if skipped."""
        ops = list(block.ops)
        term = None
        if skip_terminator and ops and ops[-1].has_trait(_is_terminator_trait()):
            term = ops.pop()
        for op in ops:
            self.lower_op(op)
        return term

    def lower_inline(self, block: Block, args: list | None = None) -> list:
        """Lower the block of a single-block region in place, its arguments bound to
        ``args``; return the lowered operands of its terminator (``[]`` without one)."""
        if args is not None:
            for a, v in zip(block.args, args, strict=True):
                self.set(a, v)
        term = self.lower_ops(block)
        return self.get_all(term.operands) if term is not None else []

    def with_yield_handler(self, names: Iterable[str], handler: Callable[[Operation], None]):
        """Route terminators named ``names`` inside a nested CFG region to ``handler``."""
        ctx = self

        class _Scope:
            def __enter__(self_inner):
                ctx._yield_handlers.append((frozenset(names), handler))

            def __exit__(self_inner, *exc):
                ctx._yield_handlers.pop()

        return _Scope()

    def lower_region_cfg(self, region: Region, entry_args: list, entry: ir.Block | None = None):
        """Lower a multi-block region as a CFG; control enters at the builder's position.

        Block arguments of non-entry blocks become phi nodes; terminators are
        lowered by their own lowering functions (or a yield handler).
        """
        blocks = list(region.blocks)
        infos = []
        for i, blk in enumerate(blocks):
            if i == 0 and entry is not None:
                info = _BlockInfo(entry)
            else:
                info = _BlockInfo(self.new_block(f"bb{i}"))
            self._blocks[blk] = info
            infos.append(info)
        if entry is None:
            self.builder.branch(infos[0].block)
        for a, v in zip(blocks[0].args, entry_args, strict=True):
            self.set(a, v)
        for blk, info in zip(blocks[1:], infos[1:], strict=True):
            b = ir.IRBuilder(info.block)
            for a in blk.args:
                phi = b.phi(self.convert(a.type))
                info.phis.append(phi)
                self.set(a, phi)
        for blk, info in zip(blocks, infos, strict=True):
            self.builder.position_at_end(info.block)
            self.lower_ops(blk, skip_terminator=False)

    def branch(self, block: Block, args: list) -> None:
        """Branch to an MLIR block of the current CFG region, passing block arguments."""
        info = self._blocks[block]
        for phi, v in zip(info.phis, args, strict=True):
            phi.add_incoming(v, self.builder.block)
        self.builder.branch(info.block)

    def edge(self, block: Block, args: list) -> ir.Block:
        """An LLVM block that branches to ``block`` with ``args`` (for conditional edges)."""
        info = self._blocks[block]
        if not info.phis:
            return info.block
        saved = self.builder.block
        e = self.new_block("edge")
        self.builder.position_at_end(e)
        self.branch(block, args)
        self.builder.position_at_end(saved)
        return e

    # ---------------------------------------------------------------- externals
    def declare(self, name: str, ret: ir.Type, args: list[ir.Type], *,
                var_arg: bool = False) -> ir.Function:
        """Declare (once) an external function; a conflicting re-declaration is an error."""
        fnty = ir.FunctionType(opaque(ret), [opaque(a) for a in args], var_arg=var_arg)
        existing = self.module.globals.get(name)
        if existing is not None:
            if isinstance(existing, ir.Function) and str(existing.function_type) == str(fnty):
                return existing
            if isinstance(existing, ir.Function):
                raise RunnerError(f"error: function '{name}' is used with two different "
                                  f"signatures: {existing.function_type} and {fnty}")
            raise RunnerError(f"error: symbol '{name}' is both a function and a global")
        from .abi import mark_c_abi

        return mark_c_abi(ir.Function(self.module, fnty, name))

    def call(self, name: str, ret: ir.Type, args: list, arg_types: list[ir.Type] | None = None):
        types = arg_types if arg_types is not None else [opaque(a.type) for a in args]
        fn = self.declare(name, ret, types)
        return self.builder.call(fn, args)

    def intrinsic(self, name: str, ret: ir.Type, args: list, overload: list[ir.Type] | None = None,
                  fastmath: tuple[str, ...] = ()):
        """Call an LLVM intrinsic, mangling the name by ``overload`` types (``fastmath``: the
        call's fast-math flags, LLVM's names)."""
        full = name
        for t in overload or []:
            full += "." + _mangle(t)
        fn = self.declare(full, ret, [opaque(a.type) for a in args])
        return self.builder.call(fn, args, fastmath=fastmath)

    def string_constant(self, text: str | bytes, name: str = "str") -> ir.Value:
        """Pointer to a NUL-terminated private constant (deduplicated)."""
        data = text.encode() if isinstance(text, str) else bytes(text)
        data += b"\0"
        gv = self._strings.get(data)
        if gv is None:
            arr = ir.ArrayType(I8, len(data))
            gv = ir.GlobalVariable(self.module, arr, self.module.get_unique_name(name))
            gv.linkage = "private"
            gv.global_constant = True
            gv.unnamed_addr = True
            gv.initializer = ir.Constant(arr, bytearray(data))
            self._strings[data] = gv
        return gv

    # ------------------------------------------------------------- diagnostics
    def location(self, op: Operation):
        return op_location(op)

    def unsupported(self, op: Operation, what: str | None = None, hint: str = ""):
        return unsupported(op, what, hint)

    def index_const(self, v: int) -> ir.Constant:
        return ir.Constant(self.types.index, v)


def prop(op: Operation, name: str):
    """``op``'s property ``name``, else its attribute of that name, else None.

    Inherent attributes are properties when parsed from today's syntax, but
    generic-form input can carry them in the attribute dictionary.
    """
    v = op.properties.get(name)
    return v if v is not None else op.attributes.get(name)


def opaque(t: ir.Type) -> ir.Type:
    """llvmlite gives globals typed pointer types; signatures use opaque ``ptr``."""
    if isinstance(t, ir.PointerType):
        return ir.PointerType(addrspace=t.addrspace) if t.addrspace else PTR
    return t


def _mangle(t: ir.Type) -> str:
    if isinstance(t, ir.VectorType):
        return f"v{t.count}{_mangle(t.element)}"
    if isinstance(t, ir.IntType):
        return f"i{t.width}"
    if isinstance(t, ir.FloatType):
        return "f32"
    if isinstance(t, ir.DoubleType):
        return "f64"
    if isinstance(t, ir.HalfType):
        return "f16"
    if isinstance(t, ir.PointerType):
        return f"p{t.addrspace}"
    s = str(t)
    if s == "bfloat":
        return "bf16"
    raise UnsupportedType(f"intrinsic overload on {s}")


_TERM = None


def _is_terminator_trait():
    global _TERM
    if _TERM is None:
        from xdsl.traits import IsTerminator

        _TERM = IsTerminator
    return _TERM
