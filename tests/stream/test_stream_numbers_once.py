"""`feed_sse` and `parse_sse` look for numbers that read as infinity or zero once per capture (or per
cut of a chunked source) instead of once per event (read text once). The verdict must stay
the one reading each `data:` body by itself gives, wherever the number sits: at the start of a body,
after a multi-line `data:` join, without a space after `data:`, split across chunks, or next to hex ids
that only look like exponents.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_stream_feed_sse import DELTA, HEAD, _by_feed_sse, _by_loop, _forms

from replayable import stream as S
from replayable._json import JSONError, loads


def _frame(body: str, *, space: bool = True, split: bool = False) -> bytes:
    sep = "data: " if space else "data:"
    lines = body.split("\n") if split else [body]
    return ("".join(sep + line + "\n" for line in lines) + "\n").encode()


NUMBERS = {
    "overflow": "1e400",
    "negative overflow, signs": "-1E+400",
    "underflow": "1e-400",
    "long fraction underflow": "0." + "0" * 400 + "1",
    "overflow in a fraction": "12.5e999",
    "large but finite": "1e300",
    "exponent of two digits": "1.5e99",
    "zero with exponent": "0e0000",
}
PLACES = {
    "a field": lambda n: ("{" + DELTA + ', "delta": "a", "x": [' + n + "]}", False, True),
    "a second data line": lambda n: ("{" + DELTA + ', "delta": "a", "x":\n' + n + "}", True, True),
    "no space after data:": lambda n: ("{" + DELTA + ', "delta": "a", "x": [' + n + "]}", False, False),
    "next to a hex id": lambda n: ("{" + DELTA + ', "delta": "a6e5012", "x": [' + n + "]}", False, True),
}


def _body_verdict(body: str) -> str | None:
    try:
        loads(body, what="data")
    except JSONError as exc:
        return exc.reason
    return None


@pytest.mark.parametrize("place", list(PLACES))
@pytest.mark.parametrize("number", list(NUMBERS))
def test_numbers_get_the_verdict_of_their_own_body(number: str, place: str) -> None:
    body, split, space = PLACES[place](NUMBERS[number])
    frame = _frame(body, space=space, split=split)
    data = HEAD + frame + b"data: [DONE]\n\n"
    refused = _body_verdict(body) is not None
    want = _by_loop(data, True)
    assert (want[0] == "error" and "not JSON" in want[-1]) == refused, want
    lenient = _by_feed_sse(data, False)  # a lenient assembler records a bad body as a finding
    assert lenient[0] == "ok"
    assert ("event_schema" in [w["rule"] for w in lenient[1][1]]) == refused
    for form, source in _forms(data).items():
        assert _by_feed_sse(source, True) == want, form
        assert _by_feed_sse(source, False) == lenient, form


def test_a_bad_number_after_clean_chunks_is_found() -> None:
    """A chunked source: the first cuts say no, a later one holds the number."""
    body = "{" + DELTA + ', "delta": "a", "x": [1e400]}'
    data = HEAD + _frame(body) + b"data: [DONE]\n\n"
    chunks: list[Any] = [HEAD, _frame(body)[:40], _frame(body)[40:], b"data: [DONE]\n\n"]
    want = _by_loop(data, True)
    assert want[0] == "error"
    assert _by_feed_sse(chunks, True) == want
    with pytest.raises(S.StreamError, match="not JSON"):
        list(S.parse_sse(chunks))
