"""Shell builtins that run in process: lit's ``echo cat diff mkdir rm`` plus ``cp true false :``.

Each takes ``(args, stdin, cwd)`` and returns ``(exit code, stdout, stderr)`` as
bytes, so a builtin can sit anywhere in a pipeline next to embedded tools.
Behaviour follows lit's internal shell (its option sets, messages and exit
codes); where lit would start ``/bin/cp`` we do the same work here.
"""

from __future__ import annotations

import difflib
import getopt
import os
import re
import shutil
import stat

Result = tuple[int, bytes, bytes]


def _abs(path: str, cwd: str) -> str:
    return path if os.path.isabs(path) else os.path.normpath(os.path.join(cwd, path))


def echo(args: list[str], stdin: bytes, cwd: str) -> Result:
    interpret = False
    newline = True
    while args and args[0] in ("-e", "-n"):
        if args[0] == "-e":
            interpret = True
        else:
            newline = False
        args = args[1:]
    text = " ".join(args)
    if interpret:
        text = text.encode("utf-8").decode("unicode_escape")
    if newline:
        text += "\n"
    return 0, text.encode("utf-8", "surrogateescape"), b""


def _caret_notation(data: bytes) -> bytes:
    out = bytearray()
    for value in data:
        if value in (9, 10):
            out.append(value)
            continue
        if value > 127:
            value -= 128
            out += b"M-"
        if value < 32:
            out += b"^" + bytes([value + 64])
        elif value == 127:
            out += b"^?"
        else:
            out.append(value)
    return bytes(out)


def cat(args: list[str], stdin: bytes, cwd: str) -> Result:
    try:
        opts, files = getopt.gnu_getopt(args, "v", ["show-nonprinting"])
    except getopt.GetoptError as err:
        return 1, b"", f"Unsupported: 'cat':  {err}\n".encode()
    nonprinting = bool(opts)
    chunks = []
    for name in files or ["-"]:
        if name == "-":
            data = stdin
        else:
            try:
                with open(_abs(name, cwd), "rb") as handle:
                    data = handle.read()
            except OSError as err:
                return 1, b"".join(chunks), f"cat: {name}: {err.strerror}\n".encode()
        chunks.append(_caret_notation(data) if nonprinting else data)
    return 0, b"".join(chunks), b""


def mkdir(args: list[str], stdin: bytes, cwd: str) -> Result:
    try:
        opts, dirs = getopt.gnu_getopt(args, "p")
    except getopt.GetoptError as err:
        return 1, b"", f"Unsupported: 'mkdir':  {err}\n".encode()
    if not dirs:
        return 1, b"", b"Error: 'mkdir' is missing an operand\n"
    parents = bool(opts)
    errors = []
    for name in dirs:
        path = _abs(name, cwd)
        try:
            if parents:
                os.makedirs(path, exist_ok=True)
            else:
                os.mkdir(path)
        except FileExistsError:
            if not parents and not os.path.isdir(path):
                errors.append(f"Error: 'mkdir' command failed, {name} exists and is not a directory")
        except OSError as err:
            errors.append(f"Error: 'mkdir' command failed, {err}")
    return (1 if errors else 0), b"", "".join(e + "\n" for e in errors).encode()


def rm(args: list[str], stdin: bytes, cwd: str) -> Result:
    try:
        opts, paths = getopt.gnu_getopt(args, "frR", ["recursive", "force"])
    except getopt.GetoptError as err:
        return 1, b"", f"Unsupported: 'rm':  {err}\n".encode()
    force = any(o in ("-f", "--force") for o, _ in opts)
    recursive = any(o in ("-r", "-R", "--recursive") for o, _ in opts)
    if not paths:
        return 1, b"", b"Error: 'rm' is missing an operand\n"
    errors = []
    for name in paths:
        path = _abs(name, cwd)
        if not os.path.lexists(path):
            if not force:
                errors.append(f"Error: 'rm' command failed, no such file or directory: {name}")
            continue
        try:
            if os.path.isdir(path) and not os.path.islink(path):
                if not recursive:
                    errors.append(f"Error: {path} is a directory")
                    continue
                shutil.rmtree(path, onerror=_force_remove if force else None)
            else:
                if force and not os.access(path, os.W_OK) and not os.path.islink(path):
                    os.chmod(path, stat.S_IMODE(os.stat(path).st_mode) | stat.S_IWRITE)
                os.remove(path)
        except OSError as err:
            errors.append(f"Error: 'rm' command failed, {err}")
    return (1 if errors else 0), b"", "".join(e + "\n" for e in errors).encode()


def _force_remove(func, path, exc_info):
    os.chmod(path, stat.S_IMODE(os.stat(path).st_mode) | stat.S_IWRITE)
    os.remove(path)


def cp(args: list[str], stdin: bytes, cwd: str) -> Result:
    try:
        opts, paths = getopt.gnu_getopt(args, "rRfp", ["recursive", "force"])
    except getopt.GetoptError as err:
        return 1, b"", f"cp: {err}\n".encode()
    recursive = any(o in ("-r", "-R", "--recursive") for o, _ in opts)
    keep_meta = any(o == "-p" for o, _ in opts)
    if len(paths) < 2:
        return 1, b"", b"cp: missing destination file operand\n"
    *sources, dest = paths
    dest_path = _abs(dest, cwd)
    if len(sources) > 1 and not os.path.isdir(dest_path):
        return 1, b"", f"cp: target '{dest}' is not a directory\n".encode()
    copy = shutil.copy2 if keep_meta else shutil.copyfile
    errors = []
    for src in sources:
        src_path = _abs(src, cwd)
        target = dest_path
        if os.path.isdir(dest_path):
            target = os.path.join(dest_path, os.path.basename(src_path.rstrip(os.sep)))
        try:
            if os.path.isdir(src_path):
                if not recursive:
                    errors.append(f"cp: -r not specified; omitting directory '{src}'")
                    continue
                shutil.copytree(src_path, target, copy_function=copy, dirs_exist_ok=True)
            else:
                copy(src_path, target)
                if not keep_meta:
                    shutil.copymode(src_path, target)
        except OSError as err:
            errors.append(f"cp: cannot copy '{src}': {err.strerror or err}")
    return (1 if errors else 0), b"", "".join(e + "\n" for e in errors).encode()


