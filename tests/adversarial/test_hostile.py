"""Adversarial inputs: each is refused (or accepted) with the documented reason, without a crash.

Time and memory bounds are measured on demand by `benchmarks/bench_hostile.py`, never asserted with
a clock here. The limits involved are documented and configurable: `replayable._arguments.MAX_DEPTH`
(nesting of tool-call arguments, read at each call), Python's JSON reader for item texts (a text
nested too deeply is `json_invalid`), and pydantic's own limits.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import replayable as rp
from replayable import _arguments as arguments
from replayable._cli import main
from replayable._replay import ViolationCode, check_transcript_iter

DEEP = 100_000
SALES = {"type": "object", "properties": {"region": {"type": "string", "enum": ["apac"]}}, "required": ["region"]}
REDOS = {"type": "object", "properties": {"q": {"type": "string", "pattern": "^(a+)+$"}}}


def call(args: str) -> dict[str, Any]:
    return {
        "type": "function_call",
        "id": "fc_1",
        "call_id": "c1",
        "name": "t",
        "status": "completed",
        "arguments": args,
    }


def deep_list(n: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(n):
        value = [value]
    return value


@pytest.mark.parametrize(
    ("args", "schema", "reason", "rule"),
    [
        ("[" * DEEP + "]" * DEEP, SALES, "arguments_parse", "too_deep"),
        ('{"region":"apac","region":"global"}', SALES, "arguments_parse", "duplicate_key"),
        ('{"region":NaN}', SALES, "arguments_parse", "non_finite_number"),
        ('{"region":"apac","n":-Infinity}', SALES, "arguments_parse", "non_finite_number"),
        ('{"region":"\\ud800"}', SALES, "arguments_parse", "lone_surrogate"),
        ('{"region":"\\udc00x"}', SALES, "arguments_parse", "lone_surrogate"),
        ('{"q":"' + "a" * 5000 + '!"}', REDOS, "arguments_schema", None),
        ('{"region":"' + "x" * 10_000_000 + '"}', SALES, "arguments_schema", None),
    ],
    ids=[
        "nesting-100k",
        "duplicate-keys",
        "nan",
        "infinity",
        "lone-high-surrogate",
        "lone-low-surrogate",
        "catastrophic-pattern",
        "10MB-string",
    ],
)
def test_gate_refuses_hostile_arguments_with_the_right_reason(
    args: str, schema: dict[str, Any], reason: str, rule: str | None
) -> None:
    res = rp.gate(call(args), schema)
    assert res.reason == reason
    if rule is not None:
        with pytest.raises(arguments.ArgumentsError) as info:
            arguments.parse_arguments(args)
        assert info.value.reason == rule
    if reason == "arguments_schema":
        assert res.failures and res.failures[0].keyword in ("pattern", "enum")


def test_a_valid_surrogate_pair_is_not_a_lone_surrogate() -> None:
    assert rp.gate(call('{"region":"\\ud83d\\ude00"}'), SALES).reason == "arguments_schema"  # enum, not parse
    assert arguments.parse_arguments('{"r":"\\ud83d\\ude00"}') == {"r": "\U0001f600"}


def test_max_depth_is_configurable_at_run_time(monkeypatch: pytest.MonkeyPatch) -> None:
    five = '{"a":[[[[1]]]]}'
    assert rp.gate(call(five), {}).ok
    monkeypatch.setattr(arguments, "MAX_DEPTH", 4)
    res = rp.gate(call(five), {})
    assert res.reason == "arguments_parse" and "4 levels" in res.detail
    assert arguments.parse_arguments(five, max_depth=10) == {"a": [[[[1]]]]}


def test_deep_item_texts_are_too_deep_not_recursion_errors() -> None:
    text = '{"type":"message","role":"user","content":' + "[" * DEEP + "]" * DEEP + "}"
    for parse in (rp.parse_item, rp.parse_items):
        with pytest.raises(rp.ItemError) as info:
            parse(text if parse is rp.parse_item else "[" + text + "]")
        assert info.value.errors[0]["type"] == "too_deep"


def test_deeply_nested_python_values_are_reported_not_crashed() -> None:
    deep = deep_list(DEEP)
    report = rp.check_transcript(
        [
            {"type": "message", "role": "user", "content": deep},
            {"type": "function_call_output", "call_id": "c", "output": deep},
        ]
    )
    # each is unreadable (too deep), as its JSONL line is: item_invalid, no field read
    assert [(v.index, v.code) for v in report.violations] == [(0, ViolationCode.ITEM_INVALID), (1, ViolationCode.ITEM_INVALID)]
    assert all("too_deep" in v.message for v in report.violations)
    with pytest.raises(rp.ItemError):
        rp.parse_item({"type": "message", "role": "user", "content": [{"type": "input_text", "text": deep}]})


def test_a_too_deep_tag_is_reported_without_pydantic_walking_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A union tag (`role`) nested thousands of levels: pydantic would quote it in its error and fail
    to (an 'unraisable' RecursionError); the item is refused with its index and the depth rule."""
    value: Any = "x"
    for _ in range(1500):
        value = {"a": [value]}
    unraisable: list[Any] = []
    monkeypatch.setattr("sys.unraisablehook", unraisable.append)
    item = {"type": "message", "role": value, "call_id": "c1"}
    with pytest.raises(rp.ItemError) as err:
        rp.parse_items([item, item])
    assert {e["loc"][0] for e in err.value.errors} == {0, 1}
    assert "nested too deeply" in str(err.value)  # the field named, the value not quoted
    report = rp.check_transcript([item])
    assert [v.code for v in report.violations] == [ViolationCode.ITEM_INVALID]
    assert unraisable == []


