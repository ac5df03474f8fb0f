"""The layout rules every change must keep: no import cycles, no module over 800 lines,
no two packages of ``runner_core`` importing each other, and no import of a name
its module does not define.

The import graph is read statically (``ast``) from the sources of ``runner_core``
and ``pytest_gpurunner``, counting every import wherever it is written: at the
top, inside a function (a lazy import that only hides a cycle is still one) or
under ``if TYPE_CHECKING:``.  ``from package import name`` depends on the
submodule ``package.name`` when there is one, else on the package itself.
Run it alone with ``pytest test/test_architecture.py``; a failure lists each
cycle as a path of modules, the import lines that close it, and each module
over the limit.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("runner_core", "pytest_gpurunner")
MAX_LINES = 800

# Cycles and oversized modules known and being removed (issue 16), with who removes
# them.  The test fails on anything not listed, and on an entry that no longer
# applies (delete it then): the lists only shrink.
KNOWN_CYCLES: dict[frozenset[str], str] = {}
KNOWN_OVERSIZE: dict[str, str] = {}

pytestmark = pytest.mark.unit


def _modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            rel = path.relative_to(ROOT).with_suffix("")
            parts = list(rel.parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _is_package(name: str, modules: dict[str, Path]) -> bool:
    return modules[name].name == "__init__.py"


def _imports(name: str, path: Path, modules: dict[str, Path]) -> list[tuple[str, int]]:
    """(imported project module, line) for every import statement of ``path``."""
    tree = ast.parse(path.read_text(), str(path))
    package = name if _is_package(name, modules) else name.rpartition(".")[0]
    found: list[tuple[str, int]] = []

    def add(target: str, line: int) -> None:
        while target and target not in modules:
            target = target.rpartition(".")[0]  # a name inside a module, or an outside module
        if target and target != name:
            found.append((target, line))

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in PACKAGES:
                    add(alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")
                if node.level > 1:
                    base_parts = base_parts[:len(base_parts) - node.level + 1]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            if base.split(".")[0] not in PACKAGES:
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                add(sub if sub in modules else base, node.lineno)
    return found


def import_graph() -> dict[str, dict[str, int]]:
    """module -> {imported module: first line importing it}."""
    modules = _modules()
    graph: dict[str, dict[str, int]] = {}
    for name, path in modules.items():
        edges: dict[str, int] = {}
        for target, line in _imports(name, path, modules):
            edges.setdefault(target, line)
        graph[name] = edges
    return graph


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = 0

    def visit(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _describe(comp: list[str], graph: dict[str, dict[str, int]]) -> str:
    """One cycle through the component, with the import lines that make it."""
    members = set(comp)
    start = comp[0]
    # Shortest path from start back to itself inside the component.
    prev: dict[str, str] = {}
    frontier = [start]
    seen = {start}
    end = None
    while frontier and end is None:
        nxt = []
        for v in frontier:
            for w in sorted(graph[v]):
                if w == start:
                    end = v
                    break
                if w in members and w not in seen:
                    seen.add(w)
                    prev[w] = v
                    nxt.append(w)
            if end is not None:
                break
        frontier = nxt
    path = [start]
    v = end
    while v is not None and v != start:
        path.insert(1, v)
        v = prev.get(v)
    path.append(start)
    steps = [f"{a} (line {graph[a][b]}) -> {b}" for a, b in zip(path, path[1:], strict=False)]
    return f"cycle of {len(comp)} modules {comp}:\n    " + "\n    ".join(steps)


def test_no_import_cycles():
    graph = import_graph()
    found = {frozenset(c): c for c in cycles(graph)}
    unknown = [c for key, c in found.items() if key not in KNOWN_CYCLES]
    gone = [sorted(key) for key in KNOWN_CYCLES if key not in found]
    assert not unknown, "import cycles:\n  " + "\n  ".join(_describe(c, graph) for c in unknown)
    assert not gone, f"listed in KNOWN_CYCLES but no longer a cycle (remove the entry): {gone}"


def test_no_module_over_the_size_limit():
    over = {}
    for path in _modules().values():
        lines = len(path.read_text().splitlines())
        if lines > MAX_LINES:
            over[str(path.relative_to(ROOT))] = lines
    unknown = [f"{p}: {n} lines" for p, n in over.items() if p not in KNOWN_OVERSIZE]
    gone = [p for p in KNOWN_OVERSIZE if p not in over]
    assert not unknown, (f"modules over {MAX_LINES} lines (split them by job):\n  "
                         + "\n  ".join(unknown))
    assert not gone, f"listed in KNOWN_OVERSIZE but within the limit (remove the entry): {gone}"


def test_the_graph_sees_function_level_and_relative_imports():
    """The reader itself: a lazy import and a relative one are both edges."""
    graph = import_graph()
    # engine imports the parser inside a function; codegen's context imports a sibling.
    assert "runner_core.ir.parse" in graph["runner_core.engine"]
    assert "runner_core.codegen.types" in graph["runner_core.codegen.context"]


def _package_of(module: str) -> str:
    """``runner_core.codegen.emitter`` -> ``runner_core.codegen``; top-level modules stay."""
    return ".".join(module.split(".")[:2])


def test_packages_form_layers():
    """Between the packages of ``runner_core`` (``ir``, ``passes``, ``codegen``,
    ``runtime``, ``backends``, ...) imports point one way only: a package that
    needs something of another's sits above it, so a layer can be read, tested
    and replaced without the ones above."""
    graph = import_graph()
    packages: dict[str, dict[str, int]] = {}
    witness: dict[tuple[str, str], str] = {}
    for name, edges in graph.items():
        if not name.startswith("runner_core."):
            continue
        src = _package_of(name)
        packages.setdefault(src, {})
        for target, line in edges.items():
            dst = _package_of(target)
            if target.startswith("runner_core.") and dst != src:
                packages[src].setdefault(dst, line)
                witness.setdefault((src, dst), f"{name} (line {line}) -> {target}")
    for edges in packages.values():
        for dst in edges:
            packages.setdefault(dst, {})
    found = cycles(packages)
    detail = [f"{comp}: " + "; ".join(witness[(a, b)] for a in comp for b in comp
                                      if (a, b) in witness) for comp in found]
    assert not found, "packages importing each other:\n  " + "\n  ".join(detail)


def _top_level_names(path: Path) -> set[str]:
    """Names a module binds outside its functions and classes (defs, classes,
    assignments, imports, also under ``if``/``try``/``for``/``with``)."""
    names: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                for alias in node.names:
                    names.add((alias.asname or alias.name).split(".")[0])
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    names.update(n.id for n in ast.walk(t) if isinstance(n, ast.Name))
            for field in ("body", "orelse", "finalbody"):
                if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    visit(getattr(node, field, []) or [])
            for handler in getattr(node, "handlers", []) or []:
                visit(handler.body)

    visit(ast.parse(path.read_text(), str(path)).body)
    return names


def test_every_from_import_names_something_that_exists():
    """``from runner_core.x import name`` - at the top or inside a function - names a
    submodule or something ``x`` binds: a name moved away fails here, not at the
    first run that reaches a lazy import of it."""
    modules = _modules()
    bound = {name: _top_level_names(path) for name, path in modules.items()}
    missing = []
    for name, path in modules.items():
        package = name if _is_package(name, modules) else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                parts = package.split(".")
                if node.level > 1:
                    parts = parts[:len(parts) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            if base not in modules:
                continue
            for alias in node.names:
                if alias.name != "*" and f"{base}.{alias.name}" not in modules \
                        and alias.name not in bound[base]:
                    missing.append(f"{path.relative_to(ROOT)}:{node.lineno}: "
                                   f"{base} has no {alias.name}")
    assert not missing, "imports of names that do not exist:\n  " + "\n  ".join(missing)
