"""The gpu dialect's structure ops: `gpu.module`, `gpu.func` and their terminators."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    FunctionType,
    IntegerAttr,
    StringAttr,
    SymbolNameConstraint,
    UnitAttr,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    NoTerminator,
    Pure,
    SymbolOpInterface,
    SymbolTable,
)
from xdsl.utils.exceptions import VerifyException

from runner_core.ir.dialects._syntax import (
    ValuesTerminatorSyntax,
    parse_optional_arrow_types,
    print_attr_dict,
    print_result_types,
)
from runner_core.ir.dialects.gpu_op_base import _AttributionsMixin, _parse_attribution

# ----------------------------------------------------------------- module structure


@irdl_op_definition
class GPUModuleOp(IRDLOperation):
    """`gpu.module @name [targets] { gpu.func ... }`: device code, one binary per module.

    `targets` (optional) lists target attributes (e.g. `#nvvm.target<...>`);
    the runner picks its own target and only keeps them for printing.
    """

    name = "gpu.module"
    sym_name = prop_def(SymbolNameConstraint())
    targets = opt_prop_def(ArrayAttr)
    offloadingHandler = opt_prop_def(Attribute)
    body = region_def("single_block")

    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface(), SymbolTable(),
                        NoTerminator())

    def __init__(self, name: str, ops: Sequence[Operation] = ()):
        super().__init__(properties={"sym_name": StringAttr(name)},
                         regions=[Region(Block(ops))])

    @classmethod
    def parse(cls, parser: Parser) -> GPUModuleOp:
        name = parser.parse_symbol_name()
        props: dict[str, Attribute] = {"sym_name": name}
        if parser.parse_optional_punctuation("["):
            targets = parser.parse_comma_separated_list(parser.Delimiter.NONE,
                                                        parser.parse_attribute)
            parser.parse_punctuation("]")
            props["targets"] = ArrayAttr(targets)
        if parser.parse_optional_punctuation("<"):
            props["offloadingHandler"] = parser.parse_attribute()
            parser.parse_punctuation(">")
        attrs = parser.parse_optional_attr_dict_with_keyword()
        region = parser.parse_region()
        if not region.blocks:
            region.add_block(Block())
        op = cls.create(properties=props, regions=[region],
                        attributes=attrs.data if attrs else {})
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        if self.targets is not None:
            printer.print_string(" [")
            printer.print_list(self.targets.data, printer.print_attribute)
            printer.print_string("]")
        if self.offloadingHandler is not None:
            printer.print_string(" <")
            printer.print_attribute(self.offloadingHandler)
            printer.print_string(">")
        print_attr_dict(printer, self.attributes, keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_empty_block=False)




@irdl_op_definition
class GPUFuncOp(_AttributionsMixin, IRDLOperation):
    """`gpu.func @k(%a: T) workgroup(%w : M) private(%p : M) kernel { ... }`.

    Entry block arguments are, in order: the function arguments
    (`function_type.inputs`), then `workgroup_attributions` workgroup buffers
    (shared memory, one allocation per block), then private buffers (one per
    thread).  Use `arguments`, `workgroup_buffers`, `private_buffers`.
    `is_kernel` (the `gpu.kernel` unit attribute) marks launchable entry
    points; other gpu.funcs are device functions callable from kernels.
    `known_block_size` / `known_grid_size` (optional `array<i32: x, y, z>`)
    record launch sizes known at compile time.
    """

    name = "gpu.func"
    function_type = prop_def(FunctionType)
    arg_attrs = opt_prop_def(ArrayAttr)
    res_attrs = opt_prop_def(ArrayAttr)
    workgroup_attrib_attrs = opt_prop_def(ArrayAttr)
    private_attrib_attrs = opt_prop_def(ArrayAttr)
    known_block_size = opt_prop_def(DenseArrayBase)
    known_grid_size = opt_prop_def(DenseArrayBase)
    body = region_def()

    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface(), HasParent(GPUModuleOp))

    KERNEL_ATTR: ClassVar[str] = "gpu.kernel"

    def __init__(self, name: str, function_type: FunctionType, body: Region,
                 kernel: bool = False, workgroup_count: int = 0):
        attrs: dict[str, Attribute] = {
            "sym_name": StringAttr(name),
            self.WORKGROUP_COUNT_ATTR: IntegerAttr(workgroup_count, i64),
        }
        if kernel:
            attrs[self.KERNEL_ATTR] = UnitAttr()
        super().__init__(properties={"function_type": function_type}, regions=[body],
                         attributes=attrs)

    # -- accessors for codegen --------------------------------------------------
    @property
    def sym_name(self) -> StringAttr:
        attr = self.attributes.get("sym_name") or self.properties.get("sym_name")
        assert isinstance(attr, StringAttr)
        return attr

    @property
    def is_kernel(self) -> bool:
        return self.KERNEL_ATTR in self.attributes

    @property
    def arguments(self) -> tuple[SSAValue, ...]:
        n = len(self.function_type.inputs.data)
        return tuple(self.body.blocks.first.args[:n])

    @property
    def workgroup_buffers(self) -> tuple[SSAValue, ...]:
        n = len(self.function_type.inputs.data)
        return tuple(self.body.blocks.first.args[n:n + self.num_workgroup_attributions])

    @property
    def private_buffers(self) -> tuple[SSAValue, ...]:
        n = len(self.function_type.inputs.data) + self.num_workgroup_attributions
        return tuple(self.body.blocks.first.args[n:])

    # -- syntax -----------------------------------------------------------------
    @classmethod
    def parse(cls, parser: Parser) -> GPUFuncOp:
        name = parser.parse_symbol_name()
        args: list[Parser.Argument] = []
        arg_attrs: list[Attribute] = []

        def one_arg() -> None:
            a = parser.parse_argument(expect_type=True)
            args.append(a)
            d = parser.parse_optional_dictionary_attr_dict()
            arg_attrs.append(DictionaryAttr(d))

        parser.parse_comma_separated_list(parser.Delimiter.PAREN, one_arg)
        results = parse_optional_arrow_types(parser)
        workgroup = _parse_attribution(parser, "workgroup")
        private = _parse_attribution(parser, "private")
        kernel = parser.parse_optional_keyword("kernel") is not None
        extra = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_region([*args, *workgroup, *private])
        ftype = FunctionType.from_lists([a.type for a in args], results)
        op = cls(name.data, ftype, body, kernel, len(workgroup))
        if extra is not None:
            for k, v in extra.data.items():
                if k in ("known_block_size", "known_grid_size"):
                    op.properties[k] = v
                else:
                    op.attributes[k] = v
        if any(d.data for d in arg_attrs):
            op.properties["arg_attrs"] = ArrayAttr(arg_attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string("(")
        arg_attrs = self.arg_attrs.data if self.arg_attrs is not None else ()

        def one(item: tuple[int, SSAValue]) -> None:
            i, a = item
            printer.print_ssa_value(a)
            printer.print_string(": ")
            printer.print_attribute(a.type)
            if i < len(arg_attrs) and isinstance(arg_attrs[i], DictionaryAttr) \
                    and arg_attrs[i].data:
                printer.print_string(" ")
                printer.print_attr_dict(arg_attrs[i].data)

        printer.print_list(enumerate(self.arguments), one)
        printer.print_string(")")
        outs = self.function_type.outputs.data
        if outs:
            printer.print_string(" -> ")
            print_result_types(printer, outs)
        self._print_attributions(printer)
        if self.is_kernel:
            printer.print_string(" kernel")
        shown = {k: v for k, v in self.attributes.items()
                 if k not in ("sym_name", self.KERNEL_ATTR, self.WORKGROUP_COUNT_ATTR)}
        for k in ("known_block_size", "known_grid_size"):
            if k in self.properties:
                shown[k] = self.properties[k]
        print_attr_dict(printer, dict(sorted(shown.items())), keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)

    def verify_(self) -> None:
        if not isinstance(self.attributes.get("sym_name") or
                          self.properties.get("sym_name"), StringAttr):
            raise VerifyException("gpu.func needs a sym_name")
        block = self.body.blocks.first
        if block is None:
            raise VerifyException("gpu.func must have a body")
        n_in = len(self.function_type.inputs.data)
        if len(block.args) < n_in + self.num_workgroup_attributions:
            raise VerifyException("entry block has fewer arguments than inputs + attributions")
        for a, t in zip(self.arguments, self.function_type.inputs.data, strict=True):
            if a.type != t:
                raise VerifyException(f"entry block argument type {a.type} does not match {t}")
        self._verify_attributions()
        if self.is_kernel and self.function_type.outputs.data:
            raise VerifyException("a kernel function must return nothing")
        for k in ("known_block_size", "known_grid_size"):
            v = self.properties.get(k)
            if v is not None and len(v.get_values()) != 3:
                raise VerifyException(f"{k} must have 3 elements")


@irdl_op_definition
class ReturnOp(ValuesTerminatorSyntax, IRDLOperation):
    """`gpu.return %v : T`: ends a gpu.func (kernels return nothing)."""

    name = "gpu.return"
    operands_ = var_operand_def(Attribute)
    traits = traits_def(IsTerminator(), HasParent(GPUFuncOp), Pure())

    def __init__(self, values: Sequence[SSAValue] = ()):
        super().__init__(operands=[values])

    def verify_(self) -> None:
        func = self.parent_op()
        if isinstance(func, GPUFuncOp):
            want = func.function_type.outputs.data
            got = tuple(v.type for v in self.operands_)
            if tuple(want) != got:
                raise VerifyException(
                    f"returns {len(got)} values of types {list(got)}, function declares {list(want)}")


@irdl_op_definition
class TerminatorOp(IRDLOperation):
    """`gpu.terminator`: ends the body of a gpu.launch."""

    name = "gpu.terminator"
    traits = traits_def(IsTerminator(), Pure())
    assembly_format = "attr-dict"


@irdl_op_definition
class YieldOp(ValuesTerminatorSyntax, IRDLOperation):
    """`gpu.yield %v : T`: result of an all_reduce (or warp_execute) region."""

    name = "gpu.yield"
    values = var_operand_def(Attribute)
    traits = traits_def(IsTerminator(), Pure())

    def __init__(self, values: Sequence[SSAValue] = ()):
        super().__init__(operands=[values])
