"""A JSON array read a piece at a time (`replayable._json_array.iter_array`, behind `parse_items` on a JSON array).

The reader cuts the text after `},` and trusts a cut only once both sides read, so the pieces joined are
exactly what `loads` reads of the whole text, and a text `loads` refuses is refused with the same rule,
message and offset. These tests put the cut candidates where they mislead (inside strings, inside nested
objects, with unbalanced braces in strings) and the errors in a late piece.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import replayable as rp
from replayable._json import loads
from replayable._json_array import iter_array
from replayable.errors import JSONError
from replayable.items import MAX_ITEM_DEPTH

DEPTH = MAX_ITEM_DEPTH + 1  # what parse_items reads an array with


def _item(i: int) -> dict[str, Any]:
    if i % 3 == 0:
        return {
            "type": "message",
            "id": f"msg_{i}",
            "status": "completed",
            "role": "assistant",
            "content": [
                {"type": "output_text", "text": f"part {i}", "annotations": []},
                {"type": "output_text", "text": "a}, {b", "annotations": []},  # a cut candidate in a string
            ],
        }
    if i % 3 == 1:
        return {
            "type": "function_call",
            "id": f"fc_{i}",
            "call_id": f"call_{i}",
            "name": "f",
            "arguments": '{"a": {"b": 1}, "c": "}, {"}',  # `},` and unbalanced braces inside a string
            "status": "completed",
        }
    return {"type": "function_call_output", "id": f"fco_{i}", "call_id": f"call_{i - 1}", "output": "}}}, {{"}


ITEMS = [_item(i) for i in range(600)]


def _pieces(text: str | bytes, piece: int = 512) -> list[Any]:
    out: list[Any] = []
    for values in iter_array(text, what="items", max_depth=DEPTH, piece=piece):
        out.extend(values)
    return out


def _error(call: Any) -> tuple[str, str, int | None]:
    with pytest.raises(JSONError) as caught:
        call()
    return caught.value.reason, str(caught.value), caught.value.offset


@pytest.mark.parametrize("separators", [(",", ":"), (", ", ": "), (" ,\n ", " :\t")])
@pytest.mark.parametrize("piece", [64, 512, 4096])
def test_pieces_joined_are_the_whole_array(separators: tuple[str, str], piece: int) -> None:
    text = json.dumps(ITEMS, separators=separators)
    assert len(text) > 2 * 8192  # long enough to be read in pieces
    assert _pieces(text, piece) == loads(text, max_depth=DEPTH) == ITEMS
    assert _pieces(text.encode(), piece) == ITEMS
    assert _pieces("\ufeff \n" + text + " \n", piece) == ITEMS  # one BOM and blanks around


@pytest.mark.parametrize("piece", [64, 4096])
def test_a_late_error_is_the_whole_texts_error(piece: int) -> None:
    good = json.dumps(ITEMS)
    at = len(good) * 3 // 4
    at = good.index('{"type"', at)
    bad_texts = {
        "duplicate_key": good[:at] + '{"type": "x", "type": "y"}, ' + good[at:],
        "non_finite_number": good[:at] + '{"n": 1e400}, ' + good[at:],
        "not_json nan": good[:at] + '{"n": NaN}, ' + good[at:],
        "too_deep": good[:at] + "[" * 300 + "]" * 300 + ", " + good[at:],
        "lone_surrogate": good[:at] + '{"s": "\\ud800"}, ' + good[at:],
        "unterminated": good[:at] + '{"s": "open}, ' + good[at:],
        "trailing comma": good[:-1] + ", ]",
        "missing bracket": good[:-1],
        "garbage after": good + " x",
        "two BOMs": "\ufeff\ufeff" + good,
    }
    for name, bad in bad_texts.items():
        whole = _error(lambda bad=bad: loads(bad, what="items", max_depth=DEPTH))
        assert _error(lambda bad=bad: _pieces(bad, piece)) == whole, name
    raw = good.encode()
    invalid_utf8 = raw[:at] + b'{"s": "\xff"}, ' + raw[at:]
    assert _error(lambda: _pieces(invalid_utf8, piece)) == _error(
        lambda: loads(invalid_utf8, what="items", max_depth=DEPTH)
    )


def test_parse_items_reads_pieces_as_the_whole_text() -> None:
    items = [
        {
            "type": "function_call",
            "id": f"fc_{i}",
            "call_id": f"c{i}",
            "name": "f",
            "arguments": "}, {",
            "status": "completed",
        }
        for i in range(400)
    ]
    text = json.dumps(items)
    parsed = rp.parse_items(text, side="output")
    assert [rp.dump_item(x) for x in parsed] == items
    with pytest.raises(rp.ItemError) as caught:  # a bad item in a late piece: named by its index
        rp.parse_items(json.dumps([*items, {"type": "nope"}, *items]), side="output")
    assert [e["loc"][0] for e in caught.value.errors] == [400]
    with pytest.raises(rp.ItemError) as caught:  # a duplicate key in a late piece: the reader's own error
        rp.parse_items(text[:-1] + ', {"type": "message", "type": "message"}]', side="output")
    assert caught.value.errors[0]["type"] == "duplicate_key"


def test_texts_the_filters_flag_are_read_whole() -> None:
    """A number the filter cannot clear (`1e300`, which reads fine) or a short text: read by `loads` itself."""
    text = json.dumps([*ITEMS, {"type": "x", "n": 1e300}])
    assert _pieces(text) == loads(text, max_depth=DEPTH) == [*ITEMS, {"type": "x", "n": 1e300}]
    assert _pieces(json.dumps(ITEMS[:3])) == ITEMS[:3]
    assert _pieces("[]") == []


def test_many_nested_objects_are_read_in_one_piece_past_the_cut_limit() -> None:
    """Items holding hundreds of nested objects (logprobs, annotations): past `_MAX_TRIES` candidates the
    rest is read in one piece, with the same values."""
    nested = [{"type": "message", "id": f"m{i}", "content": [{"k": j} for j in range(300)]} for i in range(60)]
    text = json.dumps([*ITEMS[:100], *nested, *ITEMS[100:200]])
    assert _pieces(text, 256) == loads(text, max_depth=DEPTH) == [*ITEMS[:100], *nested, *ITEMS[100:200]]


# ------------------------------------------------------------------ JSONL, a chunk of lines at a time

CALLS = [
    {
        "type": "function_call",
        "id": f"fc_{i}",
        "call_id": f"c{i}",
        "name": "f",
        "arguments": "{}",
        "status": "completed",
    }
    for i in range(300)
]


def test_jsonl_read_in_chunks_gives_the_values_line_by_line() -> None:
    lines = [json.dumps(x) for x in CALLS]
    assert [rp.dump_item(x) for x in rp.parse_items("\n".join(lines), side="output")] == CALLS
    with_float = [*lines[:200], json.dumps({**CALLS[200], "x_score": 1e300}), *lines[201:]]  # read line by line
    parsed = rp.parse_items("\n".join(with_float).encode(), side="output")
    assert [rp.dump_item(x) for x in parsed] == [*CALLS[:200], {**CALLS[200], "x_score": 1e300}, *CALLS[201:]]


@pytest.mark.parametrize(
    ("bad", "reason"),
    [('{"type": "x", "type": "y"}', "duplicate_key"), ('{"n": 1e400}', "non_finite_number"), ("{", "json_invalid")],
)
def test_a_late_bad_jsonl_line_is_named_by_its_index(bad: str, reason: str) -> None:
    lines = [json.dumps(x) for x in CALLS]
    lines[170] = bad  # in the third chunk of lines: the first two were validated already
    with pytest.raises(rp.ItemError) as caught:
        rp.parse_items("\n".join(lines), side="output")
    error = caught.value.errors[0]
    assert error["loc"][0] == 170 and error["type"] == reason
    with pytest.raises(rp.ItemError) as whole:
        rp.parse_items("\n".join(lines[170:]), side="output")
    assert whole.value.errors[0]["type"] == reason
