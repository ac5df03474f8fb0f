"""A call through a function pointer, for llvmlite's ``IRBuilder.call``.

Its own module (llvmlite only) because the cpu backend's fiber runtime builds such
calls too and must not import the code generator, nor xDSL with it, just for this.
"""

from __future__ import annotations

import llvmlite.ir as ir


class IndirectCallee:
    """llvmlite calls only things that carry a function type; an opaque ``ptr``
    value does not, so this pairs the pointer with the callee's type."""

    def __init__(self, ptr: ir.Value, fnty: ir.FunctionType):
        self._ptr = ptr
        self.function_type = fnty
        self.type = ir.PointerType()

    def get_reference(self):
        return self._ptr.get_reference()

    def __getattr__(self, item):
        return getattr(self._ptr, item)
