"""Tests of replayable.agents: the S20-S22 cases, the unions, the tool-result rule, the ledger, the
event-log check and CLI, hostile inputs, schema parity, and a differential test against openai.types.beta."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import needs_checkout
from pydantic import TypeAdapter

import replayable as rp
from replayable import agents as A
from replayable._agents_base import KNOWN_ACTION_TYPES, KNOWN_EVENT_TYPES, KNOWN_ITEM_TYPES
from replayable._cli import main

FIX = Path(__file__).parent.parent / "fixtures" / "agents"
SCHEMAS = Path(__file__).parent.parent.parent / "schemas" / "agents"


def load(name: str) -> dict:
    return json.loads((FIX / name).read_text())


def stream() -> list[dict]:
    return [json.loads(line) for line in (FIX / "session_stream.jsonl").read_text().splitlines() if line.strip()]


S20, S21, S22 = load("S20.json"), load("S21.json"), load("S22.json")


# ------------------------------------------------------------------ S20 / S21: check_arguments


def test_s20_failing_arguments_give_paths_keywords_and_a_ready_failure_result():
    chk = A.check_arguments(S20["required_action"], S20["tool"])
    assert chk.execute is False and chk.passed is False
    assert sorted((f.path, f.keyword) for f in chk.failures) == sorted(
        (f["path"], f["reason"]) for f in S20["expect"]["fail"]
    )
    res = A.dump(chk.tool_result())
    for k, v in S20["expect"]["tool_result"].items():
        assert res[k] == v
    assert "/order_id" in res["error"] and "pattern" in res["error"]
    assert "/refund" in res["error"] and "additionalProperties" in res["error"]
    # the ready result is itself a valid input event that the ledger accepts
    ledger = A.PendingActions([S20["required_action"]])
    assert ledger.accept(res).success is False
    assert ledger.pending == []


def test_s21_passing_arguments_execute_and_no_failure_result():
    chk = A.check_arguments(S21["required_action"], S21["tool"])
    assert chk.execute is True and chk.failures == ()
    with pytest.raises(A.ToolResultError) as e:
        chk.tool_result()
    assert e.value.reason == "check_passed"


def test_check_arguments_name_mismatch_and_bare_schema():
    act = dict(S21["required_action"], name="delete_order")
    chk = A.check_arguments(act, S21["tool"])
    assert [(f.path, f.keyword) for f in chk.failures] == [("", "name")]
    assert A.check_arguments(act, S21["tool"]["parameters"]).execute is True


@pytest.mark.parametrize(
    "bad",
    [
        None,
        5,
        [],
        "x",
        {"type": "function_call"},
        {**S21["required_action"], "arguments": '{"order_id":"A-1042"}'},
        {**S21["required_action"], "turn_id": 7},
        {"type": "environment_connection", "environment_id": "env_1"},
    ],
)
def test_check_arguments_refuses_bad_actions_with_our_error(bad):
    with pytest.raises(rp.ItemError):
        A.check_arguments(bad, S21["tool"])


def test_check_arguments_invalid_tool_schema_is_a_value_error():
    with pytest.raises(ValueError):
        A.check_arguments(
            S21["required_action"], {"type": "function", "name": "lookup_order", "parameters": {"type": 5}}
        )


def test_check_arguments_hostile_deep_and_huge_arguments():
    def deep(n: int) -> dict:
        out: dict = {}
        cur = out
        for _ in range(n):
            cur["a"] = {}
            cur = cur["a"]
        return out

    chk = A.check_arguments({**S21["required_action"], "arguments": deep(100)}, S21["tool"])
    assert not chk.execute
    chk = A.check_arguments({**S21["required_action"], "arguments": deep(500)}, S21["tool"])
    assert [(f.path, f.keyword) for f in chk.failures] == [("", "too_deep")]
    big = {
        **S21["required_action"],
        "arguments": {"order_id": "A-1042", "include_lines": True, "note": "x" * 5_000_000},
    }
    chk = A.check_arguments(big, S21["tool"])
    assert [(f.path, f.keyword) for f in chk.failures] == [("/note", "additionalProperties")]


# ------------------------------------------------------------------ S22: the ledger


@pytest.mark.parametrize("idx", S22["expect"]["invalid_event_indexes"])
def test_s22_invalid_results_are_refused(idx):
    ledger = A.PendingActions.from_event(S22["events"][0])
    with pytest.raises(A.ToolResultError) as e:
        ledger.accept(S22["events"][idx])
    assert isinstance(e.value, ValueError)
    assert str(e.value)
    assert ledger.pending  # nothing was recorded
    want = {2: "unknown_call", 3: "turn_mismatch", 4: "malformed", 5: "malformed", 6: "malformed"}[idx]
    assert e.value.reason == want


def test_s22_valid_result_accepted_once():
    ledger = A.PendingActions.from_event(S22["events"][0])
    assert [a.call_id for a in ledger.pending] == ["call_3c91"]
    r = ledger.accept(S22["events"][1])
    assert r.success is True and ledger.pending == []
    with pytest.raises(A.ToolResultError) as e:
        ledger.accept(S22["events"][1])
    assert e.value.reason == "already_answered"


def test_s22_error_messages_name_field_and_rule():
    msgs = {}
    for idx in (4, 5, 6):
        ledger = A.PendingActions.from_event(S22["events"][0])
        with pytest.raises(A.ToolResultError) as e:
            ledger.accept(S22["events"][idx])
        msgs[idx] = str(e.value)
    assert "output" in msgs[4] and "serialize" in msgs[4]
    assert "success" in msgs[5] and "boolean" in msgs[5]
    assert "error" in msgs[6] and "success is false" in msgs[6]


def test_from_event_reads_a_partial_session_but_validates_actions_strictly():
    ev = json.loads(json.dumps(S22["events"][0]))
    ev["session"]["required_actions"][0]["arguments"] = "{}"
    with pytest.raises(rp.ItemError) as e:
        A.PendingActions.from_event(ev)
    assert "arguments" in str(e.value)
    with pytest.raises(rp.ItemError):
        A.PendingActions.from_event({"type": "agent.session.requires_action", "event_id": "e"})
    with pytest.raises(rp.ItemError):
        A.PendingActions.from_event(None)


def test_from_session_with_a_full_session_model():
    ses = A.parse_session(stream()[10]["session"])
    ledger = A.PendingActions.from_session(ses)
    assert [a.call_id for a in ledger.pending] == ["call_3c91"]


def test_history_function_call_item_is_never_pending():
    ses = dict(stream()[0]["session"], required_actions=[])
    ledger = A.PendingActions.from_session(ses)
    item = stream()[9]["item"]  # a function_call item in the history
    assert item["type"] == "function_call"
    assert ledger.pending == []
    with pytest.raises(A.ToolResultError) as e:
        ledger.accept(
            {
                "type": "agent.session.input.tool_result",
                "turn_id": "turn_2",
                "call_id": item["call_id"],
                "success": True,
                "output": "x",
            }
        )
    assert e.value.reason == "unknown_call"


def test_result_builder():
    ledger = A.PendingActions.from_event(S22["events"][0])
    act = ledger.pending[0]
    ok = ledger.result(act, output=[{"type": "input_text", "text": "paid"}])
    assert A.dump(ok) == {
        "type": "agent.session.input.tool_result",
        "turn_id": "turn_2",
        "call_id": "call_3c91",
        "success": True,
        "output": [{"type": "input_text", "text": "paid"}],
    }
    bad = ledger.result(act, error="lookup failed")
    assert A.dump(bad)["success"] is False
    for kwargs in ({"output": {"order_id": "A-1042"}}, {}, {"output": "x", "error": "y"}, {"error": "  "}):
        with pytest.raises(A.ToolResultError):
            ledger.result(act, **kwargs)
    ledger.accept(ok)
    assert ledger.pending == []


@pytest.mark.parametrize(
    "patch",
    [
        {"success": 1},
        {"success": "true"},
        {"success": None},
        {"output": None},
        {"output": 5},
        {"output": [{"type": "output_text", "text": "x"}]},
        {"output": [{"type": "input_text"}]},
        {"success": False, "output": "x"},
        {"success": False, "error": ""},
        {"turn_id": ""},
        {"call_id": 3},
    ],
)
def test_tool_result_rule_hostile(patch):
    base = {
        "type": "agent.session.input.tool_result",
        "turn_id": "turn_2",
        "call_id": "call_3c91",
        "success": True,
        "output": "x",
    }
    with pytest.raises(rp.ItemError):
        A.parse_input({**base, **patch})
    ledger = A.PendingActions.from_event(S22["events"][0])
    with pytest.raises(A.ToolResultError) as e:
        ledger.accept({**base, **patch})
    assert e.value.reason == "malformed"


def test_huge_output_is_accepted_and_round_trips():
    ledger = A.PendingActions.from_event(S22["events"][0])
    raw = {
        "type": "agent.session.input.tool_result",
        "turn_id": "turn_2",
        "call_id": "call_3c91",
        "success": True,
        "output": "x" * 10_000_000,
    }
    assert A.dump(ledger.accept(raw)) == raw


# ------------------------------------------------------------------ unions


def test_every_stream_fixture_parses_and_round_trips():
    for raw in stream():
        parsed = A.parse_input(raw) if raw["type"].startswith("agent.session.input.") else A.parse_event(raw)
        assert not A.is_unknown(parsed)
        assert A.dump(parsed) == raw
        assert A.dump(A.session_event_adapter.validate_json(json.dumps(raw))) == raw or raw["type"].startswith(
            "agent.session.input."
        )


def test_unknown_event_is_kept_verbatim_and_marked():
    raw = {"type": "agent.session.turn.tool_progress", "event_id": "e", "nested": {"a": [1, 2]}}
    ev = A.parse_event(raw)
    assert isinstance(ev, A.UnknownSessionEvent) and ev.unknown and A.is_unknown(ev)
    assert A.dump(ev) == raw
    assert A.dump(A.session_event_adapter.validate_python(raw)) == raw


def test_known_event_with_a_bad_field_is_an_error_not_unknown():
    bad = dict(stream()[1], turn=dict(stream()[1]["turn"], status="paused"))
    with pytest.raises(rp.ItemError) as e:
        A.parse_event(bad)
    assert "turn.status" in str(e.value)
    with pytest.raises(ValueError):
        A.session_event_adapter.validate_python(bad)


@pytest.mark.parametrize("bad", [None, 5, [], "null", b"{", {"event_id": "e"}, {"type": ""}, {"type": 3}])
def test_hostile_events_raise_item_error(bad):
    with pytest.raises(rp.ItemError):
        A.parse_event(bad)


def test_unknown_item_and_action_fallbacks():
    item = {"type": "browser_handoff_result", "id": "x", "turn_id": "t", "response": {}}
    assert A.is_unknown(A.session_item_adapter.validate_python(item))
    act = {"type": "browser_handoff", "turn_id": "t"}
    ledger = A.PendingActions([act, S22["events"][0]["session"]["required_actions"][0]])
    assert A.is_unknown(ledger.actions[0]) and len(ledger.pending) == 1
    with pytest.raises(ValueError):
        A.session_item_adapter.validate_python({"type": "function_call", "id": "x"})


def test_unknown_input_type_is_refused():
    with pytest.raises(rp.ItemError):
        A.parse_input({"type": "agent.session.input.compact"})
    assert A.dump(A.parse_input({"type": "agent.session.input.cancel"})) == {"type": "agent.session.input.cancel"}
    msg = {
        "type": "agent.session.input.message",
        "input": [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]}],
    }
    assert A.dump(A.parse_input(msg)) == msg


def test_session_create_params():
    body = {
        "agent": {
            "model": "gpt-5",
            "instructions": "Be brief.",
            "multi_agent": {"enabled": True, "max_concurrent_subagents": 3},
            "tools": [
                {
                    "type": "function",
                    "name": "lookup_order",
                    "description": "d",
                    "parameters": {"type": "object"},
                    "defer_loading": True,
                },
                {"type": "tool_search"},
            ],
            "service_tier": "flex",
        },
        "environment": {"type": "openai_hosted"},
        "input": "hello",
        "metadata": {"a": "b"},
        "stream": True,
    }
    assert A.dump(A.session_create_params_adapter.validate_python(body)) == body
    for bad in (
        {**body, "stream": "yes"},
        {**body, "environment": {"type": "cloud"}},
        {"agent": body["agent"]},
    ):
        with pytest.raises(ValueError):
            A.session_create_params_adapter.validate_python(bad)


@needs_checkout
def test_known_type_lists_match_the_schemas():
    def mapping(file: str, name: str) -> set[str]:
        return set(json.loads((SCHEMAS / file).read_text())["$defs"][name]["discriminator"]["mapping"])

    assert mapping("session_event.json", "KnownSessionEvent") == KNOWN_EVENT_TYPES
    assert mapping("session_item.json", "KnownSessionItem") == KNOWN_ITEM_TYPES
    assert mapping("required_action.json", "KnownRequiredAction") == KNOWN_ACTION_TYPES
    # the fallback schemas exclude exactly the known types, so the bundles are as strict as the parser
    for file, known in (
        ("unknown_session_event.json", KNOWN_EVENT_TYPES),
        ("unknown_session_item.json", KNOWN_ITEM_TYPES),
        ("unknown_required_action.json", KNOWN_ACTION_TYPES),
    ):
        excluded = json.loads((SCHEMAS / file).read_text())["properties"]["type"]["not"]["enum"]
        assert set(excluded) == known and len(excluded) == len(known), file


def test_schemas_are_valid_and_describe_every_property():
    import jsonschema_rs

    for p in SCHEMAS.glob("*.json"):
        s = json.loads(p.read_text())
        jsonschema_rs.meta.validate(s)
        if s.get("type") == "object":
            assert s["title"] and all("description" in v for v in s["properties"].values()), p.name
            if (
                "const" in s["properties"].get("type", {}) and p.name != "input_message_param.json"
            ):  # `type` optional there
                assert "type" in s["required"], p.name


# ------------------------------------------------------------------ event log + CLI


def test_check_event_log_s22_and_full_stream():
    # S22's requires_action snapshot is trimmed (no agent, no tools): the host's tool judges the call
    assert A.check_event_log(S22["events"][:2], tools=[S20["tool"]]).ok
    # with no tool known at all, an executed call is never replay-safe (fail closed, like gate's no_schema)
    blind = A.check_event_log(S22["events"][:2])
    assert [(v.index, str(v.code)) for v in blind.violations] == [(1, "executed_rejected_call")]
    assert "no tool schema is known" in blind.violations[0].message
    rep = A.check_event_log(S22["events"], tools=[S20["tool"]])
    assert [(v.index, str(v.code)) for v in rep.violations] == [
        (2, "result_without_action"),
        (3, "result_without_action"),
        (4, "malformed_result"),
        (5, "malformed_result"),
        (6, "malformed_result"),
    ]
    full = A.check_event_log(stream())
    assert full.ok and full.session_id == "sess_8f21" and full.unknown_events == ()


def test_check_event_log_unanswered_double_schema_and_unknown():
    ev = stream()
    ra = ev[10]
    bad_call = json.loads(json.dumps(ra))
    bad_call["session"]["required_actions"][0]["arguments"] = {
        "order_id": "1042",
        "include_lines": True,
        "refund": True,
    }
    rep = A.check_event_log([bad_call, S22["events"][1], {"type": "agent.session.new", "event_id": "z"}])
    codes = [str(v.code) for v in rep.violations]
    assert codes == ["executed_rejected_call"]  # the refusal itself is a note, executing it the violation
    assert [(v.index, str(v.code)) for v in rep.refused] == [(0, "arguments_schema")]
    assert rep.unknown_events == (2,)
    rep = A.check_event_log([ra])
    assert [str(v.code) for v in rep.violations] == ["unanswered_action"] and len(rep.pending) == 1
    rep = A.check_event_log([ra, S22["events"][1], S22["events"][1]])
    assert rep.ok  # the same result resent is idempotent
    other = dict(S22["events"][1], output="another answer")
    rep = A.check_event_log([ra, S22["events"][1], other])
    assert [str(v.code) for v in rep.violations] == ["double_answer"]
    rep = A.check_event_log([ra, None, {"type": "agent.session.turn.created"}])
    assert [str(v.code) for v in rep.violations] == ["event_invalid", "event_invalid", "unanswered_action"]


def test_cli_check_agents(tmp_path, capsys):
    ok = tmp_path / "ok.jsonl"
    ok.write_text("".join(json.dumps(e) + "\n" for e in S22["events"][:2]))
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps(e) + "\n" for e in S22["events"]))
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps([S20["tool"]]))
    assert main(["check", "--agents", str(ok), "--tools", str(tools)]) == 0
    assert main(["check", "--agents", str(ok)]) == 1  # no tool known: the executed call is not judged safe
    assert "executed_rejected_call" in capsys.readouterr().out
    assert main(["check", "--agents", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "event 2: result_without_action" in out and "event 5: malformed_result" in out
    assert main(["check", "--agents", "--format", "json", str(bad)]) == 1
    assert json.loads(capsys.readouterr().out)["session_id"] == "sess_8f21"
    junk = tmp_path / "junk"
    junk.write_text("{not json")
    assert main(["check", "--agents", str(junk)]) == 2


# ------------------------------------------------------------ differential test against openai.types.beta


def _same(ours, theirs, path="") -> None:
    """Every field the SDK model sets equals ours."""
    if hasattr(theirs, "model_fields_set"):
        for name in theirs.model_fields_set:
            alias = type(theirs).model_fields[name].alias or name if name in type(theirs).model_fields else name
            _same(
                getattr(ours, alias, getattr(ours, name, None)) if not isinstance(ours, dict) else ours.get(alias),
                getattr(theirs, name),
                f"{path}.{alias}",
            )
    elif isinstance(theirs, list):
        assert isinstance(ours, list | tuple) and len(ours) == len(theirs), path
        for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
            _same(a, b, f"{path}[{i}]")
    else:
        assert ours == theirs, path


def test_differential_against_openai_sdk():
    from openai.types.beta.agent_session_event import AgentSessionEvent
    from openai.types.beta.agent_session_input_param import AgentSessionInputParam

    sdk_event = TypeAdapter(AgentSessionEvent)
    sdk_input = TypeAdapter(AgentSessionInputParam)
    fixtures = stream() + [S22["events"][1], {"type": "agent.session.input.cancel"}]
    for raw in fixtures:
        if raw["type"].startswith("agent.session.input."):
            ours_in = A.parse_input(raw)
            assert A.dump(ours_in) == raw
            assert sdk_input.validate_python(raw) == A.dump(ours_in)
            continue
        theirs = sdk_event.validate_python(raw)
        ours = A.parse_event(raw)
        assert A.dump(ours) == raw
        assert theirs.model_dump(mode="json", by_alias=True, exclude_unset=True) == A.dump(ours)
        _same(ours, theirs)
        # our parser also takes the SDK object itself
        assert A.dump(A.parse_event(theirs)) == raw
    # required actions from S20/S21 agree too
    from openai.types.beta.agent_session import RequiredAction

    for case in (S20, S21):
        theirs = TypeAdapter(RequiredAction).validate_python(case["required_action"])
        ours = A.check_arguments(case["required_action"], case["tool"]).action
        assert theirs.model_dump(mode="json") == A.dump(ours)
