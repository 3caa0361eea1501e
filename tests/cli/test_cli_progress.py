"""A single large file shows progress on a terminal: items checked (and the bar in
items for a JSON array, in bytes for JSONL) on standard error, only when standard error is a terminal,
never on standard output."""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from replayable._cli import main, progress

USER = {"type": "message", "role": "user", "content": "hi"}


def items(n: int) -> list[Any]:
    out: list[Any] = []
    for k in range(n):
        out += [
            USER,
            {"type": "function_call", "call_id": f"c{k}", "name": "f", "arguments": '{"q":"x"}'},
            {"type": "function_call_output", "call_id": f"c{k}", "output": "ok"},
        ]
    return out


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("shape", ["array", "jsonl"])
def test_progress_is_drawn_on_a_terminal_and_the_report_is_unchanged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, shape: str
) -> None:
    pytest.importorskip("rich")
    values = items(3000)
    path = tmp_path / f"big.{'json' if shape == 'array' else 'jsonl'}"
    path.write_text(json.dumps(values) if shape == "array" else "".join(json.dumps(v) + "\n" for v in values))
    assert main(["check", str(path)]) == 0
    plain = capsys.readouterr()
    assert plain.err == ""  # not a terminal: nothing drawn
    monkeypatch.setattr(progress, "MIN_BYTES", 0)
    err = Tty()
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["check", str(path)]) == 0
    assert capsys.readouterr().out == plain.out  # reports on stdout are the same, drawn or not
    drawn = err.getvalue()
    assert "checking 9,000 items" in drawn and "reading" in drawn


def test_small_files_and_many_files_draw_no_per_file_progress(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("rich")
    path = tmp_path / "small.json"
    path.write_text(json.dumps(items(3)))
    err = Tty()
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["check", str(path)]) == 0
    assert err.getvalue() == ""  # under MIN_BYTES: done before a bar would help
    monkeypatch.setattr(progress, "MIN_BYTES", 0)
    assert main(["check", str(path), str(path)]) == 0
    assert "checking " in err.getvalue() and " items" not in err.getvalue()  # the files bar only


def test_without_rich_nothing_is_drawn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps(items(50)))
    monkeypatch.setattr(progress, "MIN_BYTES", 0)
    monkeypatch.setattr(progress, "_rich", lambda: None)
    err = Tty()
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["check", str(path)]) == 0 and err.getvalue() == ""


def test_progress_on_a_real_pseudo_terminal(tmp_path: Path) -> None:
    """The command in a child process whose standard error is a pty: progress is drawn there, and the
    report on standard output (a pipe) is the plain report."""
    pytest.importorskip("rich")
    pty = pytest.importorskip("pty")
    import subprocess

    values = items(progress.MIN_BYTES // 150 + 1000)  # a little over MIN_BYTES as JSONL
    path = tmp_path / "big.jsonl"
    path.write_text("".join(json.dumps(v) + "\n" for v in values))
    assert path.stat().st_size >= progress.MIN_BYTES
    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen(  # noqa: S603
            [sys.executable, "-m", "replayable", "check", str(path)],
            stdout=subprocess.PIPE,
            stderr=slave,
            stdin=subprocess.DEVNULL,
            env={**os.environ, "TERM": "xterm", "COLUMNS": "200"},
        )
        os.close(slave)
        drawn = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the child closed the pty
                break
            if not chunk:
                break
            drawn += chunk
        out, _ = proc.communicate(timeout=600)
    finally:
        os.close(master)
    assert proc.returncode == 0
    assert out.decode().strip() == f"{path}: replay-safe: {len(values)} items"
    assert f"checking {len(values):,} items".encode() in drawn
