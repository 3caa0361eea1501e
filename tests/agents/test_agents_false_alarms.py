"""No false alarms on correct Agents API sessions: each case did the right thing and must
pass the ledger, `check_event_log`, `link_chain` and `replayable check --agents` alike."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from replayable import agents as A
from replayable._cli import main

FIX = Path(__file__).parent.parent / "fixtures" / "agents"
S20 = json.loads((FIX / "S20.json").read_text())
S22 = json.loads((FIX / "S22.json").read_text())
REQ, RESULT = S22["events"][0], S22["events"][1]
EXAMPLES = Path(__file__).parent.parent.parent / "examples"


def requires(arguments: dict, *, tools: bool = True) -> dict:
    """S22's requires_action event calling lookup_order with `arguments`, its agent holding S20's tool."""
    ev = copy.deepcopy(REQ)
    ev["session"]["required_actions"][0]["arguments"] = arguments
    if tools:
        ev["session"]["agent"] = {
            "id": "agt_1",
            "model": "m",
            "multi_agent": {"enabled": False},
            "reasoning": {},
            "service_tier": "auto",
            "text": {"format": {"type": "text"}, "verbosity": "medium"},
            "tools": [dict(S20["tool"], defer_loading=False)],
        }
    return ev


BAD_ARGS = S20["required_action"]["arguments"]  # fails the pattern and has an extra key
GOOD_ARGS = {"order_id": "A-1042", "include_lines": True}


def write(tmp_path: Path, events: list) -> str:
    path = tmp_path / "log.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    return str(path)


# ---------------------------------------------------------- 1. a refused call answered success: false


def test_refused_call_answered_with_a_failure_is_safe(tmp_path, capsys):
    ev = requires(BAD_ARGS)
    chk = A.check_arguments(ev["session"]["required_actions"][0], S20["tool"])
    assert not chk.execute
    log = [ev, A.dump(chk.tool_result())]
    rep = A.check_event_log(log)
    assert rep.ok and rep.violations == ()
    assert [(v.index, str(v.code), v.path) for v in rep.refused] == [
        (0, "arguments_schema", "/session/required_actions/0/arguments")
    ]
    assert main(["check", "--agents", write(tmp_path, log)]) == 0
    out = capsys.readouterr().out
    assert "NOT safe" not in out and "refused before execution (arguments_schema)" in out


def test_refused_call_answered_with_success_is_the_violation(tmp_path, capsys):
    log = [requires(BAD_ARGS), RESULT]
    rep = A.check_event_log(log)
    assert [(v.index, str(v.code)) for v in rep.violations] == [(1, "executed_rejected_call")]
    assert "/order_id (pattern)" in rep.violations[0].message
    assert main(["check", "--agents", write(tmp_path, log)]) == 1
    assert "NOT replay-safe" in capsys.readouterr().out  # one wording for every kind of input


def test_call_to_an_unknown_tool_answered_with_a_failure_is_safe():
    ev = requires(GOOD_ARGS)
    ev["session"]["required_actions"][0]["name"] = "delete_everything"
    failure = dict(RESULT, success=False, error="no such tool")
    del failure["output"]
    rep = A.check_event_log([ev, failure])
    assert rep.ok and [str(v.code) for v in rep.refused] == ["unknown_tool"]
    rep = A.check_event_log([ev, RESULT])
    assert [str(v.code) for v in rep.violations] == ["executed_rejected_call"]


# ---------------------------------------------------------- 2. the same result resent


def test_identical_resubmission_is_idempotent_in_the_ledger():
    ledger = A.PendingActions.from_event(REQ)
    first = ledger.accept(RESULT)
    reordered = dict(reversed(list(RESULT.items())))  # the same JSON value, keys in another order
    assert ledger.accept(reordered, resubmit=True) is first
    assert ledger.pending == [] and len(ledger.answered) == 1
    with pytest.raises(A.ToolResultError) as exc:  # a different second answer stays an error
        ledger.accept(dict(RESULT, output="another"), resubmit=True)
    assert exc.value.reason == "already_answered" and "different" in str(exc.value)
    with pytest.raises(A.ToolResultError) as exc:  # without resubmit=True any second answer is refused
        ledger.accept(RESULT)
    assert exc.value.reason == "already_answered" and "resubmit=True" in str(exc.value)


def test_identical_resubmission_is_idempotent_in_the_log_check_chain_and_cli(tmp_path):
    log = [REQ, RESULT, RESULT]  # REQ's snapshot is trimmed (no tools): the host's tool is given
    assert A.check_event_log(log, tools=[S20["tool"]]).ok
    assert A.link_chain(log).ok
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps([S20["tool"]]))
    assert main(["check", "--agents", write(tmp_path, log), "--tools", str(tools)]) == 0
    different = [REQ, RESULT, dict(RESULT, output="another")]
    assert [str(v.code) for v in A.check_event_log(different, tools=[S20["tool"]]).violations] == ["double_answer"]
    assert not A.link_chain(different).ok


# ---------------------------------------------------------- 3. history function_call items are never pending


def test_completed_history_function_call_is_not_pending():
    done = {
        "type": "agent.session.turn.item.done",
        "event_id": "e2",
        "session_id": "sess_8f21",
        "turn_id": "turn_1",
        "output_index": 0,
        "item": {
            "type": "function_call",
            "id": "fc_1",
            "turn_id": "turn_1",
            "call_id": "call_old",
            "name": "lookup_order",
            "arguments": GOOD_ARGS,
            "status": "completed",
        },
    }
    chain = A.link_chain([done])
    assert chain.ok and chain.pending == ()
    assert [(str(x.kind), x.id) for x in chain.links if str(x.kind) == "function_call"] == [
        ("function_call", "call_old")
    ]
    # a required action still is pending, also when its call shows in the history first
    chain = A.link_chain([done, REQ])
    assert [x.call_id for x in chain.pending] == ["call_3c91"]
    seen = copy.deepcopy(done)
    seen["item"].update(turn_id="turn_2", call_id="call_3c91")
    chain = A.link_chain([seen, REQ])
    assert [x.call_id for x in chain.pending] == ["call_3c91"]
    assert A.link_chain([seen, REQ, RESULT]).pending == ()
    assert A.check_event_log([done]).ok


# ---------------------------------------------------------- 4. one reading of trimmed sessions


def test_parse_event_reads_the_trimmed_snapshot_like_the_ledger_and_the_log_check():
    ev = A.parse_event(REQ)
    assert ev.session.id == "sess_8f21"
    assert A.dump(ev) == REQ
    assert [a.call_id for a in ev.session.required_actions] == ["call_3c91"]
    assert [a.call_id for a in A.PendingActions.from_event(REQ).pending] == ["call_3c91"]
    assert [a.call_id for a in A.PendingActions.from_event(ev).pending] == ["call_3c91"]
    assert A.check_event_log([REQ, RESULT], tools=[S20["tool"]]).ok
    # a field that is present is still checked, by every reader the same way
    broken = copy.deepcopy(REQ)
    broken["session"]["status"] = "sleeping"
    with pytest.raises(ValueError):
        A.parse_event(broken)
    with pytest.raises(ValueError):
        A.PendingActions.from_event(broken)
    rep = A.check_event_log([broken])
    assert [(str(v.code), v.path) for v in rep.violations] == [("event_invalid", "/session")]
    # the full session API stays strict
    with pytest.raises(ValueError):
        A.parse_session(REQ["session"])
    assert A.parse_session_snapshot(REQ["session"]).status == "requires_action"


# ---------------------------------------------------------- 5. not an Agents log at all


def test_responses_transcript_is_not_an_agents_log(tmp_path, capsys):
    transcript = json.loads((EXAMPLES / "conversation.json").read_text())
    rep = A.check_event_log(transcript)
    assert rep.nothing_recognised and not rep.ok and rep.recognised == 0
    path = tmp_path / "conversation.json"
    path.write_text(json.dumps(transcript))
    assert main(["check", "--agents", str(path)]) == 2
    out, err = capsys.readouterr()
    assert "nothing was recognised as an Agents API event" in err and not out  # exit 2: stderr only
    assert main(["check", "--agents", "--format", "json", str(path)]) == 2
    assert json.loads(capsys.readouterr().out)["recognised"] == 0
    assert A.check_event_log([]).ok  # an empty log is vacuously fine


def test_trimmed_agent_with_only_its_tools_is_read_and_used():
    ev = requires(BAD_ARGS)
    ev["session"]["agent"] = {"tools": [dict(S20["tool"], defer_loading=False)]}
    assert A.dump(A.parse_event(ev)) == ev
    failure = A.dump(A.check_arguments(ev["session"]["required_actions"][0], S20["tool"]).tool_result())
    rep = A.check_event_log([ev, failure])
    assert rep.ok and [str(v.code) for v in rep.refused] == ["arguments_schema"]
    assert [str(v.code) for v in A.check_event_log([ev, RESULT]).violations] == ["executed_rejected_call"]
    ev["session"]["agent"]["tools"][0]["parameters"] = "not a schema"  # present, so still checked
    assert [str(v.code) for v in A.check_event_log([ev]).violations] == ["event_invalid"]
