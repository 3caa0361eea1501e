"""Every report has `.raise_for_violations()`, which returns the report when it is ok and
raises `ReplayError(report)` (under the one root `ReplayableError`) naming each violation otherwise."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import replayable as rp
from replayable import agents as A
from replayable.stream import check_stream

FIX = Path(__file__).parent.parent / "fixtures"
S22 = json.loads((FIX / "agents" / "S22.json").read_text())["events"]
REQ, RESULT, WRONG_CALL = S22[0], S22[1], S22[2]
CARD_SCHEMA = json.loads((FIX / "doors" / "card_schema.json").read_text())
S20 = json.loads((FIX / "agents" / "S20.json").read_text())

CALL = {"type": "function_call", "call_id": "c1", "name": "add", "arguments": '{"a": 1}', "status": "completed"}
OUTPUT = {"type": "function_call_output", "call_id": "c1", "output": "2"}
ORPHAN = {"type": "function_call_output", "call_id": "nobody", "output": "2"}
USER = {"type": "message", "role": "user", "content": "hi"}
ADD = {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"], "additionalProperties": False}


def raised(report: object) -> rp.ReplayError:
    with pytest.raises(rp.ReplayError) as info:
        report.raise_for_violations()  # type: ignore[attr-defined]
    assert info.value.report is report
    return info.value


def test_the_error_sits_under_the_one_root() -> None:
    assert issubclass(rp.ReplayError, rp.ReplayableError) and issubclass(rp.ReplayError, ValueError)
    err = raised(rp.check_transcript([ORPHAN]))
    with pytest.raises(rp.ReplayableError):
        raise err


def test_transcript_report() -> None:
    ok = rp.check_transcript([USER, CALL, OUTPUT])
    assert ok.raise_for_violations() is ok
    bad = rp.check_transcript([USER, ORPHAN, CALL, USER])
    text = str(raised(bad))
    assert text.startswith("not replay-safe: 2 violations")
    assert "item 1: output_without_function_call:" in text
    assert "item 2: function_call_without_output:" in text
    # one line per violation, in item order, as the report lists them
    assert text.splitlines()[1:] == [f"  item {v.index}: {v.code}: {v.message}" for v in bad.violations]


def test_a_request_level_finding_says_request() -> None:
    report = rp.check_transcript([CALL, OUTPUT], tools=[{"type": "function", "name": "add", "parameters": ADD}])
    assert report.raise_for_violations() is report
    bad = rp.TranscriptReport((rp.Violation(None, rp.ViolationCode.INVALID_TOOL, "tools[0] is not a tool"),))
    assert "  request: invalid_tool: tools[0] is not a tool" in str(raised(bad))


def test_replay_report() -> None:
    items, report = rp.prepare_replay([USER, CALL, OUTPUT], target="openresponses")
    assert report.raise_for_violations() is report and items
    # prepare_replay's own report is always ok; one built around a failing check raises with its lines
    failing = rp.ReplayReport("openresponses", None, (), (), (), rp.check_transcript([ORPHAN]))
    assert "item 0: output_without_function_call" in str(raised(failing))


def _events(call_status: str) -> list[dict]:
    item = dict(CALL, id="fc_1", status=call_status)
    added = dict(item, status="in_progress", arguments="")
    return [
        {
            "type": "response.created",
            "sequence_number": 0,
            "response": {"id": "r", "object": "response", "status": "in_progress", "output": []},
        },
        {"type": "response.output_item.added", "sequence_number": 1, "output_index": 0, "item": added},
        {"type": "response.output_item.done", "sequence_number": 2, "output_index": 0, "item": item},
        {
            "type": "response.completed",
            "sequence_number": 3,
            "response": {"id": "r", "object": "response", "status": "completed", "output": [item]},
        },
    ]


def test_stream_report() -> None:
    ok = check_stream(_events("completed"))
    assert ok.ok and ok.raise_for_violations() is ok
    broken = _events("completed")
    broken[3] = dict(broken[3], sequence_number=2)  # sequence_number must increase
    bad = check_stream(broken)
    text = str(raised(bad))
    assert any(f.violation for f in bad.findings)
    for f in bad.findings:
        if f.violation:
            assert f"event {f.index}: {f.rule}: {f.message}" in text


def test_agents_report() -> None:
    ok = A.check_event_log([REQ, RESULT], tools=[S20["tool"]])  # REQ is trimmed: the host's tool judges the call
    assert ok.raise_for_violations() is ok
    bad = A.check_event_log([REQ, RESULT, WRONG_CALL], tools=[S20["tool"]])
    text = str(raised(bad))
    assert "event 2: result_without_action:" in text and "item 2" not in text


def test_agents_report_that_recognised_nothing() -> None:
    bad = A.check_event_log([{"type": "message", "role": "user", "content": "hi"}])
    assert bad.nothing_recognised
    assert "nothing was recognised as an Agents API event" in str(raised(bad))


def test_session_chain() -> None:
    ok = A.link_chain([REQ, RESULT])
    assert ok.raise_for_violations() is ok
    bad = A.link_chain([REQ, WRONG_CALL])
    text = str(raised(bad))
    assert "event 1: tool_result" in text and "no function call" in text


def test_card_check() -> None:
    def answer(text: str) -> list[dict]:
        part = {"type": "output_text", "text": text, "annotations": []}
        return [{"type": "message", "role": "assistant", "status": "completed", "content": [part]}]

    ok = A.check_card(answer('{"order_id":"A-1042","status":"paid"}'), CARD_SCHEMA)
    assert ok.raise_for_violations() is ok
    bad = A.check_card(answer("It is paid."), CARD_SCHEMA)
    assert "item 0: / (json):" in str(raised(bad))


def test_gate_result() -> None:
    ok = rp.gate(CALL, ADD)
    assert ok.raise_for_violations() is ok
    bad = rp.gate(dict(CALL, arguments='{"a": "5", "b": 1}'), ADD)
    text = str(raised(bad))
    assert "arguments_schema: /a (type):" in text and "arguments_schema: /b (additionalProperties):" in text
    assert "status:" in str(raised(rp.gate(dict(CALL, status="incomplete"), ADD)))


def test_argument_check() -> None:
    good = {**S20["required_action"], "arguments": {"order_id": "A-1042", "include_lines": True}}
    ok = A.check_arguments(good, S20["tool"])
    assert ok.ok is ok.execute is True and ok.raise_for_violations() is ok
    bad = A.check_arguments(S20["required_action"], S20["tool"])
    assert bad.ok is bad.execute is False
    text = str(raised(bad))
    for f in bad.failures:
        assert f"{f.path or '/'} ({f.keyword}): {f.message}" in text
