"""Approval requests of the Agents API: MCP tool-call approvals and computer-use approvals
(login forms, browser origins), their answers, and the pairing rules in the ledger and the log check."""

from __future__ import annotations

import copy

import pytest

from replayable import agents as A

MCP_REQUEST = {
    "type": "mcp_approval_request",
    "request_id": "mcpr_1",
    "turn_id": "turn_1",
    "request": {
        "type": "mcp_tool_call",
        "server_label": "crm",
        "name": "lookup_customer",
        "arguments": {"customer_id": "123"},
        "message": "Allow crm.lookup_customer?",
    },
}
LOGIN = {
    "type": "computer_use_approval_request",
    "request_id": "cur_1",
    "turn_id": "turn_1",
    "request": {
        "type": "browser_authentication",
        "credential_origin": "https://shop.example",
        "reason": "Sign in to check the order",
        "fields": [
            {"id": "email", "label": "Email", "required": True, "type": "email"},
            {"id": "password", "label": "Password", "required": True, "type": "password"},
            {"id": "otp", "label": "One-time code", "required": True, "type": "text"},
        ],
        "options": [
            {"id": "with_password", "label": "Password", "field_ids": ["email", "password"]},
            {"id": "with_code", "label": "Code", "field_ids": ["email", "otp"]},
        ],
    },
}
ORIGIN = {
    "type": "computer_use_approval_request",
    "request_id": "cur_2",
    "turn_id": "turn_1",
    "request": {"type": "browser_origin_access", "origin": "https://cdn.example", "reason": None},
}


def requires(*actions: dict) -> dict:
    return {
        "type": "agent.session.requires_action",
        "event_id": "evt_1",
        "session": {
            "id": "sess_1",
            "object": "agent.session",
            "status": "requires_action",
            "required_actions": list(actions),
        },
    }


def mcp_answer(decision: str = "approve", request_id: str = "mcpr_1") -> dict:
    return {
        "type": "agent.session.input.mcp_approval_request_result",
        "request_id": request_id,
        "response": {"type": "mcp_tool_call", "decision": decision},
    }


def cu_answer(response: dict, request_id: str = "cur_1") -> dict:
    return {
        "type": "agent.session.input.computer_use_approval_request_result",
        "request_id": request_id,
        "response": response,
    }


def submit(option: str | None = "with_password", **values: str) -> dict:
    body: dict = {
        "type": "browser_authentication",
        "action": "submit",
        "fields": [{"field_id": k, "value": v} for k, v in values.items()],
    }
    if option is not None:
        body["selected_option"] = option
    return body


GOOD_LOGIN = submit(email="a@b.example", password="pw")


def test_a_log_that_answers_an_mcp_approval_passes():
    rep = A.check_event_log([requires(MCP_REQUEST), mcp_answer()])
    assert rep.ok and rep.violations == () and rep.pending == ()
    for decision in ("deny", "cancel"):
        assert A.check_event_log([requires(MCP_REQUEST), mcp_answer(decision)]).ok


def test_inputs_parse_and_round_trip():
    for raw in (mcp_answer(), cu_answer(GOOD_LOGIN), cu_answer({"type": "browser_authentication", "action": "cancel"})):
        assert A.dump(A.parse_input(raw)) == raw
    body = {"events": [mcp_answer(), cu_answer(GOOD_LOGIN)]}
    assert A.dump(A.parse_events_body(body)) == body
    with pytest.raises(ValueError):
        A.parse_input(mcp_answer("maybe"))
    with pytest.raises(ValueError):
        A.parse_input(cu_answer({"type": "browser_authentication", "action": "submit"}))  # fields missing


def test_items_parse_and_round_trip():
    request_item = {
        "type": "computer_use_approval_request",
        "id": "item_1",
        "turn_id": "turn_1",
        "request_id": "cur_1",
        "request": LOGIN["request"],
    }
    result_item = {
        "type": "computer_use_approval_request_result",
        "id": "item_2",
        "turn_id": "turn_1",
        "request_id": "cur_1",
        "response": {"type": "browser_authentication", "action": "submit", "selected_option": "with_password"},
    }
    for item in (request_item, result_item):
        parsed = A.session_item_adapter.validate_python(item)
        assert not A.is_unknown(parsed) and A.dump(parsed) == item
    with pytest.raises(ValueError):  # a known type never falls back to UnknownSessionItem
        A.session_item_adapter.validate_python(dict(result_item, response={"action": "submit"}))


def test_ledger_pairs_by_request_id():
    ledger = A.PendingActions.from_event(requires(MCP_REQUEST, LOGIN, ORIGIN))
    assert [a.request_id for a in ledger.pending_approvals] == ["mcpr_1", "cur_1", "cur_2"]
    assert ledger.pending == []  # no function call waits
    ledger.accept(mcp_answer())
    ledger.accept(cu_answer(GOOD_LOGIN))
    ledger.accept(cu_answer({"type": "browser_origin_access", "decision": "deny"}, "cur_2"))
    assert ledger.pending_approvals == [] and set(ledger.approvals) == {"mcpr_1", "cur_1", "cur_2"}
    assert ledger.accept(mcp_answer(), resubmit=True) is ledger.approvals["mcpr_1"]
    with pytest.raises(A.ToolResultError) as exc:
        ledger.accept(mcp_answer("deny"), resubmit=True)
    assert exc.value.reason == "already_answered" and exc.value.request_id == "mcpr_1"


