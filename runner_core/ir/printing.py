"""Module -> text, custom or generic form (what `gpurunner-opt` prints).

The custom form follows mlir-opt's naming: an op of the enclosing region's
*default dialect* is printed without its prefix (`module` at top level,
`return` / `call` directly inside `func.func`, `return` inside `async.func`), so CHECK
lines copied from upstream output match ours.  xDSL parses both spellings.

Values and blocks are named before printing by `naming.assign_names`
(mlir-opt's rules: numbers, `%argN` and the names of `asm_names`' table; the
source's names are not kept); a result group prints as `%0:2 = ...`, used as
`%0#0`, `%0#1`.
"""

from __future__ import annotations

import io

from xdsl.dialects.builtin import AffineMapAttr, BuiltinAttribute, IntegerAttr, MemRefType, i64
from xdsl.ir import Attribute, Block, Operation, ParametrizedAttribute, TypeAttribute
from xdsl.printer import Printer
from xdsl.traits import IsTerminator

from runner_core.ir.affine_text import affine_map_text
from runner_core.ir.floats import SEMANTICS, mlir_float_text
from runner_core.ir.naming import assign_names

# MLIR's OpAsmOpInterface::getDefaultDialect: the dialect whose prefix may be
# left out directly inside these ops' regions.  Any other op resets it to none
# (so `func.call` inside an `scf.if` keeps its prefix, as mlir-opt prints it).
_DEFAULT_DIALECT_OF_REGIONS = {"builtin.module": "builtin", "func.func": "func",
                               "async.func": "async"}


