"""Bad input anywhere in the stack gives a short, clear error: never a traceback, never a hang.

Three sources of bad input:

* ``bad/*.mlir``: the corpus.  Each file is itself a lit test (``not gpurunner
  ... | FileCheck``) that the plug-in collects with the rest of the suite; here
  the same command runs through the embedded tool directly, and the location
  in the CHECK line must be the one reported.
* generated inputs: binary garbage, token soup, very large and very deeply
  nested files (made at test time, each bounded in time).
* RUN-script mistakes, which only the plug-in sees: bad shell syntax,
  unknown substitutions, unterminated continuations, malformed directives.
"""

from __future__ import annotations

import os
import random
import re
import time
from pathlib import Path

import pytest
from reliability_inputs import BAD_DIR, chain, corpus_command, nested_ifs

from runner_core import cli, opt
from runner_core.ir.parse import MAX_NESTING

# Heavy (many programs end to end, or upstream tools): `-m integration`, not the unit run.
pytestmark = pytest.mark.integration

BAD = sorted(BAD_DIR.glob("*.mlir"))
SCREEN = 24  # an error must fit on a screen
RT = "--shared-libs=mlir_runner_utils,mlir_c_runner_utils"


def assert_clean_failure(res, *, max_lines: int = SCREEN) -> str:
    """Non-zero exit, a message on stderr, no Python internals in it."""
    text = res.stderr.decode(errors="replace")
    assert res.returncode == 1, (res.returncode, text[-2000:])
    assert text.strip(), "no message"
    for marker in ("Traceback", 'File "', "internal error", "Error: <", "object at 0x"):
        assert marker not in text, text[-2000:]
    assert len(text.rstrip("\n").splitlines()) <= max_lines, text[-2000:]
    assert len(text) < 4000, f"{len(text)} bytes of error message"
    return text


# ------------------------------------------------------------------ corpus
def _pattern(check: str) -> re.Pattern:
    """FileCheck pattern -> regex ({{re}} kept, the rest literal)."""
    parts = re.split(r"\{\{(.*?)\}\}", check)
    return re.compile("".join(p if i % 2 else re.escape(p) for i, p in enumerate(parts)))


@pytest.mark.parametrize("path", BAD, ids=[p.name for p in BAD])
def test_corpus_through_the_embedded_tool(path: Path, tmp_path):
    argv, check = corpus_command(path, tmp_path)
    tool = cli.tool_main if argv[0] == "gpurunner" else opt.tool_main
    res = tool(argv, b"", dict(os.environ), str(path.parent))
    text = assert_clean_failure(res)
    lines = text.splitlines()
    assert any(_pattern(check).search(line) for line in lines), (check, text)
    where = re.search(r"(\w+\.mlir):(\d+):(\d+): error", check)
    if where:
        # The first diagnostic is the one the CHECK names, at exactly that line and column.
        first = next(line for line in lines if re.search(r":\d+:\d+: error", line))
        assert first.startswith(f"{path}:{where.group(2)}:{where.group(3)}: error"), first


def test_corpus_covers_every_kind_of_bad_input():
    names = {p.stem for p in BAD}
    kinds = {
        "malformed IR": {"unterminated_body", "control_character", "not_utf8"},
        "unknown dialects/ops": {"unknown_dialect_type", "unknown_attribute",
                                 "unknown_op_in_kernel", "unknown_llvm_type"},
        "type errors": {"if_yield_type", "while_condition_type", "operand_type"},
        "entry points": {"entry_missing", "entry_with_arguments", "entry_result_type"},
        "shared libraries": {"shared_lib_missing", "shared_lib_not_elf", "unresolved_external"},
        "unsupported in kernels": {"unsupported_in_kernel", "host_op_in_kernel",
                                   "async_in_kernel"},
        "failing cf.assert": {"assert_host", "assert_async"},
    }
    for kind, needed in kinds.items():
        assert needed <= names, (kind, needed - names)


# -------------------------------------------------------- generated inputs
def _tools(data: bytes, tmp_path, name: str = "gen.mlir"):
    """Run the bytes through gpurunner and gpurunner-opt, as a file."""
    (tmp_path / name).write_bytes(data)
    env = dict(os.environ)
    yield "gpurunner", cli.tool_main(["gpurunner", "--entry-point-result=void", RT, name],
                                     b"", env, str(tmp_path))
    yield "gpurunner-opt", opt.tool_main(["gpurunner-opt", name], b"", env, str(tmp_path))


