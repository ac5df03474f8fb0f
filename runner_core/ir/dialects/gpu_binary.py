"""Kernels compiled by someone else: `gpu.binary`, `#gpu.object`, `#gpu.select_object`.

What upstream's `gpu-module-to-binary` (and so `-gpu-lower-to-nvvm-pipeline`)
leaves in place of each `gpu.module`:

    gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_90">,
                          properties = {O = 2 : i32}, assembly = "// PTX ...">]

The object's format is the keyword before its string, as mlir-opt 22 prints
it: `assembly` (PTX text, `format=isa`), `bin` (a cubin), `offload` (LLVM
bitcode of the device module, `format=llvm`/`offload`), none (a fatbin, the
default).  A `gpu.binary` may start with an offloading handler
(`<#gpu.select_object<1>>`: which object to use; the first by default).

The GPU dialect (:mod:`.gpu`) lists these with its other ops and attributes.  What a backend does with the objects is the backend's
business (``Backend.load_gpu_object``).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    ArrayAttr,
    BytesAttr,
    DictionaryAttr,
    IntegerAttr,
    StringAttr,
    SymbolNameConstraint,
)
from xdsl.ir import Attribute, ParametrizedAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    opt_prop_def,
    param_def,
    prop_def,
    traits_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import SymbolOpInterface
from xdsl.utils.exceptions import VerifyException

from ._syntax import print_attr_dict

# Format keyword as printed -> the name gpu-module-to-binary's `format=` option uses.
FORMATS = {"assembly": "isa", "bin": "bin", "offload": "llvm", "": "fatbin"}
_KEYWORDS = {v: k for k, v in FORMATS.items()}


@irdl_attr_definition
class ObjectAttr(ParametrizedAttribute):
    """`#gpu.object<target, [properties = {...},] [kernels = ...,] [format =] "bytes">`."""

    name = "gpu.object"
    target: Attribute = param_def()
    format: StringAttr = param_def()  # isa | bin | llvm | fatbin
    properties: DictionaryAttr = param_def()
    extra: DictionaryAttr = param_def()  # what else was written (kept for printing)
    object: StringAttr | BytesAttr = param_def()  # xDSL: BytesAttr when not UTF-8

    @property
    def data(self) -> bytes:
        """The object's bytes."""
        raw = self.object.data
        return raw if isinstance(raw, bytes) else raw.encode()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        target = parser.parse_attribute()
        props: dict[str, Attribute] = {}
        extra: dict[str, Attribute] = {}
        fmt = "fatbin"
        parser.parse_punctuation(",")
        while True:
            text = parser.parse_optional_str_literal()
            if text is not None:
                obj = StringAttr(text)
                break
            raw = parser.parse_optional_bytes_literal()
            if raw is not None:
                obj = BytesAttr(raw)
                break
            key = parser.parse_identifier()
            parser.parse_punctuation("=")
            if key in ("assembly", "bin", "offload", "fatbin"):
                fmt = FORMATS.get(key, key)
                obj = parser.parse_attribute()
                if not isinstance(obj, StringAttr | BytesAttr):
                    parser.raise_error(f"expected the object's bytes as a string after '{key} ='")
                break
            value = parser.parse_attribute()
            if key == "properties":
                if not isinstance(value, DictionaryAttr):
                    parser.raise_error("expected a dictionary after 'properties ='")
                props = dict(value.data)
            else:
                extra[key] = value
            parser.parse_punctuation(",")
        parser.parse_punctuation(">")
        return (target, StringAttr(fmt), DictionaryAttr(props), DictionaryAttr(extra), obj)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.target)
        if self.properties.data:
            printer.print_string(", properties = ")
            printer.print_attribute(self.properties)
        for key, value in self.extra.data.items():
            printer.print_string(f", {key} = ")
            printer.print_attribute(value)
        printer.print_string(", ")
        keyword = _KEYWORDS.get(self.format.data, self.format.data)
        if keyword:
            printer.print_string(f"{keyword} = ")
        printer.print_attribute(self.object)
        printer.print_string(">")


@irdl_attr_definition
class SelectObjectAttr(ParametrizedAttribute):
    """`#gpu.select_object<1>` or `#gpu.select_object<#nvvm.target>`: which object of a
    `gpu.binary` runs (by index, or the first with that target)."""

    name = "gpu.select_object"
    target: Attribute = param_def()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        value = parser.parse_attribute()
        parser.parse_punctuation(">")
        return (value,)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.target)
        printer.print_string(">")


@irdl_op_definition
class BinaryOp(IRDLOperation):
    """`gpu.binary @name [<handler>] attr-dict [objects]`."""

    name = "gpu.binary"
    sym_name = prop_def(SymbolNameConstraint())
    offloadingHandler = opt_prop_def(Attribute)
    objects = prop_def(ArrayAttr)

    traits = traits_def(SymbolOpInterface())

    @classmethod
    def parse(cls, parser: Parser) -> BinaryOp:
        name = parser.parse_symbol_name()
        props: dict[str, Attribute] = {"sym_name": name}
        if parser.parse_optional_punctuation("<") is not None:
            props["offloadingHandler"] = parser.parse_attribute()
            parser.parse_punctuation(">")
        attrs = parser.parse_optional_attr_dict()
        objects = parser.parse_comma_separated_list(parser.Delimiter.SQUARE,
                                                    parser.parse_attribute)
        props["objects"] = ArrayAttr(objects)
        return cls.create(properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string(" ")
        if self.offloadingHandler is not None:
            printer.print_string("<")
            printer.print_attribute(self.offloadingHandler)
            printer.print_string("> ")
        print_attr_dict(printer, self.attributes)
        printer.print_string(" [")
        printer.print_list(self.objects.data, printer.print_attribute)
        printer.print_string("]")

    def verify_(self) -> None:
        if not self.objects.data:
            raise VerifyException("'gpu.binary' op attribute 'objects' failed to satisfy "
                                  "constraint: an array of GPU object attributes with at "
                                  "least 1 element")
        for obj in self.objects.data:
            if not isinstance(obj, ObjectAttr):
                raise VerifyException(f"'gpu.binary' expects #gpu.object attributes, got {obj}")
        self.selected()

    def selected(self) -> ObjectAttr:
        """The object the offloading handler picks (`#gpu.select_object`; the first by default)."""
        objs = self.objects.data
        handler = self.offloadingHandler
        if handler is None:
            return objs[0]
        if not isinstance(handler, SelectObjectAttr):
            raise VerifyException(f"unsupported offloading handler {handler}: only "
                                  "#gpu.select_object is known")
        target = handler.target
        if isinstance(target, IntegerAttr):
            index = target.value.data
            if not 0 <= index < len(objs):
                raise VerifyException(f"the requested target object couldn't be found "
                                      f"(index {index} of {len(objs)} objects)")
            return objs[index]
        for obj in objs:
            if obj.target == target:
                return obj
        raise VerifyException(f"the requested target object couldn't be found ({target})")


__all__ = ["BinaryOp", "ObjectAttr", "SelectObjectAttr", "FORMATS"]
