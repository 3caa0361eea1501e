"""`replayable check` on a JSONL of items reads and validates its lines in batches (`Input.batches`,
`batch.jsonl_items`): the verdict, every violation (item index, field, rule), the pending calls and every
unreadable-line error are those of reading the values one at a time, wherever a bad line falls in a
batch, from a file or from standard input."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import CASES, load

import replayable as rp
from replayable import _json
from replayable._base import WireModel
from replayable._checking import jsonl_items
from replayable._cli import main
from replayable._messages import Door
from replayable._reading import files
from replayable._reading.files import read_input
from replayable._replay import check_transcript_iter

USER = {"type": "message", "role": "user", "content": "hi"}
BAD_ARGS = {"type": "function_call", "call_id": "c9", "name": "f", "arguments": {"q": 1}}  # not a string
CHAT = {"role": "assistant", "content": None, "tool_calls": [{"id": "t1", "type": "function"}]}
# a valid assistant message (unknown keys are kept) that still carries Chat Completions tool_calls
CHAT_TYPED = {"type": "message", "role": "assistant", "content": "x", "tool_calls": [{"id": "t1", "type": "function"}]}
NESTED = {"type": "message", "role": "assistant", "content": [{"type": "function_call", "name": "f"}]}


def call(n: int) -> dict[str, Any]:
    return {"type": "function_call", "call_id": f"c{n}", "name": "lookup", "arguments": '{"q":"x"}'}


def output(n: int) -> dict[str, Any]:
    return {"type": "function_call_output", "call_id": f"c{n}", "output": "ok"}


def transcript(n: int) -> list[Any]:
    """`n` items: a user message, then call / output pairs (replay-safe when `n` is odd)."""
    items: list[Any] = [USER]
    for k in range(n // 2):
        items += [call(k), output(k)]
    return items[:n]


def jsonl(values: list[Any]) -> bytes:
    return b"".join(json.dumps(v).encode() + b"\n" for v in values)


class _Stdin:
    def __init__(self, data: bytes) -> None:
        self.buffer = io.BufferedReader(io.BytesIO(data))  # type: ignore[arg-type]


@pytest.fixture(autouse=True)
def small_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Batches of 4 lines, so that a few lines cross several batch boundaries."""
    monkeypatch.setattr(files, "BATCH_LINES", 4)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def one_at_a_time(path: str, **kw: Any) -> dict[str, Any]:
    """The reference: each JSONL value read on its own and given to check_transcript_iter as it is (its messages
    worded as the command line words them: `--pending-ok`, not `pending_ok=True`)."""
    values = list(read_input(path).values())
    report = check_transcript_iter(values, **kw)
    return {
        "ok": report.ok,
        "items": len(values),
        "violations": [{**v.as_dict(), "message": v.worded(Door.CLI)} for v in report.violations],
        "pending": list(report.pending),
    }


def cli_json(path: str, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, dict[str, Any]]:
    code, out, _ = run(["check", path, "--format", "json", *extra], capsys)
    report = json.loads(out)
    return code, {k: report[k] for k in ("ok", "items", "violations", "pending")}


@pytest.mark.parametrize("where", [0, 1, 3, 4, 5, 7, 8, 11], ids=lambda n: f"item{n}")
def test_a_bad_item_anywhere_in_a_batch_is_named_as_one_at_a_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: int
) -> None:
    items = transcript(13)
    items[where] = BAD_ARGS
    path = tmp_path / "t.jsonl"
    path.write_bytes(jsonl(items))
    code, got = cli_json(str(path), capsys)
    assert code == 1
    assert got == one_at_a_time(str(path))
    bad = [v for v in got["violations"] if v["code"] == "function_arguments_not_string"]
    assert [v["index"] for v in bad] == [where] and bad[0]["path"] == "/arguments"


