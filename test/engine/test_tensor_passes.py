"""convert-elementwise-to-linalg, one-shot-bufferize on functions, convert-bufferization-to-memref
and the linalg run-time checks: what each pass leaves, compared with LLVM 22's mlir-opt where
it is installed (the reference), else with the facts recorded from it here."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from runner_core import opt

REAL = shutil.which("mlir-opt", path="/usr/lib/llvm-22/bin")
needs_real = pytest.mark.skipif(REAL is None, reason="LLVM 22's mlir-opt is not installed")

ELEMENTWISE = """
func.func @f(%a: tensor<?x3xf32>, %b: tensor<?x3xf32>, %c: tensor<?x3xi1>) -> tensor<?x3xi1> {
  %0 = arith.addf %a, %b : tensor<?x3xf32>
  %1 = arith.select %c, %0, %b : tensor<?x3xi1>, tensor<?x3xf32>
  %2 = math.exp %1 : tensor<?x3xf32>
  %3 = arith.cmpf olt, %2, %a : tensor<?x3xf32>
  return %3 : tensor<?x3xi1>
}
func.func @g() -> tensor<2xi8> {
  %a = arith.constant dense<[100, -7]> : tensor<2xi8>
  %b = arith.constant dense<[100, 3]> : tensor<2xi8>
  %s = arith.addi %a, %b : tensor<2xi8>
  return %s : tensor<2xi8>
}
"""


def _opt(args: list[str], text: str, tmp_path) -> str:
    r = opt.tool_main(["mlir-opt", *args], text.encode(), {}, str(tmp_path))
    assert r.returncode == 0, r.stderr.decode()
    return r.stdout.decode()


def _shape(text: str) -> list[str]:
    """Op names and the ins/outs/constant parts of each line: what the passes decide,
    without the printers' differences (map aliases, value numbering)."""
    out = []
    for line in text.splitlines():
        m = re.search(r"= ([a-z_]+\.[a-z_.]+)|^\s*([a-z_]+\.[a-z_.]+)", line)
        if m:
            name = m.group(1) or m.group(2)
            dense = re.findall(r"dense<[^>]*>", line)
            out.append(" ".join([name, *dense]))
    return out


def test_elementwise_to_linalg_outs_and_folds(tmp_path):
    text = _opt(["-convert-elementwise-to-linalg"], ELEMENTWISE, tmp_path)
    # outs: the first operand of the result's type, else tensor.empty sized by tensor.dim
    # of the first operand; i8 constants folded with wrap-around (100 + 100 = -56).
    assert "outs(%arg0 : tensor<?x3xf32>)" in text
    assert re.search(r"tensor.dim %2, %c0 : tensor<\?x3xf32>", text)
    assert "dense<[-56, -4]> : tensor<2xi8>" in text
    assert text.count("linalg.generic") == 4
    if REAL:
        real = subprocess.run([REAL, "-convert-elementwise-to-linalg"], input=ELEMENTWISE.encode(),
                              capture_output=True, check=True).stdout.decode()
        assert _shape(text) == _shape(real)


BUFFERIZE = """
func.func private @printMemrefF32(tensor<*xf32>)
func.func @scale(%t: tensor<?xf32>, %s: f32) -> tensor<?xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%t : tensor<?xf32>) {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %s : f32
    linalg.yield %y : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
func.func @fresh(%n: index, %v: f32) -> tensor<?xf32> {
  %e = tensor.empty(%n) : tensor<?xf32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %f : tensor<?xf32>
}
"""


def test_bufferize_copies_a_written_argument_and_reuses_a_fresh_buffer(tmp_path):
    text = _opt(["-one-shot-bufferize=bufferize-function-boundaries"], BUFFERIZE, tmp_path)
    scale = text[text.index("@scale"):text.index("@fresh")]
    fresh = text[text.index("@fresh"):]
    # The argument is copied before the write (its caller may read it again) ...
    assert "memref.alloc(" in scale and "memref.copy %arg0" in scale
    # ... a tensor.empty's buffer is written in place: one allocation, no copy.
    assert fresh.count("memref.alloc(") == 1 and "memref.copy" not in fresh
    assert "tensor" not in text.replace("tensor<", "")


