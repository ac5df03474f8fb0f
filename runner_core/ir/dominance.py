"""Block dominance inside a region whose blocks form a CFG (cf.br / cf.cond_br ...).

A value defined in block A may be used in block B of the same region only if
every path from the region's entry to B passes through A.  mlir-opt checks
this with a dominator tree; so do we, for regions of more than one block
(single-block regions only need the order of ops, which the verifier checks
directly).  Blocks unreachable from the entry are dominated by every block,
as in MLIR: code that never runs may use anything.

The tree is computed once per region on first use (Cooper, Harvey and
Kennedy's iterative algorithm over reverse post-order), so verifying a
function costs a walk of its CFG, not one per use.
"""

from __future__ import annotations

from xdsl.ir import Block, Region


def _successors(block: Block) -> list[Block]:
    term = block.last_op
    return list(term.successors) if term is not None else []


class DominatorTree:
    """Immediate dominators of the blocks of one region."""

    def __init__(self, region: Region):
        entry = region.blocks.first
        order: list[Block] = []  # post-order
        seen: set[Block] = set()
        if entry is not None:
            stack: list[tuple[Block, int]] = [(entry, 0)]
            seen.add(entry)
            while stack:
                block, i = stack.pop()
                succs = _successors(block)
                if i < len(succs):
                    stack.append((block, i + 1))
                    nxt = succs[i]
                    if nxt not in seen and nxt.parent is region:
                        seen.add(nxt)
                        stack.append((nxt, 0))
                else:
                    order.append(block)
        self._index = {b: i for i, b in enumerate(order)}  # post-order number
        self._idom: dict[Block, Block] = {}
        if entry is None:
            return
        preds: dict[Block, list[Block]] = {b: [] for b in order}
        for b in order:
            for s in _successors(b):
                if s in preds:
                    preds[s].append(b)
        self._idom[entry] = entry
        rpo = list(reversed(order))
        changed = True
        while changed:
            changed = False
            for b in rpo[1:]:
                new = None
                for p in preds[b]:
                    if p in self._idom:
                        new = p if new is None else self._intersect(p, new)
                if new is not None and self._idom.get(b) is not new:
                    self._idom[b] = new
                    changed = True

    def _intersect(self, a: Block, b: Block) -> Block:
        index = self._index
        while a is not b:
            while index[a] < index[b]:
                a = self._idom[a]
            while index[b] < index[a]:
                b = self._idom[b]
        return a

    def reachable(self, block: Block) -> bool:
        return block in self._idom

    def dominates(self, a: Block, b: Block) -> bool:
        """Every path from the entry to `b` goes through `a` (a block dominates itself)."""
        if not self.reachable(b):
            return True
        if not self.reachable(a):
            return False
        while True:
            if b is a:
                return True
            parent = self._idom[b]
            if parent is b:  # the entry
                return False
            b = parent


class Dominance:
    """Dominator trees of a module's multi-block regions, built on demand."""

    def __init__(self):
        self._trees: dict[Region, DominatorTree] = {}

    def tree(self, region: Region) -> DominatorTree:
        t = self._trees.get(region)
        if t is None:
            t = self._trees[region] = DominatorTree(region)
        return t

    def block_dominates(self, a: Block, b: Block) -> bool:
        """`a` and `b` are blocks of one region."""
        return a is b or self.tree(a.parent).dominates(a, b)


def enclosing_block_in(region: Region, block: Block) -> Block | None:
    """The block of `region` that contains `block` (itself, or through nested ops)."""
    while block is not None and block.parent is not region:
        owner = block.parent.parent if block.parent is not None else None
        block = owner.parent if owner is not None else None
    return block
