"""The crashes of issue 11 (section 4), one test per class: each entry point ends in a result or its
documented error (`ItemError`, `StreamError`, `ToolResultError`, ...), never `TypeError`,
`RecursionError`, `UnicodeEncodeError` or the interpreter's int-limit `ValueError`, and what parses
dumps again."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import replayable as rp
from replayable import _json
from replayable import agents as A
from replayable import stream as S
from replayable._cli import main
from replayable.replay import ViolationCode


def nest(n: int, leaf: Any = 1) -> Any:
    value = leaf
    for _ in range(n):
        value = {"a": value}
    return value


SURROGATE_ITEM = {"type": "message\ud800", "role": "user", "content": "x"}


def prints(text: str) -> str:
    text.encode("utf-8")
    return text


# ------------------------------------------------------------------ UnicodeEncodeError


def test_a_lone_surrogate_in_type_is_an_item_error_that_prints() -> None:
    with pytest.raises(rp.ItemError) as info:
        rp.parse_item(SURROGATE_ITEM)
    assert "lone_surrogate" in prints(str(info.value))
    assert info.value.errors[0]["type"] == "lone_surrogate"
    report = rp.check_transcript([SURROGATE_ITEM])
    assert not report.ok
    for v in report.violations:
        prints(v.message)
    prints(rp.gate(SURROGATE_ITEM, None).message)


def test_a_lone_surrogate_in_the_stream_paths_is_a_stream_error() -> None:
    event = {"type": "response.output_item.added", "sequence_number": 0, "output_index": 0, "item": SURROGATE_ITEM}
    with pytest.raises(S.StreamError) as info:
        S.StreamAssembler().feed(event)
    prints(str(info.value))
    for source in ('data: {"type":"acme:x\ud800"}\n\n', ['data: {"type":"acme:x\ud800"}\n', "\n"]):
        with pytest.raises(S.StreamError) as info:
            list(S.parse_sse(source))
        prints(str(info.value))
    with pytest.raises(S.StreamError):
        list(S.parse_sse('data: {"type":"acme:x","t":"\\udc00"}\n\n'))


def test_a_lone_surrogate_in_agents_paths_is_reported_printably() -> None:
    report = A.check_event_log([{"type": "agent.session.input.tool_result", "turn_id": "t\ud800", "call_id": "c"}])
    assert not report.ok
    for v in report.violations:
        prints(v.message)
    with pytest.raises(A.ToolResultError) as info:
        A.PendingActions().accept({"type": "agent.session.input.tool_result", "turn_id": "t", "call_id": "\ud800"})
    prints(str(info.value))


# ------------------------------------------------------------------ TypeError


def test_from_chat_completions_with_a_list_role_or_no_list() -> None:
    with pytest.raises(rp.ItemError) as info:
        rp.from_chat_completions([{"role": ["user"], "content": "x"}])
    assert info.value.errors[0]["loc"] == (0, "role")
    for bad in (None, 5):
        with pytest.raises(rp.ItemError):
            rp.from_chat_completions(bad)


def test_link_chain_with_a_list_item_type() -> None:
    chain = A.link_chain(
        [
            {"type": "agent.session.turn.item.done", "item": {"type": ["function_call"], "call_id": "c"}},
            {"type": ["x"]},
        ]
    )
    assert chain.ok and chain.links == ()


@pytest.mark.parametrize("bad", [b"bytes", {1, 2}, frozenset(), (1, 2), bytearray(b"x")])
def test_bytes_and_sets_inside_items(bad: Any) -> None:
    item = {"type": "message", "role": "user", "content": "x", "meta": {"v": bad}}
    with pytest.raises(rp.ItemError) as info:
        rp.compare_items(item, {**item, "meta": {}})
    assert info.value.errors[0]["type"] == "not_json"
    with pytest.raises(S.StreamError):
        S.StreamAssembler().feed({"type": "response.created", "sequence_number": 0, "response": {"x": bad}})
    with pytest.raises(S.StreamError):
        S.StreamAssembler().feed(
            {"type": "response.output_item.added", "sequence_number": 0, "output_index": 0, "item": item}
        )


def test_json_schema_with_a_wrong_type_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="side must be"):
        rp.json_schema(["input"])  # type: ignore[arg-type]


# ------------------------------------------------------------------ RecursionError


def test_compare_items_on_a_400_deep_unknown_field(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = {"type": "message", "role": "user", "content": "x", "meta": nest(400)}
    b = {**a, "meta": nest(400, 2)}
    with pytest.raises(rp.ItemError) as info:
        rp.compare_items(a, b)
    assert info.value.errors[0]["type"] == "too_deep"
    fa, fb = tmp_path / "a.json", tmp_path / "b.json"
    fa.write_text(json.dumps([a]))
    fb.write_text(json.dumps([b]))
    assert main(["diff", str(fa), str(fb)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "deeper" in err


def test_compare_items_just_within_the_limit_reports_the_leaf() -> None:
    depth = _json.MAX_ITEM_DEPTH - 2  # the item and the leaf are levels too
    a = {"type": "message", "role": "user", "content": "x", "meta": nest(depth)}
    diffs = rp.compare_items(a, {**a, "meta": nest(depth, 2)})
    assert [d.change for d in diffs] == [rp.compare.Change.FIELD]
    assert diffs[0].path == "/meta" + "/a" * depth
    assert rp.compare.json_equal(nest(5000), nest(5000))  # iterative: any depth


# ------------------------------------------------------------------ the int limit


def test_integers_over_4300_digits_are_the_documented_error() -> None:
    big = 10**4300
    item = {"type": "message", "role": "user", "content": "x", "n": big}
    for call in (
        lambda: rp.parse_item(item),
        lambda: rp.compare_items(item, item),
        lambda: A.parse_event({"type": "agent.session.zzz", "n": big}),
    ):
        with pytest.raises(rp.ItemError) as info:
            call()
        assert info.value.errors[0]["type"] == "number_too_long"
    with pytest.raises(S.StreamError):
        S.StreamAssembler().feed({"type": "acme:x", "sequence_number": 0, "n": big})
    assert [v.code for v in rp.check_transcript([item]).violations] == [ViolationCode.ITEM_INVALID]
    with pytest.raises(rp.ArgumentsError) as args_info:
        rp.parse_arguments('{"n":' + "1" * 4301 + "}")
    assert args_info.value.reason == "number_too_long"


# ------------------------------------------------------------------ dumps after a successful parse


def test_a_900_deep_unknown_event_is_refused_at_parse() -> None:
    with pytest.raises(rp.ItemError) as info:
        A.parse_event({"type": "agent.session.zzz", "x": nest(900)})
    assert info.value.errors[0]["type"] == "too_deep"
    with pytest.raises(S.StreamError):
        S.StreamAssembler().feed({"type": "acme:x", "sequence_number": 0, "x": nest(900)})


def test_what_parses_at_the_limit_dumps() -> None:
    event = A.parse_event({"type": "agent.session.zzz", "x": nest(_json.MAX_ITEM_DEPTH - 2)})
    json.dumps(A.dump(event))
    item = rp.parse_item({"type": "message", "role": "user", "content": "x", "x": nest(_json.MAX_ITEM_DEPTH - 2)})
    json.dumps(rp.dump_item(item))


def test_gate_and_check_tool_never_repr_a_deep_value() -> None:
    deep = nest(3000)
    res = rp.gate({"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}", "status": deep}, None)
    assert res.reason is rp.GateReason.STATUS and "dict" in res.detail
    found = rp.check_tool({"type": "function", "name": deep, "parameters": {"type": "object"}})
    assert [v.path for v in found][:1] == ["/name"]