GARBAGE = [
    bytes(random.Random(seed).randrange(256) for _ in range(random.Random(seed).randrange(1, 4000)))
    for seed in range(12)
] + [
    b"\x00" * 64,
    b"\xef\xbb\xbffunc.func @main() {\n  return\n}\n",  # UTF-8 byte order mark
    "func.func @main() {\n  return\n}\n".encode("utf-16"),
    b"\x7fELF\x02\x01\x01" + bytes(200),
    b"func.func @main() {\n  return\n}\n\x00\x00",
    b"\x1b[31mfunc.func\x1b[0m @main()",
]


@pytest.mark.parametrize("data", GARBAGE, ids=[f"garbage{i}" for i in range(len(GARBAGE))])
def test_binary_garbage(data, tmp_path):
    for tool, res in _tools(data, tmp_path):
        if res.returncode == 0:
            # Only the BOM case may be accepted: it is a valid program after the mark.
            assert data.startswith(b"\xef\xbb\xbf"), tool
            continue
        assert_clean_failure(res)


TOKENS = ["func.func", "@main", "(", ")", "{", "}", "%a", "%b", "=", "arith.addi", ",", ":",
          "i32", "index", "memref<4xf32>", "->", "return", "scf.for", "to", "step", "\"s\"",
          "gpu.launch", "^bb0", "#map", "!llvm.ptr", "dense<[1, 2]>", "<", ">", "[", "]",
          "// c\n", "\n", "0x10", "1.5e3", "-", "module", "attributes", "async.execute"]


@pytest.mark.parametrize("seed", range(15))
def test_token_soup(seed, tmp_path):
    rng = random.Random(seed)
    text = " ".join(rng.choice(TOKENS) for _ in range(rng.randrange(1, 120)))
    for _, res in _tools(text.encode(), tmp_path):
        if res.returncode != 0:
            assert_clean_failure(res)


UNCLOSED_STRINGS = [
    '"' + "x " * 60,  # the very first token (lexed before the parser is set up)
    '// comment\n  "s arith.addi arith.addi ] ) < } -> func.func @main %a [ gpu.launch ] = 0x10',
    'func.func @main() {\n  %c = "arith.constant"() {value = "' + "x y " * 40 + "} : () -> ()\n}\n",
    'func.func @main() {\n  cf.assert %f, "bad \\q escape ' + "z " * 40 + '"\n}\n',
]


@pytest.mark.parametrize("text", UNCLOSED_STRINGS, ids=range(len(UNCLOSED_STRINGS)))
def test_unclosed_string_is_reported_at_once(text, tmp_path):
    """xDSL's string pattern backtracks exponentially without a closing quote (a hang)."""
    t = time.perf_counter()
    for _, res in _tools(text.encode(), tmp_path):
        msg = assert_clean_failure(res)
        assert "string literal not closed on this line" in msg, msg
    assert time.perf_counter() - t < 20


def test_large_file_runs(tmp_path):
    n = 10_000
    (tmp_path / "big.mlir").write_text(chain(n))
    t = time.perf_counter()
    res = cli.tool_main(["gpurunner", "--entry-point-result=void", RT, "big.mlir"], b"",
                        dict(os.environ), str(tmp_path))
    assert res.returncode == 0, res.stderr.decode()[-2000:]
    assert res.stdout == f"{n}\n".encode()
    assert time.perf_counter() - t < 120  # linear: about 0.3 ms per op here


def test_large_file_error_at_the_end(tmp_path):
    n = 10_000
    (tmp_path / "big.mlir").write_text(chain(n, "  %bad = arith.addi %v1, %nope : i64"))
    res = cli.tool_main(["gpurunner", "--entry-point-result=void", RT, "big.mlir"], b"",
                        dict(os.environ), str(tmp_path))
    text = assert_clean_failure(res)
    assert text.startswith(f"big.mlir:{n + 4}:26: error: use of undeclared SSA value name %nope")


