"""An embedded tool that marks its process unusable, as a sticky CUDA error does."""

import os

from runner_core.toolapi import ToolResult, mark_process_unusable, process_unusable


def poison(argv, stdin, env, cwd):
    before = process_unusable()
    if argv[1:] == ["poison"]:
        mark_process_unusable("test: sticky error")
    info = {"restart_process": process_unusable()} if process_unusable() else {}
    return ToolResult(0, f"pid={os.getpid()} unusable-before={before}\n".encode(), b"", info)
