"""`replayable check` recognises what it is given: an Agents API log without
`--agents` gets one line saying to pass it, a file of tool definitions is linted as tools (given by name
or found in a directory), the JSON report has one `findings` list for items, tools, streams and Agents
logs alike, and every kind of input ends with the same verdict words."""

from __future__ import annotations

import io
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from replayable._cli import main

ROOT = Path(__file__).parent.parent.parent
FIX = Path(__file__).parent.parent / "fixtures"
EXAMPLES = ROOT / "examples"
SSE = FIX / "stream" / "message_and_call.sse"
AGENTS_LOG = FIX / "agents" / "session_stream.jsonl"
USER = {"type": "message", "role": "user", "content": "hi"}
ORPHAN = {"type": "function_call_output", "call_id": "nobody", "output": "x"}
TOOL = {
    "type": "function",
    "name": "lookup",
    "strict": True,
    "parameters": {
        "type": "object",
        "properties": {"q": {"type": "string"}},
        "required": ["q"],
        "additionalProperties": False,
    },
}
LOOSE_TOOL = {**TOOL, "name": "loose", "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


class _Stdin:
    def __init__(self, data: bytes) -> None:
        self.buffer = io.BufferedReader(io.BytesIO(data))  # type: ignore[arg-type]


def _agents_events() -> list[Any]:
    return [json.loads(line) for line in AGENTS_LOG.read_text().splitlines() if line.strip()]


# --- an Agents log without --agents ---------------------------------------------------------------------


@pytest.mark.parametrize("shape", ["jsonl", "array", "one event", "stdin"])
def test_an_agents_log_without_agents_gets_one_line_saying_to_pass_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, shape: str
) -> None:
    events = _agents_events()
    data = {
        "jsonl": AGENTS_LOG.read_bytes(),
        "array": json.dumps(events).encode(),
        "one event": json.dumps(events[0]).encode(),
        "stdin": AGENTS_LOG.read_bytes(),
    }[shape]
    path = tmp_path / "log.json"
    path.write_bytes(data)
    target = str(path)
    if shape == "stdin":
        monkeypatch.setattr(sys, "stdin", _Stdin(data))
        target = "-"
    code, out, err = run(["check", target], capsys)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and "Agents API event log" in err and "--agents" in err
    assert "slug" not in err
    if shape != "stdin":
        assert main(["check", "--agents", target]) in (0, 1)  # with the flag it is read as a log
        capsys.readouterr()


def test_an_agents_log_found_in_a_directory_is_one_unreadable_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(AGENTS_LOG, tmp_path / "log.jsonl")
    (tmp_path / "t.json").write_text(json.dumps([USER]))
    code, out, _ = run(["check", str(tmp_path)], capsys)
    lines = out.splitlines()
    assert code == 2 and len(lines) == 3
    assert "--agents" in lines[0] and lines[-1].endswith("1 replay-safe, 0 with violations, 1 unreadable")


# --- tool definition files -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "shape",
    ["array", "one tool", "tools object", "jsonl", "chat completions", "mcp", "with a hosted tool"],
)
def test_a_tools_file_is_linted_as_tools(tmp_path: Path, capsys: pytest.CaptureFixture[str], shape: str) -> None:
    chat = {"type": "function", "function": {"name": "lookup", "strict": True, "parameters": TOOL["parameters"]}}
    mcp = {"name": "lookup", "inputSchema": TOOL["parameters"]}
    data = {
        "array": json.dumps([TOOL]),
        "one tool": json.dumps(TOOL),
        "tools object": json.dumps({"tools": [TOOL]}),
        "jsonl": json.dumps(TOOL) + "\n" + json.dumps({**TOOL, "name": "other"}) + "\n",
        "chat completions": json.dumps([chat]),
        "mcp": json.dumps([mcp]),
        "with a hosted tool": json.dumps([TOOL, {"type": "web_search"}]),
    }[shape]
    path = tmp_path / "tools.json"
    path.write_text(data)
    code, out, err = run(["check", str(path)], capsys)
    assert code == 0 and err == "", (out, err)
    assert out.splitlines()[-1].startswith(f"{path}: replay-safe: ") and "tool" in out
    code, out, _ = run(["check", str(path), "--format", "json"], capsys)
    doc = json.loads(out)
    assert code == 0 and doc["kind"] == "tools" and doc["ok"] is True and doc["findings"] == []


def test_a_tools_file_with_problems_is_reported_and_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps([TOOL, LOOSE_TOOL]))
    code, out, _ = run(["check", str(path), "--format", "json"], capsys)
    doc = json.loads(out)
    assert code == 1 and doc["kind"] == "tools" and doc["ok"] is False and doc["tools"] == 2
    assert doc["findings"] and all(f["where"] == "tools" and f["path"].startswith("/tools/1") for f in doc["findings"])
    code, out, _ = run(["check", str(path)], capsys)
    assert code == 1 and out.splitlines()[-1].startswith(f"{path}: NOT replay-safe: ")
    path.write_text(json.dumps([TOOL, TOOL]))  # two tools with one name: which a call meant is a guess
    code, _, err = run(["check", str(path)], capsys)
    assert code == 2 and "lookup" in err


def test_tools_files_in_a_directory_are_linted_beside_transcripts(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["check", str(EXAMPLES), "--format", "json"], capsys)
    by_name = {Path(r["file"]).name: r for r in json.loads(out)["files"]}
    tools = {n for n, r in by_name.items() if r["report"] and r["report"].get("kind") == "tools"}
    assert tools == {"conversation.tools.json", "sales_report.tools.json"}
    assert all(by_name[n]["exit"] == 0 for n in tools)
    assert by_name["sales_report_broken.json"]["exit"] == 1 and code == 1