@pytest.mark.parametrize(
    "answer, words",
    [
        (mcp_answer(request_id="mcpr_9"), "no pending approval"),
        (mcp_answer(request_id="cur_1"), "is a computer_use_approval_request"),
        (cu_answer(GOOD_LOGIN, "mcpr_1"), "is a mcp_approval_request"),
        (
            cu_answer({"type": "browser_origin_access", "decision": "approve"}),
            "does not answer a 'browser_authentication'",
        ),
        (cu_answer(submit(None, email="a@b.example", password="pw")), "'selected_option' is required"),
        (cu_answer(submit("with_magic", email="a@b.example")), "not an option"),
        (cu_answer(submit(email="a@b.example", password="pw", otp="1")), "'otp' is not a field of the form"),
        (cu_answer(submit(email="a@b.example", username="x", password="pw")), "'username' is not a field"),
        (cu_answer(submit(email="a@b.example")), "required field 'password'"),
        (cu_answer(submit(email="a@b.example", password="")), "required field 'password'"),
    ],
)
def test_answers_that_do_not_fit_are_refused(answer, words):
    ledger = A.PendingActions.from_event(requires(MCP_REQUEST, LOGIN))
    with pytest.raises(A.ToolResultError) as exc:
        ledger.accept(answer)
    assert words in str(exc.value)
    assert exc.value.reason in ("unknown_request", "response_mismatch")
    rep = A.check_event_log([requires(MCP_REQUEST, LOGIN), answer])
    assert str(rep.violations[0].code) in ("result_without_action", "malformed_result")


def test_submission_limits():
    seven = copy.deepcopy(LOGIN)
    seven["request"]["options"] = []
    seven["request"]["fields"] = [{"id": f"f{i}", "label": "x", "required": False, "type": "text"} for i in range(7)]
    ledger = A.PendingActions.from_event(requires(seven))
    values = {f"f{i}": "v" for i in range(7)}
    with pytest.raises(A.ToolResultError, match="at most 6"):
        ledger.accept(cu_answer(submit(None, **values)))
    twice = submit(None, f0="a")
    twice["fields"].append({"field_id": "f0", "value": "b"})
    with pytest.raises(A.ToolResultError, match="submitted twice"):
        ledger.accept(cu_answer(twice))
    with pytest.raises(A.ToolResultError, match="no options"):
        ledger.accept(cu_answer(submit("with_password", f0="a")))
    assert ledger.accept(cu_answer(submit(None, f0="a"))).request_id == "cur_1"


def test_log_check_reports_unanswered_and_double_approvals():
    rep = A.check_event_log([requires(MCP_REQUEST, LOGIN), mcp_answer()])
    assert [(v.index, str(v.code)) for v in rep.violations] == [(0, "unanswered_action")]
    assert "cur_1" in rep.violations[0].message
    assert [a.request_id for _, a in rep.pending] == ["cur_1"]
    text = A.format_report(rep, "json")
    assert '"request_id": "cur_1"' in text
    rep = A.check_event_log([requires(MCP_REQUEST), mcp_answer(), mcp_answer()])
    assert rep.ok  # the same answer resent
    rep = A.check_event_log([requires(MCP_REQUEST), mcp_answer(), mcp_answer("deny")])
    assert [str(v.code) for v in rep.violations] == ["double_answer"]
    cancel = cu_answer({"type": "browser_authentication", "action": "cancel"})
    assert A.check_event_log([requires(LOGIN), cancel]).ok


def test_link_chain_links_approvals_by_request_id():
    chain = A.link_chain([requires(MCP_REQUEST, LOGIN), mcp_answer()])
    assert chain.ok
    assert [(str(x.kind), x.id) for x in chain.links if "approval" in str(x.kind)] == [
        ("approval_request", "mcpr_1"),
        ("approval_request", "cur_1"),
        ("approval_answer", "mcpr_1"),
    ]
    assert [(str(x.kind), x.id) for x in chain.pending] == [("approval_request", "cur_1")]
    echo = {
        "type": "agent.session.turn.item.done",
        "event_id": "e3",
        "session_id": "sess_1",
        "turn_id": "turn_1",
        "output_index": 0,
        "item": {
            "type": "computer_use_approval_request_result",
            "id": "item_2",
            "turn_id": "turn_1",
            "request_id": "cur_1",
            "response": {"type": "browser_authentication", "action": "cancel"},
        },
    }
    cancel = cu_answer({"type": "browser_authentication", "action": "cancel"})
    done = A.link_chain([requires(MCP_REQUEST, LOGIN), mcp_answer(), mcp_answer(), cancel, echo])
    assert done.ok and done.pending == ()  # the same answer resent, and the history echo, are no new answers
    bad = A.link_chain([requires(MCP_REQUEST), mcp_answer(), mcp_answer("deny"), mcp_answer(request_id="x")])
    assert [(b.event, b.problem) for b in bad.broken] == [
        (2, "approval request 'mcpr_1' was already answered differently"),
        (3, "no approval request has request_id 'x'"),
    ]


def test_errors_name_the_place_in_the_value_not_the_union_arm():
    bad = cu_answer({"type": "browser_authentication", "action": "submit"})
    with pytest.raises(ValueError) as exc:
        A.parse_input(bad)
    assert [e["loc"] for e in exc.value.errors] == [("response", "fields")]
    broken = requires(dict(MCP_REQUEST, request={"type": "mcp_tool_call", "message": "m", "arguments": None}))
    with pytest.raises(ValueError) as exc:
        A.parse_event(broken)
    assert [e["loc"] for e in exc.value.errors] == [("session", "required_actions", 0, "request", "server_label")]
