"""Pairing rules for approval requests of an OpenAI Agents API session: does an answer fit its request?

A session may wait for an approval instead of a tool result (`session.required_actions`):

- `mcp_approval_request {request_id, turn_id, request: {type: "mcp_tool_call", server_label, name,
  arguments, message}}` is answered by `agent.session.input.mcp_approval_request_result {request_id,
  response: {type: "mcp_tool_call", decision: approve | deny | cancel}}`;
- `computer_use_approval_request {request_id, turn_id, request}` is answered by
  `agent.session.input.computer_use_approval_request_result {request_id, response}`. A
  `browser_authentication` request (a login form: `fields[]`, `options[]`) takes `{type:
  "browser_authentication", action: "submit", fields: [{field_id, value}], selected_option?}` or
  `{..., action: "cancel"}`; a `browser_origin_access` request takes `{type: "browser_origin_access",
  decision}`.

Field reference: the `openai` package's `openai.types.beta` (`agent_session.py` required actions,
`agent_session_input_param.py`, `agent_browser_*_param.py`). Part of `replayable.agents`.
"""

from __future__ import annotations

from typing import Any, TypeAlias

from replayable._generated.agents.approval import (
    BrowserAuthenticationRequest,
    BrowserAuthenticationSubmit,
    BrowserOriginAccessRequest,
    BrowserOriginAccessResponse,
)
from replayable._generated.agents.computer_use_approval_request_action import ComputerUseApprovalRequestAction
from replayable._generated.agents.mcp_approval_request_action import McpApprovalRequestAction
from replayable._generated.agents.session_input_computer_use_approval_request_result import (
    SessionInputComputerUseApprovalRequestResult,
)
from replayable._generated.agents.session_input_mcp_approval_request_result import (
    SessionInputMcpApprovalRequestResult,
)
from replayable._validation import ItemError

__all__ = ["MAX_SUBMITTED_FIELDS", "ApprovalAction", "ApprovalResult", "approval_problems"]

ApprovalAction: TypeAlias = McpApprovalRequestAction | ComputerUseApprovalRequestAction
"""A required action that waits for an approval answer, keyed by `request_id`."""
ApprovalResult: TypeAlias = SessionInputMcpApprovalRequestResult | SessionInputComputerUseApprovalRequestResult
"""A client input that answers an approval request."""

_ACTIONS = (McpApprovalRequestAction, ComputerUseApprovalRequestAction)
_RESULTS = (SessionInputMcpApprovalRequestResult, SessionInputComputerUseApprovalRequestResult)

#: At most this many values in one login-form submission (Agents API: "up to six active fields").
MAX_SUBMITTED_FIELDS = 6

_ANSWERS = {
    "agent.session.input.mcp_approval_request_result": "mcp_approval_request",
    "agent.session.input.computer_use_approval_request_result": "computer_use_approval_request",
}


def approval_problems(action: ApprovalAction, answer: ApprovalResult) -> list[str]:
    """Why `answer` does not fit the pending `action` (an empty list when it fits).

    Rules: the answer's type matches the action's (an MCP answer for an MCP request, a computer-use
    answer for a computer-use request); a computer-use response has the request's `type`; a login-form
    submission names a `selected_option` exactly when the form has options (and one of them), submits
    only fields of the form (of the selected option, when there is one), each at most once, at most
    `MAX_SUBMITTED_FIELDS`, and gives a non-empty value to every required field it must fill.
    Raises `ItemError` when `action` or `answer` is not a parsed approval request or answer (read them
    with `parse_required_action` and `parse_input`).
    """
    for field, value, kinds, what in (("action", action, _ACTIONS, "request"), ("answer", answer, _RESULTS, "answer")):
        if not isinstance(value, kinds):
            msg = f"{field} must be a parsed approval {what}, got {type(value).__name__}"
            raise ItemError([{"loc": (field,), "type": "model_type", "msg": msg}], "invalid approval")
    want = _ANSWERS.get(answer.type)
    if want != action.type:
        return [f"{answer.type} answers a {want} but request {action.request_id!r} is a {action.type}"]
    if not isinstance(action, ComputerUseApprovalRequestAction) or not isinstance(
        answer, SessionInputComputerUseApprovalRequestResult
    ):
        return []
    request, response = action.request, answer.response
    if request.type != response.type:
        return [f"response type {response.type!r} does not answer a {request.type!r} request"]
    if isinstance(request, BrowserOriginAccessRequest) or isinstance(response, BrowserOriginAccessResponse):
        return []
    if isinstance(request, BrowserAuthenticationRequest) and isinstance(response, BrowserAuthenticationSubmit):
        return _submit_problems(request, response)
    return []  # a cancel needs nothing more


def _submit_problems(request: BrowserAuthenticationRequest, response: BrowserAuthenticationSubmit) -> list[str]:
    problems: list[str] = []
    options = {o.id: o for o in request.options}
    chosen = response.selected_option if "selected_option" in response.model_fields_set else None
    active: set[str] = {f.id for f in request.fields}
    if options:
        if not isinstance(chosen, str):
            problems.append("the form has options, so 'selected_option' is required: " + ", ".join(sorted(options)))
        elif chosen not in options:
            problems.append(f"selected_option {chosen!r} is not an option of the form")
        else:
            active = set(options[chosen].field_ids)
    elif chosen is not None:
        problems.append(f"selected_option {chosen!r} given, but the form has no options")
    if len(response.fields) > MAX_SUBMITTED_FIELDS:
        problems.append(f"{len(response.fields)} fields submitted, at most {MAX_SUBMITTED_FIELDS} are allowed")
    seen: dict[str, str] = {}
    for i, f in enumerate(response.fields):
        if f.field_id in seen:
            problems.append(f"fields[{i}]: field {f.field_id!r} is submitted twice")
        elif f.field_id not in active:
            problems.append(f"fields[{i}]: {f.field_id!r} is not a field of the form" + _which(chosen))
        seen[f.field_id] = f.value
    for field in request.fields:
        if field.required and field.id in active and not seen.get(field.id, ""):
            problems.append(f"required field {field.id!r} ({field.label!r}) needs a non-empty value")
    return problems


def _which(chosen: Any) -> str:
    return f" for option {chosen!r}" if isinstance(chosen, str) else ""
