"""SSA value names for printing, assigned the way mlir-opt assigns them.

mlir-opt names values region by region: all values of a region's blocks
first (entry-block arguments `%argN`, other values `%N`), then the nested
regions, each starting from the counters where its parent region ended, in
its own name scope (sibling regions may reuse names).  A multi-result op
whose consecutive results share one name prints them as a group, `%0:2`, used as
`%0#0` / `%0#1` (`%token, %results:2 = async.execute ...`).

Unlike mlir-opt we keep the names written in the source (xDSL's name hints),
made unique in their scope with mlir-opt's conflict suffixes (`%c`, `%c_0`,
`%c_1`).  So printing upstream's own output back gives the same text, and
printing a user's file keeps the names its CHECK lines use.
"""

from __future__ import annotations

from xdsl.ir import Operation, Region, SSAValue


class _Counters:
    __slots__ = ("value", "arg", "conflict")

    def __init__(self, value: int = 0, arg: int = 0, conflict: int = 0):
        self.value, self.arg, self.conflict = value, arg, conflict

    def copy(self) -> _Counters:
        return _Counters(self.value, self.arg, self.conflict)


def _unique(hint: str, used: set[str], counters: _Counters) -> str:
    name = hint
    while name in used:
        name = f"{hint}_{counters.conflict}"
        counters.conflict += 1
    used.add(name)
    return name


def _runs(results) -> list[list]:
    """Consecutive results sharing one name hint (or all unnamed): mlir-opt's groups."""
    runs: list[list] = []
    for r in results:
        if runs and runs[-1][0].name_hint == r.name_hint:
            runs[-1].append(r)
        else:
            runs.append([r])
    return runs


def _name_results(op: Operation, names: dict[SSAValue, str], used: set[str],
                  counters: _Counters) -> None:
    for run in _runs(op.results):
        hint = run[0].name_hint
        if hint:
            base = _unique(hint, used, counters)
        else:
            base = str(counters.value)
            counters.value += 1
        if len(run) == 1:
            names[run[0]] = base
        else:
            for i, r in enumerate(run):
                names[r] = f"{base}#{i}"


def assign_names(root: Operation) -> dict[SSAValue, str]:
    """Name (without `%`) of every value defined by `root` and the ops nested in it."""
    names: dict[SSAValue, str] = {}
    counters = _Counters()
    top_used: set[str] = set()
    _name_results(root, names, top_used, counters)
    work: list[tuple[Region, _Counters, set[str]]] = [
        (r, counters.copy(), top_used) for r in reversed(root.regions)]
    while work:
        region, counters, parent_used = work.pop()
        used = set(parent_used)
        for i, block in enumerate(region.blocks):
            for arg in block.args:
                if arg.name_hint:
                    names[arg] = _unique(arg.name_hint, used, counters)
                elif i == 0:
                    names[arg] = _unique(f"arg{counters.arg}", used, counters)
                    counters.arg += 1
                else:
                    names[arg] = str(counters.value)
                    counters.value += 1
            for op in block.ops:
                _name_results(op, names, used, counters)
        nested = [r for block in region.blocks for op in block.ops for r in op.regions]
        for r in reversed(nested):
            work.append((r, counters.copy(), used))
    return names
