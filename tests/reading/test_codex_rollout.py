"""Codex session files (`rollout-*.jsonl`): `replayable check` reads their `response_item` lines as the
history, in order, and names the file line of each finding; `read_file` gives the library the same
document. Fixtures follow the format of openai/codex (`RolloutLine` = `{timestamp, type, payload}`,
`RolloutItem` tagged `type`/`payload`: session_meta, response_item, turn_context, event_msg, compacted)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import replayable as rp
from replayable._cli import main
from replayable._reading import DocumentKind, is_rollout_line, read_file

CODEX = Path(__file__).parent.parent / "fixtures" / "codex"
CLEAN = CODEX / "rollout-2026-11-20T10-00-00-0199a1b2-clean.jsonl"
DANGLING = CODEX / "rollout-2026-11-20T11-00-00-0199a1b2-dangling.jsonl"


def _line_of(path: Path, call_id: str, kind: str) -> int:
    for n, text in enumerate(path.read_text().splitlines(), 1):
        value = json.loads(text)
        payload = value["payload"]
        if value["type"] == "response_item" and payload.get("type") == kind and payload.get("call_id") == call_id:
            return n
    raise AssertionError(f"no {kind} {call_id} in {path}")


def test_clean_rollout_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(CLEAN)]) == 0
    out = capsys.readouterr().out
    assert "replay-safe: 8 response items (Codex session file)" in out
    assert "unknown_item_type" not in out


def test_dangling_call_exits_1_naming_its_line(capsys: pytest.CaptureFixture[str]) -> None:
    line = _line_of(DANGLING, "call_5kqvN1", "function_call")
    assert main(["check", str(DANGLING)]) == 1
    out = capsys.readouterr().out
    assert f"{DANGLING}:{line}:1: item 3: function_call_without_output" in out
    assert "NOT replay-safe" in out


def test_json_output_carries_the_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(DANGLING), "--format", "json"]) == 1
    record = json.loads(capsys.readouterr().out)
    assert record["kind"] == "codex_rollout"
    [finding] = record["findings"]
    assert finding["code"] == "function_call_without_output"
    assert finding["index"] == 3 and finding["line"] == _line_of(DANGLING, "call_5kqvN1", "function_call")


def test_sarif_region_is_the_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(DANGLING), "--format", "sarif"]) == 1
    [result] = json.loads(capsys.readouterr().out)["runs"][0]["results"]
    region = result["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": _line_of(DANGLING, "call_5kqvN1", "function_call"), "startColumn": 1}


def test_library_reads_a_rollout_with_read_file() -> None:
    doc = read_file(str(CLEAN))
    assert doc.kind is DocumentKind.CODEX_ROLLOUT
    types = [item["type"] if isinstance(item, dict) else item.type for item in doc.items]
    # session_meta, turn_context and event_msg lines are bookkeeping; ghost_snapshot is never sent
    assert types == ["message", "message", "reasoning", "function_call", "function_call_output",
                     "custom_tool_call", "custom_tool_call_output", "message"]
    assert doc.places is not None and doc.places.at(len(doc.items)) is None
    assert doc.places.at(3) == (_line_of(CLEAN, "call_5kqvN1", "function_call"), 1)
    assert rp.check_transcript(doc).ok
    bad = rp.check_transcript(read_file(str(DANGLING)))
    assert [v.code for v in bad.violations] == ["function_call_without_output"]


def test_every_line_type_but_response_item_is_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = [
        {"timestamp": "t", "type": "session_meta", "payload": {"id": "s"}},
        {"timestamp": "t", "type": "compacted", "payload": {"message": "summary", "replacement_history": []}},
        {"timestamp": "t", "type": "world_state", "payload": {"anything": 1}},  # a later line type
        {"timestamp": "t", "type": "response_item", "payload": {"type": "message", "role": "user", "content": "hi"}},
    ]
    f = tmp_path / "rollout-x.jsonl"
    f.write_text("\n".join(json.dumps(v) for v in lines) + "\n")
    assert main(["check", str(f)]) == 0
    assert "1 response item (Codex session file)" in capsys.readouterr().out


def test_a_line_that_is_no_rollout_line_is_reported_not_dropped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "rollout-x.jsonl"
    f.write_text(
        json.dumps({"timestamp": "t", "type": "session_meta", "payload": {}}) + "\n\n"
        + json.dumps({"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}) + "\n"
        + json.dumps({"timestamp": "t", "type": "response_item", "payload": "not an item"}) + "\n"
    )
    assert main(["check", str(f), "--format", "json"]) == 1
    record = json.loads(capsys.readouterr().out)
    by_line = {x["line"]: x["code"] for x in record["findings"]}
    assert by_line[3] == "function_call_without_output"  # the blank line 2 still counts
    assert 4 in by_line


def test_one_line_rollout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "rollout-x.jsonl"
    call = {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}
    f.write_text("\n" + json.dumps({"timestamp": "t", "type": "response_item", "payload": call}) + "\n")
    assert main(["check", str(f)]) == 1
    assert f"{f}:2:1: item 0: function_call_without_output" in capsys.readouterr().out


def test_rollout_line_shape() -> None:
    assert is_rollout_line({"timestamp": "t", "type": "response_item", "payload": {}})
    assert not is_rollout_line({"type": "response_item"})  # no payload
    assert not is_rollout_line({"type": "message", "payload": {}})  # an item type
    assert not is_rollout_line({"timestamp": "t", "type": "event_msg", "payload": {}, "role": "user"})
