"""The rest of the Agents API surface: `obfuscation: null`, sessions created from an
`agent_id`, the update body, the events body, list pages, and the door-2 audit record of
`check_arguments`."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from replayable import agents as A

FIX = Path(__file__).parent.parent / "fixtures" / "agents"
S20 = json.loads((FIX / "S20.json").read_text())
S21 = json.loads((FIX / "S21.json").read_text())
S22 = json.loads((FIX / "S22.json").read_text())


def stream() -> list[dict]:
    return [json.loads(line) for line in (FIX / "session_stream.jsonl").read_text().splitlines() if line.strip()]


def test_obfuscation_null_is_read_on_every_event_that_carries_it():
    seen = 0
    for raw in stream():
        ev = dict(raw, obfuscation=None)
        assert A.dump(A.parse_event(ev)) == ev
        seen += 1
    assert seen > 5
    delta = next(e for e in stream() if e["type"].endswith(".delta"))
    for bad in (5, {"pad": "x"}):
        with pytest.raises(ValueError):
            A.parse_event(dict(delta, obfuscation=bad))


def test_session_from_agent_id_with_partial_overrides():
    body = {
        "agent_id": "agt_saved",
        "agent": {"instructions": "Be brief."},
        "environment": {"type": "none"},
        "input": "hi",
    }
    assert A.dump(A.session_create_params_adapter.validate_python(body)) == body
    only_id = {"agent_id": "agt_saved", "environment": {"type": "none"}, "input": "hi"}
    assert A.dump(A.session_create_params_adapter.validate_python(only_id)) == only_id
    for bad in (
        {"agent": {"instructions": "no model, no agent_id"}, "environment": {"type": "none"}},
        {"environment": {"type": "none"}},
    ):
        with pytest.raises(ValueError, match="agent_id"):
            A.session_create_params_adapter.validate_python(bad)


def test_session_update_body():
    body = {
        "agent": {"model": "gpt-5", "reasoning": {"effort": "low"}, "service_tier": None, "tools": None},
        "metadata": {"team": "support"},
        "review": "auto_review",
        "spend_control": {"limit": None},
        "prompt_cache_options": {"ttl": "12h"},
    }
    assert A.dump(A.session_update_params_adapter.validate_python(body)) == body
    assert A.dump(A.session_update_params_adapter.validate_python({})) == {}
    for bad in ({"review": "always"}, {"agent": {"model": 5}}, {"prompt_cache_options": {"ttl": "1d"}}):
        with pytest.raises(ValueError):
            A.session_update_params_adapter.validate_python(bad)


def test_events_body_applies_the_tool_result_rule():
    good = {"events": [S22["events"][1], {"type": "agent.session.input.cancel"}]}
    assert A.dump(A.parse_events_body(good)) == good
    for idx in (4, 5, 6):  # output object, success "yes", success false without error
        with pytest.raises(ValueError):
            A.parse_events_body({"events": [S22["events"][idx]]})
    for bad in ({}, {"events": "x"}, {"events": [{"type": "agent.session.input.compact"}]}, None):
        with pytest.raises(ValueError):
            A.parse_events_body(bad)


def test_list_pages():
    items = [e["item"] for e in stream() if e["type"] == "agent.session.turn.item.done"]
    assert items
    page = {
        "object": "list",
        "data": items + [{"type": "zz_future_item", "id": "x"}],
        "first_id": "a",
        "last_id": "b",
        "has_more": False,
    }
    parsed = A.session_item_list_page_adapter.validate_python(page)
    assert A.dump(parsed) == page and A.is_unknown(parsed.data[-1])
    session = next(e["session"] for e in stream() if "session" in e and "agent" in e["session"])
    sessions = {"data": [session], "has_more": True}
    assert A.dump(A.session_list_page_adapter.validate_python(sessions)) == sessions
    turns = {"data": [e["turn"] for e in stream() if "turn" in e][:1]}
    assert turns["data"] and A.dump(A.turn_list_page_adapter.validate_python(turns)) == turns
    with pytest.raises(ValueError):  # a list page holds full sessions, not trimmed snapshots
        A.session_list_page_adapter.validate_python({"data": [S22["events"][0]["session"]]})
    with pytest.raises(ValueError):
        A.session_item_list_page_adapter.validate_python(
            {"data": [dict(items[0], type="function_call", arguments="{}")]}
        )


def test_audit_record_of_a_refused_call():
    chk = A.check_arguments(S20["required_action"], S20["tool"])
    rec = chk.record()
    # the three-doors article's record first, then our own fields
    assert list(rec) == ["check", "schema", "pass", "fail", "execute", "schema_sha256", "passing_paths", "call"]
    assert rec["check"] == "lookup_order" and rec["schema"] == "parameters" and rec["execute"] is False
    assert rec["pass"] == ["order_id", "include_lines"]  # supplied and declared; `refund` is not declared
    want = hashlib.sha256(
        json.dumps(S20["tool"]["parameters"], sort_keys=True, separators=(",", ":")).encode()
    ).hexdigest()
    assert rec["schema_sha256"] == "sha256:" + want
    assert sorted((f["path"], f["reason"]) for f in rec["fail"]) == sorted(
        (f["path"], f["reason"]) for f in S20["expect"]["fail"]
    )
    assert rec["passing_paths"] == ["/include_lines"]
    assert rec["call"] == {"turn_id": "turn_2", "call_id": "call_3c91", "name": "lookup_order"}
    assert json.loads(json.dumps(rec)) == rec  # one JSON record


def test_audit_record_of_a_passing_call_lists_every_path():
    rec = A.check_arguments(S21["required_action"], S21["tool"]).record()
    assert rec["execute"] is True and rec["fail"] == [] and rec["passing_paths"] == ["/order_id", "/include_lines"]
    assert rec["pass"] == ["order_id", "include_lines"] and rec["check"] == "lookup_order"


def test_audit_record_passing_paths_in_nested_arguments():
    schema = {
        "type": "object",
        "properties": {
            "lines": {"type": "array", "items": {"type": "object", "properties": {"sku": {"type": "string"}}}},
            "note": {"type": "string"},
        },
    }
    action = {
        "type": "function_call",
        "turn_id": "t",
        "call_id": "c",
        "name": "f",
        "arguments": {"lines": [{"sku": "a"}, {"sku": 5}], "note": "x", "a/b": 1},
    }
    rec = A.check_arguments(action, schema).record()
    assert rec["fail"] == [{"path": "/lines/1/sku", "reason": "type"}]
    # the failing value and what holds it are not passed; siblings and escaped keys are
    assert rec["passing_paths"] == ["/lines/0", "/lines/0/sku", "/note", "/a~1b"]
    assert rec["pass"] == ["lines", "note"] and rec["check"] == "f"  # a bare schema: the call's name
    renamed = A.check_arguments(action, {"type": "function", "name": "g", "parameters": {"type": "object"}}).record()
    assert renamed["fail"] == [{"path": "", "reason": "name"}] and "/note" in renamed["passing_paths"]
    assert renamed["check"] == "g" and renamed["pass"] == []  # the tool declares no arguments


HOSTILE = [
    None,
    5,
    "x",
    "{",
    [],
    [1],
    {},
    {"type": 5},
    {"type": "agent.session.input.mcp_approval_request_result"},
    {"type": "agent.session.requires_action", "event_id": "e", "session": []},
    {"type": "agent.session.requires_action", "event_id": "e", "session": {"required_actions": {}}},
    {"type": "agent.session.zz", "session": "x"},
    float("nan"),
]


@pytest.mark.parametrize("bad", HOSTILE)
def test_new_entry_points_refuse_with_our_errors(bad):
    for fn in (A.parse_session_snapshot, A.parse_events_body, A.session_of):
        try:
            fn(bad)
        except ValueError:
            pass
    ledger = A.PendingActions()
    with pytest.raises(ValueError):
        ledger.accept(bad)
    rep = A.check_event_log([bad])
    assert isinstance(rep.ok, bool)
    assert isinstance(A.link_chain([bad]).ok, bool)
