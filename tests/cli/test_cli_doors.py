"""`replayable check` fails closed at its doors: the same problem gets the same exit
status in every container, nothing matching a directory's patterns is skipped silently and nothing
blocks on a FIFO, and a file name cannot forge a line of the report."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from replayable import _json
from replayable._cli import main

USER = {"type": "message", "role": "user", "content": "hi"}
CALL = {"type": "function_call", "call_id": "c1", "name": "lookup", "arguments": '{"q":"x"}'}
OUT = {"type": "function_call_output", "call_id": "c1", "output": "ok"}


def nested(levels: int) -> Any:
    """A user message nesting exactly `levels` levels (counted as the reader counts)."""
    deep: Any = "x"
    for _ in range(levels - 2):
        deep = [deep]
    return {**USER, "extra": deep}


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


class _Stdin:
    def __init__(self, data: bytes) -> None:
        self.buffer = io.BufferedReader(io.BytesIO(data))  # type: ignore[arg-type]


def test_the_helper_nests_as_the_reader_counts() -> None:
    _json.check_value(nested(_json.MAX_ITEM_DEPTH))
    with pytest.raises(_json.JSONError):
        _json.check_value(nested(_json.MAX_ITEM_DEPTH + 1))


CONTAINERS = {
    "jsonl": lambda item: b"".join(json.dumps(v).encode() + b"\n" for v in (USER, item, USER)),
    "array": lambda item: json.dumps([USER, item]).encode(),
    "document": lambda item: json.dumps(item).encode(),
    "response": lambda item: json.dumps({"object": "response", "status": "completed", "output": [item]}).encode(),
    "request": lambda item: json.dumps({"model": "m", "input": [USER, item]}).encode(),
}


@pytest.mark.parametrize("container", sorted(CONTAINERS))
@pytest.mark.parametrize("stdin", [False, True], ids=["file", "stdin"])
def test_an_item_nested_past_the_limit_is_unreadable_in_every_container(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, container: str, stdin: bool
) -> None:
    data = CONTAINERS[container](nested(_json.MAX_ITEM_DEPTH + 1))
    path = tmp_path / "deep.json"
    path.write_bytes(data)
    if stdin:
        monkeypatch.setattr(sys, "stdin", _Stdin(data))
    for fmt in ("text", "json"):
        code, out, err = run(["check", "-" if stdin else str(path), "--format", fmt], capsys)
        assert code == 2, (container, fmt, out, err)
        assert "nests deeper than" in err and "Traceback" not in err
        if fmt == "json":
            assert json.loads(out)["exit"] == 2
        if stdin:
            monkeypatch.setattr(sys, "stdin", _Stdin(data))


@pytest.mark.parametrize("container", ["jsonl", "array", "document", "request"])
def test_an_item_at_the_limit_is_read_in_every_container(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], container: str
) -> None:
    path = tmp_path / "ok.json"
    depth = _json.MAX_ITEM_DEPTH - (1 if container == "request" else 0)  # a request body adds a level
    path.write_bytes(CONTAINERS[container](nested(depth)))
    code, out, err = run(["check", str(path)], capsys)
    assert code == 0 and err == "" and "replay-safe" in out


def test_an_agents_event_nested_past_the_limit_is_unreadable_as_jsonl_array_or_document(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deep: Any = "x"
    for _ in range(_json.MAX_ITEM_DEPTH - 1):
        deep = [deep]
    event = {"type": "agent.session.created", "session_id": "s", "extra": deep}  # 201 levels
    created = {"type": "agent.session.created", "session_id": "s"}
    for data in (
        json.dumps(event).encode(),
        json.dumps([created, event]).encode(),
        json.dumps(created).encode() + b"\n" + json.dumps(event).encode() + b"\n",
    ):
        path = tmp_path / "log.json"
        path.write_bytes(data)
        code, _, err = run(["check", "--agents", str(path)], capsys)
        assert code == 2 and "nests deeper than" in err


# --- a directory scan says what it skipped, and never blocks ------------------------------------------


def _special_dir(tmp_path: Path) -> Path:
    d = tmp_path / "store"
    d.mkdir()
    (d / "ok.json").write_text(json.dumps([USER]))
    (d / "dangling.json").symlink_to(tmp_path / "gone.json")
    os.mkfifo(d / "pipe.jsonl")
    (d / "notes.txt").symlink_to(tmp_path / "gone.txt")  # not a name that is checked: not mentioned
    return d


def test_a_directory_scan_reports_dangling_links_and_fifos_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    d = _special_dir(tmp_path)
    code, out, _ = run(["check", str(d)], capsys)
    lines = out.splitlines()
    assert code == 2
    assert lines[-1] == "checked 3 files: 1 replay-safe, 0 with violations, 2 unreadable"
    assert any(
        line.startswith(f"{d / 'dangling.json'}: unreadable: ") and "dangling symbolic link" in line for line in lines
    )
    assert any(line.startswith(f"{d / 'pipe.jsonl'}: unreadable: ") and "FIFO" in line for line in lines)
    assert "notes.txt" not in out
    code, out, _ = run(["check", str(d), "--format", "json"], capsys)
    doc = json.loads(out)
    errors = {Path(r["file"]).name: r["error"] for r in doc["files"] if r["error"]}
    assert code == 2 and set(errors) == {"dangling.json", "pipe.jsonl"} and doc["summary"]["unreadable"] == 2
    assert "skipped" in errors["pipe.jsonl"] and "skipped" in errors["dangling.json"]


def test_sockets_and_devices_in_a_directory_are_skipped_with_a_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import socket

    d = tmp_path / "s"
    d.mkdir()
    (d / "null.json").symlink_to(os.devnull)  # a character device behind a link
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(d / "sock.json"))
    except OSError as exc:  # a path too long for AF_UNIX on this machine
        pytest.skip(f"cannot bind a unix socket here: {exc}")
    try:
        code, out, _ = run(["check", str(d)], capsys)
    finally:
        sock.close()
    assert code == 2 and "a character device" in out and "a socket" in out


def _run_cli(args: list[str]) -> subprocess.CompletedProcess[str]:
    """The command line in a child process, so that a hang is a failed test (the timeout), not a dead run."""
    return subprocess.run(
        [sys.executable, "-m", "replayable", *args], capture_output=True, text=True, timeout=120, check=False
    )


def test_a_fifo_given_by_name_without_a_writer_never_blocks(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    proc = _run_cli(["check", str(fifo)])
    assert proc.returncode == 2 and "is empty" in proc.stderr
    proc = _run_cli(["check", str(tmp_path)])  # in a scan it is not even opened
    assert proc.returncode == 2 and "FIFO" in proc.stdout


def test_a_fifo_given_by_name_with_a_writer_is_read(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    writer = subprocess.Popen(  # noqa: S603
        [sys.executable, "-c", f"open({str(fifo)!r}, 'w').write({json.dumps(json.dumps([USER, CALL, OUT]))})"]
    )
    try:
        proc = _run_cli(["check", str(fifo)])
    finally:
        writer.wait(timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"{fifo}: replay-safe: 3 items"


# --- file names cannot forge a line --------------------------------------------------------------------

FORGED = "bad.json\nok.json: replay-safe: 1 item\x1b[2K\u2028.json"


def test_a_file_name_with_a_newline_cannot_forge_a_verdict(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = tmp_path / "store"
    d.mkdir()
    bad = d / FORGED
    bad.write_text(json.dumps([OUT]))  # an orphaned output: NOT replay-safe
    for argv in (["check", str(bad)], ["check", str(d)], ["check", str(bad), str(bad)]):
        code, out, err = run(argv, capsys)
        assert code == 1
        lines = out.splitlines()
        assert not any(line.startswith("ok.json") for line in lines), lines
        assert all("\x1b" not in line and "\u2028" not in line for line in lines)
        tail = "bad.json\\nok.json: replay-safe: 1 item\\x1b[2K\\u2028.json: NOT replay-safe: 1 violation in 1 place, 1 item"
        assert any(line.endswith(tail) for line in lines), lines
    code, out, _ = run(["check", str(bad), "--format", "json"], capsys)
    assert code == 1 and json.loads(out)["file"] == str(bad)  # JSON keeps the name, escaped by JSON itself


def test_an_unreadable_file_name_is_escaped_in_messages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / FORGED
    bad.write_text("{not json")
    code, out, err = run(["check", str(bad)], capsys)
    assert code == 2 and len(err.splitlines()) == 1 and "\\nok.json" in err
    d = tmp_path / "d"
    d.mkdir()
    (d / FORGED).write_text("{not json")
    code, out, err = run(["check", str(d)], capsys)
    assert code == 2 and not any(line.startswith("ok.json") for line in out.splitlines())
    (tmp_path / "gone").mkdir()
    missing = tmp_path / "gone" / FORGED
    code, out, err = run(["check", str(missing)], capsys)
    assert code == 2 and len(err.splitlines()) == 1


def test_shown_escapes_what_could_start_a_line_and_keeps_the_rest() -> None:
    from replayable._names import shown

    assert shown("plain/name-é.json") == "plain/name-é.json"
    assert shown("a\nb\rc\td\x1be\u2028f\u202eg\x85h") == "a\\nb\\rc\\td\\x1be\\u2028f\\u202eg\\x85h"
    assert shown("\udcff.json") == "\\udcff.json"  # a byte that is not UTF-8, as os.fsdecode gives it


EVIL = "x\nFORGED.json: replay-safe: 1 item\r\u2028"


def _no_forged_line(text: str) -> None:
    assert not [line for line in text.splitlines() if line.startswith("FORGED")], text
    assert "\r" not in text and "\u2028" not in text


def test_what_a_message_quotes_from_the_input_cannot_forge_a_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    items = [
        {"type": EVIL, "role": "user"},
        {"type": "function_call", "call_id": EVIL, "name": EVIL, "arguments": "{}"},
        {"type": "function_call_output", "call_id": EVIL + "2", "output": "x"},
        {"type": "message", "role": EVIL, "content": "hi"},
        {"type": "acme:" + EVIL},
        {"type": "message", "role": "user", "content": [{"type": EVIL}]},
    ]
    path = tmp_path / "t.json"
    path.write_text(json.dumps(items))
    tools = tmp_path / "tools.json"
    tools.write_text(
        json.dumps([{"type": "function", "name": EVIL, "parameters": {"type": "object", "properties": {EVIL: {}}}}])
    )
    jsonl = tmp_path / "t.jsonl"
    jsonl.write_text("".join(json.dumps(v) + "\n" for v in items))
    other = tmp_path / "other.json"
    other.write_text(json.dumps([{**items[1], "name": "y", "arguments": json.dumps({EVIL: EVIL})}]))
    for argv in (
        ["check", str(path)],
        ["check", str(path), "--target", "acme"],
        ["check", str(jsonl), "--tools", str(tools)],
        ["check", str(tools)],
        ["check", str(path), str(jsonl)],
        ["diff", str(path), str(other)],
    ):
        code, out, err = run(argv, capsys)
        assert code == 1, argv
        _no_forged_line(out + err)
    path.write_text(json.dumps({"type": EVIL}))  # a value that is no item: unreadable, one line on stderr
    code, out, err = run(["check", str(path)], capsys)
    _no_forged_line(out + err)


def test_an_agents_log_quoting_a_newline_cannot_forge_a_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = [
        {"type": "agent.session.created", "session_id": "s"},
        {"type": "agent.session.input.tool_result", "turn_id": EVIL, "call_id": EVIL, "success": True, "output": "x"},
    ]
    path = tmp_path / "log.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in log))
    code, out, err = run(["check", "--agents", str(path)], capsys)
    assert code == 1
    _no_forged_line(out + err)
