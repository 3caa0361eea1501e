"""Every public entry point, fed hostile values: the only outcomes are a result or a documented error.

Hostile values mix what broke the library before with what any caller may pass:
nesting past `MAX_ITEM_DEPTH` (and past Python's recursion limit), lone surrogates in keys and values,
integers past 4300 digits, NaN and infinities, bytes, sets and tuples inside items, dict subclasses
and other Mappings, JSON texts with duplicate keys, `NaN`, `1e400`, a BOM or invalid UTF-8, SDK
objects, and values of the wrong type. Each property calls one entry point and accepts only:

- a result, whose messages can be written as UTF-8 (a lone surrogate is escaped, never echoed raw) and,
  for parsed models, can be dumped again as JSON (what parses also dumps);
- the entry point's documented errors: `ItemError` (items, Agents objects, interop, compare, cards),
  `ArgumentsError`, `SchemaError` (a tool schema that is not one), `ToolResultError`, `StreamError`.

Anything else (`TypeError`, `RecursionError`, `UnicodeEncodeError`, a bare `ValueError` from the int
limit) fails the property. The default profile is bounded for CI (`conftest.fuzz_settings`);
`HYPOTHESIS_PROFILE=long` runs each property 100x longer:

    HYPOTHESIS_PROFILE=long .venv/bin/pytest tests/adversarial/test_fuzz_entrypoints.py
"""

from __future__ import annotations

import collections
import json
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from conftest import fuzz_settings
from hypothesis import given
from hypothesis import strategies as st

import replayable as rp
from replayable import _json
from replayable import agents as A
from replayable import stream as S
from replayable._arguments import ArgumentsError, SchemaError
from replayable._replay import check_transcript_iter

FUZZ = fuzz_settings(40)
ITEM_ERRORS = (rp.ItemError,)
ALL_ERRORS = (rp.ItemError, ArgumentsError, SchemaError, A.ToolResultError, S.StreamError)