def test_bufferization_to_memref_clone(tmp_path):
    text = _opt(["-convert-bufferization-to-memref"],
                "func.func @f(%m: memref<?xf32>) -> memref<?xf32> {\n"
                "  %c = bufferization.clone %m : memref<?xf32> to memref<?xf32>\n"
                "  return %c : memref<?xf32>\n}\n", tmp_path)
    assert "memref.alloc(%dim)" in text and "memref.copy %arg0, %alloc" in text


def test_bufferization_to_memref_refuses_what_it_does_not_model(tmp_path):
    r = opt.tool_main(["mlir-opt", "-convert-bufferization-to-memref"],
                      b"func.func @f(%t: tensor<4xf32>) -> memref<4xf32> {\n"
                      b"  %m = bufferization.to_buffer %t : tensor<4xf32> to memref<4xf32>\n"
                      b"  return %m : memref<4xf32>\n}\n", {}, str(tmp_path))
    assert r.returncode != 0
    assert "unsupported by the embedded runner: 'bufferization.to_buffer'" in r.stderr.decode()


# (input map, input rank): the output is the identity over the map's loops.
MAPS = [("(d0) -> (-d0 + 3)", 1), ("(d0, d1) -> (d0 * 3 + d1, d1 * 4)", 2),
        ("(d0) -> (d0 - 2)", 1), ("(d0, d1) -> (d0 floordiv 2, d1 mod 3)", 2),
        ("(d0, d1) -> (0, d1 - d0 * 2)", 2), ("(d0) -> (d0 ceildiv 4 + 1)", 1)]
PARALLEL = '"parallel"'


def _generic(amap: str, in_rank: int) -> str:
    loops = amap.split(")")[0].count("d")
    ident = "affine_map<({0}) -> ({0})>".format(", ".join(f"d{i}" for i in range(loops)))
    in_t = "memref<" + "?x" * in_rank + "f32>"
    out_t = "memref<" + "?x" * loops + "f32>"
    iters = ", ".join([PARALLEL] * loops)
    return (f"func.func @f(%a: {in_t}, %b: {out_t}) {{\n"
            f"  linalg.generic {{indexing_maps = [affine_map<{amap}>, {ident}], "
            f"iterator_types = [{iters}]}}\n"
            f"    ins(%a : {in_t}) outs(%b : {out_t}) {{\n"
            "  ^bb0(%x: f32, %y: f32):\n    linalg.yield %x : f32\n  }\n  return\n}\n")


_ASSERT = re.compile(r'cf.assert %\S+, "((?:[^"\\]|\\.)*)"')


@pytest.mark.parametrize(("amap", "in_rank"), MAPS)
def test_linalg_check_messages_match_llvm(amap, in_rank, tmp_path):
    """Each generated message (the op printed with its maps spelled out, region elided,
    and what failed) is one mlir-opt 22 generates, and none is missing."""
    text = _generic(amap, in_rank)
    ours = _ASSERT.findall(_opt(["-generate-runtime-verification"], text, tmp_path))
    assert ours and all("{...}" in m and "affine_map<" + amap in m for m in ours)
    if REAL is None:
        pytest.skip("LLVM 22's mlir-opt is not installed")
    p = subprocess.run([REAL, "-generate-runtime-verification", "-"], input=text.encode(),
                       capture_output=True)
    assert p.returncode == 0, p.stderr.decode()
    real = _ASSERT.findall(p.stdout.decode())
    assert sorted(set(ours)) == sorted(set(m.replace("<stdin>", "-") for m in real)) or \
        sorted(set(ours)) == sorted(set(real))


RETURNS = """
func.func @inplace(%t: tensor<?xf32>, %v: f32) -> tensor<?xf32> {
  %f = linalg.fill ins(%v : f32) outs(%t : tensor<?xf32>) -> tensor<?xf32>
  return %f : tensor<?xf32>
}
func.func @owned(%n: index, %v: f32) -> tensor<?xf32> {
  %e = tensor.empty(%n) : tensor<?xf32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %f : tensor<?xf32>
}
"""


