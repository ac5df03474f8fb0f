"""The `gpu` dialect, complete, in the syntax MLIR 22 prints.

Registered on the runner's context in place of xDSL's `gpu` dialect (which has
no custom syntax, lacks shuffle/printf/memset, and demands attributes MLIR
never prints).  Codegen consumes these classes; conventions used throughout:

* **Async ops** (`alloc`, `dealloc`, `memcpy`, `memset`, `wait`, `launch`,
  `launch_func`): `asyncDependencies` is the list of `!gpu.async.token`
  operands the op waits for (the `[...]` list); `asyncToken` is the optional
  token result, present exactly when the op was written with `async`.  An op
  without `async` is synchronous: it completes before returning to the host.
* **Ids and sizes** (`thread_id`, `block_id`, `block_dim`, `grid_dim`,
  `global_id`, `cluster_*`): `dimension` holds a `DimensionAttr` (x/y/z);
  `upper_bound` optionally bounds the value.
* Property and operand names are MLIR's (as `--mlir-print-op-generic` shows
  them), so generic-form text from mlir-opt parses into these classes too.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import auto
from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
    UnitAttr,
    UnrankedMemRefType,
    i1,
    i32,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import (
    Attribute,
    Block,
    Dialect,
    Operation,
    ParametrizedAttribute,
    Region,
    SpacedOpaqueSyntaxAttribute,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    param_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    MemoryAllocEffect,
    MemoryFreeEffect,
    MemoryReadEffect,
    MemoryWriteEffect,
    NoTerminator,
    Pure,
    RecursiveMemoryEffect,
    SymbolOpInterface,
    SymbolTable,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from runner_core.ir.dialects._syntax import (
    DYNAMIC,
    ValuesTerminatorSyntax,
    parse_attrs_and_types,
    parse_operand_with_type,
    parse_operands,
    parse_optional_bracketed_operands,
    parse_typed_operands,
    print_attr_dict,
    print_attrs_and_types,
    print_bracketed_operands,
    print_enclosed_operands,
    print_operand_with_type,
    print_operands,
    print_result_types,
    print_typed_operands,
    resolve_operands,
)

INDEX = IndexType()

# ----------------------------------------------------------------------------- types


@irdl_attr_definition
class AsyncTokenType(ParametrizedAttribute, TypeAttribute):
    """`!gpu.async.token`: completion of an asynchronous gpu op (a stream point)."""

    name = "gpu.async.token"


TOKEN = AsyncTokenType()

# ------------------------------------------------------------------------ attributes


class Dimension(StrEnum):
    X = auto()
    Y = auto()
    Z = auto()


@irdl_attr_definition
class DimensionAttr(EnumAttribute[Dimension], SpacedOpaqueSyntaxAttribute):
    """`#gpu<dim x>`."""

    name = "gpu.dim"

    @property
    def index(self) -> int:
        return "xyz".index(self.data.value)


class AllReduceOperation(StrEnum):
    ADD = "add"
    MUL = "mul"
    MINUI = "minui"
    MINSI = "minsi"
    MINNUMF = "minnumf"
    MAXUI = "maxui"
    MAXSI = "maxsi"
    MAXNUMF = "maxnumf"
    AND = "and"
    OR = "or"
    XOR = "xor"
    MINIMUMF = "minimumf"
    MAXIMUMF = "maximumf"


@irdl_attr_definition
class AllReduceOperationAttr(EnumAttribute[AllReduceOperation], SpacedOpaqueSyntaxAttribute):
    """`#gpu<all_reduce_op add>`: the combining operation of all_reduce / subgroup_reduce."""

    name = "gpu.all_reduce_op"


class ShuffleMode(StrEnum):
    XOR = "xor"
    UP = "up"
    DOWN = "down"
    IDX = "idx"


@irdl_attr_definition
class ShuffleModeAttr(EnumAttribute[ShuffleMode], SpacedOpaqueSyntaxAttribute):
    """`#gpu<shuffle_mode xor>`."""

    name = "gpu.shuffle_mode"


class AddressSpace(StrEnum):
    GLOBAL = "global"
    WORKGROUP = "workgroup"
    PRIVATE = "private"


@irdl_attr_definition
class AddressSpaceAttr(ParametrizedAttribute):
    """`#gpu.address_space<workgroup>`, used as a memref memory space.

    workgroup = shared memory of a block (NVPTX addrspace 3), private = per
    thread (addrspace 5 / allocas), global = device memory (addrspace 1).
    """

    name = "gpu.address_space"
    value: StringAttr = param_def()

    def __init__(self, value: AddressSpace | str):
        super().__init__(StringAttr(str(AddressSpace(value).value)))

    @property
    def space(self) -> AddressSpace:
        return AddressSpace(self.value.data)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        v = parser.parse_str_enum(AddressSpace)
        parser.parse_punctuation(">")
        return (StringAttr(v.value),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.value.data}>")


def memory_space_of(ty: Attribute) -> AddressSpace | None:
    """The gpu address space of a memref type, None when it has none."""
    space = getattr(ty, "memory_space", None)
    return space.space if isinstance(space, AddressSpaceAttr) else None


# --------------------------------------------------------------- shared parse/print


def _parse_async(parser: Parser) -> tuple[bool, list[SSAValue]]:
    """`async`? `[%t, ...]`?  -> (has async keyword, dependency tokens)."""
    is_async = parser.parse_optional_keyword("async") is not None
    return is_async, parse_optional_bracketed_operands(parser, TOKEN)


def _print_async(printer: Printer, deps: Sequence[SSAValue], token: SSAValue | None) -> None:
    """MLIR's `custom<AsyncDependencies>`: ` async` and/or ` [%a, %b]`."""
    if token is not None:
        printer.print_string(" async")
    print_bracketed_operands(printer, deps)


def _print_async_or_space(printer: Printer, deps: Sequence[SSAValue],
                          token: SSAValue | None) -> None:
    """`custom<AsyncDependencies>` where mlir-opt keeps its space even when it is empty.

    (A synchronous `gpu.dealloc` without dependencies prints as
    `gpu.dealloc  %m : ...`, two spaces.)
    """
    if token is None and not deps:
        printer.print_string(" ")
    _print_async(printer, deps, token)


def _token_result(is_async: bool) -> list[Attribute]:
    return [TOKEN] if is_async else []


