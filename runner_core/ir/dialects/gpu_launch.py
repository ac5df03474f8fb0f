"""Launching kernels: `gpu.launch` (inline body) and `gpu.launch_func` (outlined)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, SymbolRefAttr, i32, i64
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    base,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import RecursiveMemoryEffect
from xdsl.utils.exceptions import VerifyException

from runner_core.ir.dialects._syntax import (
    parse_operand_with_type,
    print_attr_dict,
    print_enclosed_operands,
    print_operand_with_type,
)
from runner_core.ir.dialects.gpu_module import GPUFuncOp, GPUModuleOp, ReturnOp
from runner_core.ir.dialects.gpu_op_base import (
    _AttributionsMixin,
    _LaunchSizesMixin,
    _parse_async,
    _parse_attribution,
    _print_async,
    _print_async_or_space,
    _token_result,
)
from runner_core.ir.dialects.gpu_types import INDEX, AsyncTokenType
from runner_core.ir.symbols import lookup_symbol


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

    def verify_symbol_uses(self) -> None:
        """MLIR's verifySymbolUses: the kernel exists, is a kernel, and takes these operands
        (MLIR 22's messages).

        Run by the verifier after every op of the module passed ``verify_`` (as
        MLIR runs it from the symbol table's region verifier), not from ``verify_``.
        """
        module = self.parent_op()
        while module is not None and module.name != "builtin.module":
            module = module.parent_op()
        if module is None or "gpu.container_module" not in module.attributes:
            raise VerifyException("expected the closest surrounding module to have the "
                                  "'gpu.container_module' attribute")
        mod_name = self.kernel.root_reference.data
        gmod = lookup_symbol(module, mod_name)
        if getattr(gmod, "name", "") == "gpu.binary":
            return  # compiled elsewhere: as upstream, its kernels are not checked here
        if not isinstance(gmod, GPUModuleOp):
            raise VerifyException(f"kernel container '{mod_name}' is undefined")
        kernel = lookup_symbol(gmod, self.kernel.nested_references.data[-1])
        if not isinstance(kernel, GPUFuncOp):
            raise VerifyException(f"kernel function '{self.kernel}' is undefined")
        if not kernel.is_kernel:
            raise VerifyException("kernel function is missing the 'gpu.kernel' attribute")
        want = list(kernel.function_type.inputs.data)
        got = [v.type for v in self.kernelOperands]
        if len(want) != len(got):
            raise VerifyException(f"got {len(got)} kernel operands but expected {len(want)}")
        for i, (w, g) in enumerate(zip(want, got, strict=True)):
            if w != g:
                raise VerifyException(f"type of function argument {i} does not match")