def test_long_line_is_quoted_in_part(tmp_path):
    ops = " ".join(f"%v{i} = arith.constant {i} : i64" for i in range(3000))
    src = "func.func @main() { " + ops + " %bad = arith.addi %v1, %nope : i64 return }\n"
    col = src.index("%nope") + 1
    for _, res in _tools(src.encode(), tmp_path):
        text = assert_clean_failure(res)
        head, quoted, caret = text.splitlines()[:3]
        assert head == f"gen.mlir:1:{col}: error: use of undeclared SSA value name %nope"
        assert len(quoted) < 200
        assert quoted[len(caret) - 1:].startswith("%nope")  # the caret is under the culprit


def test_deeply_nested_program_runs(tmp_path):
    # ~9 Python frames per level in xDSL's parser: far past the default recursion limit.
    (tmp_path / "deep.mlir").write_text(nested_ifs(2000))
    t = time.perf_counter()
    res = cli.tool_main(["gpurunner", "--entry-point-result=void", RT, "deep.mlir"], b"",
                        dict(os.environ), str(tmp_path))
    assert res.returncode == 0, res.stderr.decode()[-2000:]
    assert res.stdout == b"7\n"
    assert time.perf_counter() - t < 120  # linear in the depth (verifier and walks)
    out = opt.tool_main(["gpurunner-opt", "deep.mlir"], b"", dict(os.environ), str(tmp_path))
    assert out.returncode == 0 and out.stdout.count(b"scf.if") == 2000


def test_nesting_past_the_limit_is_refused_quickly(tmp_path):
    depth = MAX_NESTING + 1
    src = "func.func @main() {\n" + "(" * depth + "\n}\n"
    t = time.perf_counter()
    for _, res in _tools(src.encode(), tmp_path):
        text = assert_clean_failure(res)
        assert text.startswith(f"gen.mlir:2:{MAX_NESTING}: error: nesting deeper than "
                               f"{MAX_NESTING} levels")
    assert time.perf_counter() - t < 10


def test_deep_attribute_nesting(tmp_path):
    # Brackets inside an attribute recurse in the attribute parser, not the op parser.
    inner = "[" * 3000 + "1" + "]" * 3000
    src = f"func.func @main() attributes {{x = {inner}}} {{\n  return\n}}\n"
    for _, res in _tools(src.encode(), tmp_path):
        if res.returncode != 0:
            assert_clean_failure(res)


def test_recursion_limit_is_restored(tmp_path):
    import sys

    before = sys.getrecursionlimit()
    list(_tools(b"func.func @main() {\n  return\n}\n", tmp_path))
    assert sys.getrecursionlimit() == before


# ------------------------------------------------------ through the plug-in
RUN_CASES = {
    "open_quote": ('// RUN: gpurunner "unterminated %s\n', "missing closing quote"),
    "trailing_redirect": ("// RUN: gpurunner %s >\n",
                          "unexpected end of command (a redirection lacks its file name)"),
    "empty_stage": ("// RUN: gpurunner %s | | FileCheck %s\n",
                    "syntax error near unexpected token '|'"),
    "dangling_and": ("// RUN: gpurunner %s &&\n", "missing argument to operator '&&'"),
    "unknown_substitution": ("// RUN: gpurunner %nosuchsub %s\n",
                             "unknown substitution %nosuchsub"),
    "unknown_braced_substitution": ("// RUN: %{undefined} %s\n",
                                    "unknown substitution %{undefined}"),
    "redirect_to_operator": ("// RUN: gpurunner %s &> | FileCheck %s\n",
                             "redirection '&>' needs a file name"),
    "unterminated_continuation": ("// RUN: gpurunner %s \\\n",
                                  "unterminated 'RUN:' directive"),
    "bad_requires": ("// RUN: true\n// REQUIRES: gpu &&& (\n", "in REQUIRES: directive"),
    "bad_unsupported": ("// RUN: true\n// UNSUPPORTED: ((\n", "in UNSUPPORTED: directive"),
    "define_without_value": ("// DEFINE: %{x}\n// RUN: echo\n",
                             "definition does not contain '='"),
    "redefine_undefined": ("// REDEFINE: %{x} = y\n// RUN: %{x}\n",
                           "No substitution for '%{x}' is defined"),
    "not_without_command": ("// RUN: not --crash\n", "'not' requires a subcommand"),
    "missing_stdin_file": ("// RUN: gpurunner %s < %t.does-not-exist\n", "cannot read"),
    "unknown_command": ("// RUN: definitely-not-a-tool %s\n", "command not found"),
    "garbage_after_run": ("// RUN: gpurunner %s --entry-point-result=void\n\x00\x01\xfe\xff\n",
                          "input is not UTF-8 text"),
    "nested_too_deep": ("// RUN: gpurunner %s\nfunc.func @main() {\n" + "[" * (MAX_NESTING + 5)
                        + "\n}\n", f"nesting deeper than {MAX_NESTING} levels"),
}


