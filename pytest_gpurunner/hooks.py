"""Hook specifications a ``conftest.py`` can implement (the pytest counterpart of ``lit.local.cfg``)."""

from __future__ import annotations


def pytest_gpurunner_local_config(local, path, config):
    """Adjust the lit configuration of the ``.mlir`` tests in ``path`` (a directory) and below.

    ``local`` is a :class:`pytest_gpurunner.LocalConfig` already holding what
    the enclosing directories decided; change it in place:

    * ``local.substitutions`` - lit's ordered ``(regex, replacement)`` list;
      ``local.add_substitution("%name", "value")`` adds a literal name;
    * ``local.features`` - set of lit features (add or remove);
    * ``local.environment`` - extra environment for the RUN lines;
    * ``local.tools`` - ``{"name": "module:function" or callable}`` embedded tools;
    * ``local.unsupported = True`` - skip every test here (lit's ``config.unsupported``);
    * ``local.timeout`` - seconds per test here.

    ``path`` is the directory of the tests being configured (the same for every
    level), ``config`` the pytest Config.  Called once per test directory and
    level, outermost first, like lit's ``lit.cfg`` then each ``lit.local.cfg``:
    first the plug-ins' implementations (installed, ``-p``, ``pytest_plugins``),
    then the conftest of each directory from the rootdir down.  Each level is one
    pluggy call, so ``tryfirst``/``trylast`` and wrappers order and wrap the
    implementations of that level, and ``--debug`` traces every call.
    """
