"""The parser's per-file memo of type spellings (runner_core/ir/type_memo.py): it must
share what repeats and change nothing a parse produces."""

from __future__ import annotations

import pytest

from runner_core.ir import type_memo
from runner_core.ir.parse import parse_source_ex
from runner_core.ir.printing import print_op

REPEATED = """\
func.func @f(%a: memref<4x?xf32, strided<[?, 1], offset: ?>>,
             %b: memref<4x?xf32, strided<[?, 1], offset: ?>>) -> !llvm.struct<(ptr, i64)> {
  %c0 = arith.constant 0 : index
  %x = memref.load %a[%c0, %c0] : memref<4x?xf32, strided<[?, 1], offset: ?>>
  memref.store %x, %b[%c0, %c0] : memref<4x?xf32, strided<[?, 1], offset: ?>>
  %u = llvm.mlir.undef : !llvm.struct<(ptr, i64)>
  return %u : !llvm.struct<(ptr, i64)>
}
"""

# Two 2021 layouts: each is an upgrade with its own offset, so neither may be memoised.
LEGACY = """\
func @f(%m: memref<8xf32>, %i: index) {
  %a = subview %m[%i] [4] [1] : memref<8xf32> to memref<4xf32, offset: ?, strides: [1]>
  %b = subview %m[%i] [4] [1] : memref<8xf32> to memref<4xf32, offset: ?, strides: [1]>
  return
}
"""


@pytest.mark.parametrize(("text", "end"), [
    ("f32 ", 3),
    ("memref<4xf32> to", 13),
    ("memref<4xf32, affine_map<(d0) -> (d0 + 1)>>, %x", 43),
    ("!llvm.ptr<1>)", 12),
    ("vector<4x[4]xf32>", 17),
])
def test_the_scan_finds_the_end_of_a_spelling(text, end):
    keyword = len(text.split("<")[0].split(" ")[0])
    assert type_memo.spelling_end(text, keyword) == end


@pytest.mark.parametrize("text", ['!llvm.struct<"name", (i32)>', "memref<4xf32"])
def test_what_the_scan_is_unsure_of_is_parsed_as_before(text):
    assert type_memo.spelling_end(text, text.index("<")) is None


def test_one_spelling_gives_one_shared_type():
    module = parse_source_ex(REPEATED, "r.mlir").module
    func = next(iter(module.body.block.ops))
    a, b = func.body.block.args
    assert a.type is b.type
    load = next(op for op in func.walk() if op.name == "memref.load")
    assert load.memref.type is a.type


@pytest.mark.parametrize("text", [REPEATED, LEGACY], ids=["repeated", "legacy"])
def test_a_parse_with_the_memo_is_the_parse_without_it(text, monkeypatch):
    def outcome():
        r = parse_source_ex(text, "p.mlir")
        return (print_op(r.module), print_op(r.module, generic=True),
                [(u.offset, u.old, u.new, u.kind) for u in r.upgrades],
                [str(op.location) for op in r.module.walk()])

    with_memo = outcome()
    with monkeypatch.context() as m:
        m.setattr(type_memo.TypeMemo, "parse_optional_type",
                  lambda self: super(type_memo.TypeMemo, self).parse_optional_type())
        without = outcome()
    assert with_memo == without
    if text is LEGACY:
        layouts = [u for u in with_memo[2] if u[3] == "memref layout"]
        assert len(layouts) == 2  # both 2021 layouts reported, each at its own offset
        assert layouts[0][0] != layouts[1][0]


def test_an_error_is_the_same_with_the_memo(monkeypatch):
    bad = REPEATED.replace("return %u : !llvm.struct<(ptr, i64)>",
                           "return %u : !llvm.struct<(ptr, i64>")
    with pytest.raises(Exception) as with_memo:
        parse_source_ex(bad, "e.mlir")
    monkeypatch.setattr(type_memo.TypeMemo, "parse_optional_type",
                        lambda self: super(type_memo.TypeMemo, self).parse_optional_type())
    with pytest.raises(Exception) as without:
        parse_source_ex(bad, "e.mlir")
    assert str(with_memo.value) == str(without.value)
    assert "e.mlir:7:" in str(with_memo.value)
