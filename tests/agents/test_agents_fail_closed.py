"""The Agents rules stricter than the openai SDK are deliberate, fail-closed
choices (schemas/README.md), each refused with an error that names the field and says why; the SDK
accepts the same values, so the test proves the difference is real."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import replayable as rp
from replayable import agents as A

beta = pytest.importorskip("openai.types.beta", reason="the openai SDK is a dev dependency")
from pydantic import TypeAdapter  # noqa: E402

EVENTS = [json.loads(line) for line in (Path(__file__).parent.parent / "fixtures/agents/session_stream.jsonl").open()]
REQUIRES = next(e for e in EVENTS if e["type"] == "agent.session.requires_action")
RESULT = {"type": "agent.session.input.tool_result", "turn_id": "turn_2", "call_id": "call_3c91", "success": True,
          "output": "shipped"}
APPROVAL = {"type": "agent.session.input.mcp_approval_request_result", "request_id": "req_1",
            "response": {"type": "mcp_tool_call", "decision": "approve"}}


def _sdk_input_accepts(value: dict[str, Any]) -> bool:
    try:
        TypeAdapter(beta.agent_session_input_param.AgentSessionInputParam).validate_python(value)
    except Exception:  # noqa: BLE001 - any refusal
        return False
    return True


@pytest.mark.parametrize(("value", "field"), [(RESULT, "turn_id"), (RESULT, "call_id"), (APPROVAL, "request_id")])
def test_an_empty_id_in_an_input_is_refused_with_its_reason(value: dict[str, Any], field: str) -> None:
    assert A.parse_input(value)  # the value itself is fine
    empty = {**value, field: ""}
    assert _sdk_input_accepts(empty), "the SDK accepts '' here: the difference is real"
    with pytest.raises(rp.ItemError) as err:
        A.parse_input(empty)
    assert [(e["loc"], e["type"]) for e in err.value.errors] == [((field,), "string_too_short")]
    assert f"an empty {field}" in err.value.errors[0]["msg"]
    with pytest.raises(rp.ItemError, match=f"empty {field}"):
        A.parse_events_body({"events": [empty]})


@pytest.mark.parametrize("field", ["turn_id", "call_id"])
def test_an_empty_id_in_a_required_action_is_refused_with_its_reason(field: str) -> None:
    event = copy.deepcopy(REQUIRES)
    event["session"]["required_actions"][0][field] = ""
    with pytest.raises(rp.ItemError) as err:
        A.parse_event(event)
    assert [e["loc"] for e in err.value.errors] == [("session", "required_actions", 0, field)]
    assert f"an empty {field}" in err.value.errors[0]["msg"]


def test_max_concurrent_subagents_is_at_least_one() -> None:
    event = copy.deepcopy(REQUIRES)
    assert A.parse_event(event)
    event["session"]["agent"]["multi_agent"]["max_concurrent_subagents"] = 0
    with pytest.raises(rp.ItemError) as err:
        A.parse_event(event)
    assert [e["loc"] for e in err.value.errors] == [("session", "agent", "multi_agent", "max_concurrent_subagents")]
    assert "enabled false" in err.value.errors[0]["msg"]
    with pytest.raises(rp.ItemError, match="at least 1"):
        A.parse_session_snapshot(event["session"])
