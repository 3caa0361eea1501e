"""One strict JSON reader on every path.

Each rule of `replayable._json` is tried through every form a value can take (a JSON text as `str`
and as `bytes`, one line of JSONL, one element of a JSON array, an iterable of lines, a dict, an
`OrderedDict`, an SDK object, an event text, a file on the command line) and every entry point that
reads it, and must give the same verdict: refused with the rule named, or accepted with the same
value. The limits are pinned at their boundaries (`MAX_ITEM_DEPTH`, `MAX_INT_DIGITS`, the largest
finite float) on the dict path and on the JSON-array fast path alike.
"""

from __future__ import annotations

import collections
import json
import re
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import jiter
import pytest
from hypothesis import given
from hypothesis import strategies as st

import replayable as rp
from replayable import _json
from replayable import agents as A
from replayable import stream as S
from replayable._cli import main
from replayable._replay import ViolationCode, check_transcript_iter

MSG = '{"type":"message","role":"user","content":"x"'
OK_ITEM = MSG + "}"


def nest(n: int, leaf: Any = 1) -> Any:
    """A value nested `n` levels deep (objects and arrays alternating)."""
    value = leaf
    for i in range(n):
        value = {"a": value} if i % 2 else [value]
    return value


def item_with(extra: Any) -> dict[str, Any]:
    return {"type": "message", "role": "user", "content": "x", "extra": extra}


# ------------------------------------------------------------------ the reader's rules, one text each

BAD_TEXTS: dict[str, tuple[str, str]] = {
    # name: (item text, rule)
    "duplicate key": (MSG + ',"content":"y"}', "duplicate_key"),
    "duplicate nested key": (MSG + ',"extra":{"amount":1000000,"amount":5}}', "duplicate_key"),
    "NaN": (MSG + ',"extra":NaN}', "non_finite_number"),
    "-Infinity": (MSG + ',"extra":-Infinity}', "non_finite_number"),
    "1e400": (MSG + ',"extra":1e400}', "non_finite_number"),
    "long float": (MSG + ',"extra":1' + "0" * 400 + ".5}", "non_finite_number"),
    "4301-digit int": (MSG + ',"extra":' + "9" * 4301 + "}", "number_too_long"),
    "lone surrogate escape": (MSG[:-3] + '"\\ud800"}', "lone_surrogate"),
    "too deep": (MSG + ',"extra":' + json.dumps(nest(_json.MAX_ITEM_DEPTH)) + "}", "too_deep"),
    "BOM inside": (" \ufeff" + OK_ITEM, "json_invalid"),
    "trailing data": (OK_ITEM + " {}", "json_invalid"),
}
ITEM_CODES = {"json_invalid", "duplicate_key", "non_finite_number", "number_too_long", "lone_surrogate", "too_deep"}


def item_forms(text: str) -> Iterator[tuple[str, Callable[[], Any]]]:
    """Every library path that reads one item from JSON text."""
    raw = text.encode("utf-8", "surrogatepass")
    yield "parse_item(str)", lambda: rp.parse_item(text)
    yield "parse_item(bytes)", lambda: rp.parse_item(raw)
    yield "parse_items(JSON array)", lambda: rp.parse_items("[" + text + "]")
    yield "parse_items(JSON array bytes)", lambda: rp.parse_items(b"[" + raw + b"]")
    yield "parse_items(JSONL)", lambda: rp.parse_items(OK_ITEM + "\n" + text + "\n")
    yield "iter_items(lines)", lambda: list(rp.iter_items([OK_ITEM + "\n", text + "\n"]))
    yield "to_input(str)", lambda: rp.to_input(text)
    yield "prepare_replay([str])", lambda: rp.prepare_replay([text], target="acme")
    yield "compare_items(str, str)", lambda: rp.compare_items(text, OK_ITEM)
    yield "check_card([str])", lambda: A.check_card([text], {})


@pytest.mark.parametrize("name", sorted(BAD_TEXTS))
def test_every_item_path_refuses_with_the_rule(name: str) -> None:
    text, rule = BAD_TEXTS[name]
    for form, read in item_forms(text):
        with pytest.raises(rp.ItemError) as info:
            read()
        codes = {e["type"] for e in info.value.errors}
        assert codes & ITEM_CODES, (form, codes)
        if rule != "json_invalid":
            assert rule in codes or form.startswith("parse_items(JSON array") and rule == "too_deep", (form, codes)
        str(info.value).encode("utf-8")  # the message always prints


