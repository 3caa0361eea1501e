"""`replayable check FILE` as one pipeline: the library's file reader
(`replayable._reading.read_file`) -> one table from the document's kind to its checker
(`replayable._checking`) -> one record -> the one renderer; and what the command line says of each kind."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import replayable as rp
from replayable import _checking as checking
from replayable import _replay as rp_replay
from replayable._cli import main
from replayable._reading import Document, DocumentKind, InputError, read_file

USER = {"type": "message", "role": "user", "content": "hi"}
CALL = {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}", "status": "completed"}
OUT = {"type": "function_call_output", "call_id": "c1", "output": "ok"}
ANSWER = {
    "type": "message",
    "id": "msg_1",
    "role": "assistant",
    "status": "completed",
    "content": [{"type": "output_text", "text": "hi", "annotations": []}],
}
EVENTS = [
    {"type": "response.created", "sequence_number": 0, "response": {"id": "r", "object": "response", "output": []}},
    {"type": "response.completed", "sequence_number": 1, "response": {"id": "r", "object": "response", "output": []}},
]
SSE = b'event: response.created\ndata: {"type": "response.created", "sequence_number": 0}\n\n'
AGENTS_LOG = [{"type": "agent.session.requires_action", "session_id": "s", "actions": []}]


def write(tmp_path: Path, name: str, value: Any) -> str:
    path = tmp_path / name
    if isinstance(value, bytes):
        path.write_bytes(value)
    elif name.endswith(".jsonl"):
        path.write_text("".join(json.dumps(v) + "\n" for v in value))
    else:
        path.write_text(json.dumps(value))
    return str(path)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


# --- the reader --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "value", "kind"),
    [
        ("a.json", [USER, CALL, OUT], DocumentKind.ITEMS),
        ("a.jsonl", [USER, CALL, OUT], DocumentKind.ITEMS),
        ("one.json", USER, DocumentKind.ITEM),
        ("body.json", {"model": "m", "input": [USER]}, DocumentKind.REQUEST),
        ("resp.json", {"object": "response", "status": "completed", "output": [USER]}, DocumentKind.RESPONSE),
        ("events.json", EVENTS, DocumentKind.EVENTS),
        ("capture.sse", SSE, DocumentKind.EVENTS),
        ("tools.json", [{"type": "function", "name": "f", "parameters": {}}], DocumentKind.TOOLS),
    ],
)
def test_read_file_gives_one_document_of_the_kind_the_data_says(
    tmp_path: Path, name: str, value: Any, kind: DocumentKind
) -> None:
    doc = read_file(write(tmp_path, name, value))
    assert isinstance(doc, Document) and doc.kind is kind and doc.source is None
    if kind is DocumentKind.ITEMS:
        assert doc.items == [USER, CALL, OUT]
    if name.endswith(".sse"):
        assert doc.value == SSE  # the capture's bytes, for the stream checker


def test_a_lazy_jsonl_of_items_is_read_line_by_line_and_checked_as_the_whole(tmp_path: Path) -> None:
    path = write(tmp_path, "t.jsonl", [USER, CALL, {**OUT, "call_id": "zz"}])
    doc = read_file(path, lazy=True)
    assert doc.kind is DocumentKind.ITEMS and doc.items == [] and doc.source is not None
    streamed = rp_replay.check_transcript_iter(doc.iter_items())
    whole = rp.check_transcript(read_file(path))
    assert [v.as_dict() for v in streamed.violations] == [v.as_dict() for v in whole.violations]
    assert [v.code for v in whole.violations] == ["function_call_without_output", "output_without_function_call"]
    # a lazy document given to check_transcript is read whole first, never checked as empty
    assert rp.check_transcript(read_file(path, lazy=True)).violations == whole.violations


def test_read_file_refuses_what_is_no_transcript_saying_what_to_pass(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="is empty"):
        read_file(write(tmp_path, "e.json", b"  \n"))
    with pytest.raises(InputError, match="the document is a JSON number"):
        read_file(write(tmp_path, "n.json", 7))
    with pytest.raises(InputError, match="check it with agents=True"):
        read_file(write(tmp_path, "log.json", AGENTS_LOG))
    assert issubclass(InputError, rp.ReplayableError)


def test_read_file_reads_an_agents_log_only_when_told_and_never_a_stream_as_one(tmp_path: Path) -> None:
    doc = read_file(write(tmp_path, "log.jsonl", AGENTS_LOG * 2), agents=True)
    assert doc.kind is DocumentKind.AGENTS_LOG and len(doc.items) == 2
    assert read_file(write(tmp_path, "one.json", AGENTS_LOG[0]), agents=True).items == AGENTS_LOG
    with pytest.raises(InputError, match="not an OpenAI Agents API event log: check it without agents=True"):
        read_file(write(tmp_path, "events.json", EVENTS), agents=True)
    # an SSE capture told to be a log is one (the reader cannot parse SSE): a Responses stream is refused
    # where its events are read, by the checker
    sse = read_file(write(tmp_path, "capture.sse", SSE), agents=True)
    assert sse.kind is DocumentKind.AGENTS_LOG
    with pytest.raises(InputError, match="not an OpenAI Agents API event log: check it without agents=True"):
        checking.agents_events(sse, "capture.sse")
    with pytest.raises(InputError, match="expected Agents API events"):
        read_file(write(tmp_path, "s.json", "text"), agents=True)


# --- the table -------------------------------------------------------------------------------------------------


def test_every_kind_the_reader_makes_has_one_checker_in_one_table() -> None:
    assert set(checking.CHECKERS) == set(DocumentKind)
    assert {checking.CHECKERS[k] for k in ("items", "item", "request", "response")} == {checking.check_items}


@pytest.mark.parametrize(
    ("name", "value", "kind"),
    [
        ("a.json", [USER, CALL, OUT], "items"),
        ("a.jsonl", [USER, CALL, OUT], "items"),
        ("one.json", USER, "item"),
        ("body.json", {"model": "m", "input": [USER]}, "request"),
        ("resp.json", {"object": "response", "status": "completed", "output": [USER]}, "response"),
        ("events.json", EVENTS, "stream"),
        ("tools.json", [{"type": "function", "name": "f", "parameters": {"type": "object"}}], "tools"),
    ],
)
def test_each_checker_returns_the_one_record(tmp_path: Path, name: str, value: Any, kind: str) -> None:
    path = write(tmp_path, name, value)
    record = checking.check_document(read_file(path, lazy=True), checking.CheckOptions(file=path))
    assert record["kind"] == kind and record["file"] == path and isinstance(record["ok"], bool)
    assert isinstance(record["findings"], list)


def test_progress_is_an_observer_told_of_every_batch(tmp_path: Path) -> None:
    seen: list[tuple[str, Any]] = []

    class Watch:
        def checking(self, total: int | None) -> None:
            seen.append(("checking", total))

        def advance(self, n: int, position: int | None = None) -> None:
            seen.append(("advance", n))

    items = [USER, CALL, OUT] * 3
    for name, want_total in (("a.json", 9), ("a.jsonl", None)):
        seen.clear()
        path = write(tmp_path, name, items)
        with_watch = checking.check_document(read_file(path, lazy=True), checking.CheckOptions(progress=Watch()))
        without = checking.check_document(read_file(path, lazy=True), checking.CheckOptions())
        assert with_watch == without  # observing changes nothing
        assert seen[0] == ("checking", want_total) and sum(n for what, n in seen if what == "advance") == 9


def test_previous_is_refused_for_a_stream_and_an_agents_log(tmp_path: Path) -> None:
    options = checking.CheckOptions(name="x", previous={"object": "response", "output": []})
    with pytest.raises(InputError, match="not to a stream"):
        checking.check_document(read_file(write(tmp_path, "e.json", EVENTS)), options)
    with pytest.raises(InputError, match="not to an Agents API event log"):
        checking.check_document(read_file(write(tmp_path, "l.json", AGENTS_LOG), agents=True), options)


# --- the command line ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("jobs", [[], ["--jobs", "1"], ["--jobs", "2"]])
def test_json_records_say_the_documents_real_kind_with_any_number_of_jobs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], jobs: list[str]
) -> None:
    body = write(tmp_path, "body.json", {"model": "m", "input": [USER]})
    resp = write(tmp_path, "resp.json", {"object": "response", "status": "completed", "output": [ANSWER]})
    one = write(tmp_path, "one.json", USER)
    items = write(tmp_path, "items.json", [USER])
    paths = [body, resp, one, items]
    if not jobs:  # one file at a time: the single-file record
        kinds = []
        for p in paths:
            code, out, _ = run(["check", p, "--format", "json"], capsys)
            assert code == 0
            kinds.append(json.loads(out)["kind"])
    else:
        code, out, _ = run(["check", *paths, "--format", "json", *jobs], capsys)
        assert code == 0
        kinds = [f["report"]["kind"] for f in json.loads(out)["files"]]
    assert kinds == ["request", "response", "item", "items"]
    code, out, _ = run(["check", body], capsys)
    assert code == 0 and out.strip().endswith(": replay-safe: 1 item")  # the text names the items alike


@pytest.mark.parametrize("fmt", ["json", "sarif", "github"])
def test_machine_formats_name_the_cli_flag_not_the_library_argument(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    path = write(tmp_path, "call.json", [CALL])
    for extra in ([], [path, "--jobs", "2"]):
        code, out, _ = run(["check", path, *extra, "--format", fmt], capsys)
        assert code == 1 and "--pending-ok" in out and "pending_ok=True" not in out


@pytest.mark.parametrize(("name", "value"), [("events.json", EVENTS), ("events.jsonl", EVENTS), ("c.sse", SSE)])
def test_agents_on_a_responses_stream_is_refused_saying_what_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, value: Any
) -> None:
    path = write(tmp_path, name, value)
    code, out, err = run(["check", "--agents", path], capsys)
    assert code == 2 and out == ""
    assert "Responses stream" in err and "not an OpenAI Agents API event log: check it without --agents" in err
    code, out, _ = run(["check", "--agents", path, "--format", "json"], capsys)
    assert code == 2 and "check it without --agents" in json.loads(out)["error"]
    code, _, _ = run(["check", path], capsys)  # without --agents it is the stream it is
    assert code in (0, 1)


def test_chain_is_its_own_output_and_needs_agents(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "log.jsonl", AGENTS_LOG)
    code, _, err = run(["check", "--chain", path], capsys)
    assert code == 2 and "--chain needs --agents" in err
    code, out, _ = run(["check", "--agents", "--chain", path], capsys)
    assert code in (0, 1) and "links" in json.loads(out)