def test_the_last_line_bad_and_without_a_newline(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    items = [*transcript(9), BAD_ARGS]
    path = tmp_path / "t.jsonl"
    path.write_bytes(jsonl(items).rstrip(b"\n"))
    code, got = cli_json(str(path), capsys)
    assert code == 1 and got == one_at_a_time(str(path))
    assert {v["index"] for v in got["violations"]} >= {9}


def test_values_read_before_parsing_keep_their_own_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A Chat Completions message, a call inside a message's content, a value that is not an object, an
    item that does not parse, each in the middle of a batch of valid items; and an item nested deeper
    than an item may, which is unreadable input (exit 2) as it is in a JSON array or one document."""
    items: list[Any] = [USER, USER, CHAT, USER, USER, NESTED, 5, USER, {"type": "message"}, [USER], USER, CHAT_TYPED]
    items.append(USER)
    path = tmp_path / "t.jsonl"
    path.write_bytes(jsonl(items))
    code, got = cli_json(str(path), capsys)
    assert code == 1 and got == one_at_a_time(str(path))
    by_index = {v["index"]: v["code"] for v in got["violations"]}
    assert by_index[2] == by_index[11] == "chat_completions_envelope" and by_index[5] == "function_call_in_content"
    assert {6, 8, 9} <= set(by_index)
    assert by_index[8] == "item_invalid"
    deep: Any = "x"
    for _ in range(199):
        deep = [deep]
    items[8] = {"type": "message", "role": "user", "content": "hi", "extra": deep}  # 201 levels
    path.write_bytes(jsonl(items))
    code, _, err = run(["check", str(path)], capsys)
    assert code == 2 and "line 9: nests deeper than 200 levels" in err  # valid JSON, but not an item


def test_blank_lines_and_a_bom_leave_the_item_indexes_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    items = transcript(9)
    items[6] = BAD_ARGS
    lines = [json.dumps(v).encode() for v in items]
    data = b"\xef\xbb\xbf" + b"\n  \r\n".join(lines[:5]) + b"\n\n\n" + b"\r\n".join(lines[5:]) + b"\n \t\n"
    path = tmp_path / "t.jsonl"
    path.write_bytes(data)
    code, got = cli_json(str(path), capsys)
    assert code == 1 and got == one_at_a_time(str(path))
    assert got["items"] == 9
    assert [v["index"] for v in got["violations"] if v["code"] == "function_arguments_not_string"] == [6]


def test_pending_calls_across_batches(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    items = [*transcript(7), call(50)]
    path = tmp_path / "t.jsonl"
    path.write_bytes(jsonl(items))
    code, got = cli_json(str(path), capsys, "--pending-ok")
    assert code == 0 and got == one_at_a_time(str(path), pending_ok=True)
    assert got["pending"] == [7]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (b'{"type": "message", "role": "user", "content": "a", "content": "b"}', "duplicate key"),
        (b'{"type": "message", "role": "user", "content": NaN}', "NaN"),
        (b'{"type": "message", "role": "user", "content": "\\ud800"}', "surrogate"),
        (b'{"type": "message", "role": "user", "content": "\xff"}', "not UTF-8"),
        (b"\xef\xbb\xbf" + json.dumps(USER).encode(), "byte order mark"),
        (b'{"type": "message",', "not valid JSON"),
    ],
    ids=["duplicate-key", "nan", "lone-surrogate", "not-utf8", "late-bom", "truncated"],
)
@pytest.mark.parametrize("where", [2, 3, 4, 9], ids=lambda n: f"line{n + 1}")
def test_an_unreadable_line_is_the_same_error_wherever_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: bytes, message: str, where: int
) -> None:
    lines = [json.dumps(v).encode() for v in transcript(10)]
    lines[where] = line
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    with pytest.raises(files.InputError) as one_by_one:
        list(read_input(str(path)).values())
    code, out, err = run(["check", str(path)], capsys)
    assert code == 2 and out == ""
    assert err == f"replayable: error: {one_by_one.value}\n"
    assert f"line {where + 1}" in err and message in err


def test_standard_input_and_a_file_give_the_same_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    items = transcript(23)
    items[4] = BAD_ARGS
    items[17] = CHAT
    data = jsonl(items)
    path = tmp_path / "t.jsonl"
    path.write_bytes(data)
    for fmt in ("text", "json"):
        file_code, file_out, _ = run(["check", str(path), "--format", fmt], capsys)
        monkeypatch.setattr(sys, "stdin", _Stdin(data))
        stdin_code, stdin_out, _ = run(["check", "-", "--format", fmt], capsys)
        assert file_code == stdin_code == 1
        assert stdin_out == file_out.replace(str(path), "<stdin>")


def test_a_batch_also_ends_at_its_byte_budget(tmp_path: Path) -> None:
    big = {**USER, "content": "x" * 3000}
    path = tmp_path / "t.jsonl"
    path.write_bytes(jsonl([USER, big, USER, USER]))
    sizes = [len(values) for values in read_input(str(path)).batches(lines=100, size=2000)]
    assert sizes == [2, 2]
    assert sum(len(v) for v in read_input(str(path)).batches()) == 4


def test_items_come_out_in_order_as_models_or_as_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Valid items come out parsed (a failed batch is split until the bad item is found); the bad item,
    and values check_transcript_iter reads itself, come out as read."""
    monkeypatch.setattr(files, "BATCH_LINES", 64)
    items = [*transcript(20), CHAT, 7]  # 22 values
    items[13] = BAD_ARGS
    path = tmp_path / "t.jsonl"
    path.write_bytes(jsonl(items))
    count = [0]
    got = list(jsonl_items(read_input(str(path)), None, count))
    assert count == [22] and len(got) == 22
    parsed = [n for n, g in enumerate(got) if isinstance(g, WireModel)]
    assert 13 not in parsed and 20 not in parsed and 21 not in parsed and len(parsed) >= 15
    assert all(rp.dump_item(got[n]) == items[n] for n in parsed)
    assert all(got[n] == items[n] for n in range(22) if n not in parsed)


@pytest.mark.parametrize("provider", [None, "openai"])
def test_every_real_world_case_gets_the_same_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], provider: str | None
) -> None:
    """Each case's items, and all of them in one file (many batches, bad items at every position), give
    what check_transcript gives on the same values in memory."""
    cases = [c["input"] for c in map(load, sorted(CASES.glob("R*.json"))) if c.get("kind") != "stream"]  # items
    transcripts = [c for c in cases if isinstance(c, list) and len(c) > 1]
    assert len(transcripts) >= 5
    extra = ["--provider", "openai"] if provider else []
    for n, items in enumerate([*transcripts, [i for t in transcripts for i in t]]):
        path = tmp_path / f"case{n}.jsonl"
        path.write_bytes(jsonl(items))
        code, got = cli_json(str(path), capsys, *extra)
        memory = rp.check_transcript(items, provider=provider)  # type: ignore[arg-type]
        assert got["violations"] == [{**v.as_dict(), "message": v.worded(Door.CLI)} for v in memory.violations], n
        assert got["pending"] == list(memory.pending) and code == (0 if memory.ok else 1)


