"""pytest plug-in loaded by ``bench/fidelity.py`` (``-p _fidelity_report``) in its runs.

It writes one JSON line per finished test to ``$FIDELITY_REPORT``: the test's
file, its outcome (``passed``, ``failed``, ``skipped``, ``xfailed``, ``error``),
the first lines of the failure or skip reason, and the plug-in's
``user_properties`` (which tools really ran).  JUnit XML would lose the file
path of a ``.mlir`` item outside the rootdir and the user properties.
"""

from __future__ import annotations

import json
import os

_OUT = os.environ.get("FIDELITY_REPORT")
_SEEN: dict[str, dict] = {}


def _reason(report) -> str:
    longrepr = report.longrepr
    if longrepr is None:
        return ""
    if isinstance(longrepr, tuple):  # a skip: (path, line, "Skipped: ...")
        return str(longrepr[2])
    return str(longrepr)


def pytest_runtest_logreport(report) -> None:
    if not _OUT or os.environ.get("PYTEST_XDIST_WORKER"):
        return  # under xdist the controller receives every report once
    entry = _SEEN.setdefault(report.nodeid, {"nodeid": report.nodeid, "path": report.fspath,
                                             "outcome": "passed", "reason": "", "props": {}})
    if report.when == "call" or report.outcome != "passed":
        if report.outcome == "failed":
            outcome = "failed" if report.when == "call" else "error"
        elif report.outcome == "skipped":
            outcome = "xfailed" if getattr(report, "wasxfail", None) is not None else "skipped"
        else:
            outcome = "passed"
        if entry["outcome"] in ("passed",) or outcome in ("failed", "error"):
            entry["outcome"] = outcome
            entry["reason"] = _reason(report)
            if getattr(report, "wasxfail", None):
                entry["reason"] = str(report.wasxfail)
    for key, value in getattr(report, "user_properties", []) or []:
        entry["props"][str(key)] = str(value)
    if report.when == "teardown":
        with open(_OUT, "a", encoding="utf-8") as out:
            out.write(json.dumps(entry) + "\n")
