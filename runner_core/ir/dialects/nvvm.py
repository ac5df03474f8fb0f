"""The part of MLIR's `nvvm` dialect test programs write by hand: `#nvvm.target<...>`.

Programs lowered by `nvvm-attach-target` (or written after it) carry
`gpu.module @m [#nvvm.target<chip = "sm_90">]`.  The runner picks its own
target, but keeps the attribute so it parses, prints and can be inspected
(`chip`, `features`, `opt_level`).  Of the NVVM ops only the wgmma group ops
Hopper programs write beside `nvgpu.warpgroup.mma` (`nvvm_wgmma.py`) and the
warp-level `elect.sync` / `shfl.sync` they pick lanes with (`nvvm_sync.py`) are here:
programs use the `gpu` dialect and the runner lowers it itself.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DictionaryAttr, IntegerAttr, StringAttr
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition, param_def
from xdsl.parser import AttrParser
from xdsl.printer import Printer

# MLIR's defaults for parameters a program leaves out.
DEFAULT_CHIP = "sm_50"
DEFAULT_TRIPLE = "nvptx64-nvidia-cuda"
DEFAULT_OPT_LEVEL = 2


@irdl_attr_definition
class TargetAttr(ParametrizedAttribute):
    """`#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">`; `params` keeps what was written."""

    name = "nvvm.target"
    params: DictionaryAttr = param_def()

    def __init__(self, params: dict[str, Attribute] | None = None):
        super().__init__(DictionaryAttr(params or {}))

    def _get(self, key: str) -> Attribute | None:
        return self.params.data.get(key)

    @property
    def chip(self) -> str:
        v = self._get("chip")
        return v.data if isinstance(v, StringAttr) else DEFAULT_CHIP

    @property
    def triple(self) -> str:
        v = self._get("triple")
        return v.data if isinstance(v, StringAttr) else DEFAULT_TRIPLE

    @property
    def features(self) -> str:
        v = self._get("features")
        return v.data if isinstance(v, StringAttr) else ""

    @property
    def opt_level(self) -> int:
        v = self._get("O")
        return v.value.data if isinstance(v, IntegerAttr) else DEFAULT_OPT_LEVEL

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        params: dict[str, Attribute] = {}
        if parser.parse_optional_punctuation("<") is None:
            return (DictionaryAttr({}),)

        def one() -> None:
            key = parser.parse_identifier()
            parser.parse_punctuation("=")
            params[key] = parser.parse_attribute()

        if parser.parse_optional_punctuation(">") is None:
            parser.parse_comma_separated_list(parser.Delimiter.NONE, one)
            parser.parse_punctuation(">")
        return (DictionaryAttr(params),)

    def print_parameters(self, printer: Printer) -> None:
        if not self.params.data:
            return
        printer.print_string("<")

        def one(item: tuple[str, Attribute]) -> None:
            printer.print_string(f"{item[0]} = ")
            if item[0] == "O" and isinstance(item[1], IntegerAttr):
                printer.print_string(str(item[1].value.data))  # an int parameter in MLIR
            else:
                printer.print_attribute(item[1])

        printer.print_list(self.params.data.items(), one)
        printer.print_string(">")


from runner_core.ir.dialects.nvvm_sync import SYNC_NVVM_ATTRS, SYNC_NVVM_OPS  # noqa: E402
from runner_core.ir.dialects.nvvm_wgmma import WGMMA_NVVM_OPS  # noqa: E402

NVVM = Dialect("nvvm", [*WGMMA_NVVM_OPS, *SYNC_NVVM_OPS], [TargetAttr, *SYNC_NVVM_ATTRS])

__all__ = ["NVVM", "TargetAttr"]