class Frozen(Mapping[str, Any]):
    """A Mapping that is not a dict subclass."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self._data = dict(data)

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


def nest(n: int, leaf: Any = "x") -> Any:
    value = leaf
    for i in range(n):
        value = {"a": value} if i % 2 else [value]
    return value


HOSTILE_STRINGS = ["\ud800", "a\udfffb", "\u2028", "\ufeff", "", "x" * 300, "acme:x", "function_call"]
HOSTILE_SCALARS = [
    float("nan"),
    float("inf"),
    -float("inf"),
    2**63,
    b"bytes",
    bytearray(b"x"),
    {1, 2},
    frozenset({"a"}),
    (1, 2),
    object(),
]
DEPTHS = [_json.MAX_ITEM_DEPTH - 3, _json.MAX_ITEM_DEPTH, _json.MAX_ITEM_DEPTH + 1, 400, 900, 3000]

leaf = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | st.sampled_from(HOSTILE_STRINGS)
    | st.sampled_from(HOSTILE_SCALARS)
    | st.builds(lambda n, sign: sign * 10**n, st.sampled_from([4299, 4300, 5000]), st.sampled_from([1, -1]))
)
KEYS = ["type", "id", "call_id", "name", "arguments", "status", "output", "role", "content", "text", "item",
        "session", "required_actions", "turn_id", "success", "error", "tool_calls", "sequence_number",
        "output_index", "response", "recipient_agent_id", "\ud800", "a"]
key = st.sampled_from(KEYS) | st.text(max_size=4)


def _mapping(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    plain = st.dictionaries(key, inner, max_size=4)
    return plain | plain.map(collections.OrderedDict) | plain.map(Frozen) | st.dictionaries(st.integers(), inner, max_size=2)


value = st.recursive(leaf, lambda inner: st.lists(inner, max_size=3) | _mapping(inner), max_leaves=12)
deep = st.builds(nest, st.sampled_from(DEPTHS), st.sampled_from(["x", 1, None, {}, "\ud800"]))

ITEM_TYPES = ["message", "function_call", "function_call_output", "reasoning", "compaction", "item_reference",
              "acme:thing", "web_search_call", "", ["message"], 5, None, "message\ud800"]
EVENT_TYPES = ["agent.session.requires_action", "agent.session.input.tool_result", "agent.session.turn.item.done",
               "agent.session.subagent.created", "agent.session.zzz", "response.output_item.added",
               "response.output_item.done", "response.created", "response.completed",
               "response.function_call_arguments.delta", "acme:event", ["x"], "x\ud800"]


@st.composite
def item_like(draw: st.DrawFn, types: list[Any] = ITEM_TYPES) -> Any:
    """A dict (or Mapping) that often looks like an item or event, with hostile values in its fields."""
    out: dict[Any, Any] = draw(st.dictionaries(key, value | deep, max_size=4))
    if draw(st.booleans()):
        out["type"] = draw(st.sampled_from(types))
    for k, choices in (
        ("role", ["user", "assistant", "tool", ["user"], None]),
        ("call_id", ["c1", "c2", "", "c\ud800", ["c1"]]),
        ("name", ["search", "f", 5]),
        ("arguments", ['{"q":"x"}', '{"a":1,"a":2}', '{"a":NaN}', '{"n":1e400}', "{", {"a": {1}}, {"q": "x"}]),
        ("status", ["completed", "incomplete", None]),
        ("content", ["hi", [{"type": "input_text", "text": "hi"}], [b"x"], {"x"}]),
        ("output", ["ok", b"ok", [{"type": "input_text", "text": "\ud800"}]]),
        ("turn_id", ["t1", ["t1"]]),
        ("extra", [deep]),
    ):
        if draw(st.integers(0, 3)) == 0:
            pick = draw(st.sampled_from(choices))
            out[k] = draw(pick) if isinstance(pick, st.SearchStrategy) else pick
    wrap = draw(st.sampled_from([dict, collections.OrderedDict, Frozen]))
    return wrap(out)


def _dumps_loosely(v: Any) -> str:
    return json.dumps(v, default=repr, allow_nan=True)


@st.composite
def json_text(draw: st.DrawFn) -> str | bytes:
    """A JSON-ish text: a fuzzed item serialized, then often broken in one of the reader's ways."""
    base = draw(item_like())
    try:
        text = json.dumps(json.loads(_dumps_loosely(dict(base))))
    except (ValueError, RecursionError, TypeError):
        text = '{"type":"message","role":"user","content":"x"}'
    how = draw(st.sampled_from(["as is", "dup", "nan", "inf", "bigint", "bom", "latin1", "surrogate", "u2028",
                                "array", "jsonl", "truncated", "deep"]))
    if how == "dup":
        text = text[:-1] + (',' if len(text) > 2 else "") + '"type":"message"}'
    elif how == "nan":
        text = text[:-1] + ',"z":NaN}'
    elif how == "inf":
        text = text[:-1] + ',"z":1e400}'
    elif how == "bigint":
        text = text[:-1] + ',"z":' + "7" * 4301 + "}"
    elif how == "bom":
        text = "\ufeff" + text
    elif how == "latin1":
        return text.encode()[:-1] + b',"z":"\xe9"}'
    elif how == "surrogate":
        text = text[:-1] + ',"z":"\\udc00"}'
    elif how == "u2028":
        text = text[:-1] + ',"z":"a\u2028b"}'
    elif how == "array":
        text = "[" + text + "," + text + "]"
    elif how == "jsonl":
        text = text + "\n" + text + "\r\n"
    elif how == "truncated":
        text = text[: draw(st.integers(0, len(text)))]
    elif how == "deep":
        n = draw(st.sampled_from(DEPTHS))
        text = text[:-1] + ',"z":' + "[" * n + "]" * n + "}"
    return text.encode("utf-8", "surrogatepass") if draw(st.booleans()) else text


def sdk_object(draw: st.DrawFn) -> Any:
    from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage

    cls = draw(st.sampled_from([ResponseFunctionToolCall, ResponseOutputMessage]))
    fields = draw(st.dictionaries(st.sampled_from(["call_id", "name", "arguments", "id", "status", "content"]),
                                  value | deep, max_size=3))
    return cls.model_construct(type="function_call" if cls is ResponseFunctionToolCall else "message", **fields)


@st.composite
def anything(draw: st.DrawFn) -> Any:
    kind = draw(st.sampled_from(["item", "item", "text", "value", "deep", "sdk"]))
    if kind == "item":
        return draw(item_like())
    if kind == "text":
        return draw(json_text())
    if kind == "deep":
        return draw(deep)
    if kind == "sdk":
        return sdk_object(draw)
    return draw(value)


items = st.lists(anything(), max_size=4) | anything()


def printable(text: str) -> None:
    text.encode("utf-8")  # a message that quotes hostile input must still print


def outcome(call: Callable[[], Any], errors: tuple[type[BaseException], ...] = ALL_ERRORS) -> Any:
    """Run `call`: a result is returned; a documented error must print; anything else fails."""
    try:
        return call()
    except errors as exc:
        printable(str(exc))
        return exc


def dumps_ok(models: Any) -> None:
    """What parsed must dump again as strict JSON."""
    for m in models if isinstance(models, list) else [models]:
        json.dumps(rp.dump_item(m), allow_nan=False)


# ------------------------------------------------------------------ items