@pytest.mark.parametrize("name", sorted(BAD_TEXTS))
def test_check_transcript_and_check_stream_report_the_same_items(name: str) -> None:
    text = BAD_TEXTS[name][0]
    for report in (rp.check_transcript([text]), check_transcript_iter(iter([text]))):
        assert [v.code for v in report.violations] == [ViolationCode.ITEM_INVALID]


@pytest.mark.parametrize("name", sorted(BAD_TEXTS))
def test_event_paths_refuse_the_same_texts(name: str) -> None:
    text, rule = BAD_TEXTS[name]
    event = text.replace('"type":"message"', '"type":"agent.session.zzz"', 1)
    with pytest.raises(rp.ItemError):
        A.parse_event(event)
    with pytest.raises(rp.ItemError):
        A.PendingActions.from_event(event)
    assert not A.link_chain([event]).ok
    assert [v.code for v in A.check_event_log([event]).violations] == [A.AgentsViolationCode.EVENT_INVALID]
    sse = "data: " + text.replace('"type":"message"', '"type":"acme:x"', 1) + "\n\n"
    with pytest.raises(S.StreamError) as info:
        list(S.parse_sse(sse))
    assert info.value.rule == S.StreamRule.SSE_MALFORMED
    with pytest.raises(S.StreamError):
        S.StreamAssembler().feed(sse[6:-2])


