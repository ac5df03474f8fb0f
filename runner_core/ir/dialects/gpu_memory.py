"""Host-side memory and async-token ops (`gpu.alloc`, `memcpy`, `memset`,
`dealloc`, `host_register`, `wait`) and the device's `gpu.dynamic_shared_memory`."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import IndexType, IntegerType, MemRefType, UnitAttr, UnrankedMemRefType
from xdsl.ir import Attribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    opt_result_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    MemoryAllocEffect,
    MemoryFreeEffect,
    MemoryReadEffect,
    MemoryWriteEffect,
    Pure,
)
from xdsl.utils.exceptions import VerifyException

from runner_core.ir.dialects._syntax import (
    DYNAMIC,
    parse_attrs_and_types,
    parse_typed_operands,
    print_attr_dict,
    print_attrs_and_types,
    print_enclosed_operands,
    print_typed_operands,
)
from runner_core.ir.dialects.gpu_op_base import (
    _AsyncOpMixin,
    _parse_async,
    _print_async_or_space,
    _token_result,
)
from runner_core.ir.dialects.gpu_types import INDEX, AddressSpace, AsyncTokenType, memory_space_of

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
        # `async ... host_shared` verifies in mlir-opt 22 (gpu-to-llvm then leaves it
        # unconverted, a pattern failure, not a verifier error).


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
    # Ranked memrefs are accepted as upstream does after LLVM 22 (22 wants unranked).
    value = operand_def(UnrankedMemRefType | MemRefType)

    @classmethod
    def parse(cls, parser: Parser):
        u = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        ty = parser.parse_type()
        if isinstance(ty, MemRefType):
            from runner_core.ir.upgrade_log import UPGRADE_LOG, Upgrade

            log = UPGRADE_LOG.get()
            if log is not None:
                log.append(Upgrade(pos, str(ty), str(ty),
                                   f"{cls.name} of a ranked memref (accepted after LLVM 22)"))
        elif not isinstance(ty, UnrankedMemRefType):
            parser.raise_error(f"{cls.name} expects a memref, found '{ty}'", pos)
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