def test_dealloc_pipeline_clones_what_a_function_does_not_own(tmp_path):
    """LLVM 22 writes %t in place and returns a clone of it (from the argument's fully
    dynamic layout); a buffer the function allocated is returned as is."""
    text = _opt(["-one-shot-bufferize=bufferize-function-boundaries",
                 "-buffer-deallocation-pipeline"], RETURNS, tmp_path)
    inplace, owned = text.split("func.func @owned")
    assert "bufferization.clone" in inplace and "strided<[?], offset: ?>" in inplace
    assert "bufferization.clone" not in owned
    lowered = _opt(["-one-shot-bufferize=bufferize-function-boundaries",
                    "-buffer-deallocation-pipeline", "-convert-bufferization-to-memref"],
                   RETURNS, tmp_path)
    assert "bufferization." not in lowered
    if REAL:
        real = subprocess.run([REAL, "-one-shot-bufferize=bufferize-function-boundaries",
                               "-buffer-deallocation-pipeline", "-"], input=RETURNS.encode(),
                              capture_output=True, check=True).stdout.decode()
        r_inplace, r_owned = real.split("func.func @owned")
        assert "bufferization.clone" in r_inplace and "bufferization.clone" not in r_owned


@pytest.mark.parametrize("option", ["private-function-dynamic-ownership",
                                    "private-function-dynamic-ownership=true"])
def test_dynamic_ownership_of_private_functions_needs_no_clone(tmp_path, option):
    """With private-function-dynamic-ownership, LLVM 22 passes ownership out of a private
    function (extra i1 results) instead of cloning what it returns; public functions
    still clone.  (Upstream's Tensor/cast-runtime-verification relies on it: no
    convert-bufferization-to-memref in its RUN line.)"""
    text = RETURNS.replace("func.func @owned", "func.func private @owned_p") + \
        RETURNS.replace("func.func @inplace", "func.func private @inplace_p").split(
            "func.func @owned")[0]
    args = ["-one-shot-bufferize=bufferize-function-boundaries",
            f"-buffer-deallocation-pipeline={option}"]
    out = _opt(args, text, tmp_path)
    public, private = out.split("func.func private @owned_p")
    assert "bufferization.clone" in public          # @inplace, public: cloned
    assert "bufferization.clone" not in private     # @inplace_p, private: ownership passed
    if REAL:
        real = subprocess.run([REAL, *args, "-"], input=text.encode(), capture_output=True,
                              check=True).stdout.decode()
        r_public, r_private = real.split("func.func private @owned_p")
        assert "bufferization.clone" in r_public
        assert "bufferization.clone" not in r_private


# ---- tensor slices, generate, pad (issue 12): program output against LLVM 22's tools.
REAL_RUNNER = shutil.which("mlir-runner", path="/usr/lib/llvm-22/bin")
_LIBS = "/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so,/usr/lib/llvm-22/lib/libmlir_runner_utils.so"
_PIPELINE = ["-one-shot-bufferize=bufferize-function-boundaries", "-buffer-deallocation-pipeline",
             "-convert-bufferization-to-memref", "-convert-linalg-to-loops",
             "-expand-strided-metadata", "-lower-affine", "-convert-scf-to-cf",
             "-convert-arith-to-llvm", "-convert-cf-to-llvm", "-convert-vector-to-llvm",
             "-finalize-memref-to-llvm", "-convert-func-to-llvm", "-reconcile-unrealized-casts"]


