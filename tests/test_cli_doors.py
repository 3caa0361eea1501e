"""`replayable check` fails closed at its doors (issue 20, class 6): the same problem gets the same exit
status in every container, nothing matching a directory's patterns is skipped silently and nothing
blocks on a FIFO, and a file name cannot forge a line of the report."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from replayable import _json
from replayable.cli import main

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
