"""SSE as apps receive it: `StreamAssembler.feed_bytes(chunk)` with bytes split
anywhere, and `afeed_sse` over an async source (httpx `aiter_bytes` through a real `httpx` mock
transport, and the openai SDK's own async stream). The same items, findings and errors as `feed_sse` on
the joined bytes. Also the end of a capture: a cut-off last frame
is dropped and reported (`sse_truncated`), a capture without `data: [DONE]` is `done_missing` (a note in
lenient reading and in OpenAI mode, an error in strict Open Responses mode).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_stream import STREAMS, _cases, _events, _good, _sse
from test_stream_feed_sse import _COMMON, _LINES

import replayable as rp
from replayable import stream as S


def _outcome(run: Any, asm: S.StreamAssembler) -> Any:
    handed: list[Any] = []
    try:
        run(handed)
        asm.close()
        error: Any = None
    except S.StreamError as exc:
        error = (exc.rule, exc.sequence_number, exc.index, exc.offset, str(exc))
    return (
        [rp.dump_item(x) for x in handed],
        error,
        [w.as_dict() for w in asm.warnings],
        rp.dump_items(asm.items),
        asm.status,
        asm.response,
    )


def by_feed_sse(data: bytes, strict: bool, provider: Any = None) -> Any:
    asm = S.StreamAssembler(strict=strict, provider=provider)
    return _outcome(lambda out: out.extend(asm.feed_sse(data)), asm)


def by_feed_bytes(chunks: list[bytes], strict: bool, provider: Any = None) -> Any:
    asm = S.StreamAssembler(strict=strict, provider=provider)

    def run(out: list[Any]) -> None:
        for c in chunks:
            out.extend(asm.feed_bytes(c))

    return _outcome(run, asm)


async def _agen(chunks: list[bytes]) -> Any:
    for c in chunks:
        await asyncio.sleep(0)
        yield c


def by_afeed_sse(chunks: list[bytes], strict: bool, provider: Any = None) -> Any:
    asm = S.StreamAssembler(strict=strict, provider=provider)

    def run(out: list[Any]) -> None:
        async def go() -> None:
            async for item in asm.afeed_sse(_agen(chunks)):
                out.append(item)

        asyncio.run(go())

    return _outcome(run, asm)


def _split(data: bytes, points: list[int]) -> list[bytes]:
    cuts = sorted({p % (len(data) + 1) for p in points})
    bounds = [0, *cuts, len(data)]
    return [data[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]


def _utf8(events: list[dict[str, Any]]) -> str:
    """SSE with raw UTF-8 text (not escaped), 'apac' spelled with 2- and 4-byte characters throughout."""
    frames = [f"event: {e['type']}\ndata: {json.dumps(e, ensure_ascii=False)}\n\n" for e in events]
    return ("".join(frames) + "data: [DONE]\n\n").replace("apac", "apäc😀")


def _captures() -> dict[str, bytes]:
    """Good and broken captures, in LF, CRLF and CR framing, with raw multi-byte UTF-8 text."""
    out: dict[str, bytes] = {}
    for nl in ("\n", "\r\n", "\r"):
        out[f"good {nl!r}"] = _utf8(_good()).replace("\n", nl).encode()
    for name, (events, _rule, _seq) in _cases().items():
        out[name] = _utf8(events).encode()
    whole = _sse(_good()).encode()
    out["no [DONE]"] = whole[: whole.rindex(b"data: [DONE]")]
    out["cut off"] = whole[: whole.rindex(b"data: [DONE]") - 40]
    out["cut [DONE]"] = whole.rstrip(b"\n")
    return out


CAPTURES = _captures()


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(sorted(CAPTURES)),
    st.lists(st.integers(min_value=0, max_value=1 << 20), max_size=40),
    st.booleans(),
    st.sampled_from([None, "openai"]),
)
def test_feed_bytes_split_anywhere_equals_feed_sse(name: str, points: list[int], strict: bool, provider: Any) -> None:
    data = CAPTURES[name]
    want = by_feed_sse(data, strict, provider)
    chunks = _split(data, points)
    assert by_feed_bytes(chunks, strict, provider) == want
    assert by_afeed_sse(chunks, strict, provider) == want


@pytest.mark.parametrize("name", sorted(CAPTURES))
def test_every_byte_alone_gives_what_feed_sse_gives(name: str) -> None:
    data = CAPTURES[name]
    singles = [data[i : i + 1] for i in range(len(data))]
    for strict in (True, False):
        for provider in (None, "openai"):
            want = by_feed_sse(data, strict, provider)
            assert by_feed_bytes(singles, strict, provider) == want, (strict, provider)


def test_a_chunk_ending_inside_a_utf8_character_and_a_crlf() -> None:
    data = CAPTURES["good '\\r\\n'"]
    at = data.index("😀".encode()) + 2  # inside the 4-byte character
    crlf = data.index(b"\r\n", at) + 1  # between CR and LF
    chunks = [data[:at], data[at:crlf], data[crlf:]]
    for strict in (True, False):
        assert by_feed_bytes(chunks, strict) == by_feed_sse(data, strict)


def test_feed_bytes_hands_out_items_as_their_frames_complete() -> None:
    data = _sse(_good()).encode()
    asm = S.StreamAssembler()
    done_call = data.index(b'"sequence_number": 14')  # the call's output_item.done
    end = data.index(b"\n\n", done_call)
    assert b'"output_index": 1' in data[done_call:end] and b"output_item.done" in data[done_call - 80 : end]
    assert [x.type for x in asm.feed_bytes(data[: end + 1])] == ["message"]  # the call's frame is not ended
    assert [x.type for x in asm.feed_bytes(data[end + 1 : end + 2])] == ["function_call"]
    assert asm.feed_bytes(data[end + 2 :]) == []
    asm.close()
    assert asm.status == "completed" and asm.warnings == []


def test_feed_bytes_refuses_what_is_not_bytes() -> None:
    asm = S.StreamAssembler()
    with pytest.raises(S.StreamError) as exc:
        asm.feed_bytes({"type": "response.created"})
    assert exc.value.rule == S.StreamRule.SSE_MALFORMED and "dict" in str(exc.value)
    assert asm.feed_bytes(_sse(_good())) != []  # text is read as UTF-8


# --- the end of a capture ------------------------------------------------------------------------


def _rules(warnings: list[Any]) -> list[tuple[str, bool]]:
    return [(w["rule"], w["violation"]) for w in warnings]


@pytest.mark.parametrize("path", ["feed_sse", "feed_bytes", "afeed_sse"])
def test_a_cut_off_last_frame_is_dropped_and_reported(path: str) -> None:
    whole = _sse(_good()).encode()
    end = whole.rindex(b"data: [DONE]")
    cut = whole[: end - 2] + b"\n"  # the terminal event's frame lacks its blank line
    run = {
        "feed_sse": lambda s, p: by_feed_sse(cut, s, p),
        "feed_bytes": lambda s, p: by_feed_bytes([cut], s, p),
        "afeed_sse": lambda s, p: by_afeed_sse([cut], s, p),
    }[path]
    handed, error, warnings, items, status, _ = run(False, None)
    assert error is None
    assert _rules(warnings) == [("sse_truncated", True), ("done_missing", False), ("no_terminal", True)]
    assert [x["type"] for x in handed] == ["message", "function_call"] and len(items) == 2
    assert status is None  # the terminal event was in the dropped frame
    msg = next(w["message"] for w in warnings if w["rule"] == "sse_truncated")
    assert "terminating blank line" in msg and "dropped" in msg
    handed, error, *_ = run(True, "openai")
    assert error is not None and error[0] == S.StreamRule.SSE_TRUNCATED and error[3] == whole.rindex(b"event: ", 0, end)


def test_parse_sse_raises_for_a_cut_off_frame_after_the_events_before_it() -> None:
    data = b'data: {"type": "a:b", "sequence_number": 1}\n\ndata: {"type": "a:c", "sequence_number": 2}\n'
    got: list[Any] = []
    with pytest.raises(S.StreamError) as exc:
        for e in S.parse_sse(data, provider="openai"):
            got.append(e)
    assert got == [{"type": "a:b", "sequence_number": 1}]
    assert exc.value.rule == S.StreamRule.SSE_TRUNCATED and exc.value.offset == data.index(b"data: {", 10)
    # the same in any chunking, and for the line reader
    with pytest.raises(S.StreamError, match="sse_truncated"):
        list(S.parse_sse([data[i : i + 3] for i in range(0, len(data), 3)], provider="openai"))
    with pytest.raises(S.StreamError, match="sse_truncated"):
        list(S.parse_sse(data.decode().split("\n")[:-1], provider="openai"))


def test_a_cut_off_done_only_lacks_its_blank_line() -> None:
    data = _sse(_good()).encode().rstrip(b"\n")
    assert data.endswith(b"data: [DONE]")
    assert len(list(S.parse_sse(data))) == len(_good())
    got = by_feed_sse(data, True)
    assert got[1] is None and _rules(got[2]) == [("sse_truncated", False)]


@pytest.mark.parametrize("provider", [None, "openai"])
def test_done_missing_is_a_note_in_lenient_reading_and_in_openai_mode(provider: Any) -> None:
    whole = _sse(_good()).encode()
    data = whole[: whole.rindex(b"data: [DONE]")]
    lenient = by_feed_sse(data, False, provider)
    assert lenient[1] is None and _rules(lenient[2]) == [("done_missing", False)]
    report = S.check_stream(data, provider=provider)
    assert report.ok and [(f.rule, f.violation) for f in report.findings] == [("done_missing", False)]
    strict = by_feed_sse(data, True, provider)
    if provider == "openai":  # OpenAI's Responses API ends its streams at the terminal event
        assert strict[1] is None and _rules(strict[2]) == [("done_missing", False)]
        assert "OpenAI" in strict[2][0]["message"]
        assert len(list(S.parse_sse(data, provider="openai"))) == len(_good())
    else:
        assert strict[1] is not None and strict[1][0] == S.StreamRule.DONE_MISSING
        assert "[DONE]" in strict[1][4]
        assert strict[0] == lenient[0]  # every item was handed out before the end was found
        with pytest.raises(S.StreamError, match="done_missing"):
            list(S.parse_sse(data))
    # with [DONE], nothing is said
    assert by_feed_sse(whole, True, provider)[2] == []


# --- real async sources ---------------------------------------------------------------------------


def _corpus_sse(path: Path) -> bytes:
    body = "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in _events(path))
    return body.encode()  # as OpenAI sends it: no [DONE]


def _mock_client(data: bytes, size: int) -> httpx.AsyncClient:
    async def handler(request: httpx.Request) -> httpx.Response:
        async def body() -> Any:
            for i in range(0, len(data), size):
                await asyncio.sleep(0)
                yield data[i : i + size]

        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body())

    return httpx.AsyncClient(transport=httpx.MockTransport(handler), base_url="https://api.example.test/v1")


@pytest.mark.parametrize("path", STREAMS)
def test_afeed_sse_over_httpx_aiter_bytes_equals_feed_sse(path: Path) -> None:
    data = _corpus_sse(path)
    want = by_feed_sse(data, False, "openai")

    async def run(size: int) -> Any:
        asm = S.StreamAssembler(provider="openai", strict=False)
        handed: list[Any] = []
        async with _mock_client(data, size) as client, client.stream("POST", "/responses", json={}) as resp:
            async for item in asm.afeed_sse(resp.aiter_bytes()):
                handed.append(item)
        asm.close()
        return (
            [rp.dump_item(x) for x in handed],
            None,
            [w.as_dict() for w in asm.warnings],
            rp.dump_items(asm.items),
            asm.status,
            asm.response,
        )

    for size in (1, 13, 4096):
        assert asyncio.run(run(size)) == want, size


@pytest.mark.parametrize("path", STREAMS)
def test_afeed_sse_over_the_openai_sdk_async_stream(path: Path) -> None:
    """The SDK's `AsyncStream` has read the SSE itself: its typed events are fed one by one."""
    openai = pytest.importorskip("openai")
    events = _events(path)
    data = _corpus_sse(path)
    by_events = S.StreamAssembler(provider="openai", strict=False)
    want = [rp.dump_item(x) for e in events for x in by_events.feed(e)]

    async def run() -> Any:
        http = _mock_client(data, 7)
        client = openai.AsyncOpenAI(api_key="test", base_url="https://api.example.test/v1", http_client=http)
        stream = await client.responses.create(model="m", input="hi", stream=True)
        asm = S.StreamAssembler(provider="openai", strict=False)
        handed = [rp.dump_item(x) async for x in asm.afeed_sse(stream)]
        asm.close()
        await client.close()
        return handed, rp.dump_items(asm.items), asm.status

    handed, items, status = asyncio.run(run())
    assert handed == want
    assert items == rp.dump_items(by_events.items) and status == by_events.status


