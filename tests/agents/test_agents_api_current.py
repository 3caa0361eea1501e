"""The Agents API as the pinned openai SDK has it (3.60 and later), on every door.

Since 3.60 every session carries `spend_control`, with `limit: null` for an unlimited session (the
default: "Omission or null creates an unlimited session"); a session may be `budget_reached` and the
event `agent.session.budget_reached` carries the paused session. Older data without `spend_control` stays
readable. Typed fields of the update body (`vault_ids`) and the compaction body (`safety_identifier`,
`service_tier`) refuse wrong types naming the field, as the SDK does.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import replayable as rp
from replayable import agents as A

FIX = Path(__file__).parent.parent / "fixtures" / "agents"

TOOL = {
    "type": "function",
    "name": "lookup_order",
    "description": "Look up an order.",
    "defer_loading": False,
    "parameters": {
        "type": "object",
        "properties": {"order_id": {"type": "string"}},
        "required": ["order_id"],
        "additionalProperties": False,
    },
}


def session(**over: Any) -> dict[str, Any]:
    """A whole session as the 3.63 SDK describes it: an unlimited spend_control by default."""
    base: dict[str, Any] = {
        "id": "sess_1",
        "object": "agent.session",
        "agent": {
            "id": "agt_1",
            "model": "m",
            "instructions": None,
            "name": None,
            "multi_agent": {"enabled": False},
            "reasoning": {"effort": "low", "summary": None},
            "service_tier": "auto",
            "text": {"format": {"type": "text"}, "verbosity": "medium"},
            "tools": [TOOL],
        },
        "created_at": 1,
        "last_active_at": 2,
        "environment": {"type": "none"},
        "metadata": {},
        "required_actions": [
            {
                "type": "function_call",
                "turn_id": "turn_1",
                "call_id": "call_1",
                "name": "lookup_order",
                "arguments": {"order_id": "A1"},
            }
        ],
        "status": "requires_action",
        "vault_ids": [],
        "spend_control": {"limit": None, "consumed": 0},
    }
    base.update(over)
    return base


def event(kind: str, sess: dict[str, Any]) -> dict[str, Any]:
    return {"type": f"agent.session.{kind}", "event_id": "evt_1", "session": sess}


RESULT = {
    "type": "agent.session.input.tool_result",
    "turn_id": "turn_1",
    "call_id": "call_1",
    "success": True,
    "output": "shipped",
}

SESSIONS = {
    "unlimited (limit null)": session(),
    "limit absent": session(spend_control={"consumed": 0}),
    "consumed null": session(spend_control={"limit": 500, "consumed": None}),
    "old session, no spend_control": {k: v for k, v in session().items() if k != "spend_control"},
    "spend_control null": session(spend_control=None),
}


@pytest.mark.parametrize("name", list(SESSIONS))
def test_sessions_read_typed_on_every_door(name: str, tmp_path: Path) -> None:
    sess = SESSIONS[name]
    parsed = A.parse_session(sess)
    assert A.dump(parsed) == sess
    for kind in ("created", "in_progress", "idle", "requires_action", "failed", "budget_reached"):
        ev = A.parse_event(event(kind, sess))
        assert not A.is_unknown(ev), kind
        assert A.dump(ev) == event(kind, sess)
        pending = A.PendingActions.from_event(event(kind, sess))
        assert [a.call_id for a in pending.pending] == ["call_1"]
    page = A.session_list_page_adapter.validate_python(
        {"object": "list", "data": [sess], "first_id": "sess_1", "last_id": "sess_1", "has_more": False}
    )
    assert A.dump(page)["data"] == [sess]
    log = [event("requires_action", sess), RESULT]
    report = A.check_event_log(log)
    assert report.ok, report.violations
    path = tmp_path / "log.jsonl"
    path.write_text("\n".join(json.dumps(e) for e in log) + "\n")
    run = subprocess.run(
        [sys.executable, "-m", "replayable", "check", "--agents", str(path)], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_budget_reached_is_a_status_and_an_event_read_typed() -> None:
    sess = session(status="budget_reached", required_actions=[])
    assert A.parse_session(sess).status == "budget_reached"
    ev = A.parse_event(event("budget_reached", sess))
    assert type(ev).__name__ == "SessionBudgetReachedEvent"
    assert ev.session.status == "budget_reached"
    assert A.PendingActions.from_event(event("budget_reached", sess)).pending == []


def test_a_budget_reached_event_changes_the_pending_actions_like_any_status_event() -> None:
    """A log whose last status event is budget_reached is read (it is no unknown event, never skipped):
    an answer to the action it still lists is fine, one to an action it does not list is not."""
    sess = session(status="budget_reached")
    assert A.check_event_log([event("budget_reached", sess), RESULT]).ok
    wrong = dict(RESULT, call_id="call_9")
    report = A.check_event_log([event("budget_reached", sess), wrong])
    assert not report.ok
    assert sorted(v.code for v in report.violations) == ["result_without_action", "unanswered_action"]


@pytest.mark.parametrize(
    "spend_control, field",
    [
        ({"limit": "500"}, "limit"),
        ({"limit": 1.5}, "limit"),
        ({"limit": None, "consumed": "0"}, "consumed"),
        ("unlimited", "spend_control"),
    ],
)
def test_a_wrong_spend_control_is_refused_naming_the_field(spend_control: Any, field: str) -> None:
    with pytest.raises(rp.ItemError) as exc:
        A.parse_session(session(spend_control=spend_control))
    assert any(field in e["loc"] for e in exc.value.errors), exc.value.errors
    with pytest.raises(rp.ItemError):
        A.parse_event(event("idle", session(spend_control=spend_control)))


def test_an_unknown_status_is_still_refused() -> None:
    with pytest.raises(rp.ItemError) as exc:
        A.parse_session(session(status="paused"))
    assert any(e["loc"][-1:] == ("status",) for e in exc.value.errors)


@pytest.mark.parametrize("vault_ids", [[], ["vlt_1"], None])
def test_update_body_vault_ids_typed(vault_ids: Any) -> None:
    body = {"vault_ids": vault_ids}
    assert A.dump(A.parse_update_params(body)) == body


@pytest.mark.parametrize("vault_ids", ["vlt_1", [5], {"id": "vlt_1"}])
def test_update_body_wrong_vault_ids_refused_naming_the_field(vault_ids: Any) -> None:
    with pytest.raises(rp.ItemError) as exc:
        A.parse_update_params({"vault_ids": vault_ids})
    assert all(e["loc"][0] == "vault_ids" for e in exc.value.errors), exc.value.errors


@pytest.mark.parametrize("provider", [None, "openai"])
@pytest.mark.parametrize(
    "field, good, bad",
    [
        ("safety_identifier", "user-42", 5),
        ("safety_identifier", None, ["user-42"]),
        ("service_tier", "flex", 5),
        ("service_tier", None, {"tier": "flex"}),
    ],
)
def test_compaction_body_typed_fields(provider: Any, field: str, good: Any, bad: Any) -> None:
    body = {"model": "m", "input": "hi", field: good}
    assert rp.dump_request(rp.parse_compact_request(body, provider=provider)) == body
    with pytest.raises(rp.ItemError) as exc:
        rp.parse_compact_request(dict(body, **{field: bad}), provider=provider)
    assert any(e["loc"][:1] == (field,) for e in exc.value.errors), exc.value.errors


def test_compaction_service_tier_fast_is_openai_only() -> None:
    """OpenAI's compaction body takes `fast` (the SDK's ResponseCompactParams); the spec's ServiceTierEnum
    does not, so strict Open Responses refuses it."""
    body = {"model": "m", "input": "hi", "service_tier": "fast"}
    assert rp.dump_request(rp.parse_compact_request(body, provider="openai")) == body
    with pytest.raises(rp.ItemError):
        rp.parse_compact_request(body)


def test_the_sdk_reads_our_fixture_sessions_and_we_read_the_sdks_instances() -> None:
    """The pinned SDK validates the fixture sessions (they are in its current shape) and our readers take
    the SDK's own objects with the same result."""
    beta = pytest.importorskip("openai.types.beta")
    from pydantic import TypeAdapter

    sdk = TypeAdapter(beta.AgentSessionEvent)
    for kind in ("requires_action", "budget_reached"):
        raw = event(kind, session())
        theirs = sdk.validate_python(copy.deepcopy(raw))
        assert A.dump(A.parse_event(theirs)) == raw
        assert theirs.model_dump(mode="json", by_alias=True, exclude_unset=True) == raw