@pytest.mark.parametrize("name", sorted(BAD_TEXTS))
def test_the_cli_refuses_the_same_texts(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = BAD_TEXTS[name][0]
    for suffix, body in ((".json", "[" + text + "]"), (".jsonl", OK_ITEM + "\n" + text + "\n")):
        f = tmp_path / f"t{suffix}"
        f.write_bytes(body.encode("utf-8", "surrogatepass"))
        code = main(["check", str(f)])
        captured = capsys.readouterr()
        assert code in (1, 2) and "Traceback" not in captured.err, (suffix, captured)
        if code == 1:  # read, then the item was reported: the same verdict as the library
            assert "item_invalid" in captured.out or "invalid" in captured.out


def test_invalid_utf8_is_refused_never_replaced(tmp_path: Path) -> None:
    raw = MSG.encode()[:-3] + b'"caf\xe9"}'
    for read in (
        lambda: rp.parse_item(raw),
        lambda: rp.parse_items(b"[" + raw + b"]"),
        lambda: rp.parse_items(OK_ITEM.encode() + b"\n" + raw + b"\n"),
        lambda: list(rp.iter_items([raw])),
    ):
        with pytest.raises(rp.ItemError) as info:
            read()
        assert {e["type"] for e in info.value.errors} == {"invalid_utf8"}
    with pytest.raises(S.StreamError):
        list(S.parse_sse(b'data: {"type":"acme:x","t":"caf\xe9"}\n\n'))
    f = tmp_path / "latin1.jsonl"
    f.write_bytes(OK_ITEM.encode() + b"\n" + raw + b"\n")
    assert main(["check", str(f)]) == 2


def test_utf16_text_is_not_json() -> None:
    with pytest.raises(rp.ItemError):
        rp.parse_items(("[" + OK_ITEM + "]").encode("utf-16"))


# ------------------------------------------------------------------ what is accepted is accepted everywhere


def test_a_leading_bom_is_ignored_on_every_path(tmp_path: Path) -> None:
    want = rp.dump_item(rp.parse_item(OK_ITEM))
    bom, bom_bytes = "\ufeff", b"\xef\xbb\xbf"
    assert rp.dump_item(rp.parse_item(bom + OK_ITEM)) == want
    assert rp.dump_item(rp.parse_item(bom_bytes + OK_ITEM.encode())) == want
    assert rp.dump_items(rp.parse_items(bom + "[" + OK_ITEM + "]")) == [want]
    assert rp.dump_items(rp.parse_items(bom_bytes + OK_ITEM.encode() + b"\n" + OK_ITEM.encode())) == [want, want]
    assert rp.dump_items(rp.iter_items([bom + OK_ITEM, OK_ITEM])) == [want, want]
    # (function-call arguments are the exception: see the next test)
    for suffix, body in ((".json", "[" + OK_ITEM + "]"), (".jsonl", OK_ITEM + "\n" + OK_ITEM)):
        f = tmp_path / f"bom{suffix}"
        f.write_bytes(bom_bytes + body.encode())
        assert main(["check", str(f)]) == 0


BOM_CALL = {"type": "function_call", "call_id": "c1", "name": "f", "arguments": '\ufeff{"a":1}', "status": "completed"}
BOM_TOOL = {"type": "function", "name": "f", "parameters": {"type": "object"}, "strict": False}


def test_arguments_with_a_leading_bom_are_refused_on_every_path(tmp_path: Path) -> None:
    """Decision (was: ignored, like a document's BOM). A document's leading BOM is an encoding signature of
    the bytes, which RFC 8259 section 8.1 lets a parser ignore. Arguments are a JSON string inside an already
    decoded document, where no BOM belongs, and they are about to be executed by a tool whose own JSON
    reader may refuse them (Python's json.loads, JavaScript's JSON.parse) or read them otherwise: saying
    "ok" there is a verdict the tool does not share, so every path refuses them (fail closed)."""
    with pytest.raises(json.JSONDecodeError):
        json.loads('\ufeff{"a":1}')  # what a Python tool host would do with them
    with pytest.raises(rp.ArgumentsError) as info:
        rp.parse_arguments('\ufeff{"a":1}')
    assert info.value.reason == "not_json" and "byte order mark" in str(info.value)
    assert rp.parse_arguments('{"a":"\ufeff"}') == {"a": "\ufeff"}  # inside a string it is a character
    result = rp.gate(BOM_CALL, {"type": "object"})
    assert result.reason == "arguments_parse" and "byte order mark" in result.detail
    out = {"type": "function_call_output", "call_id": "c1", "output": "x"}
    for tools in (None, [BOM_TOOL]):  # with tools and without: the same finding
        report = rp.check_transcript([BOM_CALL, out], tools=tools)
        assert [(v.index, v.code, v.path) for v in report.violations] == [(0, "arguments_parse", "/arguments")]
        streamed = check_transcript_iter(iter([BOM_CALL, out]), tools=tools)
        assert [(v.index, v.code, v.path) for v in streamed.violations] == [(0, "arguments_parse", "/arguments")]
    body = {"model": "m", "input": [BOM_CALL, out], "tools": [BOM_TOOL]}
    assert [(v.index, v.code) for v in rp.check_transcript(body).violations] == [(0, "arguments_parse")]
    from replayable.integrations.openai import check_request_body  # noqa: PLC0415

    with pytest.raises(rp.ReplayError) as refused:
        check_request_body(json.dumps(body).encode())
    assert [(v.index, v.code) for v in refused.value.report.violations] == [(0, "arguments_parse")]
    f = tmp_path / "bom_args.json"
    f.write_text(json.dumps([BOM_CALL, out]), encoding="utf-8")
    assert main(["check", str(f)]) == 1
    assert rp.parse_items([BOM_CALL])[0].arguments == BOM_CALL["arguments"]  # kept as read: items do not parse it
    action = {"type": "function_call", "turn_id": "t1", "call_id": "c1", "name": "f", "arguments": BOM_CALL["arguments"]}
    with pytest.raises(rp.ItemError):  # the Agents API's arguments are an object: a string is refused already
        A.check_arguments(action, {"type": "object"})


def test_a_bom_anywhere_else_is_refused(tmp_path: Path) -> None:
    later = OK_ITEM + "\n" + "\ufeff" + OK_ITEM + "\n"
    with pytest.raises(rp.ItemError):
        rp.parse_items(later)
    with pytest.raises(rp.ItemError):
        list(rp.iter_items([OK_ITEM, "\ufeff" + OK_ITEM]))
    f = tmp_path / "bom.jsonl"
    f.write_text(later, encoding="utf-8")
    assert main(["check", str(f)]) == 2


@pytest.mark.parametrize("sep", ["\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c"])
def test_unicode_line_breaks_inside_strings_never_split_a_jsonl_line(sep: str, tmp_path: Path) -> None:
    line = MSG[:-3] + json.dumps("a" + sep + "b", ensure_ascii=False) + "}"
    text = line + "\n" + OK_ITEM + "\r\n"
    items = rp.parse_items(text)
    assert len(items) == 2 and rp.dump_item(items[0])["content"] == "a" + sep + "b"
    assert len(rp.parse_items(text.encode())) == 2
    assert len(list(rp.iter_items(text.splitlines(keepends=True) if sep in "\x0b\x0c\x1c" else [line, OK_ITEM]))) >= 2
    f = tmp_path / "seps.jsonl"
    f.write_bytes(text.encode())
    assert main(["check", str(f)]) == 0


class Frozen(Mapping[str, Any]):
    """A read-only Mapping that is not a dict."""

    def __init__(self, data: dict[str, Any]) -> None:
        self._data = data

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


def value_forms(value: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    text = json.dumps(value)
    yield "dict", value
    yield "OrderedDict", collections.OrderedDict(value)
    yield "defaultdict", collections.defaultdict(list, value)
    yield "Mapping", Frozen(value)
    yield "str", text
    yield "bytes", text.encode()


def test_dict_subclasses_and_mappings_read_like_dicts() -> None:
    call = {"type": "function_call", "call_id": "c1", "name": "f", "arguments": '{"a":1}', "status": "completed"}
    want = rp.dump_item(rp.parse_item(call))
    for form, value in value_forms(call):
        assert rp.dump_item(rp.parse_item(value)) == want, form
        assert rp.dump_items(rp.parse_items([value])) == [want], form
        if not isinstance(value, str | bytes):  # gate takes a JSON object or a parsed item
            assert rp.gate(value, {"type": "object"}).ok, form
        assert rp.check_transcript([value, {"type": "function_call_output", "call_id": "c1", "output": "ok"}]).ok
        assert rp.compare_items(value, call) == [], form
        assert rp.dump_item(rp.to_input(value)) == want, form
    nested = collections.OrderedDict(type="message", role="user", content=[collections.OrderedDict(type="input_text", text="hi")])
    assert rp.dump_item(rp.parse_item(nested)) == json.loads(json.dumps(nested))


def test_sdk_objects_get_the_same_verdict_as_their_json() -> None:
    from openai.types.responses import ResponseFunctionToolCall

    sdk = ResponseFunctionToolCall(type="function_call", call_id="c1", name="f", arguments='{"a":1}', status="completed")
    as_json = sdk.model_dump(mode="json", exclude_unset=True)
    assert rp.dump_item(rp.parse_item(sdk)) == rp.dump_item(rp.parse_item(as_json, provider="openai"))
    assert rp.compare_items(sdk, as_json) == []
    assert rp.gate(sdk, {"type": "object"}).ok
    hostile = ResponseFunctionToolCall.model_construct(type="function_call", call_id="c\ud800", name="f", arguments="{}")
    with pytest.raises(rp.ItemError) as info:
        rp.parse_item(hostile)
    str(info.value).encode("utf-8")


@pytest.mark.parametrize(
    ("extra", "rule"),
    [
        (float("nan"), "non_finite_number"),
        (float("inf"), "non_finite_number"),
        (10**4300, "number_too_long"),
        (-(10**4300), "number_too_long"),
        ("\udc00", "lone_surrogate"),
        ({"k\ud800": 1}, "lone_surrogate"),
        ({1: "x"}, "not_json"),
        ({1, 2}, "not_json"),
        (b"bytes", "not_json"),
        ((1, 2), "not_json"),
        (nest(_json.MAX_ITEM_DEPTH), "too_deep"),
    ],
    ids=["nan", "inf", "long int", "negative long int", "surrogate", "surrogate key", "int key", "set", "bytes",
         "tuple", "too deep"],
)
def test_python_values_json_has_no_form_for_are_refused(extra: Any, rule: str) -> None:
    for form, value in (("dict", item_with(extra)), ("OrderedDict", collections.OrderedDict(item_with(extra)))):
        for read in (rp.parse_item, lambda v: rp.parse_items([v]), lambda v: list(rp.iter_items([v]))):
            with pytest.raises(rp.ItemError) as info:
                read(value)
            assert rule in {e["type"] for e in info.value.errors}, form
            str(info.value).encode("utf-8")
        with pytest.raises(rp.ItemError):
            rp.compare_items(value, value)
        with pytest.raises(rp.ItemError):
            A.parse_event({**item_with(extra), "type": "agent.session.zzz"})
        with pytest.raises(S.StreamError):
            S.StreamAssembler().feed({"type": "acme:x", "sequence_number": 0, "extra": extra})
        assert not rp.check_transcript([value]).ok


# ------------------------------------------------------------------ limits pinned at their boundary


def test_the_reader_depth_is_what_the_array_fast_path_relies_on() -> None:
    # jiter counts levels as check_value does: each container, and the value inside the deepest one
    for n, leaf in ((_json.READER_DEPTH, b""), (_json.READER_DEPTH - 1, b"1"), (_json.READER_DEPTH - 1, b"{}")):
        jiter.from_json(b"[" * n + leaf + b"]" * n)
        with pytest.raises(ValueError, match="recursion limit"):
            jiter.from_json(b"[" * (n + 1) + leaf + b"]" * (n + 1))
        value = json.loads(b"[" * n + leaf + b"]" * n)
        _json.check_value(value, max_depth=_json.READER_DEPTH)
        with pytest.raises(_json.JSONError):
            _json.check_value([value], max_depth=_json.READER_DEPTH)
    assert _json.MAX_ITEM_DEPTH + 1 == _json.READER_DEPTH


@pytest.mark.parametrize("depth", [_json.MAX_ITEM_DEPTH, _json.MAX_ITEM_DEPTH + 1])
def test_item_depth_limit_is_the_same_on_every_form(depth: int) -> None:
    value = item_with(nest(depth - 2))  # the item is one level, the innermost value another
    text = json.dumps(value)
    reads: list[Callable[[], Any]] = [
        lambda: rp.parse_item(value),
        lambda: rp.parse_item(collections.OrderedDict(value)),
        lambda: rp.parse_item(text),
        lambda: rp.parse_items([value]),
        lambda: rp.parse_items("[" + text + "]"),
        lambda: rp.parse_items(text + "\n"),
        lambda: list(rp.iter_items([text])),
        lambda: rp.compare_items(value, value),
        lambda: A.parse_event({**value, "type": "agent.session.zzz"}),
        lambda: A.parse_event(text.replace('"message"', '"agent.session.zzz"', 1)),
    ]
    for n, read in enumerate(reads):
        if depth <= _json.MAX_ITEM_DEPTH:
            result = read()
            if isinstance(result, list) and result and isinstance(result[0], rp.items.WireModel):
                json.dumps(rp.dump_items(result))  # what parses also dumps
        else:
            with pytest.raises(rp.ItemError) as info:
                read()
            assert {e["type"] for e in info.value.errors} == {"too_deep"}, n


@pytest.mark.parametrize("digits", [_json.MAX_INT_DIGITS, _json.MAX_INT_DIGITS + 1])
def test_integer_digit_limit_is_the_same_on_every_form(digits: int) -> None:
    number = "9" * digits
    text = MSG + ',"extra":' + number + "}"
    value = item_with(int(number) if digits <= 4300 else 10**digits - 1)
    reads: list[Callable[[], Any]] = [
        lambda: rp.parse_item(text),
        lambda: rp.parse_items("[" + text + "]"),
        lambda: rp.parse_items(text + "\n"),
        lambda: rp.parse_item(value),
        lambda: rp.compare_items(value, value),
        lambda: rp.parse_arguments('{"n":' + number + "}"),
    ]
    for read in reads:
        if digits <= _json.MAX_INT_DIGITS:
            read()
        else:
            with pytest.raises(ValueError) as info:  # ItemError / ArgumentsError, never the int limit
                read()
            assert "4300 digits" in str(info.value) and "sys.set_int_max_str_digits" not in str(info.value)


@pytest.mark.parametrize(
    ("number", "finite"),
    [
        ("1e308", True),
        ("1.7976931348623157e308", True),
        ("1e309", False),
        ("-1e309", False),
        ("1E+400", False),
        ("1" + "0" * 308 + ".0", True),
        ("1" + "0" * 309 + ".0", False),
        ("1" + "0" * 300 + "e9", False),
        ("1e-400", False),  # not zero, reads as 0.0: refused like 1e400
        ("-1e-400", False),
        ("0e-400", True),
        ("1e-320", True),  # a subnormal double: read
    ],
)
def test_numbers_that_read_as_infinity_are_refused_on_the_fast_path_too(number: str, finite: bool) -> None:
    text = MSG + ',"extra":' + number + "}"
    for read in (
        lambda: rp.parse_items("[" + text + "]"),
        lambda: rp.parse_items(("[" + text + "]").encode()),
        lambda: rp.parse_item(text),
        lambda: rp.parse_arguments('{"n":' + number + "}"),
    ):
        if finite:
            read()
        else:
            with pytest.raises(ValueError, match="non_finite_number|not a JSON number|NaN|infinity"):
                read()


def test_number_lookalikes_inside_strings_are_text() -> None:
    ids = [f"call_{n}e{n:03d}" for n in range(5)] + ["9" * 400]
    items = rp.parse_items(json.dumps([item_with(x) for x in ids]))
    assert [rp.dump_item(i)["extra"] for i in items] == ids


def test_duplicate_keys_in_arguments_objects_never_pass() -> None:
    text = '{"amount": 1000000, "amount": 5}'
    call = {"type": "function_call", "call_id": "c", "name": "f", "arguments": text, "status": "completed"}
    assert rp.gate(call, {"type": "object"}).reason == "arguments_parse"
    report = rp.check_transcript(
        [{"type": "function_call", "call_id": "c", "name": "f", "arguments": text}, {"type": "function_call_output", "call_id": "c", "output": "x"}]
    )
    assert ViolationCode.ARGUMENTS_PARSE in [v.code for v in report.violations]  # even without tools
    action = '{"type":"function_call","turn_id":"t","call_id":"c","name":"f","arguments":' + text + "}"
    with pytest.raises(rp.ItemError):
        A.check_arguments(action, {"type": "object"})


# The number filter's question, asked of a shape (`_json._NUMBER_SHAPE`) by a regular expression: a
# candidate (`0e000`) whose run of mantissa bytes starts where a number can (after `:` or `[`, or at the start).
_NUMBER_START_ORACLE = re.compile(rb"(?:^|[:\[])[0.]*0e000")


@given(
    st.lists(st.sampled_from([b"0", b"e", b".", b":", b"[", b"x", b"0e000", b"000e0", b"0" * 40]), max_size=60).map(
        b"".join
    )
)
def test_the_number_filter_finds_every_number_start_the_oracle_finds(shape: bytes) -> None:
    """`_shape_may_overflow` cuts the candidates apart in C; the regular expression reads the same shape
    position by position. The filter says maybe wherever the oracle finds a number start, and says maybe
    elsewhere only for a run longer than it looks back (400 bytes) or 210 digits in a row."""
    oracle = _NUMBER_START_ORACLE.search(shape) is not None
    said = _json._shape_may_overflow(shape)
    if oracle:
        assert said, shape
    elif said:
        assert re.search(rb"[0.]{400}|0{210}", shape), shape


def test_the_number_filter_reads_many_candidates_in_strings_and_one_number_after_them() -> None:
    """Base64 (`encrypted_content`) holds many `1e123`-like runs inside strings: none is a number, and a
    number after thousands of them is still found."""
    blob = "".join(f"Ab{i % 10}e{i % 900 + 100}+/" for i in range(5000))
    quiet = json.dumps([{"type": "reasoning", "encrypted_content": blob}]).encode()
    assert not _json.may_overflow(quiet)
    loud = quiet[:-1] + b', {"n": 1e400}]'
    assert _json.may_overflow(loud)
    with pytest.raises(_json.JSONError) as caught:
        _json.loads(loud)
    assert caught.value.reason == "non_finite_number"


@st.composite
def _number_in_context(draw: st.DrawFn) -> tuple[bytes, str]:
    """A JSON number (any width of mantissa, fraction and exponent) in one of the places a number can
    stand, next to hex-id-like strings that look like exponents (`a6e50123`)."""
    whole = draw(st.sampled_from(["0", "1", "9"])) + draw(st.text("0123456789", max_size=330))
    whole = "0" if whole.startswith("0") else whole
    frac = draw(st.one_of(st.just(""), st.text("0123456789", min_size=1, max_size=5).map(lambda d: "." + d)))
    exp = draw(
        st.one_of(
            st.just(""),
            st.tuples(st.sampled_from("eE"), st.sampled_from(["", "+", "-"]), st.text("0123456789", min_size=1, max_size=5)).map(
                "".join
            ),
        )
    )
    number = draw(st.sampled_from(["", "-"])) + whole + frac + exp
    wrap = draw(st.sampled_from(["{}", '{{"id": "msg_6e5012", "a":{}}}', "[1,{}]", "[ {} ]", '{{"a":\n{}}}']))
    return wrap.format(number).encode(), number


@given(_number_in_context())
def test_every_number_that_reads_as_infinity_is_refused(case: tuple[bytes, str]) -> None:
    text, number = case
    overflows = any(c in number for c in ".eE") and float(number) in (float("inf"), float("-inf"))
    mantissa = number.replace("E", "e").split("e")[0]
    overflows = overflows or (float(number) == 0.0 and mantissa.strip("-0.") != "")  # reads as zero, is not
    try:
        _json.loads(text)
    except _json.JSONError as exc:
        assert overflows or exc.reason == "number_too_long", (number, exc.reason)
        if overflows:
            assert exc.reason == "non_finite_number"
    else:
        assert not overflows, number