def test_afeed_sse_refuses_a_source_that_mixes_bytes_and_events() -> None:
    async def run() -> None:
        asm = S.StreamAssembler()
        async for _ in asm.afeed_sse(_agen([b": hi\n\n", {"type": "x"}])):  # type: ignore[list-item]
            pass

    with pytest.raises(S.StreamError, match="one source holds one kind"):
        asyncio.run(run())


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.one_of(_COMMON, st.tuples(_LINES, st.sampled_from([b"\n", b"\r\n", b"\r"])).map(b"".join)),
        max_size=12,
    ),
    st.lists(st.integers(min_value=0, max_value=400), max_size=12),
    st.booleans(),
    st.sampled_from([None, "openai"]),
)
def test_feed_bytes_equals_feed_sse_on_any_mix_of_sse_lines(
    pieces: list[bytes], points: list[int], strict: bool, provider: Any
) -> None:
    """Hostile framing too (lines that are not fields, data that is not JSON, `event:` names that differ,
    CR line ends, an input cut inside a line): the same items, findings and errors at the same offsets."""
    data = b"".join(pieces)
    want = by_feed_sse(data, strict, provider)
    chunks = _split(data, points)
    assert by_feed_bytes(chunks, strict, provider) == want
    assert by_afeed_sse(chunks, strict, provider) == want


def test_cli_reports_a_cut_off_capture_and_notes_a_missing_done(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from replayable._cli import main as cli_main

    whole = _sse(_good()).encode()
    end = whole.rindex(b"data: [DONE]")
    no_done = tmp_path / "no_done.sse"
    no_done.write_bytes(whole[:end])
    assert cli_main(["check", str(no_done), "--format", "json"]) == 0  # a note, not a violation
    report = json.loads(capsys.readouterr().out)
    assert [(f["rule"], f["violation"]) for f in report["stream"]] == [("done_missing", False)]
    cut = tmp_path / "cut.sse"
    cut.write_bytes(whole[: end - 1])  # the terminal event's frame lacks its blank line
    assert cli_main(["check", str(cut), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert ("sse_truncated", True) in [(f["rule"], f["violation"]) for f in report["stream"]]
