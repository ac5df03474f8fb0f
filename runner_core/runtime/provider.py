"""What a runtime provider is: a built-in implementation of a runtime library's C functions.

Providers are plain Python objects.  Those that ship with the runner are listed
in :mod:`.shipped`, a backend's ``mgpu*`` runtime comes from the backend
(``Backend.runtime_provider``), and users add theirs with
``registry.register_provider`` from a conftest (contract 6 in docs/design.md).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping


class Provider:
    """A built-in implementation of a runtime library's C functions.

    Subclasses set ``name`` (canonical library name, e.g. ``mlir_runner_utils``),
    optionally ``aliases`` (other names it answers to), and implement
    :meth:`build_symbols` returning ``{symbol: address}``; addresses must stay
    valid for the life of the process (keep ctypes callbacks and JIT libraries
    referenced).
    """

    name: str = ""
    aliases: tuple[str, ...] = ()
    # When True, a real file of this name is ignored: the built-in implementation is
    # the point (a backend's mgpu* runtime, which loads that backend's kernel images).
    replaces_real_library: bool = False

    def __init__(self) -> None:
        self._symbols: dict[str, int] | None = None
        self._lock = threading.Lock()

    def build_symbols(self) -> Mapping[str, int]:  # pragma: no cover - abstract
        raise NotImplementedError

    def symbols(self) -> Mapping[str, int]:
        if self._symbols is None:
            with self._lock:
                if self._symbols is None:
                    self._symbols = dict(self.build_symbols())
        return self._symbols

    def lookup(self, symbol: str) -> int | None:
        return self.symbols().get(symbol)

    def answers_to(self, normalized: str) -> bool:
        return normalized == self.name or normalized in self.aliases

    # Optional per-run hooks (e.g. an async scheduler draining its workers).
    def start_run(self, run) -> None:
        pass

    def finish_run(self, run) -> None:
        pass

    def __repr__(self) -> str:
        return f"<provider {self.name}>"


_interrupts: list[BaseException] = []


def c_callback(fn: Callable, on_error: Callable[[Exception], object], result=0) -> Callable:
    """``fn`` made safe to call from C through ctypes: an exception never crosses into
    C (ctypes would only print it, "Exception ignored on calling ctypes callback");
    it goes to ``on_error`` and ``result`` is returned.

    An interrupt (a ``BaseException`` such as the plug-in's timeout alarm, or
    Ctrl-C) that lands while a callback runs is kept instead and raised again by
    :func:`raise_pending_interrupt` once the program has returned to Python, so the
    run stops with it rather than with a traceback and a follow-on error."""

    def wrapped(*args):
        try:
            return fn(*args)
        except Exception as err:
            on_error(err)
            return result
        except BaseException as err:  # noqa: BLE001 - raised again outside the C frames
            _interrupts.append(err)
            on_error(RuntimeError(f"interrupted ({type(err).__name__})"))
            return result

    return wrapped


def raise_pending_interrupt() -> None:
    """Raise the first interrupt a callback of this run kept (and forget the others)."""
    if _interrupts:
        first = _interrupts[0]
        _interrupts.clear()
        raise first