def _slices_program(off, size, step, low, high, at) -> str:
    """A 5x6 generated tensor; a slice of it (rank-reduced where a size is 1) is summed,
    padded, and inserted back at `at`; the source is printed last (unchanged)."""
    rr = [s for s in size if s != 1] or [1]
    rtype = "tensor<" + "x".join(map(str, rr)) + "xf32>"
    ptype = "tensor<" + "x".join(str(s + lo + hi) for s, lo, hi in
                                   zip(rr, low, high, strict=False)) + "xf32>"
    lows = ", ".join(map(str, low[:len(rr)]))
    highs = ", ".join(map(str, high[:len(rr)]))
    args = ", ".join(f"%i{d}: index" for d in range(len(rr)))
    return f"""
func.func private @printMemrefF32(%t : tensor<*xf32>)
func.func @show(%t: tensor<?x?xf32>) {{
  %u = tensor.cast %t : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}}
func.func @main() {{
  %c1 = arith.constant 1 : index
  %off0 = arith.constant {off[0]} : index
  %m = arith.constant -1.0 : f32
  %src = tensor.generate {{
  ^bb0(%i: index, %j: index):
    %k = arith.muli %i, %off0 : index
    %a = arith.addi %k, %j : index
    %b = arith.index_cast %a : index to i32
    %f = arith.sitofp %b : i32 to f32
    tensor.yield %f : f32
  }} : tensor<5x6xf32>
  %s = tensor.extract_slice %src[%off0, {off[1]}] [{size[0]}, {size[1]}] [{step[0]}, %c1]
      : tensor<5x6xf32> to {rtype}
  %p = tensor.pad %s low[{lows}] high[{highs}] {{
  ^bb0({args}):
    tensor.yield %m : f32
  }} : {rtype} to {ptype}
  %ins = tensor.insert_slice %s into %src[{at[0]}, {at[1]}] [{size[0]}, {size[1]}] [1, 1]
      : {rtype} into tensor<5x6xf32>
  %a = tensor.cast %ins : tensor<5x6xf32> to tensor<?x?xf32>
  call @show(%a) : (tensor<?x?xf32>) -> ()
  %b = tensor.cast %src : tensor<5x6xf32> to tensor<?x?xf32>
  call @show(%b) : (tensor<?x?xf32>) -> ()
  %u = tensor.cast %p : {ptype} to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}}
"""


def _real_output(text: str) -> str:
    o = subprocess.run([REAL, "-", *_PIPELINE], input=text.encode(), capture_output=True,
                       check=True).stdout
    r = subprocess.run([REAL_RUNNER, "-e", "main", "-entry-point-result=void",
                        f"-shared-libs={_LIBS}"], input=o, capture_output=True, check=True)
    return r.stdout.decode()


def _embedded_output(text: str, tmp_path) -> str:
    from runner_core import cli

    lowered = _opt(_PIPELINE, text, tmp_path)
    r = cli.tool_main(["gpurunner", "-e", "main", "-entry-point-result=void",
                       "--shared-libs=mlir_c_runner_utils,mlir_runner_utils"],
                      lowered.encode(), {}, str(tmp_path))
    assert r.returncode == 0, r.stderr.decode()
    return r.stdout.decode()


def _no_addresses(text: str) -> str:
    return re.sub(r"base@ = 0x[0-9a-f]+", "base@", text)


@needs_real
@pytest.mark.skipif(REAL_RUNNER is None, reason="LLVM 22's mlir-runner is not installed")
@pytest.mark.parametrize("off,size,step,low,high,at", [
    ((1, 2), (2, 3), (2, 1), (1, 0), (0, 2), (3, 3)),
    ((0, 1), (1, 4), (1, 1), (2, 1), (1, 1), (4, 0)),   # rank-reducing
    ((2, 0), (3, 1), (1, 1), (0, 0), (3, 0), (0, 5)),   # rank-reducing, other dim
    ((1, 1), (2, 2), (3, 1), (1, 1), (1, 1), (2, 2)),
])
def test_slices_pad_generate_match_llvm(off, size, step, low, high, at, tmp_path):
    text = _slices_program(off, size, step, low, high, at)
    real = _real_output(text)
    assert real.count("Unranked Memref") == 3
    assert _no_addresses(_embedded_output(text, tmp_path)) == _no_addresses(real)


def test_slice_view_reaching_a_call_is_refused_with_its_location(tmp_path):
    text = (b"func.func private @use(%t : tensor<*xf32>)\n"
            b"func.func @f(%t: tensor<4xf32>) {\n"
            b"  %s = tensor.extract_slice %t[1] [2] [1] : tensor<4xf32> to tensor<2xf32>\n"
            b"  %u = tensor.cast %s : tensor<2xf32> to tensor<*xf32>\n"
            b"  call @use(%u) : (tensor<*xf32>) -> ()\n  return\n}\n")
    r = opt.tool_main(["mlir-opt", "-one-shot-bufferize=bufferize-function-boundaries"],
                      text, {}, str(tmp_path))
    err = r.stderr.decode()
    assert r.returncode != 0 and "Traceback" not in err
    assert "unsupported by the embedded runner: 'tensor.extract_slice'" in err
    assert ":3:8" in err and "--gpurunner-tools=system" in err