@FUZZ
@given(anything(), st.sampled_from(["input", "output"]), st.sampled_from([None, "openai"]))
def test_parse_item_and_dump(data: Any, side: Any, provider: Any) -> None:
    got = outcome(lambda: rp.parse_item(data, side=side, provider=provider), ITEM_ERRORS)
    if not isinstance(got, Exception):
        dumps_ok(got)
        assert rp.parse_item(rp.dump_item(got), side=side, provider=provider) == got


@FUZZ
@given(items, st.sampled_from(["input", "output"]))
def test_parse_items_and_iter_items(data: Any, side: Any) -> None:
    whole = outcome(lambda: rp.parse_items(data, side=side), ITEM_ERRORS)
    if not isinstance(whole, Exception):
        dumps_ok(whole)
    if isinstance(data, list):
        streamed = outcome(lambda: list(rp.iter_items(data, side=side)), ITEM_ERRORS)
        assert isinstance(whole, Exception) == isinstance(streamed, Exception)


@FUZZ
@given(anything())
def test_dump_item_and_dump_items_take_only_models(data: Any) -> None:
    outcome(lambda: rp.dump_item(data), ITEM_ERRORS)
    outcome(lambda: rp.dump_items([data]), ITEM_ERRORS)


@FUZZ
@given(anything(), st.sampled_from([None, {"type": "object"}, {"type": "object", "additionalProperties": False}]))
def test_gate(item: Any, schema: Any) -> None:
    res = outcome(lambda: rp.gate(item, schema), (SchemaError,))
    if not isinstance(res, Exception):
        assert isinstance(res.reason, rp.GateReason)
        printable(res.detail)


@FUZZ
@given(st.lists(anything(), max_size=5), st.sampled_from([None, "input", "output"]), st.booleans())
def test_check_transcript_and_check_stream(data: list[Any], side: Any, with_tools: bool) -> None:
    tools = [{"type": "function", "name": "search", "parameters": {"type": "object"}}] if with_tools else None
    report = outcome(lambda: rp.check_transcript(data, tools=tools, side=side), ())
    streamed = outcome(lambda: check_transcript_iter(iter(data), tools=tools, side=side), ())
    assert streamed.violations == report.violations
    for v in report.violations:
        printable(v.message)


@FUZZ
@given(anything())
def test_check_tool(tool: Any) -> None:
    found = outcome(lambda: rp.check_tool(tool), ())
    for v in found:
        printable(v.message)


@FUZZ
@given(anything(), st.sampled_from([None, "openai"]))
def test_to_input(item: Any, provider: Any) -> None:
    got = outcome(lambda: rp.to_input(item, provider=provider), ITEM_ERRORS)
    if not isinstance(got, Exception):
        dumps_ok(got)


@FUZZ
@given(st.lists(anything(), max_size=4) | anything())
def test_from_and_to_chat_completions(data: Any) -> None:
    got = outcome(lambda: rp.from_chat_completions(data), ITEM_ERRORS)
    if not isinstance(got, Exception):
        dumps_ok(got)
    back = outcome(lambda: rp.to_chat_completions(data), ITEM_ERRORS)
    if not isinstance(back, Exception):
        json.dumps(back, allow_nan=False)


@FUZZ
@given(st.lists(anything(), max_size=4), st.sampled_from(["openai", "acme"]))
def test_prepare_replay(data: list[Any], target: str) -> None:
    got = outcome(lambda: rp.prepare_replay(data, target=target), ITEM_ERRORS)
    if not isinstance(got, Exception):
        result, report = got
        dumps_ok(result)
        assert report.ok


@FUZZ
@given(items, items)
def test_compare_items(a: Any, b: Any) -> None:
    diffs = outcome(lambda: rp.compare_items(a, b), ITEM_ERRORS)
    if not isinstance(diffs, Exception):
        for d in diffs:
            printable(json.dumps(d.as_dict(), ensure_ascii=False))


@FUZZ
@given(st.sampled_from(["input", "output", "agents-events", "", "nope", ["input"], None, 5]))
def test_json_schema(side: Any) -> None:
    try:
        doc = rp.json_schema(side)
    except ValueError as exc:  # documented: an unknown side
        assert "side" in str(exc)
        return
    assert isinstance(doc, dict)


@FUZZ
@given(json_text(), json_text())
def test_cli_check_and_diff(tmp_path_factory: pytest.TempPathFactory, a: Any, b: Any) -> None:
    from replayable._cli import main

    d = tmp_path_factory.mktemp("fuzz")
    fa, fb = Path(d, "a.json"), Path(d, "b.jsonl")
    fa.write_bytes(a if isinstance(a, bytes) else a.encode("utf-8", "surrogatepass"))
    fb.write_bytes(b if isinstance(b, bytes) else b.encode("utf-8", "surrogatepass"))
    assert main(["check", str(fa), "--format", "json"]) in (0, 1, 2)
    assert main(["check", str(fb)]) in (0, 1, 2)
    assert main(["diff", str(fa), str(fb)]) in (0, 1, 2)


