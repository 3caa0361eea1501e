"""`StreamAssembler.feed_sse` and the whole-capture framing (streaming speed): the fast paths
give exactly what the general ones give.

- `feed_sse(source)` equals `for e in parse_sse(source): feed(e)`: the same items handed out, the same
  findings, the same error at the same event, for good streams, every broken rule of `test_stream`,
  the recorded corpus, and hostile data (each event is still read by the strict reader and validated
  by its event model; only the second check of the dict as a Python value is left out).
- `parse_sse` on a whole capture (common frames taken whole) equals `parse_sse` on the same bytes in
  chunks (read line by line), events, errors and byte offsets alike, for any mix of SSE lines.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_stream import STREAMS, _cases, _events, _good, _sse

import replayable as rp
from replayable import stream as S
from replayable.stream import _sse as sse
from replayable.stream._assembler import _SPEC_HANDLERS
from replayable.stream._events import LIFECYCLE_EVENT_TYPES


def _outcome(run: Any) -> Any:
    """What running a stream gives: the items handed out (dumped) or the error, and the findings."""
    try:
        return ("ok", run())
    except S.StreamError as exc:
        return ("error", exc.rule, exc.sequence_number, exc.index, exc.offset, str(exc))


def _by_loop(source: Any, strict: bool, provider: Any = None) -> Any:
    asm = S.StreamAssembler(strict=strict, provider=provider)

    def run() -> Any:
        handed = [rp.dump_item(x) for e in S.parse_sse(source) for x in asm.feed(e)]
        asm.close()
        return handed, [w.as_dict() for w in asm.warnings], rp.dump_items(asm.items), asm.status, asm.response

    return _outcome(run)


def _by_feed_sse(source: Any, strict: bool, provider: Any = None) -> Any:
    asm = S.StreamAssembler(strict=strict, provider=provider)

    def run() -> Any:
        handed = [rp.dump_item(x) for x in asm.feed_sse(source)]
        asm.close()
        return handed, [w.as_dict() for w in asm.warnings], rp.dump_items(asm.items), asm.status, asm.response

    return _outcome(run)


def _forms(data: bytes) -> dict[str, Any]:
    """One capture as a whole (the fast framing) and in pieces (line by line)."""
    forms: dict[str, Any] = {"bytes": data, "chunks": [data[i : i + 7] for i in range(0, len(data), 7)]}
    try:
        text = data.decode()
    except UnicodeDecodeError:
        return forms
    return {**forms, "str": text, "lines": text.split("\n")}


@pytest.mark.parametrize("strict", [True, False], ids=["strict", "lenient"])
@pytest.mark.parametrize("name", ["good", *_cases()])
def test_feed_sse_equals_parse_sse_then_feed(name: str, strict: bool) -> None:
    events = _good() if name == "good" else _cases()[name][0]
    for crlf in (False, True):
        data = _sse(events, crlf=crlf).encode()
        want = _by_loop(data, strict)
        if name != "good":  # the case breaks its rule
            assert want[0] == "error" if strict else want[0] == "ok" and want[1][1]
        for form, source in _forms(data).items():
            assert _by_feed_sse(source, strict) == want, form


@pytest.mark.parametrize("path", STREAMS)
def test_feed_sse_equals_parse_sse_then_feed_on_recorded_streams(path: Path) -> None:
    data = _sse(_events(path)).encode()
    for strict in (True, False):
        want = _by_loop(data, strict, "openai")
        assert _by_feed_sse(data, strict, "openai") == want
        assert _by_feed_sse(_forms(data)["chunks"], strict, "openai") == want
        assert want[0] == "ok" and want[1][2], "the stream assembles"


def _delta_frame(body: str, name: str = "response.output_text.delta") -> bytes:
    return f"event: {name}\ndata: {body}\n\n".encode()


HEAD = b"".join(
    _delta_frame(json.dumps(e), e["type"]) for e in _good()[:3]
)  # created, output_item.added (a message), content_part.added
DELTA = '"type": "response.output_text.delta", "sequence_number": 3, "item_id": "msg_1", "output_index": 0, "content_index": 0'
HOSTILE = {
    "duplicate key": _delta_frame("{" + DELTA + ', "delta": "a", "delta": "b"}'),
    "NaN": _delta_frame("{" + DELTA + ', "delta": "a", "logprobs": [NaN]}'),
    "huge number": _delta_frame("{" + DELTA + ', "delta": "a", "logprobs": [1e400]}'),
    "lone surrogate": _delta_frame("{" + DELTA + ', "delta": "\\ud800"}'),
    "too deep": _delta_frame("{" + DELTA + ', "delta": "a", "x": ' + "[" * 300 + "]" * 300 + "}"),
    "not an object": _delta_frame("[1, 2]"),
    "not JSON": _delta_frame("{" + DELTA),
    "bad UTF-8": b"data: {" + DELTA.encode() + b', "delta": "\xff"}\n\n',
    "event name differs": _delta_frame("{" + DELTA + ', "delta": "a"}', "response.refusal.delta"),
    "event without data": b"event: response.output_text.delta\n\n",
    "not an SSE field": b"delta: x\n\n",
    "wrong delta type": _delta_frame("{" + DELTA + ', "delta": 5}'),
    "missing type": b'data: {"sequence_number": 3}\n\n',
    "type is a list": b'data: {"type": ["response.output_text.delta"], "sequence_number": 3}\n\n',
    "type is a number": b'data: {"type": 5, "sequence_number": 3}\n\n',
    "sequence goes back": _delta_frame(
        "{" + DELTA.replace('"sequence_number": 3', '"sequence_number": 1') + ', "delta": "a"}'
    ),
    "sequence is a string": _delta_frame(
        "{" + DELTA.replace('"sequence_number": 3', '"sequence_number": "3"') + ', "delta": "a"}'
    ),
}


#: Frames whose `data:` is not a JSON object: `parse_sse` refuses them (`sse_malformed`); a lenient
#: assembler never raises, so `feed_sse` records them as a finding, as `feed` does with the same body.
BAD_DATA = {
    "duplicate key",
    "NaN",
    "huge number",
    "lone surrogate",
    "too deep",
    "not an object",
    "not JSON",
    "bad UTF-8",
}


def _by_feeding_the_body(frame: bytes) -> Any:
    """A lenient assembler fed HEAD's events, then the frame's `data:` body as it is."""
    asm = S.StreamAssembler(strict=False)

    def run() -> Any:
        handed = [rp.dump_item(x) for e in _good()[:3] for x in asm.feed(e)]
        handed += [rp.dump_item(x) for x in asm.feed(frame.split(b"data: ", 1)[1].removesuffix(b"\n\n"))]
        asm.close()
        return handed, [w.as_dict() for w in asm.warnings], rp.dump_items(asm.items), asm.status, asm.response

    return _outcome(run)


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_frames_give_the_same_verdict_on_every_path(name: str) -> None:
    data = HEAD + HOSTILE[name] + b"data: [DONE]\n\n"
    strict = _by_loop(data, True)
    assert strict[0] == "error", "refused in strict mode"
    for form, source in _forms(data).items():
        assert _by_feed_sse(source, True) == strict, form
        lenient = _by_feed_sse(source, False)
        if name == "event name differs":  # parse_sse raises it; a lenient assembler records it instead
            assert lenient[0] == "ok" and [w["rule"] for w in lenient[1][1]][:1] == ["event_name"], form
        elif name in BAD_DATA:  # parse_sse raises it; a lenient assembler records it as `feed` does (README)
            assert lenient[0] == "ok" and "event_schema" in [w["rule"] for w in lenient[1][1]], form
            assert lenient == _by_feeding_the_body(HOSTILE[name]), form
        elif name == "not an SSE field":  # the SSE standard ignores the line: a lenient reader notes it
            without = _by_feed_sse(_forms(HEAD + b"data: [DONE]\n\n")[form], False)
            notes = [w for w in lenient[1][1] if w["rule"] == "sse_malformed"]
            assert [(w["violation"], "'delta: x'" in w["message"]) for w in notes] == [(False, True)], form
            rest = [w for w in lenient[1][1] if w not in notes]
            assert (lenient[0], (*lenient[1][:1], rest, *lenient[1][2:])) == without, form
        else:
            assert lenient == _by_loop(source, False), form
    # check_stream (the command line's path) refuses it too
    try:
        report = S.check_stream(data)
    except S.StreamError as exc:
        assert exc.rule == S.StreamRule.SSE_MALFORMED
    else:
        assert not report.ok


def test_feed_sse_hands_items_out_while_the_stream_is_still_arriving() -> None:
    data = _sse(_good()).encode()
    read = 0

    def chunks() -> Any:
        nonlocal read
        for i in range(0, len(data), 64):
            read = i + 64
            yield data[i : i + 64]

    asm = S.StreamAssembler()
    seen = [(rp.dump_item(x)["type"], read < len(data)) for x in asm.feed_sse(chunks())]
    assert seen == [("message", True), ("function_call", True)]
    asm.close()
    assert asm.status == "completed"


def test_every_spec_event_inside_a_response_has_its_handler() -> None:
    # `error` has its own path (`_on_error`): the spec's shape, or OpenAI's flat one in OpenAI mode
    assert set(_SPEC_HANDLERS) == S.SPEC_EVENT_TYPES - LIFECYCLE_EVENT_TYPES - {"error"}


# --- the whole-capture framing equals the line-by-line one ------------------------------------------

_EVENT = {"type": "response.output_text.delta", "sequence_number": 1, "delta": "x"}
_LINES = st.sampled_from(
    [
        b"event: response.output_text.delta",
        b"event:response.output_text.delta",
        b"event:  response.output_text.delta",
        b"event: response.other",
        b"event: caf\xc3\xa9",
        b"data: " + json.dumps(_EVENT).encode(),
        b"data:" + json.dumps(_EVENT).encode(),
        b'data: {"type": "response.output_text.delta",',
        b'data: "sequence_number": 2}',
        b"data: [DONE]",
        b"data: ",
        b"data: [1]",
        b'data: {"a": 1, "a": 2}',
        b": a comment",
        b"id: 7",
        b"retry: 10",
        b"",
        b"",
        b"",
        b"what: is this",
        b"data",
    ]
)


_COMMON = st.sampled_from(
    [
        b"event: response.output_text.delta\ndata: " + json.dumps(_EVENT).encode() + b"\n\n",
        b"data: " + json.dumps(_EVENT).encode() + b"\n\n",
        b"event: response.other\ndata: " + json.dumps(_EVENT).encode() + b"\n\n",
        b"event: x\rdata: " + json.dumps(_EVENT).encode() + b"\n\n",
        b"data: [DONE]\n\n",
        b'data: {"type": "a"}\n\n',
    ]
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(_COMMON, st.tuples(_LINES, st.sampled_from([b"\n", b"\n", b"\n", b"\r\n", b"\r"])).map(b"".join)),
        max_size=14,
    ),
    st.booleans(),
    st.lists(st.integers(min_value=1, max_value=90), min_size=1, max_size=8),
)
def test_scanned_framing_equals_line_by_line(pieces: list[bytes], cut_last: bool, sizes: list[int]) -> None:
    """Whole captures and byte chunks are scanned (common frames whole); the reference reads every
    line one by one. Events, errors and byte offsets agree however the bytes are cut."""
    data = b"".join(pieces)
    if cut_last and data:
        data = data.rstrip(b"\r\n")  # the input ends inside a line

    def run(events: Any) -> Any:
        return _outcome(lambda: list(events))

    chunks, at = [], 0
    while at < len(data):
        size = sizes[len(chunks) % len(sizes)]
        chunks.append(data[at : at + size])
        at += size
    # OpenAI mode reads a capture without `data: [DONE]` to its end (so the events are compared, not
    # only the `done_missing` error the default mode raises there); both modes are compared.
    for provider in ("openai", None):
        framer = sse._Framer()
        by_line = sse._events(sse._frames_by_line(sse._chunks(data), framer), framer, None, provider=provider)
        want = run(by_line)
        assert run(S.parse_sse(data, provider=provider)) == want
        assert run(S.parse_sse([data], provider=provider)) == want
        assert run(S.parse_sse(chunks, provider=provider)) == want
        reader = sse.ByteReader()

        def pushed(reader: Any = reader) -> Any:
            for c in chunks:
                yield from reader.push(c)
            yield from reader.finish()

        assert run(sse._events(pushed(), reader.framer, None, provider=provider)) == want, "feed_bytes's reader"


def test_a_long_line_or_cr_only_stream_is_read_line_by_line_past_the_pending_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sse, "_MAX_PENDING", 64)
    events = [dict(_EVENT, sequence_number=k, delta="y" * (k * 40)) for k in range(1, 6)]
    for nl in (b"\n", b"\r", b"\r\n"):
        data = b"".join(b"data: " + json.dumps(e).encode() + nl + nl for e in events) + b"data: [DONE]" + nl + nl
        for size in (1, 7, 50, 1000):
            assert list(S.parse_sse([data[i : i + size] for i in range(0, len(data), size)])) == events, (nl, size)
