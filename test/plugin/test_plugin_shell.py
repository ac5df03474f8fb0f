"""The shell on its own: lit's semantics for one RUN script, without a pytest session around it."""

import os
import sys

import pytest

from pytest_gpurunner import script, shell
from pytest_gpurunner.job import Job, RunLine, ToolTable
from pytest_gpurunner.tools import DEFAULT_EMBEDDED

FAKE = {
    "fake-fail": "gpurunner_fake_tools:fail",
    "fake-crash": "gpurunner_fake_tools:crash",
    "fake-cat": "gpurunner_fake_tools:cat",
    "fake-echo-env": "gpurunner_fake_tools:echo_env",
    "fake-raise": "gpurunner_fake_tools:raise_error",
}


def run(tmp_path, *commands, env=None, timeout=None, mode="embedded"):
    lines = [RunLine(i + 1, i + 1, c, c, script.parse_shell(c, i + 1))
             for i, c in enumerate(commands)]
    table = ToolTable(mode, {**DEFAULT_EMBEDDED, **FAKE}, [])
    job = Job("t", str(tmp_path / "t.mlir"), lines, dict(os.environ, **(env or {})),
              str(tmp_path), table, timeout)
    return shell.run_job(job)


def out(result, index=-1):
    return result.stages[index].stdout.decode()


def test_pipeline_passes_bytes_between_builtins_and_embedded_tools(tmp_path):
    result = run(tmp_path, "echo hello | fake-cat | cat")
    assert result.status == "pass"
    assert out(result) == "hello\n"
    assert [s.kind for s in result.stages] == ["builtin", "embedded", "builtin"]


def test_pipefail_takes_the_last_failing_stage(tmp_path):
    result = run(tmp_path, "fake-fail 3 | fake-cat")
    assert result.status == "fail"
    assert result.exit_code == 3
    assert result.failed_lineno == 1


def test_and_or_semicolon(tmp_path):
    assert run(tmp_path, "fake-fail 1 || echo rescued").status == "pass"
    assert run(tmp_path, "fake-fail 1 && echo never").exit_code == 1
    result = run(tmp_path, "fake-fail 1 ; echo after")
    assert result.status == "pass" and out(result) == "after\n"


def test_run_lines_stop_at_the_first_failure(tmp_path):
    result = run(tmp_path, "echo one", "fake-fail 2", "echo three")
    assert result.failed_lineno == 2
    assert [s.argv[0] for s in result.stages] == ["echo", "fake-fail"]


def test_redirections(tmp_path):
    result = run(tmp_path, "echo first > out.txt", "echo second >> out.txt",
                 "fake-fail 0 2> err.txt > std.txt", "cat < out.txt")
    assert result.status == "pass"
    assert (tmp_path / "out.txt").read_text() == "first\nsecond\n"
    assert (tmp_path / "err.txt").read_text() == "fake-fail: failing with 0\n"
    assert (tmp_path / "std.txt").read_text() == "partial output\n"
    assert out(result) == "first\nsecond\n"


def test_stderr_joins_stdout_with_2_and_1(tmp_path):
    result = run(tmp_path, "not fake-fail 2 2>&1 | cat")
    assert result.status == "pass"
    assert out(result) == "partial output\nfake-fail: failing with 2\n"
    result = run(tmp_path, "fake-fail 0 &> both.txt")
    assert (tmp_path / "both.txt").read_text() == "partial output\nfake-fail: failing with 0\n"


def test_not_inverts_and_not_crash_expects_a_crash(tmp_path):
    assert run(tmp_path, "not fake-fail 1").status == "pass"
    assert run(tmp_path, "not echo ok").exit_code == 1
    assert run(tmp_path, "not not fake-fail 1").exit_code == 1
    assert run(tmp_path, "not --crash fake-crash").status == "pass"  # forked: a real SIGSEGV
    assert run(tmp_path, "not --crash fake-fail 1").exit_code == 1  # failing is not crashing


def test_not_crash_of_a_system_executable(tmp_path):
    command = f"not --crash {sys.executable} -c 'import os; os.abort()'"
    assert run(tmp_path, command).status == "pass"
    plain = f"not {sys.executable} -c 'import os; os.abort()'"
    assert run(tmp_path, plain).exit_code == 1  # lit: plain `not` fails on a crash


def test_env_and_export(tmp_path):
    result = run(tmp_path, "env FOO=1 fake-echo-env FOO BAR")
    assert out(result).startswith("FOO=1\nBAR=<unset>\n")
    result = run(tmp_path, "export BAR=2", "env -u BAR fake-echo-env BAR", "fake-echo-env BAR")
    assert out(result, 1).startswith("BAR=<unset>")
    assert out(result, 2).startswith("BAR=2")


