"""The names ops give their results and block arguments when printed (one table).

MLIR ops choose the names mlir-opt prints through `OpAsmOpInterface`
(`getAsmResultNames`, `getAsmBlockArgumentNames`); every other value is
numbered (`%0`, `%arg0`).  This module is our copy of those hooks, keyed by
op name, as LLVM 22 defines them, so `naming.assign_names` prints what
mlir-opt 22 prints.  An op missing here gets numbers, which is right for most
ops (check with `/usr/lib/llvm-22/bin/mlir-opt FILE`: an op it prints as
`%0 = ...` needs no entry).

Adding names for an op: `RESULT_NAMES[op_name]` is either a string (the name
of result 0, as most hooks give) or a function `op -> [(result_index, name),
...]`; `BLOCK_ARG_NAMES[op_name]` is a function `(op, region_index) ->
[name or None per entry-block argument]`.  Results after a named result up to
the next named one print as its group (`%sizes:2`, used as `%sizes#1`), as
in MLIR.  An ODS op declaring two or more results and no hook of its own gets
its ODS result names from mlir-tblgen (`%sum, %overflow`, `%memref,
%asyncToken`): list those here too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.ir import Operation

ResultNames = str | Callable[[Operation], Sequence[tuple[int, str]]]
BlockArgNames = Callable[[Operation, int], Sequence[str | None]]


def _int_type_text(t) -> str:
    from xdsl.dialects.builtin import Signedness

    prefix = {Signedness.SIGNLESS: "i", Signedness.SIGNED: "si",
              Signedness.UNSIGNED: "ui"}[t.signedness.data]
    return f"{prefix}{t.width.data}"


def _signed(value: int, width: int) -> int:
    """APInt printed signed, as `raw_ostream << APInt` does."""
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


def _value(op: Operation):
    value = op.properties.get("value")
    return op.attributes.get("value") if value is None else value


def _arith_constant(op: Operation) -> Sequence[tuple[int, str]]:
    # arith::ConstantOp::getAsmResultNames: %true/%false for i1, %c<value>_<type>
    # for other integers, %c<value> for index, %cst for everything else.
    from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType

    value = _value(op)
    t = op.results[0].type
    if not isinstance(value, IntegerAttr):
        return [(0, "cst")]
    if isinstance(t, IntegerType):
        width = t.width.data
        if width == 1:
            return [(0, "true" if value.value.data & 1 else "false")]
        return [(0, f"c{_signed(value.value.data, width)}_{_int_type_text(t)}")]
    if isinstance(t, IndexType):
        return [(0, f"c{_signed(value.value.data, 64)}")]
    return [(0, f"c{value.value.data}")]


def _index_constant(op: Operation) -> Sequence[tuple[int, str]]:
    value = _value(op)
    return [(0, f"idx{_signed(value.value.data, 64)}")]


def _index_bool_constant(op: Operation) -> Sequence[tuple[int, str]]:
    value = _value(op)
    return [(0, "true" if value.value.data else "false")]


def _gpu_dimension(op: Operation) -> Sequence[tuple[int, str]]:
    # %thread_id_x, %block_dim_y, %cluster_block_id_z, ...
    dim = op.properties["dimension"]
    return [(0, f"{op.name.partition('.')[2]}_{dim.data.value}")]


def _each(*names: str) -> Callable[[Operation], Sequence[tuple[int, str]]]:
    """One name per result, in order, for the results present (ODS names)."""
    def hook(op: Operation) -> Sequence[tuple[int, str]]:
        return list(enumerate(names[:len(op.results)]))
    return hook


def _strided_metadata(op: Operation) -> Sequence[tuple[int, str]]:
    # base_buffer, offset, then the sizes and strides packs (named when not empty).
    rank = (len(op.results) - 2) // 2
    names = [(0, "base_buffer"), (1, "offset")]
    if rank:
        names += [(2, "sizes"), (2 + rank, "strides")]
    return names


def _async_execute(op: Operation) -> Sequence[tuple[int, str]]:
    return [(0, "token")] + ([(1, "bodyResults")] if len(op.results) > 1 else [])


RESULT_NAMES: dict[str, ResultNames] = {
    "arith.constant": _arith_constant,
    "arith.addui_extended": _each("sum", "overflow"),
    "arith.mulsi_extended": _each("low", "high"),
    "arith.mului_extended": _each("low", "high"),
    "func.constant": "f",
    "index.constant": _index_constant,
    "index.bool.constant": _index_bool_constant,
    "memref.alloc": "alloc",
    "memref.alloca": "alloca",
    "memref.assume_alignment": "assume_align",
    "memref.cast": "cast",
    "memref.collapse_shape": "collapse_shape",
    "memref.dim": "dim",
    "memref.expand_shape": "expand_shape",
    "memref.extract_aligned_pointer_as_index": "intptr",
    "memref.extract_strided_metadata": _strided_metadata,
    "memref.memory_space_cast": "memspacecast",
    "memref.reinterpret_cast": "reinterpret_cast",
    "memref.reshape": "reshape",
    "memref.subview": "subview",
    "memref.transpose": "transpose",
    "memref.view": "view",
    "tensor.cast": "cast",
    "tensor.collapse_shape": "collapsed",
    "tensor.dim": "dim",
    "tensor.expand_shape": "expanded",
    "tensor.extract": "extracted",
    "linalg.map": "mapped",
    "linalg.reduce": "reduced",
    "linalg.transpose": "transposed",
    "linalg.broadcast": "broadcasted",
    "tensor.extract_slice": "extracted_slice",
    "tensor.from_elements": "from_elements",
    "tensor.generate": "generated",
    "tensor.insert": "inserted",
    "tensor.insert_slice": "inserted_slice",
    "tensor.pad": "padded",
    "tensor.rank": "rank",
    "tensor.splat": "splat",
    "gpu.alloc": _each("memref", "asyncToken"),
    "gpu.shuffle": _each("shuffleResult", "valid"),
    "vector.deinterleave": _each("res1", "res2"),
    "async.execute": _async_execute,
    **{f"gpu.{name}": _gpu_dimension
       for name in ("thread_id", "block_id", "block_dim", "grid_dim", "global_id",
                    "cluster_id", "cluster_dim", "cluster_block_id", "cluster_dim_blocks")},
}


def _linalg_structured(op: Operation, region: int) -> Sequence[str | None]:
    # LinalgOp: %in for each input's element, %out for each init's.
    n_in = len(op.inputs)
    block = op.regions[region].blocks.first
    n = len(block.args) if block is not None else 0
    return ["in" if i < n_in else "out" for i in range(n)]


def _linalg_reduce(op: Operation, region: int) -> Sequence[str | None]:
    n_in = len(op.inputs)
    block = op.regions[region].blocks.first
    n = len(block.args) if block is not None else 0
    return ["in" if i < n_in else "init" for i in range(n)]


BLOCK_ARG_NAMES: dict[str, BlockArgNames] = {
    "linalg.generic": _linalg_structured,
    "linalg.reduce": _linalg_reduce,
    "linalg.map": _linalg_reduce,
}