_INTEROP = """
func.func private @printMemrefF32(%t : memref<*xf32>)
func.func @main() {
  %c1 = arith.constant 1 : index
  %f = arith.constant 2.5 : f32
  %g = arith.constant 4.0 : f32
  %m = memref.alloc() : memref<3xf32>
  linalg.fill ins(%f : f32) outs(%m : memref<3xf32>)
  %t = bufferization.to_tensor %m RESTRICT: memref<3xf32> to tensor<3xf32>
  %t2 = tensor.insert %g into %t[%c1] : tensor<3xf32>
  %e = DEST
  %r = bufferization.materialize_in_destination %t2 in %e
      : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %b = bufferization.to_buffer %r : tensor<3xf32> to memref<3xf32>
  %u = memref.cast %b : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %um = memref.cast %m : memref<3xf32> to memref<*xf32>
  call @printMemrefF32(%um) : (memref<*xf32>) -> ()
  return
}
"""


@needs_real
@pytest.mark.skipif(REAL_RUNNER is None, reason="LLVM 22's mlir-runner is not installed")
def test_to_tensor_to_buffer_materialize_match_llvm(tmp_path):
    text = _INTEROP.replace("RESTRICT", "restrict ").replace("DEST", "tensor.empty() : tensor<3xf32>")
    real = _real_output(text)
    assert "[2.5,  4,  2.5]" in real and "[2.5,  2.5,  2.5]" in real  # %m keeps its value
    assert _no_addresses(_embedded_output(text, tmp_path)) == _no_addresses(real)


@needs_real
@pytest.mark.parametrize("restrict,dest,op", [
    ("", "tensor.empty() : tensor<3xf32>", "bufferization.to_tensor"),
    ("restrict ", "arith.constant dense<1.0> : tensor<3xf32>",
     "bufferization.materialize_in_destination"),
])
def test_interop_refusals_are_located_where_llvm_fails_too(restrict, dest, op, tmp_path):
    text = _INTEROP.replace("RESTRICT", restrict).replace("DEST", dest)
    args = ["-one-shot-bufferize=bufferize-function-boundaries"]
    real = subprocess.run([REAL, "-", *args], input=text.encode(), capture_output=True)
    assert real.returncode != 0  # LLVM 22 fails these too: no verdict of ours differs
    r = opt.tool_main(["mlir-opt", *args], text.encode(), {}, str(tmp_path))
    err = r.stderr.decode()
    assert r.returncode != 0 and "Traceback" not in err
    assert f"unsupported by the embedded runner: '{op}'" in err and "--gpurunner-tools=system" in err


@needs_real
@pytest.mark.parametrize("offs,src", [("[0, 0] [1, %n] [1, 1]", "tensor<4x?xf32>"),
                                      ("[%i, 1] [2, 1] [%n, 1]", "tensor<?x?xf32>"),
                                      ("[1, %i] [1, 2] [1, 2]", "tensor<4x8xf32>")])
def test_slice_views_have_the_layout_mlir_opt_infers(offs, src, tmp_path):
    """The bufferized IR (subview types: MLIR's 0 * ? = 0 offsets included) is valid IR
    for LLVM 22's mlir-opt."""
    text = (f"func.func @f(%t: {src}, %i: index, %n: index) -> f32 {{\n"
            f"  %c0 = arith.constant 0 : index\n"
            f"  %s = tensor.extract_slice %t{offs} : {src} to tensor<?xf32>\n"
            f"  %v = tensor.extract %s[%c0] : tensor<?xf32>\n  return %v : f32\n}}\n")
    text = text.replace("[1, 2] [1, 2] : tensor<4x8xf32> to tensor<?xf32>",
                        "[1, 2] [1, 2] : tensor<4x8xf32> to tensor<2xf32>").replace(
        "[2, 1] [%n, 1] : tensor<?x?xf32> to tensor<?xf32>",
        "[2, 1] [%n, 1] : tensor<?x?xf32> to tensor<2xf32>")
    text = text.replace("%s[%c0] : tensor<?xf32>", "%s[%c0] : " + text.split(" to ")[1].split("\n")[0]) \
        if " to tensor<2xf32>" in text else text
    out = _opt(["-one-shot-bufferize=bufferize-function-boundaries"], text, tmp_path)
    assert "memref.subview" in out
    real = subprocess.run([REAL, "-"], input=out.encode(), capture_output=True)
    assert real.returncode == 0, real.stderr.decode()