class MlirPrinter(Printer):
    """xDSL's printer, eliding the default dialect's prefix like mlir-opt."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._default_dialects = ["builtin"]
        self._rename: tuple[str, str] | None = None
        self._named = False
        self._in_llvm_type = False
        # `default` regions of scf.index_switch: an operand-less scf.yield is implicit there.
        self._switch_defaults: set[int] = set()
        # Affine maps of a printed module: their `#map`, `#map1`, ... aliases (MLIR's
        # AliasInitializer: in the order the printing meets them).  `_map_alias` is None
        # outside a module's printing (a lone op or attribute prints maps in full).
        self._apply_operands = False
        self._map_alias: dict[AffineMapAttr, str] | None = None

    def print_op(self, op: Operation) -> None:
        if not self._named and self._map_alias is None and op.name == "builtin.module":
            self._print_module_with_aliases(op)
            return
        if not self._named:  # the outermost op: name every value as mlir-opt would
            self._named = True
            values, blocks = assign_names(op, generic=self.print_generic_format)
            self._ssa_values.update(values)
            self._blocks.update(blocks)
        default = self._default_dialects[-1]
        dialect, _, short = op.name.partition(".")
        if not self.print_generic_format and dialect == default and short:
            self._rename = (op.name, short)
        self._apply_operands = op.name == "affine.apply" and not self.print_generic_format
        self._default_dialects.append(_DEFAULT_DIALECT_OF_REGIONS.get(op.name, ""))
        start = 0
        if op.name == "scf.index_switch":
            start = self.stream.tell()
            self._switch_defaults.add(id(op.default_region))
        try:
            super().print_op(op)
        finally:
            self._default_dialects.pop()
            self._rename = None
        if not self.print_generic_format:
            self._trailing_space(op, start)

    def print_region(self, region, print_entry_block_args: bool = True,
                     print_empty_block: bool = True, print_block_terminators: bool = True,
                     ) -> None:
        if id(region) in self._switch_defaults and region.blocks:
            last = region.blocks.last.last_op
            if last is not None and last.name == "scf.yield" and not last.operands:
                print_block_terminators = False
        super().print_region(region, print_entry_block_args, print_empty_block,
                             print_block_terminators)

    def _trailing_space(self, op: Operation, start: int) -> None:
        """The space mlir-opt 22 leaves at the end of some ops' first line (their
        assembly formats end in an optional group or directive that printed nothing):
        `llvm.insertvalue`/`extractvalue`, an operand-less `scf.reduce`, and the
        `scf.index_switch` line before its cases."""
        if op.name in ("llvm.insertvalue", "llvm.extractvalue") or (
                op.name == "scf.reduce" and not op.operands):
            self.print_string(" ")
        elif op.name == "scf.index_switch":
            text = self.stream.getvalue()
            line_end = text.find("\n", start)
            if line_end >= 0:
                self.stream.seek(line_end)
                self.stream.truncate()
                self.stream.write(" " + text[line_end:])

    # MLIR keeps an op's attributes and properties in dictionary attributes, sorted by
    # name: `<{function_type = ..., sym_name = ...}>`, `{columns = 2, rows = 2}`.
    def _print_op_properties(self, properties: dict[str, Attribute]) -> None:
        super()._print_op_properties(dict(sorted(properties.items())))

    def print_op_attributes(self, attributes, **kwargs) -> bool:
        return super().print_op_attributes(dict(sorted(attributes.items())), **kwargs)

    def _print_module_with_aliases(self, module: Operation) -> None:
        """The module, then its `#map = affine_map<...>` lines put before it, as mlir-opt
        prints them.  A map is named where the printing first meets it, so one printing
        gives both the names and their order."""
        start = self.stream.tell()
        self._map_alias = {}
        self.print_op(module)
        if self._map_alias:
            header = "".join(f"{name} = {affine_map_text(m.data)}\n"
                             for m, name in self._map_alias.items())
            self.stream.seek(start)
            body = self.stream.read()
            self.stream.seek(start)
            self.stream.write(header + body)

    def _print_memref_int_space(self, memref: MemRefType) -> None:
        """`memref<4xf32, 3>`: MLIR prints an i64 memory space without its type."""
        probe = MlirPrinter(stream=io.StringIO(), print_generic_format=self.print_generic_format)
        probe._map_alias = self._map_alias
        MlirPrinter.__mro__[1].print_attribute(probe, memref)
        text = probe.stream.getvalue()
        suffix = f", {memref.memory_space.value.data} : i64>"
        if text.endswith(suffix):
            text = text[: -len(suffix)] + f", {memref.memory_space.value.data}>"
        self.print_string(text)

    def print_attribute(self, attribute: Attribute) -> None:
        if isinstance(attribute, AffineMapAttr):
            if self._map_alias is None:
                self.print_string(affine_map_text(attribute.data))
                return
            alias = self._map_alias.get(attribute)
            if alias is None:
                alias = self._map_alias[attribute] = f"#map{len(self._map_alias) or ''}"
            self.print_string(alias)
            return
        if (isinstance(attribute, MemRefType) and isinstance(attribute.memory_space, IntegerAttr)
                and attribute.memory_space.type == i64):
            self._print_memref_int_space(attribute)
            return
        # Inside an LLVM dialect type, the LLVM types it holds drop their `!llvm.`
        # (`!llvm.struct<(ptr, array<2 x i64>)>`), as MLIR's LLVM type printer does.
        if (isinstance(attribute, TypeAttribute) and isinstance(attribute, ParametrizedAttribute)
                and attribute.name.startswith("llvm.")
                and not isinstance(attribute, BuiltinAttribute)):
            self.print_string(attribute.name[5:] if self._in_llvm_type else "!" + attribute.name)
            outer, self._in_llvm_type = self._in_llvm_type, True
            try:
                attribute.print_parameters(self)
            finally:
                self._in_llvm_type = outer
            return
        super().print_attribute(attribute)

    def print_float(self, value: float, type) -> None:
        """APFloat's spelling (`floats.mlir_float_text`), not Python's."""
        semantics = getattr(type, "name", None)
        if semantics not in SEMANTICS:
            super().print_float(value, type)
            return
        self.print_string(mlir_float_text(
            value, semantics, lambda: int.from_bytes(type.pack((value,)), "little")))

    def print_block(self, block: Block, print_block_args: bool = True,
                    print_block_terminator: bool = True) -> None:
        """xDSL's block printing plus mlir-opt's predecessor comment after a label."""
        if print_block_args:
            self._print_new_line()
            if block not in self._blocks:
                self._populate_block_name(block)
            self.print_block_name(block)
            if block.args:
                with self.in_parens():
                    self.print_list(block.args, self.print_block_argument)
            self.print_string(":")
            self._print_predecessors(block)
        with self.indented():
            for op in block.ops:
                if not print_block_terminator and op.has_trait(
                        IsTerminator, value_if_unregistered=False):
                    continue
                self._print_new_line()
                self.print_op(op)

    def _print_predecessors(self, block: Block) -> None:
        """`  // pred: ^bb0`, `  // 2 preds: ^bb0, ^bb1` (one per edge, by block
        number) or `  // no predecessors` (not for an entry block)."""
        preds = block.predecessors()
        if not preds:
            if block.prev_block is not None:
                self.print_string("  // no predecessors")
            return
        if len(preds) == 1:
            self.print_string(f"  // pred: ^{self._get_block_name(preds[0])}")
            return
        names = sorted((self._block_number(p), self._get_block_name(p)) for p in preds)
        self.print_string(f"  // {len(preds)} preds: " + ", ".join(f"^{n}" for _, n in names))

    def _block_number(self, block: Block) -> int:
        name = self._get_block_name(block)
        return int(name[2:]) if name.startswith("bb") and name[2:].isdigit() else -1

    def _print_results(self, op: Operation) -> None:
        """`%a, %b:2 = `: a run of results named `b#0`, `b#1` prints as one group."""
        results = op.results
        if not results:
            return
        names = [self._ssa_values.get(r) for r in results]
        if any(n is None for n in names):
            super()._print_results(op)
            return
        parts: list[str] = []
        i = 0
        while i < len(names):
            base, sep, _ = names[i].partition("#")
            n = 1
            if sep:
                while i + n < len(names) and names[i + n] == f"{base}#{n}":
                    n += 1
            parts.append(f"%{base}:{n}" if sep else f"%{base}")
            i += n
        self.print_string(", ".join(parts) + " = ")

    def print_string(self, text: str, *args, **kwargs) -> None:
        if self._rename is not None and text == self._rename[0]:
            text = self._rename[1]
            self._rename = None
        elif self._apply_operands and text == " (":
            text = "("  # `affine.apply #map(%x)`: xDSL's printer puts a space there
            self._apply_operands = False
        super().print_string(text, *args, **kwargs)


def print_op(op: Operation, *, generic: bool = False, debuginfo: bool = False) -> str:
    out = io.StringIO()
    MlirPrinter(stream=out, print_generic_format=generic,
                print_debuginfo=debuginfo).print_op(op)
    text = out.getvalue()
    return text if text.endswith("\n") else text + "\n"


def print_op_with_names(op: Operation, values: dict, blocks: dict) -> str:
    """``op`` alone, its values named as in an enclosing op's ``assign_names`` (how MLIR
    prints a nested op: numbered from the top-level op, not locally)."""
    out = io.StringIO()
    printer = MlirPrinter(stream=out)
    printer._named = True
    printer._ssa_values.update(values)
    printer._blocks.update(blocks)
    printer.print_op(op)
    return out.getvalue()


def print_attribute_text(attr: Attribute) -> str:
    """A type or attribute as mlir-opt spells it (for diagnostics)."""
    out = io.StringIO()
    MlirPrinter(stream=out).print_attribute(attr)
    return out.getvalue()