def test_deeply_nested_content_parts_are_kept_verbatim_as_unknown_fields() -> None:
    part: dict[str, Any] = {"type": "input_text", "text": "leaf"}
    for _ in range(40):  # 80 levels, within pydantic's serialization depth, so it round-trips
        part = {"type": "input_text", "text": "x", "parts": [part]}
    item = rp.parse_item({"type": "message", "role": "user", "content": [part]})
    assert rp.dump_item(item)["content"][0] == part


def test_deep_unknown_fields_either_refused_or_dumped() -> None:
    with pytest.raises(rp.ItemError) as info:
        rp.parse_item({"type": "message", "role": "user", "content": "x", "meta": deep_list(500)})
    assert info.value.errors[0]["type"] == "too_deep"
    shallow = rp.parse_item({"type": "message", "role": "user", "content": "x", "meta": deep_list(100)})
    assert rp.dump_item(shallow)["meta"] == deep_list(100)


def test_nan_in_an_item_text_is_refused() -> None:
    with pytest.raises(rp.ItemError):
        rp.parse_items('[{"type":"message","role":"user","content":"x","extra":NaN}]')
    with pytest.raises(rp.ItemError):
        rp.parse_item('{"type":"message","role":"user","content":"x","extra":Infinity}')
    # inside a string it is just text
    assert rp.parse_items('[{"type":"message","role":"user","content":"NaN and Infinity"}]')


def test_lone_surrogates_in_item_texts_are_item_errors() -> None:
    for parse in (rp.parse_item, lambda t: rp.parse_items("[" + t + "]")):
        with pytest.raises(rp.ItemError):
            parse('{"type":"message","role":"user","content":"\\ud800"}')


def test_duplicate_keys_in_an_item_text_are_refused() -> None:
    # Readers disagree on which duplicate wins (first, last, error), so the strict reader refuses them.
    with pytest.raises(rp.ItemError) as info:
        rp.parse_item('{"type":"message","type":"function_call","role":"user","content":"x"}')
    assert info.value.errors[0]["type"] == "duplicate_key"


def test_ten_megabyte_strings_parse_check_and_dump() -> None:
    big = "x" * 10_000_000
    items = rp.parse_items(json.dumps([{"type": "message", "role": "user", "content": big}]))
    assert rp.dump_items(items)[0]["content"] == big
    assert rp.check_transcript(items).ok


def test_huge_arrays_of_tiny_items() -> None:
    tiny = [{"type": "item_reference", "id": f"i{i}"} for i in range(100_000)]
    assert len(rp.parse_items(json.dumps(tiny))) == 100_000
    assert check_transcript_iter(iter(tiny)).ok
    dup = tiny + [{"type": "item_reference", "id": "i7"}]
    report = check_transcript_iter(iter(dup))
    assert [(v.index, v.code) for v in report.violations] == [(100_000, ViolationCode.DUPLICATE_ITEM_ID)]


@pytest.mark.parametrize("suffix", [".json", ".jsonl"])
def test_cli_refuses_deep_files_with_exit_2(tmp_path: Path, suffix: str, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / f"deep{suffix}"
    f.write_text('{"type":"message","role":"user","content":' + "[" * DEEP + "]" * DEEP + "}\n")
    assert main(["check", str(f)]) == 2
    err = capsys.readouterr().err
    assert "nests deeper than" in err and "Traceback" not in err
