"""SSE framing as the standard reads it (WHATWG HTML, "Server-sent events"), through
every SSE entry point: `parse_sse`, `StreamAssembler.feed_sse`, `feed_bytes`, `afeed_sse`, `check_stream`
and the command line on a `.sse` file.

- One leading byte order mark (U+FEFF) is ignored, in strict and lenient reading alike: a capture with it
  reads exactly as the capture without it. Only one: a second one starts a line whose field is unknown.
- A line whose field is not `event`, `data`, `id` or `retry` (`foo: bar`, or `foo` without a colon) is
  ignored by the standard. A lenient reader follows it and records a note (`violation=False`, rule
  `sse_malformed`) naming the line; a strict reader refuses it (`sse_malformed`, naming the line and
  its byte offset): the Open Responses streams use only `event:` and `data:`, and such a line is most
  often a `data:` line that lost its prefix, an event that would be lost without a word.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

import replayable as rp
from replayable import stream as S
from replayable._cli import main

GOOD = (Path(__file__).parent.parent / "fixtures" / "stream" / "message_and_call.sse").read_bytes()
BOM = "\ufeff".encode()
#: A frame boundary inside GOOD (after its first event), where an odd line is put.
CUT = GOOD.index(b"\n\n", GOOD.index(b"response.created")) + 2
ODD_LINES = [b"foo: bar", b"foo", b"Data: {}", b"\xef\xbb\xbfdata: {}"]


def _outcome(run: Any) -> Any:
    try:
        return ("ok", run())
    except S.StreamError as exc:
        return ("error", exc.rule, exc.offset, str(exc))


def _read(asm: S.StreamAssembler, entry: str, data: bytes) -> list[Any]:
    if entry == "feed_sse":
        got = list(asm.feed_sse(data))
    elif entry == "feed_sse chunks":
        got = list(asm.feed_sse([data[i : i + 5] for i in range(0, len(data), 5)]))
    elif entry == "feed_bytes":
        got = [x for i in range(0, len(data), 3) for x in asm.feed_bytes(data[i : i + 3])]
    elif entry == "afeed_sse":

        async def go() -> list[Any]:
            async def chunks() -> Any:
                for i in range(0, len(data), 11):
                    yield data[i : i + 11]

            return [x async for x in asm.afeed_sse(chunks())]

        got = asyncio.run(go())
    else:  # parse_sse, then feed
        got = [x for e in S.parse_sse(data) for x in asm.feed(e)]
    asm.close()
    return got


ENTRIES = ["parse_sse", "feed_sse", "feed_sse chunks", "feed_bytes", "afeed_sse"]


def _assemble(entry: str, data: bytes, strict: bool) -> Any:
    asm = S.StreamAssembler(strict=strict)

    def run() -> Any:
        handed = [rp.dump_item(x) for x in _read(asm, entry, data)]
        return handed, [w.as_dict() for w in asm.warnings], rp.dump_items(asm.items), asm.status

    return _outcome(run)


@pytest.mark.parametrize("strict", [True, False], ids=["strict", "lenient"])
@pytest.mark.parametrize("entry", ENTRIES)
def test_one_leading_bom_is_ignored(entry: str, strict: bool) -> None:
    if entry == "parse_sse" and not strict:
        pytest.skip("parse_sse has no lenient mode")
    plain = _assemble(entry, GOOD, strict)
    assert plain[0] == "ok" and len(plain[1][0]) == 2
    assert _assemble(entry, BOM + GOOD, strict) == plain
    assert list(S.parse_sse(BOM + GOOD)) == list(S.parse_sse(GOOD))
    assert list(S.parse_sse((BOM + GOOD).decode())) == list(S.parse_sse(GOOD))  # text: U+FEFF first
    assert list(S.parse_sse((BOM + GOOD).decode().split("\n"))) == list(S.parse_sse(GOOD))  # str lines


@pytest.mark.parametrize("line", ODD_LINES, ids=lambda b: b.decode("utf-8", "replace"))
@pytest.mark.parametrize("entry", ENTRIES)
def test_an_unknown_field_line_is_refused_strictly_and_ignored_leniently(entry: str, line: bytes) -> None:
    data = GOOD[:CUT] + line + b"\n" + GOOD[CUT:]
    strict = _assemble(entry, data, True)
    assert strict[0] == "error" and strict[1] == S.StreamRule.SSE_MALFORMED, strict
    assert strict[2] == CUT, "the error gives the line's byte offset"
    assert repr(line.decode("utf-8", "replace"))[1:-1] in strict[3] and "not an SSE field" in strict[3]
    if entry == "parse_sse":
        return  # no lenient mode: it raises, as above
    lenient = _assemble(entry, data, False)
    plain = _assemble(entry, GOOD, False)
    assert lenient[0] == "ok"
    notes = [w for w in lenient[1][1] if w["rule"] == "sse_malformed"]
    assert len(notes) == 1 and notes[0]["violation"] is False
    assert f"(byte {CUT})" in notes[0]["message"] and "ignored" in notes[0]["message"]
    rest = [w for w in lenient[1][1] if w not in notes]
    assert ("ok", (lenient[1][0], rest, *lenient[1][2:])) == plain  # the same items, nothing else noted


def test_a_second_bom_is_not_ignored() -> None:
    with pytest.raises(S.StreamError, match="not an SSE field") as exc:
        list(S.parse_sse(BOM + BOM + GOOD))
    assert exc.value.offset == 0


@pytest.mark.parametrize("odd", [b"", b"foo: bar\n"], ids=["bom", "bom and unknown field"])
def test_check_stream_and_the_command_line_read_as_the_standard(
    odd: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command line reads a `.sse` file leniently (`check_stream`): a leading BOM and an unknown
    field line change nothing but a note; the verdict and the items are the same."""
    data = BOM + GOOD[:CUT] + odd + GOOD[CUT:]
    report = S.check_stream(data)
    assert report.ok and len(report.items) == 2
    assert [(f.rule, f.violation) for f in report.findings] == ([("sse_malformed", False)] if odd else [])
    path = tmp_path / "capture.sse"
    path.write_bytes(data)
    code = main(["check", str(path), "--format", "json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["ok"] and out["items"] == 2 and out["events"] == 16
    clean = tmp_path / "clean.sse"
    clean.write_bytes(GOOD)
    assert main(["check", str(clean), "--format", "json"]) == 0
    skip = ("file", "stream", "findings")
    assert {k: v for k, v in json.loads(capsys.readouterr().out).items() if k not in skip} == {
        k: v for k, v in out.items() if k not in skip
    }
    noted = [(f["code"], "'foo: bar'" in f["message"]) for f in out["findings"]]
    assert noted == ([("sse_malformed", True)] if odd else [])