@needs_real
@pytest.mark.skipif(REAL_RUNNER is None, reason="LLVM 22's mlir-runner is not installed")
@pytest.mark.parametrize("result", ["tensor<3x?xf32>", "tensor<3x4xf32>", "tensor<3x5xf32>"])
def test_pad_with_dynamic_amounts_and_a_static_result_as_llvm(result, tmp_path):
    """MLIR infers a dimension padded by a `%c` amount dynamic, yet accepts it written static;
    a wrong static size is refused by both."""
    text = f"""
func.func private @printMemrefF32(%t : tensor<*xf32>)
func.func @main() {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = arith.constant 0.5 : f32
  %t = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %p = tensor.pad %t low[%c1, %c0] high[0, %c1 + 0] {{
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  }} : tensor<2x2xf32> to {result}
  %u = tensor.cast %p : {result} to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}}
""".replace("%c1 + 0", "%c1")
    real = subprocess.run([REAL, "-", *_PIPELINE], input=text.encode(), capture_output=True)
    r = opt.tool_main(["mlir-opt", *_PIPELINE], text.encode(), {}, str(tmp_path))
    assert (r.returncode == 0) == (real.returncode == 0), (r.stderr, real.stderr)
    if real.returncode == 0:
        assert _no_addresses(_embedded_output(text, tmp_path)) == _no_addresses(_real_output(text))
    else:
        assert "Traceback" not in r.stderr.decode()


# ---- tensor.extract_slice run-time checks (LLVM 22's, messages byte for byte).
_SLICE_CALLS = [(0, 4, 1), (5, 5, 1), (-1, 1, 1), (0, 3, 2), (4, 0, 1), (5, 0, 1), (1, 2, 3),
                (3, 1, 0)]


def _slice_messages(off: int, size: int, stride: int, dim: int = 4) -> list[str]:
    """The model: the offset may equal the size of an empty slice; the last element read
    is checked only where the slice is not empty."""
    out = []
    if not (0 <= off <= dim if size == 0 else 0 <= off < dim):
        out.append("offset 0 is out-of-bounds")
    if size > 0 and not 0 <= off + (size - 1) * stride < dim:
        out.append("extract_slice runs out-of-bounds along dimension 0")
    return out


def test_extract_slice_runtime_checks(tmp_path):
    from runner_core import cli

    calls = "\n".join(
        f"  %o{k} = arith.constant {o} : index\n  %s{k} = arith.constant {s} : index\n"
        f"  %t{k} = arith.constant {t} : index\n"
        f"  func.call @slice(%d, %o{k}, %s{k}, %t{k}) : (tensor<?xf32>, index, index, index) -> ()"
        for k, (o, s, t) in enumerate(_SLICE_CALLS))
    text = f"""
func.func @slice(%t: tensor<?xf32>, %o: index, %s: index, %st: index) {{
  %x = tensor.extract_slice %t[%o] [%s] [%st] : tensor<?xf32> to tensor<?xf32>
  return
}}
func.func @main() {{
  %e = tensor.empty() : tensor<4xf32>
  %d = tensor.cast %e : tensor<4xf32> to tensor<?xf32>
{calls}
  return
}}
"""
    lowered = _opt(["-generate-runtime-verification",
                    "-one-shot-bufferize=bufferize-function-boundaries",
                    "-buffer-deallocation-pipeline=private-function-dynamic-ownership",
                    "-test-cf-assert", "-convert-scf-to-cf", "-convert-to-llvm"], text, tmp_path)
    res = cli.tool_main(["mlir-runner", "-e", "main", "-entry-point-result=void"],
                        lowered.encode(), {}, str(tmp_path))
    assert res.returncode == 0, res.stderr.decode()
    # -test-cf-assert prints with puts: stdout, as with mlir-opt 22 and mlir-runner 22.
    out = res.stdout.decode()
    got = [line[2:] for line in out.splitlines() if line.startswith("^ ")]
    assert got == [m for o, s, t in _SLICE_CALLS for m in _slice_messages(o, s, t)]
    assert ("%extracted_slice = tensor.extract_slice %arg0[%arg1] [%arg2] [%arg3] : "
            "tensor<?xf32> to tensor<?xf32>") in out
