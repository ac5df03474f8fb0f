"""Does the parser's type memo (runner_core/ir/type_memo.py) change any parse?

    python bench/type_memo_identity.py [DIR ...]   # default: upstream's tests, ours, bench/work

Each .mlir file is parsed twice, with the memo and without it, and the two outcomes are
compared: the printed module (custom and generic form), every op's location and the
2021 upgrades, or the error's type and message.  Prints each difference and a total.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from runner_core.ir import type_memo  # noqa: E402
from runner_core.ir.parse import parse_source_ex  # noqa: E402
from runner_core.ir.printing import print_op  # noqa: E402

DEFAULT = [ROOT / "upstream" / "llvm-project" / "mlir" / "test", ROOT / "integration_test",
           ROOT / "test", ROOT / "bench" / "work"]
WITH_MEMO = type_memo.TypeMemo.parse_optional_type


def _without_memo(self):
    return super(type_memo.TypeMemo, self).parse_optional_type()


def outcome(path: Path, memo: bool):
    type_memo.TypeMemo.parse_optional_type = WITH_MEMO if memo else _without_memo
    text = path.read_text(errors="replace")
    try:
        r = parse_source_ex(text, str(path))
    except Exception as err:  # the error itself is what is compared
        return ("error", type(err).__name__, str(err))
    return ("parsed", print_op(r.module), print_op(r.module, generic=True),
            [(u.offset, u.old, u.new, u.kind) for u in r.upgrades],
            [str(op.location) for op in r.module.walk()])


def main() -> int:
    roots = [Path(a) for a in sys.argv[1:]] or [d for d in DEFAULT if d.is_dir()]
    files = sorted({p for d in roots for p in d.rglob("*.mlir")})
    differ = parsed = 0
    for path in files:
        a, b = outcome(path, True), outcome(path, False)
        parsed += a[0] == "parsed"
        if a != b:
            differ += 1
            print(f"DIFFERS {path}: {str(a)[:200]} | {str(b)[:200]}")
    type_memo.TypeMemo.parse_optional_type = WITH_MEMO
    print(f"{len(files)} files ({parsed} parsed, the rest refused): {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
