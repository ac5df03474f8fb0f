"""`gpu.binary @name [objects]`: a gpu.module after serialization (upstream's
``gpu-module-to-binary``), kept as text.

The objects (``#gpu.object<#nvvm.target<...>, "bytes">``) use attributes of
dialects the front end does not model; the op keeps their text as it was
written and prints it back, so a pipeline's output (e.g. the PTX of
``cubin-format=isa`` that a test reads with FileCheck) round-trips.  Running a
``gpu.binary`` is the backends' business (``Backend.load_gpu_object``).
"""

from __future__ import annotations

from xdsl.dialects.builtin import StringAttr, SymbolNameConstraint
from xdsl.ir import Attribute
from xdsl.irdl import IRDLOperation, irdl_op_definition, opt_prop_def, prop_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import SymbolOpInterface


def _scan_bracketed(text: str, start: int, open_: str, close: str) -> int:
    """Index just past the bracket closing the one at ``start`` (strings skipped)."""
    depth, i, n = 0, start, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif ch in "[<({":
            depth += 1
        elif ch in "]>)}":
            depth -= 1
            if depth == 0:
                if ch != close:
                    break
                return i + 1
        i += 1
    return -1


@irdl_op_definition
class BinaryOp(IRDLOperation):
    name = "gpu.binary"
    sym_name = prop_def(SymbolNameConstraint())
    objects = prop_def(StringAttr)  # the text between the brackets, as written
    offloading_handler = opt_prop_def(StringAttr)  # `<...>` after the name, as written
    traits = traits_def(SymbolOpInterface())

    def __init__(self, name: str, objects: str, handler: str | None = None):
        props: dict[str, Attribute] = {"sym_name": StringAttr(name),
                                       "objects": StringAttr(objects)}
        if handler is not None:
            props["offloading_handler"] = StringAttr(handler)
        super().__init__(properties=props)

    @classmethod
    def parse(cls, parser: Parser) -> BinaryOp:
        name = parser.parse_symbol_name().data
        text = parser.lexer.input.content
        handler = None
        if text[parser.pos] == "<":
            end = _scan_bracketed(text, parser.pos, "<", ">")
            if end < 0:
                parser.raise_error("expected '>' closing the offloading handler")
            handler = text[parser.pos:end]
            parser._resume_from(end)
        start = parser.pos
        if text[start] != "[":
            parser.raise_error("expected '[' starting the objects of gpu.binary")
        end = _scan_bracketed(text, start, "[", "]")
        if end < 0:
            parser.raise_error("expected ']' closing the objects of gpu.binary")
        parser._resume_from(end)
        attrs = parser.parse_optional_attr_dict()
        op = cls(name, text[start + 1:end - 1], handler)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        if self.offloading_handler is not None:
            printer.print_string(f" {self.offloading_handler.data}")
        printer.print_string(f"  [{self.objects.data}]")
        if self.attributes:
            printer.print_op_attributes(self.attributes)


def _escape(text: str) -> str:
    """MLIR string literal escapes: printable ASCII as is, the rest as ``\\XX``."""
    out = []
    for byte in text.encode():
        ch = chr(byte)
        if ch in '"\\' or byte < 32 or byte > 126:
            out.append(f"\\{byte:02X}")
        else:
            out.append(ch)
    return "".join(out)


def make_isa_binary(name: str, ptx: str, chip: str, features: str, opt: int) -> BinaryOp:
    """What ``format=isa`` gives: the PTX as the object's text (upstream's printed form)."""
    # Upstream prints only the parameters that differ from their defaults.
    params = [p for p, default in ((f"O = {opt}", opt == 2), (f'chip = "{chip}"', chip == "sm_50"),
                                   (f'features = "{features}"', features == "+ptx60"))
              if not default]
    target = f"#nvvm.target<{', '.join(params)}>" if params else "#nvvm.target"
    return BinaryOp(name, f'#gpu.object<{target}, assembly = "{_escape(ptx)}">')
