"""Pass options checked as LLVM 22's mlir-opt checks them, before anything runs.

The embedded mlir-opt records most upstream passes for the runner instead of running
them, so nothing else would look at their options: a misspelt or renamed option
(`convert-vector-to-llvm="enable-x86"`, which mlir-opt 22 refuses) would pass here and
fail there.  The known options come from mlir-opt 22's own help
(`runner_core/mlir22_pass_options.py`); the messages are its, in the two forms it
prints them (a pass flag, or an item of `-pass-pipeline`).
"""

from __future__ import annotations

from functools import cache

from runner_core.passes.base import PassError

_BOOL = {"", "true", "TRUE", "True", "1", "false", "FALSE", "False", "0"}


@cache
def _table() -> dict[str, dict[str, frozenset[str] | None]]:
    """pass -> option -> allowed values (None: any); `<pipeline>` marks pipelines."""
    from runner_core.mlir22_pass_options import TABLE

    out: dict[str, dict[str, frozenset[str] | None]] = {}
    for line in TABLE.strip().splitlines():
        name, _, words = line.partition(":")
        opts: dict[str, frozenset[str] | None] = {}
        for w in words.split():
            if w.endswith("?"):
                opts[w[:-1]] = frozenset(_BOOL)
            elif "=" in w:
                key, _, values = w.partition("=")
                opts[key] = frozenset(values.split("|"))
            else:
                opts[w] = None
        out[name] = opts
    return out


def check(name: str, options: dict[str, str], raw: str, *, in_pipeline: bool) -> None:
    """Raise mlir-opt 22's error for the first option of `name` it would refuse.

    `raw` is the option text as written (mlir-opt quotes it when the pass is an item
    of a textual pipeline).  Passes mlir-opt 22 does not have are not judged here."""
    known = _table().get(name)
    if known is None or not options:
        return
    pipeline = "<pipeline>" in known
    for key, value in options.items():
        if key not in known or key == "<pipeline>":
            first = f"<Pass-Options-Parser>: no such option {key}"
            if not pipeline:
                first = f"<unknown>:0: error: {first}\n"
        elif known[key] is not None and value not in known[key]:
            kind = known[key] == frozenset(_BOOL)
            why = (f"'{value}' is invalid value for boolean argument! Try 0 or 1" if kind
                   else f"Cannot find option named '{value}'!")
            first = f"mlir-opt: for the --{key} option: {why}\n<unknown>:0: error: "
        else:
            continue
        if not in_pipeline:
            raise PassError(first)
        sep = "\n<unknown>:0: error: " if pipeline else "\n"
        raise PassError(f"{first}{sep}failed to add `{name}` with options `{raw}`\n")