class _AsyncOpMixin:
    """Accessors shared by async gpu ops."""

    @property
    def is_async(self) -> bool:
        return self.asyncToken is not None  # type: ignore[attr-defined]


class _LaunchSizesMixin(_AsyncOpMixin):
    """Grid, block and (optional) cluster size operands of gpu.launch / gpu.launch_func."""

    @property
    def grid_size(self) -> tuple[SSAValue, SSAValue, SSAValue]:
        return (self.gridSizeX, self.gridSizeY, self.gridSizeZ)  # type: ignore[attr-defined]

    @property
    def block_size(self) -> tuple[SSAValue, SSAValue, SSAValue]:
        return (self.blockSizeX, self.blockSizeY, self.blockSizeZ)  # type: ignore[attr-defined]

    def _cluster_operands(self) -> tuple[SSAValue | None, SSAValue | None, SSAValue | None]:
        return (self.clusterSizeX, self.clusterSizeY, self.clusterSizeZ)  # type: ignore

    @property
    def cluster_size(self) -> tuple[SSAValue, SSAValue, SSAValue] | None:
        sizes = self._cluster_operands()
        return None if sizes[0] is None else sizes

    def _verify_cluster_sizes(self) -> None:
        sizes = self._cluster_operands()
        if any(s is None for s in sizes) and any(s is not None for s in sizes):
            raise VerifyException("cluster sizes must be given for all of x, y, z or none")


class _AttributionsMixin:
    """gpu.func / gpu.launch: entry block arguments end in workgroup, then private buffers.

    How many are workgroup buffers is kept in the `workgroup_attributions` attribute.
    """

    WORKGROUP_COUNT_ATTR: ClassVar[str] = "workgroup_attributions"

    @property
    def num_workgroup_attributions(self) -> int:
        a = self.attributes.get(self.WORKGROUP_COUNT_ATTR)  # type: ignore[attr-defined]
        return a.value.data if isinstance(a, IntegerAttr) else 0

    def _verify_attributions(self) -> None:
        _check_attributions(self.workgroup_buffers, AddressSpace.WORKGROUP,  # type: ignore
                            "workgroup")
        _check_attributions(self.private_buffers, AddressSpace.PRIVATE, "private")  # type: ignore

    def _print_attributions(self, printer: Printer) -> None:
        _print_attribution(printer, "workgroup", self.workgroup_buffers)  # type: ignore
        _print_attribution(printer, "private", self.private_buffers)  # type: ignore


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


def _parse_attribution(parser: Parser, keyword: str) -> list[Parser.Argument]:
    """`workgroup(%a : memref<...>, ...)` (types required)."""
    if parser.parse_optional_keyword(keyword) is None:
        return []

    def one() -> Parser.Argument:
        return parser.parse_argument(expect_type=True)

    return parser.parse_comma_separated_list(parser.Delimiter.PAREN, one)


def _print_attribution(printer: Printer, keyword: str, args: Sequence[SSAValue]) -> None:
    if not args:
        return
    printer.print_string(f" {keyword}(")

    def one(a: SSAValue) -> None:
        printer.print_ssa_value(a)
        printer.print_string(" : ")
        printer.print_attribute(a.type)

    printer.print_list(args, one)
    printer.print_string(")")


def _check_attributions(args: Sequence[SSAValue], space: AddressSpace, what: str) -> None:
    for a in args:
        if not isinstance(a.type, MemRefType):
            raise VerifyException(f"expected memref type in {what} attribution, got {a.type}")
        found = memory_space_of(a.type)
        if found is not None and found != space:
            raise VerifyException(
                f"expected {what} attribution to be a memref in "
                f"#gpu.address_space<{space.value}>, got {a.type}")


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
        results: list[Attribute] = []
        if parser.parse_optional_punctuation("->"):
            if parser.parse_optional_punctuation("("):
                if parser.parse_optional_punctuation(")") is None:
                    results = parser.parse_comma_separated_list(parser.Delimiter.NONE,
                                                                parser.parse_type)
                    parser.parse_punctuation(")")
            else:
                results = [parser.parse_type()]
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


# ---------------------------------------------------------------------- launching


def _parse_size_assignments(parser: Parser) -> tuple[list[Parser.UnresolvedArgument],
                                                     list[SSAValue]]:
    """`(%x = %a, %y = %b, %z = %c)` -> region args and operand values."""
    args: list[Parser.UnresolvedArgument] = []
    vals: list[SSAValue] = []

    def one() -> None:
        args.append(parser.parse_argument(expect_type=False))
        parser.parse_punctuation("=")
        vals.append(parser.resolve_operand(parser.parse_unresolved_operand(), INDEX))

    parser.parse_comma_separated_list(parser.Delimiter.PAREN, one)
    if len(args) != 3:
        parser.raise_error("expected three size assignments (x, y, z)")
    return args, vals


def _parse_ids(parser: Parser) -> list[Parser.UnresolvedArgument]:
    ids = parser.parse_comma_separated_list(parser.Delimiter.PAREN,
                                            lambda: parser.parse_argument(expect_type=False))
    if len(ids) != 3:
        parser.raise_error("expected three ids (x, y, z)")
    return ids


def _body_args(start: int, clusters: bool = False) -> property:
    """gpu.launch's entry block arguments `start..start+3` (x, y, z); the
    cluster ones are empty when the launch has no clusters."""

    def get(self: LaunchOp) -> tuple[SSAValue, ...]:
        if clusters and not self.has_clusters:
            return ()
        return self._args()[start:start + 3]

    return property(get)