def test_items_are_never_read_as_tools(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    call = {"type": "function_call", "call_id": "c", "name": "lookup", "arguments": "{}"}
    chat_body = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "tools": [TOOL]}
    for value in (
        [USER],
        [call],
        {"type": "function", "name": "x", "call_id": "c"},
        {"model": "m", "input": [], "tools": [TOOL]},
        chat_body,  # a Chat Completions body: its messages are never dropped as if it were a tools file
        [TOOL, USER],
        [TOOL, {"type": "web_search_call", "id": "ws", "status": "completed"}],
    ):
        path = tmp_path / "t.json"
        path.write_text(json.dumps(value))
        code, out, _ = run(["check", str(path), "--format", "json"], capsys)
        assert json.loads(out).get("kind") != "tools", value
        if value is chat_body or (isinstance(value, list) and value[0] is TOOL):
            assert code in (1, 2), value  # read as a transcript: refused or violations, never a pass


# --- one findings list, one wording -----------------------------------------------------------------------


def _cut_stream(tmp_path: Path) -> Path:
    frames = SSE.read_text().split("\n\n")
    path = tmp_path / "cut.sse"
    path.write_text("\n\n".join(frames[:6]) + "\n\n")
    return path


def _bad_agents_log(tmp_path: Path) -> Path:
    events = _agents_events()
    path = tmp_path / "log.jsonl"
    answer = {"type": "agent.session.input.tool_result", "turn_id": "t?", "call_id": "nobody", "success": True}
    path.write_text("".join(json.dumps(e) + "\n" for e in [*events, {**answer, "output": "x"}]))
    return path


def _inputs(tmp_path: Path) -> dict[str, tuple[list[str], list[str]]]:
    """kind -> (argv of a replay-safe input, argv of one that is not)."""
    good = tmp_path / "good.json"
    good.write_text(json.dumps([USER]))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([USER, ORPHAN]))
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps([TOOL]))
    loose = tmp_path / "loose.json"
    loose.write_text(json.dumps([LOOSE_TOOL]))
    good_log = tmp_path / "good_log.jsonl"
    shutil.copy(AGENTS_LOG, good_log)
    return {
        "items": (["check", str(good)], ["check", str(bad)]),
        "tools": (["check", str(tools)], ["check", str(loose)]),
        "stream": (["check", str(SSE)], ["check", str(_cut_stream(tmp_path))]),
        "agents": (["check", "--agents", str(good_log)], ["check", "--agents", str(_bad_agents_log(tmp_path))]),
    }


@pytest.mark.parametrize("kind", ["items", "tools", "stream", "agents"])
def test_every_kind_has_one_findings_list_and_one_wording(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    good, bad = _inputs(tmp_path)[kind]
    code, out, _ = run(good, capsys)
    assert code == 0 and out.splitlines()[-1].split(": ")[1] == "replay-safe", out
    code, out, _ = run(bad, capsys)
    assert code == 1 and out.splitlines()[-1].split(": ")[1] == "NOT replay-safe", out
    for text in (out,):
        assert "NOT ok" not in text and "NOT safe" not in text
    code, out, _ = run([*good, "--format", "json"], capsys)
    doc = json.loads(out)
    assert code == 0 and doc["ok"] is True and doc["kind"] == kind
    assert not [f for f in doc["findings"] if f["severity"] == "error"]
    code, out, _ = run([*bad, "--format", "json"], capsys)
    doc = json.loads(out)
    errors = [f for f in doc["findings"] if f["severity"] == "error"]
    assert code == 1 and doc["ok"] is False and doc["kind"] == kind and errors  # never ok: false with nothing
    for f in doc["findings"]:
        assert set(f) == {"where", "index", "code", "message", "path", "severity", "line", "column"}
        assert f["where"] in {"item", "document", "tools", "stream", "event"} and f["code"] and f["message"]


def test_a_failed_stream_lists_its_problem_in_findings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["check", str(_cut_stream(tmp_path)), "--format", "json"], capsys)
    doc = json.loads(out)
    assert code == 1 and doc["violations"] == []  # the items are fine: the stream is cut off
    # cut off: no terminal event, and (read as strict Open Responses) no closing `data: [DONE]` either
    assert [(f["where"], f["code"]) for f in doc["findings"]] == [("stream", "done_missing"), ("stream", "no_terminal")]
    assert [f["rule"] for f in doc["stream"]] == ["done_missing", "no_terminal"]


def test_diff_and_summaries_use_the_same_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = tmp_path / "a.json"
    a.write_text(json.dumps([USER]))
    b = tmp_path / "b.json"
    b.write_text(json.dumps([{**USER, "content": "changed"}]))
    _, out, _ = run(["diff", str(a), str(b)], capsys)
    assert out.splitlines()[-1].split(":")[0] in ("replay-safe", "NOT replay-safe")
    _, out, _ = run(["check", str(a), str(b)], capsys)
    assert out.splitlines()[-1] == "checked 2 files: 2 replay-safe, 0 with violations, 0 unreadable"


@pytest.mark.parametrize("value", [[{"type": []}], [TOOL, {"type": {}}], {"tools": [{"type": [1]}]}, [TOOL, 5]])
def test_recognising_tools_never_trips_on_odd_values(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: Any
) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps(value))
    code, out, err = run(["check", str(path)], capsys)
    assert code in (1, 2) and "Traceback" not in err and "internal error" not in out + err
