"""Plain, picklable data that describes one test's work and what came of it.

A test's whole RUN script travels as one ``Job``: the commands after
substitution, already parsed into a small shell syntax tree, plus the
environment, working directory and tool table.  Nothing in here refers to lit,
pytest or an open resource, so the same job runs unchanged in this process, in
a persistent worker process, or after a crash in a fresh one.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Glob:
    """An unquoted shell word with ``*`` or ``?``: expanded against the cwd at run time."""

    pattern: str


Word = str | Glob


@dataclass(frozen=True)
class Redirect:
    """One redirection of a command.

    ``op`` is ``<``, ``>``, ``>>``, ``>&`` (fd duplication, or both streams to a
    file when ``fd`` is None, as lit reads ``>&file``) or ``&>``; ``fd`` is the
    explicit descriptor number written before the operator (``2>``), else None.
    """

    op: str
    fd: int | None
    target: Word


@dataclass
class Command:
    args: list[Word]
    redirects: list[Redirect] = field(default_factory=list)


@dataclass
class Pipeline:
    commands: list[Command]


@dataclass
class Sequence:
    """``lhs op rhs`` with op one of ``;``, ``&&``, ``||``, ``&``."""

    lhs: Node
    op: str
    rhs: Node


Node = Pipeline | Sequence


@dataclass
class RunLine:
    """One RUN directive (continuations joined) and what it became."""

    lineno: int
    end_lineno: int
    source: str  # as written in the file, continuations joined, before substitution
    command: str  # after substitution
    tree: Node | None  # None when substitution left an empty command
    # This line's own tool table (pytest_gpurunner.recorded: lines whose recorded
    # lowerings reach FileCheck run with the real tools); None: the job's.
    tools: ToolTable | None = None


@dataclass
class ToolTable:
    """How a command name becomes something to run.

    ``embedded`` maps a name to a dotted ``module:function`` path (or a
    picklable callable) following ``runner_core.toolapi``; ``mode`` chooses
    between those and executables found in ``tool_dirs`` then on ``PATH``.
    """

    mode: str = "embedded"  # embedded | system | auto | hybrid
    embedded: dict[str, object] = field(default_factory=dict)
    tool_dirs: list[str] = field(default_factory=list)


@dataclass
class Job:
    test_id: str
    source_path: str
    lines: list[RunLine]
    env: dict[str, str]
    cwd: str
    tools: ToolTable
    timeout: float | None = None  # seconds for the whole script; None = no limit
    # Where the timeout came from when nobody chose it (the plug-in's default), for the report.
    timeout_note: str = ""
    # Per-stage output kept in results is cut to this many bytes (reports stay readable,
    # results stay cheap to send back from a worker).
    keep_bytes: int = 256 * 1024

    def timed_out(self) -> str:
        """The first words of a timeout report: ``timed out after 600 s (the default; ...)``."""
        note = f" ({self.timeout_note})" if self.timeout_note else ""
        return f"timed out after {self.timeout:g} s{note}"


@dataclass
class StageResult:
    """One command of a pipeline, as executed."""

    lineno: int  # RUN line the command belongs to
    index: int  # position in its pipeline, 0-based
    pipeline_len: int
    argv: list[str]
    kind: str  # builtin | embedded | system | env
    target: str  # dotted path or executable path or builtin name
    returncode: int  # after `not` / `not --crash` were applied
    raw_returncode: int  # what the tool itself returned
    stdout: bytes = b""
    stderr: bytes = b""
    stdin: bytes = b""  # kept only for tools whose input explains a failure (FileCheck)
    duration: float = 0.0
    redirected: list[str] = field(default_factory=list)
    info: dict = field(default_factory=dict)
    # Its input was empty because the stage before it failed: what it says is a guess.
    after_failed_stage: bool = False

    @property
    def crashed(self) -> bool:
        return self.raw_returncode < 0


@dataclass
class JobResult:
    """The outcome of running a job once.

    ``status`` is ``pass``, ``fail`` (a command exited non-zero), ``timeout``,
    ``crash`` (the process running the job died) or ``error`` (the script could
    not be run as written: unknown command, bad redirection, ...).
    """

    status: str
    exit_code: int
    stages: list[StageResult] = field(default_factory=list)
    message: str = ""
    failed_lineno: int | None = None
    duration: float = 0.0
    executor: str = "in-process"
    # Set by a worker whose process a tool declared unusable (runner_core.toolapi).
    restart_reason: str = ""
