"""SSA value and block names for printing, assigned by mlir-opt 22's rules.

This is MLIR's `SSANameState`: the values of a region come first, block by
block (entry-block arguments `%argN`, other block arguments and results
`%N`), then the regions nested in its ops, each starting from the counters
where its parent region ended, in its own scope of used names (sibling
regions reuse names and numbers).  An op's results and block arguments may
be named by its asm-name hook (`asm_names`: `%c5_i32`, `%alloc`, `%in`);
a name already used in scope gets a suffix from one counter shared by all
names (`%cst`, `%cst_0`, `%c0_1`).  Results after a named one, up to the
next named one, form its group: `%0:2`, used as `%0#1`; a group's head gets
one number however long it is.  The generic form (`generic=True`) uses no
hooks and numbers uniquely (OpPrintingFlags::shouldPrintUniqueSSAIDs): the
counters run on through the whole op instead of restarting per region, the
regions taken last first, as MLIR's work stack takes them.  Blocks are `^bb0`, `^bb1`, ... in each region.  The source's names
are never kept.
"""

from __future__ import annotations

import re

from xdsl.ir import Block, Operation, SSAValue

from runner_core.ir.asm_names import BLOCK_ARG_NAMES, RESULT_NAMES

_VALID = re.compile(r"[A-Za-z0-9$._-]+\Z")


def _sanitize(name: str) -> str:
    """MLIR's sanitizeIdentifier for value names."""
    if _VALID.match(name) and not name[0].isdigit():
        return name
    out = "_" if name[0].isdigit() else ""
    for ch in name:
        if ch.isascii() and (ch.isalnum() or ch in "$._-"):
            out += ch
        elif ch == " ":
            out += "_"
        else:
            out += "".join(f"{b:X}" for b in ch.encode())
    return out


class _Namer:
    __slots__ = ("names", "blocks", "generic", "value", "arg", "conflict", "used")

    def __init__(self, generic: bool):
        self.names: dict[SSAValue, str] = {}
        self.blocks: dict[Block, str] = {}
        self.generic = generic
        self.value = self.arg = self.conflict = 0
        self.used: set[str] = set()

    def unique(self, name: str) -> str:
        name = _sanitize(name)
        used = self.used
        if name in used:
            while True:
                probe = f"{name}_{self.conflict}"
                self.conflict += 1
                if probe not in used:
                    name = probe
                    break
        used.add(name)
        return name

    def number_op(self, op: Operation) -> None:
        results = op.results
        if not results:
            return
        names = self.names
        hook = None if self.generic else RESULT_NAMES.get(op.name)
        if hook is None:
            head = str(self.value)
            self.value += 1
            if len(results) == 1:
                names[results[0]] = head
            else:
                for i, r in enumerate(results):
                    names[r] = f"{head}#{i}"
            return
        given = [(0, hook)] if isinstance(hook, str) else hook(op)
        starts: dict[int, str] = {}
        for i, name in given:
            starts[i] = self.unique(name)
        if 0 not in starts:
            starts[0] = str(self.value)
            self.value += 1
        bounds = sorted(starts) + [len(results)]
        for k in range(len(bounds) - 1):
            lo, hi = bounds[k], bounds[k + 1]
            base = starts[lo]
            if hi - lo == 1:
                names[results[lo]] = base
            else:
                for i in range(lo, hi):
                    names[results[i]] = f"{base}#{i - lo}"

    def number_region(self, region, parent: Operation | None) -> None:
        names = self.names
        if parent is not None and not self.generic:
            hook = BLOCK_ARG_NAMES.get(parent.name)
            entry = region.blocks.first
            if hook is not None and entry is not None:
                index = next(i for i, r in enumerate(parent.regions) if r is region)
                for arg, name in zip(entry.args, hook(parent, index), strict=False):
                    if name:
                        names[arg] = self.unique(name)
        for i, block in enumerate(region.blocks):
            self.blocks[block] = f"bb{i}"
            for arg in block.args:
                if arg in names:
                    continue
                if i == 0:
                    names[arg] = self.unique(f"arg{self.arg}")
                    self.arg += 1
                else:
                    names[arg] = str(self.value)
                    self.value += 1
            for op in block.ops:
                self.number_op(op)


def assign_names(root: Operation, *, generic: bool = False
                 ) -> tuple[dict[SSAValue, str], dict[Block, str]]:
    """Names (without `%`/`^`) of every value and block defined by `root` and the ops
    nested in it: `0`, `0#1` (result 1 of the group headed `%0`), `arg0`, `c5_i32`;
    `bb0`."""
    namer = _Namer(generic)
    # (region, parent op, value/arg/conflict counters, used names of the parent scope)
    work = [(r, root, 0, 0, 0, set()) for r in root.regions]
    namer.number_op(root)
    while work:
        region, parent, value, arg, conflict, used = work.pop()
        if not generic:  # the generic form numbers uniquely across the whole op
            namer.value, namer.arg, namer.conflict = value, arg, conflict
        namer.used = set(used)
        namer.number_region(region, parent)
        state = (namer.value, namer.arg, namer.conflict, namer.used)
        for block in region.blocks:
            for op in block.ops:
                for r in op.regions:
                    work.append((r, op, *state))
    return namer.names, namer.blocks