def true(args: list[str], stdin: bytes, cwd: str) -> Result:
    return 0, b"", b""


def false(args: list[str], stdin: bytes, cwd: str) -> Result:
    return 1, b"", b""


# ----------------------------------------------------------------------------- diff


class _DiffOptions:
    def __init__(self):
        self.ignore_all_space = False
        self.ignore_space_change = False
        self.ignore_regex: re.Pattern | None = None
        self.unified = False
        self.context = 3
        self.recursive = False
        self.strip_cr = False


def _read_lines(name: str, stdin: bytes, cwd: str) -> list[bytes]:
    if name == "-":
        data = stdin
    else:
        with open(_abs(name, cwd), "rb") as handle:
            data = handle.read()
    return data.splitlines(keepends=True)


def _normalise(line: bytes, opts: _DiffOptions) -> bytes:
    if opts.strip_cr and line.endswith(b"\r\n"):
        line = line[:-2] + b"\n"
    if opts.ignore_all_space:
        return re.sub(rb"\s+", b"", line)
    if opts.ignore_space_change:
        return re.sub(rb"\s+", b" ", line).rstrip() + b"\n"
    return line


def _diff_files(a: str, b: str, stdin: bytes, cwd: str, opts: _DiffOptions) -> tuple[int, bytes]:
    lines_a = _read_lines(a, stdin, cwd)
    lines_b = _read_lines(b, stdin, cwd)
    if opts.ignore_regex is not None:
        regex = opts.ignore_regex
        lines_a = [ln for ln in lines_a if not regex.search(ln)]
        lines_b = [ln for ln in lines_b if not regex.search(ln)]
    key_a = [_normalise(ln, opts) for ln in lines_a]
    key_b = [_normalise(ln, opts) for ln in lines_b]
    if key_a == key_b:
        return 0, b""
    text_a = [ln.decode("utf-8", "replace") for ln in key_a]
    text_b = [ln.decode("utf-8", "replace") for ln in key_b]
    render = difflib.unified_diff if opts.unified else difflib.context_diff
    out = []
    for line in render(text_a, text_b, a, b, n=opts.context):
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return 1, "".join(out).encode("utf-8")


def _tree(root: str) -> list[str]:
    entries = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        for name in sorted(dirnames):
            entries.append(os.path.normpath(os.path.join(rel, name)) + os.sep)
        for name in sorted(filenames):
            entries.append(os.path.normpath(os.path.join(rel, name)))
    return sorted(entries)


def diff(args: list[str], stdin: bytes, cwd: str) -> Result:
    opts = _DiffOptions()
    try:
        parsed, paths = getopt.gnu_getopt(args, "wbuI:U:r", ["strip-trailing-cr"])
    except getopt.GetoptError as err:
        return 2, b"", f"Unsupported: 'diff': {err}\n".encode()
    for flag, value in parsed:
        if flag == "-w":
            opts.ignore_all_space = True
        elif flag == "-b":
            opts.ignore_space_change = True
        elif flag == "-u":
            opts.unified = True
        elif flag == "-U":
            opts.unified = True
            try:
                opts.context = int(value)
            except ValueError:
                return 2, b"", f"Error: invalid '-U' argument: {value}\n".encode()
        elif flag == "-I":
            opts.ignore_regex = re.compile(value.encode())
        elif flag == "-r":
            opts.recursive = True
        elif flag == "--strip-trailing-cr":
            opts.strip_cr = True
    if len(paths) != 2:
        return 2, b"", b"Error: missing or extra operand\n"
    a, b = paths
    try:
        if opts.recursive and os.path.isdir(_abs(a, cwd)) and os.path.isdir(_abs(b, cwd)):
            tree_a, tree_b = _tree(_abs(a, cwd)), _tree(_abs(b, cwd))
            out = []
            code = 0
            for only, root in ((set(tree_a) - set(tree_b), a),
                               (set(tree_b) - set(tree_a), b)):
                for entry in sorted(only):
                    code = 1
                    out.append(f"Only in {root}: {entry}\n".encode())
            for entry in sorted(set(tree_a) & set(tree_b)):
                if entry.endswith(os.sep):
                    continue
                c, text = _diff_files(os.path.join(a, entry), os.path.join(b, entry),
                                      stdin, cwd, opts)
                code = max(code, c)
                out.append(text)
            return code, b"".join(out), b""
        code, text = _diff_files(a, b, stdin, cwd, opts)
        return code, text, b""
    except OSError as err:
        return 2, b"", f"Error: 'diff' command failed, {err}\n".encode()


STREAM_BUILTINS = {
    "echo": echo,
    "@echo": echo,
    "cat": cat,
    "diff": diff,
    "mkdir": mkdir,
    "rm": rm,
    "cp": cp,
    "true": true,
    "false": false,
    ":": true,
}
