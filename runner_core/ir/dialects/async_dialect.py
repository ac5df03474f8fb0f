"""MLIR's `async` dialect (xDSL 0.75 has none), in the syntax MLIR 22 prints.

Semantics the runner implements (and codegen relies on):

* `async.execute` starts its body as a task once every `dependencies` token
  has completed and every `bodyOperands` value is available.  Its first
  result `token` completes when the body finishes; `bodyResults` are
  `!async.value<T>` holding what `async.yield` returned.  Inside the body the
  block arguments are the unwrapped `bodyOperands` (`%v as %x` binds `%x`).
  Values defined above may be captured directly.
* `async.await` blocks until a token completes or a value is available (and
  returns the value).  An error in a task propagates to its awaiters.
* Groups: `async.create_group %n` makes a group of at most `n` tokens;
  `async.add_to_group` adds one and returns its rank; `async.await_all`
  waits for every token in the group.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    IndexType,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
)
from xdsl.dialects.utils import parse_func_op_like, print_func_op_like
from xdsl.ir import (
    Attribute,
    Dialect,
    ParametrizedAttribute,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    opt_result_def,
    param_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    RecursiveMemoryEffect,
    SymbolOpInterface,
)
from xdsl.utils.exceptions import VerifyException

from runner_core.ir.dialects._syntax import (
    ValuesTerminatorSyntax,
    parse_attrs_and_types,
    parse_operands,
    parse_optional_bracketed_operands,
    print_attr_dict,
    print_attrs_and_types,
    print_bracketed_operands,
    print_enclosed_operands,
    print_operands,
    print_result_types,
    resolve_operands,
)

INDEX = IndexType()


@irdl_attr_definition
class TokenType(ParametrizedAttribute, TypeAttribute):
    """`!async.token`: completion of a task."""

    name = "async.token"


@irdl_attr_definition
class ValueType(ParametrizedAttribute, TypeAttribute):
    """`!async.value<T>`: a T that becomes available when a task yields it."""

    name = "async.value"
    value_type: Attribute = param_def()

    def __init__(self, value_type: Attribute):
        super().__init__(value_type)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        t = parser.parse_type()
        parser.parse_punctuation(">")
        return (t,)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.value_type)
        printer.print_string(">")


@irdl_attr_definition
class GroupType(ParametrizedAttribute, TypeAttribute):
    """`!async.group`: a set of tokens awaited together."""

    name = "async.group"


TOKEN = TokenType()


@irdl_op_definition
class ExecuteOp(IRDLOperation):
    """`%t, %v = async.execute [%deps] (%a as %x: !async.value<T>) -> !async.value<U> {...}`.

    Operands: `dependencies` (tokens to wait for), `bodyOperands`
    (`!async.value`s, unwrapped into the body's block arguments in order).
    Results: `token`, then one `!async.value` per `bodyResults` entry.
    """

    name = "async.execute"
    dependencies = var_operand_def(TokenType)
    bodyOperands = var_operand_def(Attribute)
    token = result_def(TokenType)
    bodyResults = var_result_def(ValueType)
    body = region_def("single_block")

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(RecursiveMemoryEffect())

    @classmethod
    def parse(cls, parser: Parser) -> ExecuteOp:
        deps = parse_optional_bracketed_operands(parser, TOKEN)
        operands: list[SSAValue] = []
        args: list[Parser.Argument] = []
        if parser.parse_optional_punctuation("("):
            if parser.parse_optional_punctuation(")") is None:
                def one() -> None:
                    u = parser.parse_unresolved_operand()
                    parser.parse_keyword("as")
                    a = parser.parse_argument(expect_type=False)
                    parser.parse_punctuation(":")
                    pos = parser.pos
                    ty = parser.parse_type()
                    if not isinstance(ty, ValueType):
                        parser.raise_error(f"expected !async.value<...>, found {ty}", pos)
                    operands.append(parser.resolve_operand(u, ty))
                    args.append(a.resolve(ty.value_type))

                parser.parse_comma_separated_list(parser.Delimiter.NONE, one)
                parser.parse_punctuation(")")
        results: list[Attribute] = []
        if parser.parse_optional_punctuation("->"):
            pos = parser.pos
            if parser.parse_optional_punctuation("("):
                results = parser.parse_comma_separated_list(parser.Delimiter.NONE,
                                                            parser.parse_type)
                parser.parse_punctuation(")")
            else:
                results = [parser.parse_type()]
            for r in results:
                if not isinstance(r, ValueType):
                    parser.raise_error(f"async.execute results must be !async.value<...>, "
                                       f"found {r}", pos)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_region(args)
        op = cls.build(operands=[deps, operands], result_types=[TOKEN, results],
                       regions=[body], attributes=attrs.data if attrs else {})
        return op

    def print(self, printer: Printer) -> None:
        print_bracketed_operands(printer, self.dependencies)
        if self.bodyOperands:
            printer.print_string(" (")

            def one(pair: tuple[SSAValue, SSAValue]) -> None:
                printer.print_operand(pair[0])
                printer.print_string(" as ")
                printer.print_ssa_value(pair[1])
                printer.print_string(": ")
                printer.print_attribute(pair[0].type)

            printer.print_list(list(zip(self.bodyOperands, self.body.block.args, strict=True)),
                               one)
            printer.print_string(")")
        if self.bodyResults:
            printer.print_string(" -> ")
            print_result_types(printer, [r.type for r in self.bodyResults])
        print_attr_dict(printer, self.attributes, exclude=("operandSegmentSizes",), keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)

    def verify_(self) -> None:
        args = self.body.block.args
        if len(args) != len(self.bodyOperands):
            raise VerifyException(
                f"expects {len(self.bodyOperands)} body block arguments, got {len(args)}")
        for v, a in zip(self.bodyOperands, args, strict=True):
            if not isinstance(v.type, ValueType):
                raise VerifyException(f"body operand must be !async.value, got {v.type}")
            if v.type.value_type != a.type:
                raise VerifyException(
                    f"body argument type {a.type} does not match {v.type.value_type}")
        last = self.body.block.last_op
        if isinstance(last, YieldOp):
            want = [r.type.value_type for r in self.bodyResults]
            got = [v.type for v in last.values]
            if want != got:
                raise VerifyException(f"async.yield types {got} do not match results {want}")


@irdl_op_definition
class YieldOp(ValuesTerminatorSyntax, IRDLOperation):
    """`async.yield %v : T`: ends an async.execute body, filling its values."""

    name = "async.yield"
    values = var_operand_def(Attribute)
    traits = traits_def(IsTerminator(), HasParent(ExecuteOp))

    def __init__(self, values: Sequence[SSAValue] = ()):
        super().__init__(operands=[values])


@irdl_op_definition
class AwaitOp(IRDLOperation):
    """`async.await %t : !async.token` or `%x = async.await %v : !async.value<T>`.

    `operand` is the token or value awaited; `result` (only for values) is T.
    """

    name = "async.await"
    operand = operand_def(Attribute)
    result = opt_result_def(Attribute)

    @classmethod
    def parse(cls, parser: Parser) -> AwaitOp:
        u = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        pos = parser.pos
        ty = parser.parse_type()
        attrs = parser.parse_optional_attr_dict()
        if isinstance(ty, ValueType):
            res = [ty.value_type]
        elif isinstance(ty, TokenType):
            res = []
        else:
            parser.raise_error(f"async.await expects !async.token or !async.value, found {ty}",
                               pos)
        return cls.build(operands=[parser.resolve_operand(u, ty)], result_types=[res],
                         attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_string(" : ")
        printer.print_attribute(self.operand.type)
        print_attr_dict(printer, self.attributes)

    def verify_(self) -> None:
        t = self.operand.type
        if isinstance(t, TokenType):
            if self.result is not None:
                raise VerifyException("awaiting a token produces no result")
        elif isinstance(t, ValueType):
            if self.result is None or self.result.type != t.value_type:
                raise VerifyException(f"awaiting {t} must produce one {t.value_type}")
        else:
            raise VerifyException(f"operand must be !async.token or !async.value, got {t}")


@irdl_op_definition
class CreateGroupOp(IRDLOperation):
    """`%g = async.create_group %size : !async.group` (size: max tokens, index)."""

    name = "async.create_group"
    size = operand_def(IndexType)
    result = result_def(GroupType)

    @classmethod
    def parse(cls, parser: Parser) -> CreateGroupOp:
        u = parser.parse_unresolved_operand()
        attrs, types = parse_attrs_and_types(parser)
        return cls.build(operands=[parser.resolve_operand(u, INDEX)], result_types=types,
                         attributes=attrs)

    def print(self, printer: Printer) -> None:
        print_operands(printer, [self.size])
        print_attrs_and_types(printer, self.attributes, [self.result.type])


@irdl_op_definition
class AddToGroupOp(IRDLOperation):
    """`%rank = async.add_to_group %token, %group : !async.token` (rank: index)."""

    name = "async.add_to_group"
    operand = operand_def(TokenType)
    group = operand_def(GroupType)
    rank = result_def(IndexType)

    @classmethod
    def parse(cls, parser: Parser) -> AddToGroupOp:
        names = parse_operands(parser, 2)
        attrs, (ty,) = parse_attrs_and_types(parser)
        return cls.build(operands=resolve_operands(parser, names, [ty, GroupType()]),
                         result_types=[INDEX], attributes=attrs)

    def print(self, printer: Printer) -> None:
        print_operands(printer, [self.operand, self.group])
        print_attrs_and_types(printer, self.attributes, [self.operand.type])


@irdl_op_definition
class AwaitAllOp(IRDLOperation):
    """`async.await_all %group`: block until every token in the group completed."""

    name = "async.await_all"
    operand = operand_def(GroupType)

    @classmethod
    def parse(cls, parser: Parser) -> AwaitAllOp:
        u = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        return cls.build(operands=[parser.resolve_operand(u, GroupType())], attributes=attrs)

    def print(self, printer: Printer) -> None:
        print_operands(printer, [self.operand])
        print_attr_dict(printer, self.attributes)


@irdl_op_definition
class FuncOp(IRDLOperation):
    """`async.func @f(%a: i32) -> !async.value<i32> { ... async.return %x : i32 }`.

    A function that runs as a task when called: `async.call` returns a token
    (when the results list starts with !async.token) and values.
    """

    name = "async.func"
    sym_name = prop_def(SymbolNameConstraint())
    function_type = prop_def(FunctionType)
    sym_visibility = opt_prop_def(StringAttr)
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    body = region_def()
    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface())

    @classmethod
    def parse(cls, parser: Parser) -> FuncOp:
        vis = parser.parse_optional_visibility_keyword()
        name, ins, outs, region, extra, arg_attrs, res_attrs = parse_func_op_like(
            parser, reserved_attr_names=("sym_name", "function_type", "sym_visibility"))
        props: dict[str, Attribute] = {"sym_name": StringAttr(name),
                                       "function_type": FunctionType.from_lists(ins, outs)}
        if vis is not None:
            props["sym_visibility"] = vis
        if arg_attrs is not None:
            props["arg_attrs"] = arg_attrs
        if res_attrs is not None:
            props["res_attrs"] = res_attrs
        return cls.create(properties=props, regions=[region],
                          attributes=extra.data if extra else {})

    def print(self, printer: Printer) -> None:
        if self.sym_visibility is not None:
            printer.print_string(f" {self.sym_visibility.data}")
        print_func_op_like(printer, self.sym_name, self.function_type, self.body,
                           self.attributes, arg_attrs=self.arg_attrs, res_attrs=self.res_attrs,
                           reserved_attr_names=("sym_name", "function_type", "sym_visibility",
                                                "arg_attrs"))

    def verify_(self) -> None:
        for t in self.function_type.outputs.data:
            if not isinstance(t, TokenType | ValueType):
                raise VerifyException(
                    f"async.func results must be !async.token or !async.value, got {t}")


@irdl_op_definition
class CallOp(IRDLOperation):
    """`%v = async.call @f(%a) : (i32) -> !async.value<i32>`."""

    name = "async.call"
    callee = prop_def(SymbolRefAttr)
    arguments = var_operand_def(Attribute)
    res = var_result_def(Attribute)

    @classmethod
    def parse(cls, parser: Parser) -> CallOp:
        callee = parser.parse_symbol_name()
        names = parser.parse_comma_separated_list(parser.Delimiter.PAREN,
                                                  parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ft = parser.parse_function_type()
        if len(ft.inputs.data) != len(names):
            parser.raise_error(f"{len(names)} arguments but {len(ft.inputs.data)} types")
        args = resolve_operands(parser, names, ft.inputs.data)
        return cls.build(operands=[args], result_types=[list(ft.outputs.data)],
                         properties={"callee": SymbolRefAttr(callee)}, attributes=attrs)

    def verify_(self) -> None:
        # As upstream: the callee must be an async.func (a func.func is not callable here).
        from xdsl.traits import SymbolTable

        if not isinstance(SymbolTable.lookup_symbol(self, self.callee), FuncOp):
            raise VerifyException(f"'{self.callee.root_reference.data}' does not reference a "
                                  f"valid async function")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.callee)
        print_enclosed_operands(printer, self.arguments)
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        printer.print_function_type([a.type for a in self.arguments],
                                    [r.type for r in self.res])


@irdl_op_definition
class ReturnOp(ValuesTerminatorSyntax, IRDLOperation):
    """`async.return %v : T`: ends an async.func, filling its values."""

    name = "async.return"
    values = var_operand_def(Attribute)
    traits = traits_def(IsTerminator(), HasParent(FuncOp))


def _runtime_ops():
    from runner_core.ir.dialects.async_runtime_ops import RUNTIME_OPS

    return RUNTIME_OPS


Async = Dialect(
    "async",
    [ExecuteOp, YieldOp, AwaitOp, CreateGroupOp, AddToGroupOp, AwaitAllOp, FuncOp, CallOp,
     ReturnOp, *_runtime_ops()],
    [TokenType, ValueType, GroupType],
)

__all__ = ["Async", "TokenType", "ValueType", "GroupType", "ExecuteOp", "YieldOp", "AwaitOp",
           "CreateGroupOp", "AddToGroupOp", "AwaitAllOp", "FuncOp", "CallOp", "ReturnOp"]
