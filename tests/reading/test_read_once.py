"""The read-once paths give the same items and the same errors as reading value by value.

`parse_items` on JSONL text reads every line in one batch and validates a chunk of lines at a time (as
for a JSON array); `parse_item(text)` trusts the strict reader's verdict instead of walking the value
again. Neither may change what is accepted, what is returned or which `ItemError` is raised.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import replayable as rp
from replayable.items import _CHUNK

GOOD: list[dict[str, Any]] = [
    {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]},
    {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}", "status": "completed"},
    {"type": "function_call_output", "call_id": "c1", "output": "ok", "extra_field": [1, {"a": None}]},
    {"type": "acme:thing", "payload": {"deep": [1, 2.5, "x"]}},
    {"id": "msg_1"},
]
OUTPUT_GOOD: list[dict[str, Any]] = [
    {
        "type": "message",
        "id": "msg_1",
        "status": "completed",
        "role": "assistant",
        "content": [{"type": "output_text", "text": "hi", "annotations": []}],
    },
    {"type": "function_call", "id": "fc_1", "call_id": "c1", "name": "f", "arguments": "{}", "status": "completed"},
    {"type": "acme:thing", "payload": {"deep": [1, 2.5, "x"]}},
]
BAD: list[Any] = [
    {"type": "nope"},
    {"type": "function_call", "call_id": 5, "name": "f", "arguments": "{}"},
    {"role": "user", "content": "no type"},
    {"type": "message", "role": "user", "content": 3},
    [1, 2],
    "text",
    None,
]


def _errors(fn: Any, *args: Any, **kw: Any) -> list[dict[str, Any]] | None:
    try:
        fn(*args, **kw)
    except rp.ItemError as exc:
        return exc.errors
    return None


def _jsonl(values: list[Any], sep: str = "\n") -> str:
    return sep.join(json.dumps(v) for v in values) + sep


@pytest.mark.parametrize("side", ["input", "output"])
@pytest.mark.parametrize("provider", [None, "openai"])
def test_jsonl_gives_the_items_of_the_same_array(side: Any, provider: Any) -> None:
    values = GOOD if side == "input" else OUTPUT_GOOD
    for text in (_jsonl(values), _jsonl(values, "\r\n"), "\ufeff" + _jsonl(values) + "\n \t\n"):
        got = rp.parse_items(text, side=side, provider=provider)
        assert got == rp.parse_items(json.dumps(values), side=side, provider=provider)
        assert got == rp.parse_items(text.encode(), side=side, provider=provider)
        assert got == rp.parse_items(memoryview(text.encode()), side=side, provider=provider)
        assert rp.dump_items(got) == values


@pytest.mark.parametrize("bad", BAD, ids=repr)
def test_jsonl_errors_are_the_array_errors(bad: Any) -> None:
    values = [*GOOD, bad, *GOOD, bad]
    want = _errors(rp.parse_items, json.dumps(values))
    assert want is not None
    assert _errors(rp.parse_items, _jsonl(values)) == want
    assert _errors(rp.parse_items, _jsonl(values).encode()) == want


def test_jsonl_past_one_chunk_reads_the_rest_item_by_item() -> None:
    """A bad line after the first validated chunk: the items before stay validated and the error names
    the line's index among non-blank lines, as the array path and the value-by-value path do."""
    n = _CHUNK + 10
    values: list[Any] = [GOOD[0]] * n
    values[_CHUNK + 3] = {"type": "nope"}
    text = _jsonl(values).replace("\n", "\n\n", 5)  # blank lines do not count
    errors = _errors(rp.parse_items, text)
    assert errors == _errors(rp.parse_items, json.dumps(values))
    assert errors is not None and [e["loc"][0] for e in errors] == [_CHUNK + 3]
    good = rp.parse_items(_jsonl([GOOD[0]] * n))
    assert len(good) == n and good[-1] == rp.parse_item(GOOD[0])


@pytest.mark.parametrize(
    ("line", "rule"),
    [
        ('{"type": "message", "a": 1, "a": 2}', "duplicate_key"),
        ('{"type": "message", "x": 1e400}', "non_finite_number"),
        ('{"type": "message", "x": NaN}', "non_finite_number"),
        ('{"type": "message", "x": "\\ud800"}', "lone_surrogate"),
        ('{"type": "message", "x": ' + "[" * 300 + "]" * 300 + "}", "too_deep"),
        ("\ufeff{}", "json_invalid"),
        ('{"type": ', "json_invalid"),
    ],
)
def test_jsonl_strict_reading_names_the_line(line: str, rule: str) -> None:
    """A line the strict reader refuses is refused with the rule and the line number, whichever reader
    (the batch one or the line-by-line one) saw it first."""
    text = _jsonl(GOOD[:2]) + "\n" + line + "\n" + _jsonl(GOOD[:1])
    errors = _errors(rp.parse_items, text)
    assert errors is not None and len(errors) == 1
    assert errors[0]["loc"] == (2,) and errors[0]["type"] == rule
    assert "line 4" in errors[0]["msg"]


def test_jsonl_lone_surrogate_in_str_text_names_the_line() -> None:
    text = _jsonl(GOOD[:1]) + '{"type": "message", "x": "\ud800"}\n'
    errors = _errors(rp.parse_items, text)
    assert errors is not None and errors[0]["loc"] == (1,) and errors[0]["type"] == "lone_surrogate"


@pytest.mark.parametrize("value", [v for v in [*GOOD, *BAD] if not isinstance(v, str)], ids=repr)
@pytest.mark.parametrize("side", ["input", "output"])
def test_parse_item_text_reads_as_the_dict(value: Any, side: Any) -> None:
    text = json.dumps(value)
    want = _errors(rp.parse_item, value, side=side)
    assert _errors(rp.parse_item, text, side=side) == want
    assert _errors(rp.parse_item, text.encode(), side=side) == want
    if want is None:
        assert rp.parse_item(text, side=side) == rp.parse_item(value, side=side)


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ('{"type": "message", "a": 1, "a": 2}', "duplicate_key"),
        ('{"type": "message", "role": "user", "content": "x", "n": 1e400}', "non_finite_number"),
        ('{"type": "message", "role": "user", "content": "x", "n": ' + "[" * 200 + "]" * 200 + "}", "too_deep"),
        ('{"type": "message", "role": "user", "content": "\\udc00"}', "lone_surrogate"),
    ],
)
def test_parse_item_text_stays_strict(text: str, rule: str) -> None:
    errors = _errors(rp.parse_item, text)
    assert errors is not None and errors[0]["type"] == rule
