"""Reports and exit statuses (`replayable._render`, `replayable._cli.output`): a closed stdout never turns violations into success,
reports reach a redirected stdout even with a progress bar on the terminal, `--format json` always
prints JSON, and the command-line modules import one way (cli -> batch -> inputs/render)."""

from __future__ import annotations

import ast
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import replayable
from replayable._cli import main
from replayable._cli import output as reports

USER = {"type": "message", "role": "user", "content": "hi"}
ORPHAN = {"type": "function_call_output", "call_id": "nobody", "output": "x"}
BAD = [{**ORPHAN, "call_id": f"c{i}"} for i in range(3000)]  # many report lines: more than a pipe buffer


def write(tmp_path: Path, name: str, value: Any) -> str:
    f = tmp_path / name
    f.write_text(value if isinstance(value, str) else json.dumps(value))
    return str(f)


# --- a reader that goes away ---------------------------------------------------------------------------


class _ClosedPipe(io.StringIO):
    """A stdout whose reader goes away after `keep` writes. `buffered`: the failure shows at the next
    flush with unsent text (what a block-buffered pipe does), else at the write itself."""

    def __init__(self, keep: int = 1, buffered: bool = False) -> None:
        super().__init__()
        self.keep = keep
        self.buffered = buffered
        self.unsent = False

    def write(self, text: str) -> int:
        if self.keep <= 0:
            if not self.buffered:
                raise BrokenPipeError(32, "Broken pipe")
            self.unsent = True
            return len(text)
        self.keep -= 1
        return super().write(text)

    def flush(self) -> None:
        if self.unsent:
            raise BrokenPipeError(32, "Broken pipe")


@pytest.mark.parametrize("buffered", [False, True], ids=["at-write", "at-flush"])
@pytest.mark.parametrize("extra", [[], ["--format", "json"], ["--jobs", "2"]])
def test_a_closed_stdout_keeps_the_violations_exit_status(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, extra: list[str], buffered: bool
) -> None:
    bad = write(tmp_path, "bad.json", BAD)
    files = [bad, bad] if "--jobs" in extra else [bad]
    for keep in (0, 1, 2):
        monkeypatch.setattr(sys, "stdout", _ClosedPipe(keep, buffered))
        assert main(["check", *files, *extra]) == 1


def test_a_closed_stdout_on_a_safe_input_is_still_0(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good = write(tmp_path, "good.json", [USER])
    monkeypatch.setattr(sys, "stdout", _ClosedPipe(0))
    assert main(["check", good]) == 0


def test_an_unexpected_broken_pipe_is_the_documented_status(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(args: Any, out: Any) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    good = write(tmp_path, "good.json", [USER])
    monkeypatch.setattr("replayable._cli.command.cmd_check", broken)
    monkeypatch.setattr("replayable._cli.command.batch.check_one", broken)
    assert main(["check", good]) in (reports.EXIT_OUTPUT_CLOSED,)


@pytest.mark.skipif(shutil.which("bash") is None or shutil.which("head") is None, reason="needs bash and head")
@pytest.mark.parametrize("extra", ["", "--format json", "--jobs 2"])
def test_pipefail_head_does_not_exit_0(tmp_path: Path, extra: str) -> None:
    bad = write(tmp_path, "bad.json", BAD)
    files = f"{bad} {bad}" if "jobs" in extra else bad
    cmd = f"set -o pipefail; {sys.executable} -m replayable check {files} {extra} | head -1"
    proc = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr and "Exception ignored" not in proc.stderr
    assert len(proc.stdout.splitlines()) == 1


def test_text_that_cannot_be_encoded_is_escaped_not_a_crash() -> None:
    buf = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    out = reports.Output(buf)
    out.write("call_id '\ud800'")
    out.flush()
    assert buf.buffer.getvalue() == b"call_id '\\ud800'\n"  # type: ignore[attr-defined]


def test_a_report_with_a_lone_surrogate_prints(tmp_path: Path) -> None:
    f = write(tmp_path, "s.json", '[{"type": "function_call_output", "call_id": "\\ud800", "output": "x"}]')
    proc = subprocess.run(
        [sys.executable, "-m", "replayable", "check", f], capture_output=True, timeout=120, env=_env()
    )
    assert proc.returncode in (1, 2) and b"Traceback" not in proc.stderr


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONIOENCODING": "utf-8"}


# --- progress on a terminal, reports on stdout -------------------------------------------------------


def test_reports_reach_a_redirected_stdout_with_a_progress_bar_on_the_terminal(tmp_path: Path) -> None:
    pytest.importorskip("rich")
    pty = pytest.importorskip("pty")
    good = write(tmp_path, "good.json", [USER])
    bad = write(tmp_path, "bad.json", [ORPHAN])
    primary, secondary = pty.openpty()
    out_file = tmp_path / "out.txt"
    try:
        with out_file.open("w") as out:
            proc = subprocess.run(
                [sys.executable, "-m", "replayable", "check", good, bad, "--jobs", "2"],
                stdout=out,
                stderr=secondary,
                timeout=120,
            )
    finally:
        os.close(secondary)
        os.close(primary)
    assert proc.returncode == 1
    lines = out_file.read_text().splitlines()
    assert lines[0] == f"{good}: replay-safe: 1 item"
    assert any(re.match(rf"{re.escape(str(bad))}:1:[0-9]+: item 0: output_without_function_call", line) for line in lines)
    assert lines[-1] == "checked 2 files: 1 replay-safe, 1 with violations, 0 unreadable"


def test_the_progress_bar_never_redirects_stdout(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("rich")
    from replayable._cli import progress

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stderr", Tty())
    bar = progress.files_bar(3)
    assert bar is not None
    stdout = sys.stdout
    with bar:
        assert sys.stdout is stdout


# --- --format json always prints JSON -------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "{missing}"],
        ["check", "{empty}"],
        ["check", "{broken}"],
        ["check", "{five}"],
        ["check", "{ok}", "--tools", "{missing}"],
        ["check", "{ok}", "--max-bytes", "2"],
        ["check", "--chain", "{ok}"],
        ["check", "{ok}", "--jobs", "-1"],
        ["diff", "{ok}", "{broken}"],
        ["check", "{ok}", "--max-bytes", "nonsense"],
        ["check", "{ok}", "--no-such-flag"],
    ],
)
def test_format_json_prints_an_error_object_for_unreadable_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    paths = {
        "missing": str(tmp_path / "missing.json"),
        "empty": write(tmp_path, "empty.json", ""),
        "broken": write(tmp_path, "broken.json", "{nope"),
        "five": write(tmp_path, "five.json", "5"),
        "ok": write(tmp_path, "ok.json", [USER]),
    }
    args = [a.format(**paths) for a in argv]
    assert main([*args, "--format", "json"]) == 2
    out, err = capsys.readouterr()
    doc = json.loads(out)
    assert doc["ok"] is False and doc["exit"] == 2 and doc["error"]
    assert err.count("\n") >= 1 and "Traceback" not in err


def test_format_json_with_a_verdict_is_the_report_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", write(tmp_path, "bad.json", [ORPHAN]), "--format", "json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["ok"] is False and doc["violations"][0]["code"] == "output_without_function_call"


# --- one way through the modules ------------------------------------------------------------------------

SRC = Path(replayable.__file__).resolve().parent


def _imports(module: str) -> set[str]:
    """Every replayable module `module` imports, at any level of the file (lazy imports included)."""
    path = SRC / (module.replace(".", "/") + ".py")
    if not path.exists():
        path = SRC / module.replace(".", "/") / "__init__.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module.rpartition(".")[0] if path.name != "__init__.py" else module
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".") if package else []
                base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                name = ".".join([*base, node.module] if node.module else base)
                found.add(name or "")
                found.update(f"{name}.{a.name}" if name else a.name for a in node.names)
            elif node.module and node.module.startswith("replayable"):
                found.add(node.module.removeprefix("replayable").lstrip("."))
        elif isinstance(node, ast.Import):
            found.update(a.name.removeprefix("replayable.") for a in node.names if a.name.startswith("replayable"))
    # a module is named by its path below `replayable`, the command line's by `_cli.<module>`
    return {".".join(f.split(".")[:2]) if f.startswith("_cli.") else f.split(".")[0] for f in found if f}


