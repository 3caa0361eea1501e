"""`read_file` reads a whole document in one pass down (the document, where its items are, then the depth
check of a document that is one item, event or rollout line, last): the errors it raises, and the order
in which a document that breaks two rules meets them, are those of reading step by step."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from replayable import _json
from replayable._reading import DocumentKind, read_file
from replayable.errors import InputError

USER = {"type": "message", "role": "user", "content": "hi"}


def nested(levels: int) -> Any:
    """A value `levels` deep, as the strict reader counts (an object holding arrays)."""
    value: Any = "x"
    for _ in range(levels - 1):
        value = [value]
    return {"extra": value}


def write(tmp_path: Path, value: Any, name: str = "doc.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(value), encoding="utf-8")
    return str(path)


def rollout_line(payload: Any) -> dict[str, Any]:
    return {"timestamp": "2025-01-01T00:00:00Z", "type": "response_item", "payload": payload}


def test_a_one_line_rollout_is_read_and_its_depth_checked_as_a_jsonl_line_is(tmp_path: Path) -> None:
    doc = read_file(write(tmp_path, rollout_line(USER)))
    assert doc.kind is DocumentKind.CODEX_ROLLOUT and len(doc.items) == 1
    deep = rollout_line({**USER, **nested(_json.MAX_ITEM_DEPTH - 1)})  # the line and the payload add two levels
    with pytest.raises(InputError, match=r"nests deeper than 200 levels \(the input is refused\)$"):
        read_file(write(tmp_path, deep))


def test_one_item_past_the_depth_limit_is_refused_and_at_it_read(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="nests deeper than"):
        read_file(write(tmp_path, {**USER, **nested(_json.MAX_ITEM_DEPTH)}))
    doc = read_file(write(tmp_path, {**USER, **nested(_json.MAX_ITEM_DEPTH - 1)}))
    assert doc.kind is DocumentKind.ITEM and doc.places is not None


def test_an_agents_log_meets_its_depth_check_before_the_stream_events_refusal(tmp_path: Path) -> None:
    event = {"type": "response.created", "sequence_number": 0}
    with pytest.raises(InputError, match="is a list of Responses stream events, not an OpenAI Agents API event log"):
        read_file(write(tmp_path, event), agents=True)
    with pytest.raises(InputError, match="nests deeper than") as too_deep:
        read_file(write(tmp_path, {**event, **nested(_json.MAX_ITEM_DEPTH)}), agents=True)
    assert "stream events" not in str(too_deep.value)
    with pytest.raises(InputError, match="expected Agents API events as JSONL or a JSON array"):
        read_file(write(tmp_path, "text"), agents=True)


def test_a_strict_rule_broken_inside_a_json_array_names_its_item(tmp_path: Path) -> None:
    path = tmp_path / "dup.json"
    path.write_bytes(b'[\n{"type": "message", "role": "user", "content": "a"},\n{"type": "x", "type": "y"}\n]')
    with pytest.raises(InputError, match=r"dup\.json: item 1: duplicate key"):
        read_file(str(path))
    path.write_bytes(b'{"a": 1, "a": 2,\n"b": [}')  # no array: the document is neither JSON nor JSONL
    with pytest.raises(InputError, match=r"dup\.json is neither JSON nor JSONL: "):
        read_file(str(path))
