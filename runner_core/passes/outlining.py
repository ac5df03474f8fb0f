"""`gpu-launch-sink-index-computations` and `gpu-kernel-outlining`, as MLIR 22 does them.

Sinking: constants, `memref.dim`, `arith.select` and `arith.cmpi` feeding a
`gpu.launch` body from above are cloned into the body (recursively, when all
their operands can be made available), so they do not become kernel
arguments.  In MLIR 22 this is a separate pass; `gpu-kernel-outlining` itself
does not sink.

Outlining: each `gpu.launch` inside a top-level symbol (e.g. a `func.func`)
becomes a `gpu.func` kernel in a new `gpu.module` inserted right after that
symbol, and the launch becomes a `gpu.launch_func`:
* kernel name `<enclosing symbol>_kernel` (or the launch's `function` attr),
  module named like the kernel (or the launch's `module` attr; an existing
  gpu.module of that name receives the kernel), renamed `_0`, `_1`, ... on
  a clash;
* values used in the body but defined above become kernel arguments, in
  order of first use;
* the body starts with `gpu.block_id`, `gpu.thread_id`, `gpu.grid_dim`,
  `gpu.block_dim` (x, y, z each; plus `gpu.cluster_id`/`gpu.cluster_dim`
  when the launch has clusters) replacing the launch's region arguments;
* `known_block_size` / `known_grid_size` record constant launch sizes;
* symbols the kernel references (functions, globals) are cloned into the
  gpu.module; the top module gets `gpu.container_module`.
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
    i32,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.traits import ConstantLike, SymbolOpInterface

from runner_core.ir.dialects import gpu, index_dialect, memref_ext
from runner_core.ir.parse import walk_ops
from runner_core.passes.base import PassError

CONTAINER_MODULE_ATTR = "gpu.container_module"


# ---------------------------------------------------------------------------- helpers


def _is_inside(op: Operation, region: Region) -> bool:
    cur: Operation | None = op
    while cur is not None:
        if cur.parent_region() is region:
            return True
        cur = cur.parent_op()
    return False


def _defined_inside(value: SSAValue, region: Region) -> bool:
    owner = value.owner
    if isinstance(owner, Block):
        blk: Block | None = owner
    else:
        blk = owner.parent
    while blk is not None:
        if blk.parent is region:
            return True
        parent = blk.parent_op()
        blk = parent.parent if parent is not None else None
    return False


def used_values_defined_above(region: Region) -> list[SSAValue]:
    """Values used inside `region` but defined outside it, in order of first use."""
    seen: dict[SSAValue, None] = {}
    for block in region.blocks:
        for op in block.walk():
            for v in op.operands:
                if v not in seen and not _defined_inside(v, region):
                    seen[v] = None
    return list(seen)


def _is_sinking_beneficiary(op: Operation) -> bool:
    return (op.has_trait(ConstantLike) or isinstance(
        op, memref_ext.DimOp | arith.SelectOp | arith.CmpiOp | index_dialect.ConstantOp
        | index_dialect.BoolConstantOp))


def _constant_int(value: SSAValue) -> int | None:
    op = value.owner
    if isinstance(op, Operation) and op.has_trait(ConstantLike):
        attr = op.properties.get("value") or op.attributes.get("value")
        if isinstance(attr, IntegerAttr):
            return attr.value.data
    return None


# --------------------------------------------------------------------------- sinking


def sink_into_launch(launch: gpu.LaunchOp) -> None:
    """Clone cheap index computations that feed `launch` from above into its body."""
    body = launch.body
    candidates = used_values_defined_above(body)
    existing = set(candidates)
    to_sink: dict[Operation, None] = {}
    available: set[SSAValue] = set()

    def extract(op: Operation | None) -> bool:
        if op is None:
            return False
        if op in to_sink:
            return True
        if not _is_sinking_beneficiary(op):
            return False
        for v in op.operands:
            if v in available:
                continue
            owner = v.owner
            if (not isinstance(owner, Operation) or not extract(owner)) and v not in existing:
                return False
        to_sink[op] = None
        available.update(op.results)
        return True

    for v in candidates:
        owner = v.owner
        extract(owner if isinstance(owner, Operation) else None)

    entry = body.blocks.first
    assert entry is not None
    mapping: dict[SSAValue, SSAValue] = {}
    anchor = entry.first_op
    for op in to_sink:
        clone = op.clone(value_mapper=dict(mapping))
        if anchor is None:
            entry.add_op(clone)
        else:
            entry.insert_op_before(clone, anchor)
        for old, new in zip(op.results, clone.results, strict=True):
            mapping[old] = new
            old.replace_uses_with_if(new, lambda use: _is_inside(use.operation, body))


class SinkIndexComputationsPass:
    name = "gpu-launch-sink-index-computations"

    def run(self, op: Operation, ctx: Context) -> None:
        for launch in [o for o in op.walk() if isinstance(o, gpu.LaunchOp)]:
            sink_into_launch(launch)


# ------------------------------------------------------------------------- outlining


def _symbol_name(op: Operation) -> str | None:
    attr = op.attributes.get("sym_name") or op.properties.get("sym_name")
    return attr.data if isinstance(attr, StringAttr) else None


def _enclosing_symbol(op: Operation) -> Operation | None:
    cur = op.parent_op()
    while cur is not None:
        if cur.has_trait(SymbolOpInterface) and _symbol_name(cur) is not None:
            return cur
        cur = cur.parent_op()
    return None


class _SymbolTable:
    """Names of the symbols directly in one op's body, with MLIR's uniquing.

    Not xDSL's ``SymbolTable``: inserting outlined kernels needs MLIR's
    SymbolTable::insert renaming (``name_0``, ``name_1`` ...), which xDSL lacks,
    and a name set kept across many insertions.
    """

    def __init__(self, owner: Operation):
        self.block = owner.regions[0].blocks.first
        self.names: dict[str, Operation] = {}
        for op in self.block.ops:
            if (n := _symbol_name(op)) is not None:
                self.names[n] = op

    def unique(self, name: str) -> str:
        if name not in self.names:
            return name
        i = 0
        while f"{name}_{i}" in self.names:
            i += 1
        return f"{name}_{i}"

    def insert(self, op: Operation, before: Operation | None) -> str:
        name = self.unique(_symbol_name(op) or "")
        _set_symbol_name(op, name)
        self.names[name] = op
        if before is None:
            self.block.add_op(op)
        else:
            self.block.insert_op_before(op, before)
        return name


def _set_symbol_name(op: Operation, name: str) -> None:
    if "sym_name" in op.properties:
        op.properties["sym_name"] = StringAttr(name)
    else:
        op.attributes["sym_name"] = StringAttr(name)


def _flat_symbol_uses(op: Operation) -> Iterator[str]:
    def from_attr(a: Attribute) -> Iterator[str]:
        if isinstance(a, SymbolRefAttr):
            if not a.nested_references.data:
                yield a.root_reference.data
        elif hasattr(a, "data") and isinstance(a.data, tuple):
            for x in a.data:
                if isinstance(x, Attribute):
                    yield from from_attr(x)

    for inner in op.walk():
        for a in (*inner.properties.values(), *inner.attributes.values()):
            yield from from_attr(a)


def _const_dims(values: tuple[SSAValue, SSAValue, SSAValue]) -> DenseArrayBase | None:
    ints = [_constant_int(v) for v in values]
    if any(i is None for i in ints):
        return None
    return DenseArrayBase.from_list(i32, ints)


_ID_OPS = (gpu.BlockIdOp, gpu.ThreadIdOp, gpu.GridDimOp, gpu.BlockDimOp)
_CLUSTER_ID_OPS = (gpu.ClusterIdOp, gpu.ClusterDimOp)


def outline_launch(launch: gpu.LaunchOp, kernel_name: str) -> tuple[gpu.GPUFuncOp,
                                                                     list[SSAValue]]:
    """Move the body of `launch` into a new kernel; returns it and its operands."""
    body = launch.body
    operands = used_values_defined_above(body)
    entry = body.blocks.first
    n_config = launch.num_config_args
    n_work = launch.num_workgroup_attributions
    config_args = list(entry.args[:n_config])

    # Kernel arguments first, then keep the attribution arguments after them.
    new_args = [entry.insert_arg(v.type, i) for i, v in enumerate(operands)]
    for v, arg in zip(operands, new_args, strict=True):
        v.replace_uses_with_if(arg, lambda use: _is_inside(use.operation, body))

    # Launch configuration arguments become id/dim queries at the top of the body.
    id_classes = list(_ID_OPS) + (list(_CLUSTER_ID_OPS) if launch.has_clusters else [])
    id_ops: list[Operation] = []
    for cls in id_classes:
        for dim in ("x", "y", "z"):
            id_ops.append(cls(dim))
    anchor = entry.first_op
    for op in id_ops:
        if anchor is None:
            entry.add_op(op)
        else:
            entry.insert_op_before(op, anchor)
    for arg, op in zip(config_args, id_ops, strict=True):
        arg.replace_all_uses_with(op.results[0])
    for arg in config_args:
        entry.erase_arg(arg)

    # gpu.terminator -> gpu.return
    for block in body.blocks:
        last = block.last_op
        if isinstance(last, gpu.TerminatorOp):
            ret = gpu.ReturnOp()
            ret.location = last.location
            block.insert_op_before(ret, last)
            block.erase_op(last)

    region = launch.detach_region(body)
    ftype_inputs = [v.type for v in operands]
    from xdsl.dialects.builtin import FunctionType

    func = gpu.GPUFuncOp(kernel_name, FunctionType.from_lists(ftype_inputs, []), region,
                         kernel=True, workgroup_count=n_work)
    func.location = launch.location
    if (b := _const_dims(launch.block_size)) is not None:
        func.properties["known_block_size"] = b
    if (g := _const_dims(launch.grid_size)) is not None:
        func.properties["known_grid_size"] = g
    return func, operands


def _clone_referenced_symbols(kernel_module: gpu.GPUModuleOp, kernel: Operation,
                              parent: _SymbolTable) -> None:
    table = _SymbolTable(kernel_module)
    worklist = [kernel]
    while worklist:
        for name in _flat_symbol_uses(worklist.pop()):
            if name in table.names:
                continue
            source = parent.names.get(name)
            if source is None:
                continue
            clone = source.clone()
            table.names[name] = clone
            kernel_module.body.blocks.first.add_op(clone)
            worklist.append(clone)


class KernelOutliningPass:
    name = "gpu-kernel-outlining"

    def __init__(self, data_layout_str: str = ""):
        self.data_layout_str = data_layout_str

    def run(self, op: Operation, ctx: Context) -> None:
        if not isinstance(op, ModuleOp):
            raise PassError("error: gpu-kernel-outlining runs on builtin.module")
        table = _SymbolTable(op)
        modified = False
        for top in list(op.body.blocks.first.ops):
            if not top.has_trait(SymbolOpInterface) or isinstance(top, gpu.GPUModuleOp):
                continue
            insert_before = top.next_op
            launches = [o for o in walk_ops(top) if isinstance(o, gpu.LaunchOp)]
            for launch in launches:
                self._outline_one(op, table, launch, insert_before)
                modified = True
        if modified:
            op.attributes[CONTAINER_MODULE_ATTR] = UnitAttr()

    def _outline_one(self, module: ModuleOp, table: _SymbolTable, launch: gpu.LaunchOp,
                     insert_before: Operation | None) -> None:
        if launch.function is not None:
            kernel_name = launch.function.root_reference.data
        else:
            sym = _enclosing_symbol(launch)
            kernel_name = f"{_symbol_name(sym) if sym else 'main'}_kernel"
        func, operands = outline_launch(launch, kernel_name)

        existing = None
        if launch.module is not None:
            cand = table.names.get(launch.module.root_reference.data)
            existing = cand if isinstance(cand, gpu.GPUModuleOp) else None
        if existing is not None:
            inner = _SymbolTable(existing)
            func_name = inner.insert(func, None)
            kernel_module = existing
        else:
            module_name = (launch.module.root_reference.data if launch.module is not None
                           else kernel_name)
            kernel_module = gpu.GPUModuleOp(module_name, [func])
            kernel_module.location = launch.location
            table.insert(kernel_module, insert_before)
            func_name = kernel_name
        _clone_referenced_symbols(kernel_module, func, table)

        mod_name = _symbol_name(kernel_module)
        launch_func = gpu.LaunchFuncOp.build(
            operands=[list(launch.asyncDependencies), *launch.grid_size, *launch.block_size,
                      *([[v] for v in launch.cluster_size] if launch.has_clusters
                        else [[], [], []]),
                      [launch.dynamicSharedMemorySize]
                      if launch.dynamicSharedMemorySize is not None else [],
                      operands, []],
            result_types=[[launch.asyncToken.type] if launch.asyncToken is not None else []],
            properties={"kernel": SymbolRefAttr(mod_name, [func_name])})
        launch_func.location = launch.location
        parent_block = launch.parent
        parent_block.insert_op_before(launch_func, launch)
        if launch.asyncToken is not None:
            launch.asyncToken.replace_all_uses_with(launch_func.asyncToken)
        parent_block.erase_op(launch)