CLI = {"_cli", "_cli.command", "_cli.batch", "_cli.inputs", "_cli.progress", "_cli.output"}


@pytest.mark.parametrize(
    ("module", "never"),
    [
        ("_cli.batch", {"_cli.command"}),
        ("_cli.inputs", {"_cli.command", "_cli.batch", "_render"}),
        ("_render", CLI),
        ("_ci_formats", {*CLI, "_render"}),
        ("_cli.progress", {"_cli.command", "_cli.batch", "_cli.inputs", "_render"}),
        ("_names", {*CLI, "_render", "_replay", "items"}),
        ("stream._check", {*CLI, "_render"}),
        ("stream._sse", {*CLI, "_render"}),
        ("stream._assembler", {*CLI, "_render"}),
        ("_replay", {*CLI, "_render", "stream"}),
    ],
)
def test_the_command_line_path_runs_one_way(module: str, never: set[str]) -> None:
    assert not (_imports(module) & never)


def test_cli_uses_batch_inputs_and_reports() -> None:
    assert {"_cli.batch", "_cli.inputs", "_cli.output", "_render"} <= _imports("_cli.command")


class _Full(io.StringIO):
    def write(self, text: str) -> int:
        raise OSError(28, "No space left on device")


@pytest.mark.parametrize("stdout", [None, _Full()], ids=["no-stdout", "disk-full"])
def test_a_report_that_cannot_be_written_never_reads_as_success(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], stdout: Any
) -> None:
    good = write(tmp_path, "good.json", [USER])
    bad = write(tmp_path, "bad.json", [ORPHAN])
    monkeypatch.setattr(sys, "stdout", stdout)
    assert main(["check", bad]) == reports.EXIT_VIOLATIONS  # the verdict stands
    monkeypatch.setattr(sys, "stdout", stdout)
    assert main(["check", good]) == reports.EXIT_OUTPUT_CLOSED  # "replay-safe" was never delivered
    err = capsys.readouterr().err
    assert "cannot write the report to standard output" in err and "Traceback" not in err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
def test_dev_full_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    good = write(tmp_path, "good.json", [USER])
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "replayable", "check", good], stdout=full, stderr=subprocess.PIPE, timeout=120
        )
    assert proc.returncode == reports.EXIT_OUTPUT_CLOSED
    assert b"No space left on device" in proc.stderr and b"Traceback" not in proc.stderr
