"""Verifier exceptions with MLIR's own wording rules, shared by op classes and the verifier."""

from __future__ import annotations

from xdsl.utils.exceptions import VerifyException


class UnprefixedVerifyException(VerifyException):
    """A verifier error MLIR emits at the op's location without the "'name' op" prefix
    (the subview layout mismatch, which it reports through a custom diagnostic)."""
