"""Dialects xDSL 0.75 lacks or gets wrong, registered in its place by `runner_core.ir.context`.

Code generation imports op classes from these modules, never from
`xdsl.dialects.gpu` (whose classes the runner does not register).
"""