@irdl_op_definition
class LaunchOp(_LaunchSizesMixin, _AttributionsMixin, IRDLOperation):
    """`gpu.launch blocks(%bx, %by, %bz) in (%gx = %a, ...) threads(...) in (...) { ... }`.

    Launches the body region on a grid of `gridSize{X,Y,Z}` blocks of
    `blockSize{X,Y,Z}` threads (and optional clusters).  The body's entry
    block arguments, in order: block ids (3), thread ids (3), grid sizes (3),
    block sizes (3), then — when clusters are given — cluster ids (3) and
    cluster sizes (3), then `workgroup_attributions` workgroup buffers, then
    private buffers.  `dynamicSharedMemorySize` (optional i32) is bytes of
    dynamic shared memory per block.  Values from above are captured
    (outlining turns them into kernel arguments).  Ends with gpu.terminator.
    """

    name = "gpu.launch"
    asyncDependencies = var_operand_def(AsyncTokenType)
    gridSizeX = operand_def(IndexType)
    gridSizeY = operand_def(IndexType)
    gridSizeZ = operand_def(IndexType)
    blockSizeX = operand_def(IndexType)
    blockSizeY = operand_def(IndexType)
    blockSizeZ = operand_def(IndexType)
    clusterSizeX = opt_operand_def(IndexType)
    clusterSizeY = opt_operand_def(IndexType)
    clusterSizeZ = opt_operand_def(IndexType)
    dynamicSharedMemorySize = opt_operand_def(IntegerType)
    asyncToken = opt_result_def(AsyncTokenType)
    module = opt_prop_def(SymbolRefAttr)
    function = opt_prop_def(SymbolRefAttr)
    body = region_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(RecursiveMemoryEffect())

    # -- accessors for codegen --------------------------------------------------
    @property
    def has_clusters(self) -> bool:
        return self.clusterSizeX is not None

    @property
    def num_config_args(self) -> int:
        return 18 if self.has_clusters else 12

    def _args(self) -> tuple[SSAValue, ...]:
        return tuple(self.body.blocks.first.args)

    block_ids = _body_args(0)
    thread_ids = _body_args(3)
    grid_size_args = _body_args(6)
    block_size_args = _body_args(9)
    cluster_ids = _body_args(12, clusters=True)
    cluster_size_args = _body_args(15, clusters=True)

    @property
    def workgroup_buffers(self) -> tuple[SSAValue, ...]:
        n = self.num_config_args
        return self._args()[n:n + self.num_workgroup_attributions]

    @property
    def private_buffers(self) -> tuple[SSAValue, ...]:
        return self._args()[self.num_config_args + self.num_workgroup_attributions:]

    # -- syntax -----------------------------------------------------------------
    @classmethod
    def parse(cls, parser: Parser) -> LaunchOp:
        is_async, deps = _parse_async(parser)
        cluster_ids: list = []
        cluster_args: list = []
        cluster_vals: list[SSAValue] = []
        if parser.parse_optional_keyword("clusters"):
            cluster_ids = _parse_ids(parser)
            parser.parse_keyword("in")
            cluster_args, cluster_vals = _parse_size_assignments(parser)
        parser.parse_keyword("blocks")
        block_ids = _parse_ids(parser)
        parser.parse_keyword("in")
        grid_args, grid_vals = _parse_size_assignments(parser)
        parser.parse_keyword("threads")
        thread_ids = _parse_ids(parser)
        parser.parse_keyword("in")
        block_args, block_vals = _parse_size_assignments(parser)
        dyn: list[SSAValue] = []
        if parser.parse_optional_keyword("dynamic_shared_memory_size"):
            dyn = [parser.resolve_operand(parser.parse_unresolved_operand(), i32)]
        props: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("module"):
            parser.parse_punctuation("(")
            props["module"] = SymbolRefAttr(parser.parse_symbol_name())
            parser.parse_punctuation(")")
        if parser.parse_optional_keyword("function"):
            parser.parse_punctuation("(")
            props["function"] = SymbolRefAttr(parser.parse_symbol_name())
            parser.parse_punctuation(")")
        workgroup = _parse_attribution(parser, "workgroup")
        private = _parse_attribution(parser, "private")
        idx = [a.resolve(INDEX) for a in
               [*block_ids, *thread_ids, *grid_args, *block_args, *cluster_ids, *cluster_args]]
        body = parser.parse_region([*idx, *workgroup, *private])
        attrs = parser.parse_optional_attr_dict()
        attrs[cls.WORKGROUP_COUNT_ATTR] = IntegerAttr(len(workgroup), i64)
        return cls.build(
            operands=[deps, *grid_vals, *block_vals,
                      *([[v] for v in cluster_vals] if cluster_vals else [[], [], []]), dyn],
            result_types=[_token_result(is_async)],
            properties=props, attributes=attrs, regions=[body])

    def print(self, printer: Printer) -> None:
        _print_async(printer, self.asyncDependencies, self.asyncToken)
        args = self._args()

        def ids_and_sizes(kw: str, ids: Sequence[SSAValue], size_args: Sequence[SSAValue],
                          vals: Sequence[SSAValue]) -> None:
            printer.print_string(f" {kw}(")
            printer.print_list(ids, printer.print_ssa_value)
            printer.print_string(") in (")

            def one(pair: tuple[SSAValue, SSAValue]) -> None:
                printer.print_ssa_value(pair[0])
                printer.print_string(" = ")
                printer.print_operand(pair[1])

            printer.print_list(list(zip(size_args, vals, strict=True)), one)
            printer.print_string(")")

        if self.has_clusters:
            ids_and_sizes("clusters", args[12:15], args[15:18], self.cluster_size)
        ids_and_sizes("blocks", args[0:3], args[6:9], self.grid_size)
        ids_and_sizes("threads", args[3:6], args[9:12], self.block_size)
        if self.dynamicSharedMemorySize is not None:
            printer.print_string(" dynamic_shared_memory_size ")
            printer.print_operand(self.dynamicSharedMemorySize)
        if self.module is not None:
            printer.print_string(" module(")
            printer.print_attribute(self.module)
            printer.print_string(")")
        if self.function is not None:
            printer.print_string(" function(")
            printer.print_attribute(self.function)
            printer.print_string(")")
        self._print_attributions(printer)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)
        print_attr_dict(printer, self.attributes,
                        exclude=(self.WORKGROUP_COUNT_ATTR, "operandSegmentSizes"))

    def verify_(self) -> None:
        block = self.body.blocks.first
        if block is None:
            raise VerifyException("gpu.launch needs a body")
        if len(block.args) < self.num_config_args + self.num_workgroup_attributions:
            raise VerifyException(
                f"body needs at least {self.num_config_args} index arguments "
                f"(+{self.num_workgroup_attributions} workgroup buffers)")
        for a in block.args[:self.num_config_args]:
            if not isinstance(a.type, IndexType):
                raise VerifyException("launch configuration block arguments must be index")
        self._verify_cluster_sizes()
        self._verify_attributions()
        for b in self.body.blocks:
            last = b.last_op
            if isinstance(last, ReturnOp):
                raise VerifyException("expected gpu.terminator, not gpu.return, in gpu.launch")
        if self.dynamicSharedMemorySize is not None:
            t = self.dynamicSharedMemorySize.type
            if not (isinstance(t, IntegerType) and t.width.data == 32):
                raise VerifyException("dynamic_shared_memory_size must be an i32")


