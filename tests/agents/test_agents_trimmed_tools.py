"""Trimmed agent tools inside session snapshots: every field present is checked, none but `type` is
required (`defer_loading`, which the server always sets, may be left out of a stored log), and every
path (`parse_session_snapshot`, `parse_event`, `PendingActions.from_event`, `check_event_log`, the CLI)
reads them the same way. A tool trimmed too far to check a call against is refused, never trusted."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from replayable import agents as A
from replayable._cli import main
from replayable.items import ItemError

S21 = json.loads((Path(__file__).parent.parent / "fixtures" / "agents" / "S21.json").read_text())
ACTION = S21["required_action"]


def log(**tool_changes: Any) -> list[dict[str, Any]]:
    """A requires_action event whose agent holds S21's tool (no `defer_loading`), then its answer."""
    tool = {k: v for k, v in {**copy.deepcopy(S21["tool"]), **tool_changes}.items() if v is not None}
    assert "defer_loading" not in S21["tool"]
    event = {
        "type": "agent.session.requires_action",
        "event_id": "e1",
        "session": {
            "id": "sess_1",
            "object": "agent.session",
            "status": "requires_action",
            "agent": {"tools": [tool]},
            "required_actions": [ACTION],
        },
    }
    answer = {
        "type": "agent.session.input.tool_result",
        "turn_id": ACTION["turn_id"],
        "call_id": ACTION["call_id"],
        "success": True,
        "output": "{}",
    }
    return [event, answer]


def test_tool_without_defer_loading_reads_on_every_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    events = log()
    snap = A.parse_session_snapshot(events[0]["session"])
    assert snap.agent.tools[0].name == "lookup_order"  # type: ignore[union-attr]
    assert A.parse_event(events[0]).type == "agent.session.requires_action"
    assert [p.call_id for p in A.PendingActions.from_event(events[0]).pending] == [ACTION["call_id"]]
    report = A.check_event_log(events)
    assert report.ok, report.violations
    assert not report.refused
    f = tmp_path / "log.jsonl"
    f.write_text("\n".join(json.dumps(e) for e in events) + "\n")
    assert main(["check", "--agents", str(f)]) == 0
    out, err = capsys.readouterr()
    assert ": replay-safe: 2 events" in out and not err


def test_fields_present_are_still_checked() -> None:
    events = log(defer_loading="yes")
    with pytest.raises(ItemError, match=r"agent\.tools\.0\.defer_loading"):
        A.parse_session_snapshot(events[0]["session"])
    report = A.check_event_log(events)
    assert not report.ok
    assert report.violations[0].code == A.AgentsViolationCode.EVENT_INVALID


def test_whole_session_still_requires_what_the_server_sets() -> None:
    """`parse_session` reads a whole session resource, where the SDK types `defer_loading` as required."""
    session = copy.deepcopy(log()[0]["session"])
    with pytest.raises(ItemError):
        A.parse_session(session)


@pytest.mark.parametrize(("changes", "code"), [({"parameters": None}, "arguments_schema"), ({"name": None}, "unknown_tool")])
def test_tool_trimmed_too_far_is_refused(changes: dict[str, Any], code: str) -> None:
    report = A.check_event_log(log(**changes))
    assert [r.code.value for r in report.refused] == [code]
    # the call ran anyway (success: true) although it could not be checked: a violation
    assert [v.code for v in report.violations] == [A.AgentsViolationCode.EXECUTED_REJECTED_CALL]