# ------------------------------------------------------------------ Agents API


@FUZZ
@given(st.one_of(item_like(EVENT_TYPES), anything()))
def test_agents_parse_event_input_session(data: Any) -> None:
    for parse in (A.parse_event, A.parse_input, A.parse_session):
        got = outcome(lambda parse=parse: parse(data), ITEM_ERRORS)
        if not isinstance(got, Exception):
            json.dumps(A.dump(got), allow_nan=False)


@FUZZ
@given(st.one_of(item_like(["function_call", "mcp", ["function_call"]]), anything()), anything())
def test_agents_check_arguments(action: Any, tool: Any) -> None:
    if isinstance(action, Mapping) and not isinstance(action, Frozen):
        action = {"turn_id": "t1", "call_id": "c1", "name": "f", **action}
    got = outcome(lambda: A.check_arguments(action, tool), ITEM_ERRORS + (SchemaError,))
    if not isinstance(got, Exception):
        assert got.execute == (not got.failures)
        if got.failures:
            printable(got.error_message())


@FUZZ
@given(st.lists(anything(), max_size=4) | anything(), st.sampled_from([{}, {"type": "object"}, True, "nope"]))
def test_agents_check_card(data: Any, schema: Any) -> None:
    got = outcome(lambda: A.check_card(data, schema), ITEM_ERRORS + (SchemaError,))
    if not isinstance(got, Exception):
        for f in got.failures:
            printable(f.message)


@FUZZ
@given(st.lists(st.one_of(item_like(EVENT_TYPES), anything()), max_size=5))
def test_agents_check_event_log_and_link_chain(events: list[Any]) -> None:
    report = outcome(lambda: A.check_event_log(events), ())
    for v in report.violations:
        printable(v.message)
    chain = outcome(lambda: A.link_chain(events), ())
    json.dumps(chain.as_dict(), ensure_ascii=False).encode("utf-8")
    outcome(lambda: A.link_chain(events[0] if events else None), ITEM_ERRORS)


@FUZZ
@given(st.one_of(item_like(["agent.session.requires_action"]), anything()), anything())
def test_agents_pending_actions(event: Any, tool_result: Any) -> None:
    if isinstance(event, dict) and draw_session(event):
        event["session"] = {"required_actions": [{"type": "function_call", "turn_id": "t1", "call_id": "c1",
                                                  "name": "f", "arguments": event.get("arguments", {})}]}
    ledger = outcome(lambda: A.PendingActions.from_event(event), ITEM_ERRORS)
    if isinstance(ledger, Exception):
        return
    outcome(lambda: ledger.accept(tool_result), (A.ToolResultError,))
    outcome(lambda: A.PendingActions.from_session(tool_result), ITEM_ERRORS)


def draw_session(event: dict[str, Any]) -> bool:
    return "session" not in event and event.get("type") == "agent.session.requires_action"


# ------------------------------------------------------------------ streaming


@FUZZ
@given(st.lists(json_text(), min_size=1, max_size=3), st.sampled_from(["bytes", "str", "chunks", "lines"]))
def test_stream_parse_sse(texts: list[Any], form: str) -> None:
    frames = [t if isinstance(t, bytes) else t.encode("utf-8", "surrogatepass") for t in texts]
    raw = b"".join(b"data: " + f.replace(b"\n", b"\ndata: ") + b"\n\n" for f in frames)
    body = raw.decode("utf-8", "surrogateescape")  # bytes that are not UTF-8 become lone surrogates
    source: Any = {
        "bytes": raw,
        "str": body,
        "chunks": [raw[i : i + 7] for i in range(0, len(raw), 7)],
        "lines": body.splitlines(keepends=True),
    }[form]
    outcome(lambda: list(S.parse_sse(source)), (S.StreamError,))


@FUZZ
@given(st.lists(st.one_of(item_like(EVENT_TYPES), anything()), min_size=1, max_size=5), st.booleans())
def test_stream_assembler_feed_and_close(events: list[Any], strict: bool) -> None:
    asm = S.StreamAssembler(strict=strict)
    for n, ev in enumerate(events):
        if isinstance(ev, dict) and "sequence_number" not in ev:
            ev["sequence_number"] = n
        got = outcome(lambda ev=ev: asm.feed(ev), (S.StreamError,))
        if isinstance(got, Exception):
            return
        for item in got:
            dumps_ok(item)
    outcome(asm.close, (S.StreamError,))
