"""`parse_sse` reads the same events however the bytes are chunked, in time linear in the line length.

Speed itself is measured in benchmarks/bench_stream.py (one 16 MB event in 4 KiB chunks: 5.1 s with
the old reader, which re-copied and re-searched its whole buffer for every chunk, 0.04 s now); here an
8 MB event in 4 KiB chunks must read back exactly, and every chunking must give the same events.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replayable import stream as S
from replayable.stream import _sse as sse


def _delta(text: str, seq: int = 1) -> dict[str, Any]:
    return {
        "type": "response.output_text.delta",
        "sequence_number": seq,
        "item_id": "msg_1",
        "output_index": 0,
        "content_index": 0,
        "delta": text,
    }


def _capture(events: list[dict[str, Any]], nl: bytes = b"\n") -> bytes:
    out = b"".join(b"event: " + e["type"].encode() + nl + b"data: " + json.dumps(e).encode() + nl + nl for e in events)
    return out + b"data: [DONE]" + nl + nl


def _pieces(data: bytes, size: int) -> list[bytes]:
    return [data[i : i + size] for i in range(0, len(data), size)]


def test_one_huge_event_in_small_chunks_reads_back_exactly() -> None:
    big = _delta("x" * (8 << 20))
    data = _capture([big, _delta("tail", 2)])
    events = list(S.parse_sse(iter(_pieces(data, 4096))))
    assert len(events) == 2 and events[0] == big and events[1]["delta"] == "tail"


@pytest.mark.parametrize("nl", [b"\n", b"\r\n", b"\r"], ids=["LF", "CRLF", "CR"])
def test_every_split_point_reads_the_same_events(nl: bytes) -> None:
    events = [_delta("héllo\u2028wörld", 1), _delta("", 2), _delta("a:b", 3)]
    data = b": comment" + nl + b"id: 7" + nl + _capture(events, nl)
    want = list(S.parse_sse(data))
    assert want == events
    for cut in range(1, len(data)):
        assert list(S.parse_sse([data[:cut], data[cut:]])) == want, cut
    assert list(S.parse_sse(_pieces(data, 1))) == want  # one byte at a time


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=40), min_size=1, max_size=30), st.sampled_from(["\n", "\r\n", "\r"]))
def test_any_chunking_gives_the_same_events_and_offsets(sizes: list[int], nl: str) -> None:
    events = [_delta("é" * k, k) for k in range(1, 5)]
    data = _capture(events, nl.encode())
    pieces: list[bytes] = []
    at = 0
    for size in sizes * (len(data) // sum(sizes) + 1):
        if at >= len(data):
            break
        pieces.append(data[at : at + size])
        at += size
    assert list(sse._iter_lines(pieces)) == list(sse._iter_lines(data))
    assert list(S.parse_sse(pieces)) == events


def test_a_cr_at_a_chunk_end_then_lf_is_one_line_end() -> None:
    data = b"data: " + json.dumps(_delta("a")).encode() + b"\r"
    rest = b"\n\r\ndata: [DONE]\r\n\r\n"
    assert [e["delta"] for e in S.parse_sse([data, rest])] == ["a"]
    lines = list(sse._iter_lines([b"ab\r", b"\ncd\r", b"\r", b"\n"]))
    assert lines == [(0, b"ab"), (4, b"cd"), (7, b"")]  # CRLF, CR, then a CRLF split over two chunks


def test_text_with_a_lone_surrogate_is_a_stream_error_not_a_unicode_crash() -> None:
    with pytest.raises(S.StreamError) as info:
        list(S.parse_sse('data: {"type": "x"}\n\ud800\n\n'))
    assert info.value.rule == S.StreamRule.SSE_MALFORMED and "surrogate" in str(info.value)
    with pytest.raises(S.StreamError):
        list(S.parse_sse(["data: {}", "\udc80"]))