@irdl_op_definition
class LaunchFuncOp(_LaunchSizesMixin, IRDLOperation):
    """`gpu.launch_func @module::@kernel blocks in (%x, %y, %z) threads in (...) args(%a : T)`.

    Launches the kernel `kernel` (a nested symbol `@gpu_module::@gpu_func`)
    with `kernelOperands` as its arguments.  Grid/block/cluster sizes as in
    gpu.launch; `dynamicSharedMemorySize` optional i32; `asyncObject` is the
    optional `<%stream : type>` operand (unused by the runner).
    """

    name = "gpu.launch_func"
    asyncDependencies = var_operand_def(AsyncTokenType)
    gridSizeX = operand_def(base(IndexType) | base(IntegerType))
    gridSizeY = operand_def(base(IndexType) | base(IntegerType))
    gridSizeZ = operand_def(base(IndexType) | base(IntegerType))
    blockSizeX = operand_def(base(IndexType) | base(IntegerType))
    blockSizeY = operand_def(base(IndexType) | base(IntegerType))
    blockSizeZ = operand_def(base(IndexType) | base(IntegerType))
    clusterSizeX = opt_operand_def(base(IndexType) | base(IntegerType))
    clusterSizeY = opt_operand_def(base(IndexType) | base(IntegerType))
    clusterSizeZ = opt_operand_def(base(IndexType) | base(IntegerType))
    dynamicSharedMemorySize = opt_operand_def(IntegerType)
    kernelOperands = var_operand_def(Attribute)
    asyncObject = opt_operand_def(Attribute)
    asyncToken = opt_result_def(AsyncTokenType)
    kernel = prop_def(SymbolRefAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @property
    def kernel_module_name(self) -> str:
        return self.kernel.root_reference.data

    @property
    def kernel_name(self) -> str:
        return self.kernel.nested_references.data[-1].data

    @classmethod
    def parse(cls, parser: Parser) -> LaunchFuncOp:
        is_async, deps = _parse_async(parser)
        obj: list[SSAValue] = []
        if parser.parse_optional_punctuation("<"):
            obj = [parse_operand_with_type(parser)]
            parser.parse_punctuation(">")
        kernel = parser.parse_attribute()
        if not isinstance(kernel, SymbolRefAttr):
            parser.raise_error("expected a kernel symbol like @module::@kernel")

        def sizes() -> tuple[list, Attribute | None]:
            names = parser.parse_comma_separated_list(parser.Delimiter.PAREN,
                                                      parser.parse_unresolved_operand)
            if len(names) != 3:
                parser.raise_error("expected three sizes (x, y, z)")
            return names, (parser.parse_type() if parser.parse_optional_punctuation(":")
                           else None)

        clusters: tuple[list, Attribute | None] = ([], None)
        if parser.parse_optional_keyword("clusters"):
            parser.parse_keyword("in")
            clusters = sizes()
        parser.parse_keyword("blocks")
        parser.parse_keyword("in")
        grid_names, grid_ty = sizes()
        parser.parse_keyword("threads")
        parser.parse_keyword("in")
        block_names, block_ty = sizes()
        # mlir-opt 22: one `: T` after the thread sizes types every size (LaunchDimType);
        # a type after each list is accepted as well.
        common = block_ty if grid_ty is None else None
        clusters = [parser.resolve_operand(n, clusters[1] or common or INDEX)
                    for n in clusters[0]]
        grid = [parser.resolve_operand(n, grid_ty or common or INDEX) for n in grid_names]
        block = [parser.resolve_operand(n, block_ty or INDEX) for n in block_names]
        dyn: list[SSAValue] = []
        if parser.parse_optional_keyword("dynamic_shared_memory_size"):
            dyn = [parser.resolve_operand(parser.parse_unresolved_operand(), i32)]
        kargs: list[SSAValue] = []
        if parser.parse_optional_keyword("args"):
            kargs = parser.parse_comma_separated_list(parser.Delimiter.PAREN,
                                                      lambda: parse_operand_with_type(parser))
        attrs = parser.parse_optional_attr_dict()
        return cls.build(
            operands=[deps, *grid, *block,
                      *([[v] for v in clusters] if clusters else [[], [], []]), dyn, kargs, obj],
            result_types=[_token_result(is_async)],
            properties={"kernel": kernel}, attributes=attrs)

    def print(self, printer: Printer) -> None:
        _print_async_or_space(printer, self.asyncDependencies, self.asyncToken)
        printer.print_string(" ")
        if self.asyncObject is not None:
            printer.print_string("<")
            print_operand_with_type(printer, self.asyncObject)
            printer.print_string("> ")
        printer.print_attribute(self.kernel)

        if self.cluster_size is not None:
            printer.print_string(" clusters in ")
            print_enclosed_operands(printer, self.cluster_size)
        printer.print_string(" blocks in ")
        print_enclosed_operands(printer, self.grid_size)
        printer.print_string(" threads in ")
        print_enclosed_operands(printer, self.block_size)
        printer.print_string(" ")
        if not isinstance(self.gridSizeX.type, IndexType):  # one type for all, as mlir-opt 22
            printer.print_string(": ")
            printer.print_attribute(self.gridSizeX.type)
        if self.dynamicSharedMemorySize is not None:
            printer.print_string(" dynamic_shared_memory_size ")
            printer.print_operand(self.dynamicSharedMemorySize)
        if self.kernelOperands:
            printer.print_string(" args(")
            printer.print_list(self.kernelOperands, lambda v: print_operand_with_type(printer, v))
            printer.print_string(")")
        else:
            printer.print_string(" ")
        if self.attributes:
            print_attr_dict(printer, self.attributes)

    def verify_(self) -> None:
        if len(self.kernel.nested_references.data) != 1:
            raise VerifyException("kernel symbol must be @module::@function")
        self._verify_cluster_sizes()


# ------------------------------------------------------------------------- memory


@irdl_op_definition
class AllocOp(_AsyncOpMixin, IRDLOperation):
    """`%m = gpu.alloc [async [deps]] [host_shared] (%dyn_sizes)[%symbols] : memref<?xf32>`.

    Device memory (or, with `hostShared`, memory both host and device can
    access).  `dynamicSizes` gives the `?` dimensions in order.
    """

    name = "gpu.alloc"
    asyncDependencies = var_operand_def(AsyncTokenType)
    dynamicSizes = var_operand_def(IndexType)
    symbolOperands = var_operand_def(IndexType)
    memref = result_def(MemRefType)
    asyncToken = opt_result_def(AsyncTokenType)
    hostShared = opt_prop_def(UnitAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(MemoryAllocEffect())

    @property
    def is_host_shared(self) -> bool:
        return self.hostShared is not None

    @classmethod
    def parse(cls, parser: Parser) -> AllocOp:
        is_async, deps = _parse_async(parser)
        props: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("host_shared"):
            props["hostShared"] = UnitAttr()
        sizes = parser.parse_comma_separated_list(parser.Delimiter.PAREN,
                                                  parser.parse_unresolved_operand)
        syms = parser.parse_optional_comma_separated_list(parser.Delimiter.SQUARE,
                                                          parser.parse_unresolved_operand) or []
        attrs, (ty,) = parse_attrs_and_types(parser)
        return cls.build(
            operands=[deps, [parser.resolve_operand(s, INDEX) for s in sizes],
                      [parser.resolve_operand(s, INDEX) for s in syms]],
            result_types=[ty, _token_result(is_async)], properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        _print_async_or_space(printer, self.asyncDependencies, self.asyncToken)
        printer.print_string(" ")
        if self.hostShared is not None:
            printer.print_string("host_shared ")
        print_enclosed_operands(printer, self.dynamicSizes)
        if self.symbolOperands:
            print_enclosed_operands(printer, self.symbolOperands, "[", "]")
        print_attrs_and_types(printer, self.attributes, [self.memref.type])

    def verify_(self) -> None:
        ty = self.memref.type
        n_dyn = sum(1 for d in ty.get_shape() if d < 0)
        if n_dyn != len(self.dynamicSizes):
            raise VerifyException(
                f"dimension operand count ({len(self.dynamicSizes)}) does not equal memref "
                f"dynamic dimension count ({n_dyn})")
        if self.hostShared is not None and self.asyncToken is not None:
            raise VerifyException("host_shared allocation does not support async")


class _AsyncOperandsOp(_AsyncOpMixin, IRDLOperation):
    """`gpu.<op> [async] [deps] %a, ... attr-dict : Ta, ...` (memcpy, memset, dealloc).

    Subclasses define `asyncDependencies`, then ARITY single operands, then
    the optional `asyncToken` result.
    """

    ARITY: ClassVar[int] = 1

    @classmethod
    def parse(cls, parser: Parser):
        is_async, deps = _parse_async(parser)
        operands, attrs = parse_typed_operands(parser, cls.ARITY)
        return cls.build(operands=[deps, *operands], result_types=[_token_result(is_async)],
                         attributes=attrs)

    def print(self, printer: Printer) -> None:
        deps = self.asyncDependencies  # type: ignore[attr-defined]
        _print_async_or_space(printer, deps, self.asyncToken)  # type: ignore[attr-defined]
        print_typed_operands(printer, self.operands[len(deps):], self.attributes)


@irdl_op_definition
class MemcpyOp(_AsyncOperandsOp):
    """`gpu.memcpy [async [deps]] %dst, %src : memref<..>, memref<..>`: copy all of src to dst."""

    name = "gpu.memcpy"
    asyncDependencies = var_operand_def(AsyncTokenType)
    dst = operand_def(MemRefType)
    src = operand_def(MemRefType)
    asyncToken = opt_result_def(AsyncTokenType)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    ARITY: ClassVar[int] = 2

    def verify_(self) -> None:
        if self.dst.type.element_type != self.src.type.element_type:
            raise VerifyException("arguments have incompatible element type")
        if self.dst.type.get_shape() != self.src.type.get_shape():
            raise VerifyException("arguments have incompatible shape")


@irdl_op_definition
class MemsetOp(_AsyncOperandsOp):
    """`gpu.memset [async [deps]] %dst, %value : memref<..>, T`: fill dst with value."""

    name = "gpu.memset"
    asyncDependencies = var_operand_def(AsyncTokenType)
    dst = operand_def(MemRefType)
    value = operand_def(Attribute)
    asyncToken = opt_result_def(AsyncTokenType)
    traits = traits_def(MemoryWriteEffect())
    ARITY: ClassVar[int] = 2

    def verify_(self) -> None:
        if self.dst.type.element_type != self.value.type:
            raise VerifyException("value type does not match the memref element type")


@irdl_op_definition
class DeallocOp(_AsyncOperandsOp):
    """`gpu.dealloc [async [deps]] %m : memref<..>`: free memory from gpu.alloc."""

    name = "gpu.dealloc"
    asyncDependencies = var_operand_def(AsyncTokenType)
    memref = operand_def(MemRefType)
    asyncToken = opt_result_def(AsyncTokenType)
    traits = traits_def(MemoryFreeEffect())


class _HostRegisterBase(IRDLOperation):
    value = operand_def(UnrankedMemRefType)

    @classmethod
    def parse(cls, parser: Parser):
        u = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        ty = parser.parse_type()
        if not isinstance(ty, UnrankedMemRefType):
            parser.raise_error(f"{cls.name} expects an unranked memref, found '{ty}'", pos)
        return cls.build(operands=[parser.resolve_operand(u, ty)], attributes=attrs)

    def print(self, printer: Printer) -> None:
        print_typed_operands(printer, [self.value], self.attributes)


@irdl_op_definition
class HostRegisterOp(_HostRegisterBase):
    """`gpu.host_register %m : memref<*xf32>`: pin host memory so kernels can access it."""

    name = "gpu.host_register"


@irdl_op_definition
class HostUnregisterOp(_HostRegisterBase):
    """`gpu.host_unregister %m : memref<*xf32>`: undo host_register."""

    name = "gpu.host_unregister"


@irdl_op_definition
class WaitOp(_AsyncOpMixin, IRDLOperation):
    """`gpu.wait [async] [%deps]`.

    Without `async`: block the host until all `asyncDependencies` complete.
    With `async`: return a new token that completes when they have (with no
    dependencies, a fresh stream).
    """

    name = "gpu.wait"
    asyncDependencies = var_operand_def(AsyncTokenType)
    asyncToken = opt_result_def(AsyncTokenType)

    @classmethod
    def parse(cls, parser: Parser) -> WaitOp:
        is_async, deps = _parse_async(parser)
        attrs = parser.parse_optional_attr_dict()
        return cls.build(operands=[deps], result_types=[_token_result(is_async)],
                         attributes=attrs)

    def print(self, printer: Printer) -> None:
        _print_async_or_space(printer, self.asyncDependencies, self.asyncToken)
        print_attr_dict(printer, self.attributes)


# ------------------------------------------------------------------ index queries


class _DimIndexOp(IRDLOperation):
    """`%v = gpu.<op> x [upper_bound N]`: an index along `dimension`."""

    dimension = prop_def(DimensionAttr)
    upper_bound = opt_prop_def(IntegerAttr)
    result = result_def(IndexType)
    traits = traits_def(Pure())

    def __init__(self, dim: Dimension | str, upper_bound: int | None = None):
        props: dict[str, Attribute] = {"dimension": DimensionAttr(Dimension(dim))}
        if upper_bound is not None:
            props["upper_bound"] = IntegerAttr(upper_bound, INDEX)
        super().__init__(properties=props, result_types=[INDEX])

    @property
    def dim_index(self) -> int:
        return self.dimension.index

    @classmethod
    def parse(cls, parser: Parser):
        dim = parser.parse_str_enum(Dimension)
        ub = None
        if parser.parse_optional_keyword("upper_bound"):
            ub = parser.parse_integer(allow_boolean=False)
        attrs = parser.parse_optional_attr_dict()
        op = cls(dim, ub)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f"  {self.dimension.data.value}")
        if self.upper_bound is not None:
            printer.print_string(f" upper_bound {self.upper_bound.value.data}")
        print_attr_dict(printer, self.attributes)


def _index_op(base: type[IRDLOperation], opname: str, doc: str, **consts: bool):
    """The op class `gpu.<opname>` (`thread_id` -> `ThreadIdOp`) of an index query family."""
    cls_name = "".join(p.title() for p in opname.split("_")) + "Op"
    body = {"name": f"gpu.{opname}", "__doc__": doc, "__module__": __name__, **consts,
            "__annotations__": {k: ClassVar[bool] for k in consts}}
    return irdl_op_definition(type(cls_name, (base,), body))


def _dim_op(opname: str, doc: str) -> type[_DimIndexOp]:
    return _index_op(_DimIndexOp, opname, doc)


ThreadIdOp = _dim_op("thread_id", "Thread index within its block, along `dimension`.")
BlockIdOp = _dim_op("block_id", "Block index within the grid, along `dimension`.")
BlockDimOp = _dim_op("block_dim", "Threads per block, along `dimension`.")
GridDimOp = _dim_op("grid_dim", "Blocks per grid, along `dimension`.")
GlobalIdOp = _dim_op("global_id", "block_id * block_dim + thread_id, along `dimension`.")
ClusterIdOp = _dim_op("cluster_id", "Cluster index within the grid.")
ClusterDimOp = _dim_op("cluster_dim", "Clusters per grid.")
ClusterBlockIdOp = _dim_op("cluster_block_id", "Block index within its cluster.")
ClusterDimBlocksOp = _dim_op("cluster_dim_blocks", "Blocks per cluster.")


class _ScalarIndexOp(IRDLOperation):
    """`%v = gpu.<op> [upper_bound N]` (some spell `: index` after)."""

    upper_bound = opt_prop_def(IntegerAttr)
    result = result_def(IndexType)
    traits = traits_def(Pure())

    TYPED: ClassVar[bool] = False

    @classmethod
    def parse(cls, parser: Parser):
        props: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("upper_bound"):
            props["upper_bound"] = IntegerAttr(parser.parse_integer(allow_boolean=False), INDEX)
        attrs = parser.parse_optional_attr_dict()
        if cls.TYPED:
            parser.parse_punctuation(":")
            pos = parser.pos
            if not isinstance(parser.parse_type(), IndexType):
                parser.raise_error(f"{cls.name} produces an index", pos)
        return cls.build(properties=props, result_types=[INDEX], attributes=attrs)

    def print(self, printer: Printer) -> None:
        if self.upper_bound is not None:
            printer.print_string(f" upper_bound {self.upper_bound.value.data}")
        print_attr_dict(printer, self.attributes)
        if self.TYPED:
            printer.print_string(" : index")


LaneIdOp = _index_op(_ScalarIndexOp, "lane_id",
                     "`%l = gpu.lane_id`: the thread's lane within its subgroup (warp).")
SubgroupSizeOp = _index_op(_ScalarIndexOp, "subgroup_size",
                           "`%s = gpu.subgroup_size : index`: lanes per subgroup (32 on NVIDIA).",
                           TYPED=True)
NumSubgroupsOp = _index_op(_ScalarIndexOp, "num_subgroups",
                           "`%n = gpu.num_subgroups : index`: subgroups per block.", TYPED=True)
SubgroupIdOp = _index_op(_ScalarIndexOp, "subgroup_id",
                         "`%i = gpu.subgroup_id : index`: the subgroup's index within its block.",
                         TYPED=True)


# ----------------------------------------------------------- synchronisation, comms


@irdl_op_definition
class BarrierOp(IRDLOperation):
    """`gpu.barrier`: every thread of the block waits here; workgroup memory writes
    before it are visible to all threads after it."""

    name = "gpu.barrier"
    assembly_format = "attr-dict"


@irdl_op_definition
class ShuffleOp(IRDLOperation):
    """`%r, %valid = gpu.shuffle xor %value, %offset, %width : f32`.

    Exchanges `value` between lanes of a subgroup.  `mode` (ShuffleModeAttr)
    picks the source lane: xor -> lane ^ offset, up -> lane - offset,
    down -> lane + offset, idx -> offset.  `offset` and `width` are i32;
    lanes >= `width` do not take part.  `shuffleResult` is the value read
    (the lane's own value when the source is out of range) and `valid` (i1)
    says whether the source lane was in range.
    """

    name = "gpu.shuffle"
    value = operand_def(Attribute)
    offset = operand_def(IntegerType)
    width = operand_def(IntegerType)
    mode = prop_def(ShuffleModeAttr)
    shuffleResult = result_def(Attribute)
    valid = result_def(IntegerType)
    traits = traits_def(Pure())

    @property
    def mode_kind(self) -> ShuffleMode:
        return self.mode.data

    @classmethod
    def parse(cls, parser: Parser) -> ShuffleOp:
        # MLIR 22: `xor %v, %o, %w`; 2021 tests wrote `%v, %o, %w xor`.
        mode = parser.parse_optional_str_enum(ShuffleMode)
        names = parse_operands(parser, 3)
        if mode is None:
            mode = parser.parse_str_enum(ShuffleMode)
        attrs, (ty,) = parse_attrs_and_types(parser)
        return cls.build(operands=resolve_operands(parser, names, [ty, i32, i32]),
                         result_types=[ty, i1], properties={"mode": ShuffleModeAttr(mode)},
                         attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(f"  {self.mode.data.value}")
        print_operands(printer, [self.value, self.offset, self.width])
        print_attrs_and_types(printer, self.attributes, [self.value.type])

    def verify_(self) -> None:
        if self.shuffleResult.type != self.value.type:
            raise VerifyException("result type must match the shuffled value's type")


_INT_ONLY = {AllReduceOperation.AND, AllReduceOperation.OR, AllReduceOperation.XOR,
             AllReduceOperation.MINUI, AllReduceOperation.MINSI, AllReduceOperation.MAXUI,
             AllReduceOperation.MAXSI}
_FLOAT_ONLY = {AllReduceOperation.MINNUMF, AllReduceOperation.MAXNUMF,
               AllReduceOperation.MINIMUMF, AllReduceOperation.MAXIMUMF}


def _check_reduce_type(op: AllReduceOperation, ty: Attribute) -> None:
    from xdsl.dialects.builtin import AnyFloat

    elem = getattr(ty, "element_type", ty)
    if op in _INT_ONLY and not isinstance(elem, IntegerType | IndexType):
        raise VerifyException(f"'{op.value}' reduction operation is not compatible with type {ty}")
    if op in _FLOAT_ONLY and not isinstance(elem, AnyFloat):
        raise VerifyException(f"'{op.value}' reduction operation is not compatible with type {ty}")


def _parse_unary_signature(parser: Parser) -> tuple[dict[str, Attribute], Attribute, Attribute]:
    """`attr-dict : (T) -> R` (all_reduce, subgroup_reduce): the attributes, T and R."""
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    pos = parser.pos
    ft = parser.parse_function_type()
    if len(ft.inputs.data) != 1 or len(ft.outputs.data) != 1:
        parser.raise_error("expected a type like (T) -> T", pos)
    return attrs, ft.inputs.data[0], ft.outputs.data[0]


def _print_unary_signature(printer: Printer, op: Operation) -> None:
    print_attr_dict(printer, op.attributes)
    printer.print_string(" : (")
    printer.print_attribute(op.operands[0].type)
    printer.print_string(") -> ")
    printer.print_attribute(op.results[0].type)


@irdl_op_definition
class AllReduceOp(IRDLOperation):
    """`%r = gpu.all_reduce add %v uniform {} : (f32) -> f32`, or with a region.

    Reduces `value` across all threads of the block; every thread gets the
    result.  Either `op` (AllReduceOperationAttr) names the combiner and
    `body` is empty, or `op` is absent and `body` has one block `(lhs, rhs)`
    ending in `gpu.yield combined`.  `uniform` promises all threads reach it.
    """

    name = "gpu.all_reduce"
    value = operand_def(Attribute)
    result = result_def(Attribute)
    op = opt_prop_def(AllReduceOperationAttr)
    uniform = opt_prop_def(UnitAttr)
    body = region_def()
    # The body sees only its two arguments (MLIR: IsolatedFromAbove).
    traits = traits_def(RecursiveMemoryEffect(), IsolatedFromAbove())

    @property
    def reduction(self) -> AllReduceOperation | None:
        return None if self.op is None else self.op.data

    @classmethod
    def parse(cls, parser: Parser) -> AllReduceOp:
        props: dict[str, Attribute] = {}
        if (kind := parser.parse_optional_str_enum(AllReduceOperation)) is not None:
            props["op"] = AllReduceOperationAttr(kind)
        v = parser.parse_unresolved_operand()
        if parser.parse_optional_keyword("uniform"):
            props["uniform"] = UnitAttr()
        body = parser.parse_region()
        attrs, ty, rt = _parse_unary_signature(parser)
        return cls.build(operands=[parser.resolve_operand(v, ty)], result_types=[rt],
                         properties=props, regions=[body], attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string("  ")
        if self.op is not None:
            printer.print_string(f"{self.op.data.value} ")
        printer.print_operand(self.value)
        if self.uniform is not None:
            printer.print_string(" uniform")
        printer.print_string(" ")
        if self.body.blocks:
            printer.print_region(self.body)
        else:
            printer.print_string("{\n")
            printer.print_string("}")
        _print_unary_signature(printer, self)

    def verify_(self) -> None:
        if self.result.type != self.value.type:
            raise VerifyException("result type must match the operand type")
        has_body = bool(self.body.blocks)
        if self.op is None and not has_body:
            raise VerifyException("expected either an op attribute or a non-empty body")
        if self.op is not None and has_body and self.body.blocks.first.ops:
            raise VerifyException("expected either an op attribute or a non-empty body, not both")
        if self.op is not None:
            _check_reduce_type(self.op.data, self.value.type)
        if has_body and self.op is None:
            block = self.body.blocks.first
            if len(block.args) != 2 or any(a.type != self.value.type for a in block.args):
                raise VerifyException(
                    f"expected two region arguments of type {self.value.type}")
            for b in self.body.blocks:
                last = b.last_op
                if isinstance(last, YieldOp):
                    if [v.type for v in last.values] != [self.value.type]:
                        raise VerifyException("expected gpu.yield of one value of operand type")


@irdl_op_definition
class SubgroupReduceOp(IRDLOperation):
    """`%r = gpu.subgroup_reduce add %v [uniform] [cluster(size = 4, stride = 1)] : (f32) -> f32`.

    Reduces `value` across the lanes of a subgroup (or of clusters of
    `cluster_size` lanes `cluster_stride` apart); every lane gets the result.
    """

    name = "gpu.subgroup_reduce"
    value = operand_def(Attribute)
    result = result_def(Attribute)
    op = prop_def(AllReduceOperationAttr)
    uniform = opt_prop_def(UnitAttr)
    cluster_size = opt_prop_def(IntegerAttr)
    cluster_stride = opt_prop_def(IntegerAttr)
    traits = traits_def(Pure())

    @property
    def reduction(self) -> AllReduceOperation:
        return self.op.data

    @property
    def stride(self) -> int:
        return 1 if self.cluster_stride is None else self.cluster_stride.value.data

    @classmethod
    def parse(cls, parser: Parser) -> SubgroupReduceOp:
        kind = parser.parse_str_enum(AllReduceOperation)
        props: dict[str, Attribute] = {"op": AllReduceOperationAttr(kind),
                                       "cluster_stride": IntegerAttr(1, i32)}
        v = parser.parse_unresolved_operand()
        if parser.parse_optional_keyword("uniform"):
            props["uniform"] = UnitAttr()
        if parser.parse_optional_keyword("cluster"):
            parser.parse_punctuation("(")
            parser.parse_keyword("size")
            parser.parse_punctuation("=")
            props["cluster_size"] = IntegerAttr(parser.parse_integer(), i32)
            if parser.parse_optional_punctuation(","):
                parser.parse_keyword("stride")
                parser.parse_punctuation("=")
                props["cluster_stride"] = IntegerAttr(parser.parse_integer(), i32)
            parser.parse_punctuation(")")
        attrs, ty, rt = _parse_unary_signature(parser)
        return cls.build(operands=[parser.resolve_operand(v, ty)], result_types=[rt],
                         properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(f"  {self.op.data.value} ")
        printer.print_operand(self.value)
        if self.uniform is not None:
            printer.print_string(" uniform")
        if self.cluster_size is not None:
            printer.print_string(f" cluster(size = {self.cluster_size.value.data}")
            if self.stride != 1:
                printer.print_string(f", stride = {self.stride}")
            printer.print_string(")")
        _print_unary_signature(printer, self)

    def verify_(self) -> None:
        if self.result.type != self.value.type:
            raise VerifyException("result type must match the operand type")
        _check_reduce_type(self.op.data, self.value.type)
        for name, a in (("cluster size", self.cluster_size), ("cluster stride",
                                                              self.cluster_stride)):
            if a is not None:
                n = a.value.data
                if n <= 0 or n & (n - 1):
                    raise VerifyException(f"{name} {n} is not a power of two")


@irdl_op_definition
class PrintfOp(IRDLOperation):
    """`gpu.printf "fmt %d\\n", %a, %b : i32, f32`: C printf from each thread (to stdout)."""

    name = "gpu.printf"
    format = prop_def(StringAttr)
    args = var_operand_def(Attribute)
    traits = traits_def(MemoryWriteEffect())

    @classmethod
    def parse(cls, parser: Parser) -> PrintfOp:
        fmt = parser.parse_str_literal()
        args: list[SSAValue] = []
        if parser.parse_optional_punctuation(","):
            names = parser.parse_comma_separated_list(parser.Delimiter.NONE,
                                                      parser.parse_unresolved_operand)
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
            if len(types) != len(names):
                parser.raise_error(f"{len(names)} arguments but {len(types)} types")
            args = resolve_operands(parser, names, types)
        attrs = parser.parse_optional_attr_dict()
        return cls.build(operands=[args], properties={"format": StringAttr(fmt)},
                         attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.format.data)
        if self.args:
            printer.print_string(", ")
            printer.print_list(self.args, printer.print_operand)
            printer.print_string(" : ")
            printer.print_list([a.type for a in self.args], printer.print_attribute)
        print_attr_dict(printer, self.attributes)


@irdl_op_definition
class DynamicSharedMemoryOp(IRDLOperation):
    """`%m = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>`.

    The block's dynamic shared memory (size from the launch's
    `dynamic_shared_memory_size`) as a byte buffer; views carve it up.
    """

    name = "gpu.dynamic_shared_memory"
    resultMemref = result_def(MemRefType)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> DynamicSharedMemoryOp:
        attrs, types = parse_attrs_and_types(parser)
        return cls.build(result_types=types, attributes=attrs)

    def print(self, printer: Printer) -> None:
        print_attrs_and_types(printer, self.attributes, [self.resultMemref.type])

    def verify_(self) -> None:
        ty = self.resultMemref.type
        if memory_space_of(ty) != AddressSpace.WORKGROUP:
            raise VerifyException("result must be in #gpu.address_space<workgroup>")
        shape = ty.get_shape()
        if len(shape) != 1 or shape[0] != DYNAMIC:
            raise VerifyException("result must be a 1-D dynamic memref (memref<?xi8, ...>)")
        if not (isinstance(ty.element_type, IntegerType) and ty.element_type.width.data == 8):
            raise VerifyException("result element type must be i8")


GPU = Dialect(
    "gpu",
    [
        GPUModuleOp, GPUFuncOp, ReturnOp, TerminatorOp, YieldOp,
        LaunchOp, LaunchFuncOp,
        AllocOp, DeallocOp, MemcpyOp, MemsetOp, HostRegisterOp, HostUnregisterOp, WaitOp,
        ThreadIdOp, BlockIdOp, BlockDimOp, GridDimOp, GlobalIdOp,
        ClusterIdOp, ClusterDimOp, ClusterBlockIdOp, ClusterDimBlocksOp,
        LaneIdOp, SubgroupSizeOp, NumSubgroupsOp, SubgroupIdOp,
        BarrierOp, ShuffleOp, AllReduceOp, SubgroupReduceOp, PrintfOp, DynamicSharedMemoryOp,
    ],
    [AsyncTokenType, DimensionAttr, AllReduceOperationAttr, ShuffleModeAttr, AddressSpaceAttr],
)

ID_OPS: tuple[type[_DimIndexOp], ...] = (ThreadIdOp, BlockIdOp, BlockDimOp, GridDimOp,
                                         GlobalIdOp)