def test_bare_env_feeds_the_rest_of_the_pipeline(tmp_path):
    """lit 23.1.5 stops at a bare `env` and never runs FileCheck; we run it."""
    check = tmp_path / "check.txt"
    check.write_text("CHECK: MARKER_FOR_ENV=yes\n")
    result = run(tmp_path, f"env MARKER_FOR_ENV=yes | FileCheck {check}")
    assert result.status == "pass"
    assert [s.argv[0] for s in result.stages] == ["env", "FileCheck"]
    check.write_text("CHECK: NOT_IN_THE_ENVIRONMENT\n")
    assert run(tmp_path, f"env | FileCheck {check}").status == "fail"


def test_cd_changes_where_later_commands_run(tmp_path):
    result = run(tmp_path, "mkdir -p sub/dir", "cd sub/dir", "echo here > f.txt", "fake-echo-env X")
    assert result.status == "pass"
    assert (tmp_path / "sub" / "dir" / "f.txt").exists()
    assert f"cwd={tmp_path / 'sub' / 'dir'}" in out(result)


def test_file_builtins(tmp_path):
    result = run(tmp_path, "mkdir -p a/b", "echo x > a/b/f", "cp -r a c", "cat c/b/f",
                 "rm -r a", "not cat a/b/f", "rm -f does-not-exist")
    assert result.status == "pass", result
    assert not (tmp_path / "a").exists()
    assert (tmp_path / "c" / "b" / "f").read_text() == "x\n"


def test_diff_builtin(tmp_path):
    (tmp_path / "x").write_text("a\nb\n")
    (tmp_path / "y").write_text("a\nc\n")
    assert run(tmp_path, "diff x x").status == "pass"
    result = run(tmp_path, "diff -u x y")
    assert result.exit_code == 1
    assert "-b\n+c\n" in out(result)
    (tmp_path / "z").write_text("a \nb\n")
    assert run(tmp_path, "diff -b x z").status == "pass"


def test_echo_flags(tmp_path):
    result = run(tmp_path, r"echo -n -e 'a\tb'")
    assert out(result) == "a\tb"


def test_globs_expand_in_the_cwd(tmp_path):
    (tmp_path / "one.txt").write_text("1\n")
    (tmp_path / "two.txt").write_text("2\n")
    assert out(run(tmp_path, "cat *.txt")) == "1\n2\n"


def test_readfile_substitution(tmp_path):
    (tmp_path / "value.txt").write_text("from-file")
    assert out(run(tmp_path, "echo %{readfile:value.txt}")) == "from-file\n"


def test_unknown_command_is_a_script_error(tmp_path):
    result = run(tmp_path, "no-such-tool-anywhere --flag")
    assert result.status == "error"
    assert "no-such-tool-anywhere: command not found" in result.message


def test_builtin_cannot_be_in_a_pipeline(tmp_path):
    result = run(tmp_path, "echo x | cd somewhere")
    assert result.status == "error"
    assert "'cd' cannot be part of a pipeline" in result.message


def test_background_operator_is_rejected(tmp_path):
    result = run(tmp_path, "echo a & echo b")
    assert result.status == "error" and "'&'" in result.message


def test_a_tool_that_raises_is_an_error_not_a_failure(tmp_path):
    """`not` must not turn a bug in a tool into a pass."""
    result = run(tmp_path, "not fake-raise")
    assert result.status == "error"
    assert "RuntimeError: a bug in the tool" in result.message


def test_system_executables_run_as_subprocesses(tmp_path):
    result = run(tmp_path, f"{sys.executable} -c 'import sys; print(sys.stdin.read().upper())' "
                           "< in.txt", "echo ignored")
    assert result.status == "error"  # in.txt does not exist: a redirect error names it
    assert "in.txt" in result.message
    (tmp_path / "in.txt").write_text("abc")
    result = run(tmp_path, f"{sys.executable} -c 'import sys; print(sys.stdin.read().upper())' "
                           "< in.txt")
    assert result.stages[0].kind == "system"
    assert out(result) == "ABC\n"


def test_timeout_stops_a_subprocess(tmp_path):
    result = run(tmp_path, f"{sys.executable} -c 'import time; time.sleep(30)'", timeout=0.5)
    assert result.status == "timeout"
    assert result.message.startswith("timed out after 0.5 s")


def test_no_shell_is_involved(tmp_path):
    """Shell metacharacters inside quotes reach the program verbatim; nothing runs /bin/sh."""
    result = run(tmp_path, "echo '$(touch pwned)' '`touch pwned`' '; touch pwned'")
    assert out(result) == "$(touch pwned) `touch pwned` ; touch pwned\n"
    assert not (tmp_path / "pwned").exists()


@pytest.mark.parametrize("command", ["echo 'unterminated", "| echo", "echo >"])
def test_shell_syntax_errors_name_the_line(command):
    with pytest.raises(script.ScriptError, match="RUN at line 7"):
        script.parse_shell(command, 7)