def test_run_script_mistakes_through_the_plugin(project):
    for name, (text, _) in RUN_CASES.items():
        data = text.encode("latin-1") if "\xfe" in text else text.encode()
        (project.path / f"{name}.mlir").write_bytes(data)
    result = project.runpytest_inprocess("-p", "no:cacheprovider", "-v")
    out = result.stdout.str()
    assert "Traceback" not in out and "INTERNALERROR" not in out, out[-5000:]
    result.assert_outcomes(failed=len(RUN_CASES))
    for name, (_, expected) in RUN_CASES.items():
        section = out.split(f"_ {name} _", 1)[1].split("\n_", 1)[0]
        assert expected in section, (name, section[:2000])


def test_corpus_failure_report_through_the_plugin(project):
    """Without ``not`` the corpus file fails; the report shows the diagnostic and its place."""
    chosen = ["if_yield_type", "unknown_dialect_type", "assert_host", "bounds_off_by_one"]
    expected = {}
    for name in chosen:
        text = (BAD_DIR / f"{name}.mlir").read_text()
        # The failing tool's own stderr, not piped into FileCheck: the report shows it.
        text = re.sub(r"^// RUN: not (gpurunner.*?) 2>&1 \| FileCheck %s$", r"// RUN: \1", text,
                      count=1, flags=re.M)
        (project.path / f"{name}.mlir").write_text(text)
        check = [c for c in re.findall(r"^// CHECK: (.*)$", text, re.M) if "error" in c][0]
        expected[name] = check.replace("{{.*}}", "")
    result = project.runpytest_inprocess("-p", "no:cacheprovider")
    out = result.stdout.str()
    result.assert_outcomes(failed=len(chosen))
    assert "Traceback" not in out and "INTERNALERROR" not in out, out[-5000:]
    for name, text in expected.items():
        assert f"{project.path}/{text}" in out, (name, text)


BOUNDS_TEST = """\
// RUN: not gpurunner %s --entry-point-result=void 2>&1 | FileCheck %s
// CHECK: t.mlir:8:3: error: 'memref.store' index out of bounds: index [4], shape [4]
func.func @main() {
  %c4 = arith.constant 4 : index
  %m = memref.alloc() : memref<4xi32>
  %v = arith.constant 1 : i32
  // the store below is the only access
  memref.store %v, %m[%c4] : memref<4xi32>
  return
}
"""


@pytest.mark.parametrize("how", ["option", "ini", "off"])
def test_bounds_check_through_the_plugin(project, how):
    project.makefile(".mlir", t=BOUNDS_TEST)
    args = ["-p", "no:cacheprovider"]
    if how == "option":
        args.append("--gpurunner-bounds-check")
    elif how == "ini":
        ini = project.path / "tox.ini"
        ini.write_text(ini.read_text() + "gpurunner_bounds_check = true\n")
    result = project.runpytest_inprocess(*args)
    if how == "off":  # unchecked, the store "succeeds" and `not` fails the test
        result.assert_outcomes(failed=1)
    else:
        result.assert_outcomes(passed=1)


def test_deep_nesting_through_the_plugin_worker(project):
    """Integration tests run in the worker process; its recursion limit is raised too."""
    src = "// RUN: gpurunner %s --entry-point-result=void " \
          "--shared-libs=%mlir_c_runner_utils | FileCheck %s\n// CHECK: 7\n" + nested_ifs(600)
    (project.path / "deep.mlir").write_text(src)
    result = project.runpytest_inprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
