"""``convert-arith-to-apfloat``: float arithmetic as calls of the APFloat runtime functions.

MLIR 22 rewrites ``arith.addf`` / ``subf`` / ``mulf`` / ``divf`` / ``remf`` on a
scalar float (of any format) into its bits widened to ``i64``, a call
``_mlir_apfloat_<op>(i32 semantics, i64, i64) -> i64`` (declared private in the
module) and the result narrowed and bitcast back; the runtime function runs
llvm::APFloat (built in: ``runtime/apfloat_wrappers.py``).  The pass converts
other float ops too (comparisons, conversions, min/max, negf); those are not
done here, and an op of them on a format LLVM lacks is refused, naming it,
rather than left for a different result.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import builtin as b
from xdsl.ir import Operation

from runner_core.errors import RunnerError
from runner_core.ir import apfloat as ap
from runner_core.mlir22_names import unsupported_message

_CALLS = {"arith.addf": "add", "arith.subf": "subtract", "arith.mulf": "multiply",
          "arith.divf": "divide", "arith.remf": "remainder"}
_OTHER_FLOAT_OPS = frozenset({"arith.cmpf", "arith.negf", "arith.extf", "arith.truncf",
                              "arith.maximumf", "arith.minimumf", "arith.maxnumf",
                              "arith.minnumf", "arith.fptosi", "arith.fptoui", "arith.sitofp",
                              "arith.uitofp", "math.fma", "math.absf"})
_I32, _I64 = b.IntegerType(32), b.IntegerType(64)


class ArithToApfloatError(RunnerError):
    pass


def _float_name(t) -> str | None:
    name = getattr(t, "name", None)
    return name if name in ap.SEMANTICS_ID else None


class ConvertArithToApfloatPass:
    name = "convert-arith-to-apfloat"

    def run(self, root: Operation, ctx: Context) -> None:
        from runner_core.ir.parse import op_location

        todo = []
        for op in root.walk():
            types = [v.type for v in (*op.operands, *op.results)]
            if op.name in _CALLS and all(_float_name(t) for t in types):
                todo.append(op)
            elif op.name in _OTHER_FLOAT_OPS and any(
                    getattr(t, "name", None) in ap.SMALL for t in types):
                raise ArithToApfloatError("error: " + unsupported_message(
                    f"'{op.name}' in {self.name} (only addf/subf/mulf/divf/remf become "
                    f"APFloat calls here)", op_location(op)))
        if not todo:
            return
        declared: set[str] = set()
        body = root.body.blocks.first if root.name == "builtin.module" else None
        if body is None:
            raise ArithToApfloatError(f"error: pass '{self.name}' runs on a builtin.module")
        for op in todo:
            fname = f"_mlir_apfloat_{_CALLS[op.name]}"
            if fname not in declared:
                declared.add(fname)
                if not any(o.name == "func.func" and o.sym_name.data == fname for o in body.ops):
                    decl = ctx.get_op("func.func").create(properties={
                        "sym_name": b.StringAttr(fname),
                        "function_type": b.FunctionType.from_lists([_I32, _I64, _I64], [_I64]),
                        "sym_visibility": b.StringAttr("private")}, regions=[_empty_region()])
                    first = body.first_op
                    body.insert_op_before(decl, first) if first else body.add_op(decl)
            self._rewrite(op, ctx, fname)

    @staticmethod
    def _rewrite(op: Operation, ctx: Context, fname: str) -> None:
        t = op.results[0].type
        fmt = ap.FORMATS[t.name]
        ity = b.IntegerType(fmt.bits)

        def new(name, operands, result_types, properties=None):
            o = ctx.get_op(name).create(operands=list(operands), result_types=list(result_types),
                                        properties=properties or {})
            o.location = op.location
            op.parent_block().insert_op_before(o, op)
            return o.results[0] if o.results else None

        args = []
        for v in op.operands:
            bits = new("arith.bitcast", [v], [ity])
            args.append(new("arith.extui", [bits], [_I64]) if fmt.bits < 64 else bits)
        sem = new("arith.constant", [], [_I32],
                  {"value": b.IntegerAttr(ap.SEMANTICS_ID[fmt.name], _I32)})
        call = ctx.get_op("func.call").create(
            operands=[sem, *args], result_types=[_I64],
            properties={"callee": b.SymbolRefAttr(fname)})
        call.location = op.location
        op.parent_block().insert_op_before(call, op)
        res = call.results[0]
        if fmt.bits < 64:
            res = new("arith.trunci", [res], [ity])
        out = new("arith.bitcast", [res], [t])
        op.results[0].replace_all_uses_with(out)
        op.detach()
        op.erase()


def _empty_region():
    from xdsl.ir import Region

    return Region()


REGISTRATION = {"name": "convert-arith-to-apfloat", "factory": ConvertArithToApfloatPass,
                "summary": "arith.addf/subf/mulf/divf/remf as _mlir_apfloat_* calls "
                           "(MLIR 22); other float ops on small formats refused"}