def test_loads_lines_accepts_exactly_what_loads_accepts() -> None:
    good = [json.dumps(USER).encode(), b'{"n": 1e30, "m": -0.5}\n', b"[1, 2]\r\n", b'"x"']
    assert _json.loads_lines(good) == [_json.loads(x) for x in good]
    deep = b"[" * 200 + b"]" * 200  # valid JSON, deeper than an item may nest
    for odd in [b'{"a": 1e400}', b'{"a": 1, "a": 2}', b"\xef\xbb\xbf{}", b'"\\ud800"', b"NaN", deep, b"{"]:
        assert _json.loads_lines([*good, odd]) is None  # the caller reads them one by one, with `loads`
    assert _json.loads_lines([*good, b"[1e300]"]) is None  # valid, but only `loads` looks closer


def test_numbers_that_may_overflow_are_read_one_by_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    items: list[Any] = transcript(9)
    items.insert(5, {**USER, "score": 1e300})
    path = tmp_path / "t.jsonl"
    path.write_bytes(jsonl(items))
    code, got = cli_json(str(path), capsys)
    assert code == 0 and got == one_at_a_time(str(path))
    path.write_bytes(jsonl(items).replace(b"1e+300", b"1e400"))
    code, _, err = run(["check", str(path)], capsys)
    assert code == 2 and "line 6" in err and "not a JSON number" in err
