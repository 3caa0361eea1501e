"""OpenAI Agents API (beta, `OpenAI-Beta: agents=v1`): typed session events and replay-safe tool results.

The models are generated from `schemas/agents/` (field-level reference: the `openai` package's
`openai.types.beta`, `agent_session_event.py`, `agent_session.py`, `agent_session_input_param.py`,
`agent_session_item.py`, `agent_output_item.py`). This module adds what a schema cannot say:

- the unions as `Annotated` aliases with module-level adapters (`session_event_adapter`, ...). An event,
  item or required action of a type not known here becomes `UnknownSessionEvent` /
  `UnknownSessionItem` / `UnknownRequiredAction`, kept verbatim with `.unknown == True`: a stream does
  not die on a new event type, and replay code must not act on one. A *known* type with a bad field is
  an error, never an unknown value;
- the tool-result rule: `success` is a JSON boolean; `success: true` needs `output` (a string or a
  list of input_text / input_image parts; a JSON object must be serialized first); `success: false`
  needs a non-empty `error`;
- `check_arguments`: a pending `function_call` action checked against its tool's JSON Schema
  (the same jsonschema-rs path as `replayable.gate`), with a ready `success: false` tool result;
- `PendingActions`: the ledger of what a session waits for. Only `session.required_actions` makes a
  call pending (a `function_call` item in the history never does); each (turn_id, call_id) pair is
  answered once (resending the same answer is idempotent with `resubmit=True`), and each approval
  request (`mcp_approval_request`, `computer_use_approval_request`) once by its `request_id`, with an
  answer that fits the request (`approval_problems`);
- one reading of sessions inside events (`parse_session_snapshot`): fields present are validated,
  none is required, so a trimmed snapshot reads the same in `parse_event`, the ledger and the log check;
- `check_event_log`: the rules above over a whole event log (server events and the client's inputs).
  A refused call answered with `success: false` is the safe outcome, never a violation.

Everything public is imported from `replayable.agents`; the private modules behind it are `_events`
(unions, adapters, parsing), `_approvals` (approval pairing rules), `_ledger` (`PendingActions`), `_checks`
(`check_arguments`, `check_event_log`), `_report` (`AgentsReport`, `format_report`).

Bad input raises `ItemError` (a value that does not parse) or `ToolResultError` (a tool result that
answers nothing, answers twice, or breaks the rule); both are `ValueError`s with a message naming the
field and the rule.
"""

from __future__ import annotations

from replayable._generated.agents.agent_config_param import AgentConfigParam
from replayable._generated.agents.agent_message_item import AgentMessageItem
from replayable._generated.agents.agent_session import AgentSession
from replayable._generated.agents.agent_tool import AgentTool
from replayable._generated.agents.close_subagent_call_item import CloseSubagentCallItem
from replayable._generated.agents.command_execution_item import CommandExecutionItem
from replayable._generated.agents.computer_use_approval_request_action import ComputerUseApprovalRequestAction
from replayable._generated.agents.computer_use_approval_request_item import ComputerUseApprovalRequestItem
from replayable._generated.agents.computer_use_approval_request_result_item import (
    ComputerUseApprovalRequestResultItem,
)
from replayable._generated.agents.computer_use_call_item import ComputerUseCallItem
from replayable._generated.agents.create_subagent_call_item import CreateSubagentCallItem
from replayable._generated.agents.environment import Environment
from replayable._generated.agents.environment_connection_action import EnvironmentConnectionAction
from replayable._generated.agents.function_call_action import FunctionCallAction
from replayable._generated.agents.function_call_item import FunctionCallItem
from replayable._generated.agents.function_call_output_item import FunctionCallOutputItem
from replayable._generated.agents.function_tool import FunctionTool
from replayable._generated.agents.interrupt_subagent_call_item import InterruptSubagentCallItem
from replayable._generated.agents.mcp_approval_request_action import McpApprovalRequestAction
from replayable._generated.agents.mcp_call_item import McpCallItem
from replayable._generated.agents.reasoning_item import ReasoningItem
from replayable._generated.agents.resume_subagent_call_item import ResumeSubagentCallItem
from replayable._generated.agents.send_subagent_input_call_item import SendSubagentInputCallItem
from replayable._generated.agents.session_create_params import SessionCreateParams
from replayable._generated.agents.session_events_body import SessionEventsBody
from replayable._generated.agents.session_input_cancel import SessionInputCancel
from replayable._generated.agents.session_input_computer_use_approval_request_result import (
    SessionInputComputerUseApprovalRequestResult,
)
from replayable._generated.agents.session_input_mcp_approval_request_result import (
    SessionInputMcpApprovalRequestResult,
)
from replayable._generated.agents.session_input_message import SessionInputMessage
from replayable._generated.agents.session_input_tool_result import SessionInputToolResult
from replayable._generated.agents.session_item_list_page import SessionItemListPage
from replayable._generated.agents.session_list_page import SessionListPage
from replayable._generated.agents.session_message import SessionMessage
from replayable._generated.agents.session_snapshot import SessionSnapshot
from replayable._generated.agents.session_update_params import SessionUpdateParams
from replayable._generated.agents.subagent import Subagent
from replayable._generated.agents.turn import Turn
from replayable._generated.agents.turn_list_page import TurnListPage
from replayable._generated.agents.unknown_required_action import UnknownRequiredAction
from replayable._generated.agents.unknown_session_event import UnknownSessionEvent
from replayable._generated.agents.unknown_session_item import UnknownSessionItem
from replayable._generated.agents.wait_for_subagents_call_item import WaitForSubagentsCallItem
from replayable._generated.agents.web_search_call_item import WebSearchCallItem
from replayable.errors import ToolResultError

from ._approvals import approval_problems
from ._cards import CardCheck, check_card
from ._chain import Link, LinkKind, SessionChain, link_chain
from ._checks import ArgumentCheck, check_arguments, check_event_log, session_notes
from ._events import (
    RequiredAction,
    SessionEvent,
    SessionInput,
    SessionItem,
    dump,
    is_unknown,
    parse_create_params,
    parse_event,
    parse_events_body,
    parse_input,
    parse_required_action,
    parse_session,
    parse_session_item,
    parse_session_snapshot,
    parse_update_params,
    required_action_adapter,
    session_create_params_adapter,
    session_event_adapter,
    session_events_body_adapter,
    session_input_adapter,
    session_item_adapter,
    session_item_list_page_adapter,
    session_list_page_adapter,
    session_of,
    session_update_params_adapter,
    turn_list_page_adapter,
)
from ._ledger import PendingActions
from ._report import AgentsReport, AgentsViolation, AgentsViolationCode, format_report

__all__ = [
    "AgentConfigParam",
    "AgentMessageItem",
    "AgentSession",
    "AgentTool",
    "AgentsReport",
    "AgentsViolation",
    "AgentsViolationCode",
    "ArgumentCheck",
    "CardCheck",
    "CloseSubagentCallItem",
    "CommandExecutionItem",
    "ComputerUseApprovalRequestAction",
    "ComputerUseApprovalRequestItem",
    "ComputerUseApprovalRequestResultItem",
    "ComputerUseCallItem",
    "CreateSubagentCallItem",
    "Environment",
    "EnvironmentConnectionAction",
    "FunctionCallAction",
    "FunctionCallItem",
    "FunctionCallOutputItem",
    "FunctionTool",
    "InterruptSubagentCallItem",
    "Link",
    "LinkKind",
    "McpApprovalRequestAction",
    "McpCallItem",
    "PendingActions",
    "ReasoningItem",
    "RequiredAction",
    "ResumeSubagentCallItem",
    "SendSubagentInputCallItem",
    "SessionChain",
    "SessionCreateParams",
    "SessionEvent",
    "SessionEventsBody",
    "SessionInput",
    "SessionInputCancel",
    "SessionInputComputerUseApprovalRequestResult",
    "SessionInputMcpApprovalRequestResult",
    "SessionInputMessage",
    "SessionInputToolResult",
    "SessionItem",
    "SessionItemListPage",
    "SessionListPage",
    "SessionMessage",
    "SessionSnapshot",
    "SessionUpdateParams",
    "Subagent",
    "ToolResultError",
    "Turn",
    "TurnListPage",
    "UnknownRequiredAction",
    "UnknownSessionEvent",
    "UnknownSessionItem",
    "WaitForSubagentsCallItem",
    "WebSearchCallItem",
    "approval_problems",
    "check_arguments",
    "check_card",
    "check_event_log",
    "dump",
    "format_report",
    "is_unknown",
    "link_chain",
    "parse_create_params",
    "parse_event",
    "parse_events_body",
    "parse_input",
    "parse_required_action",
    "parse_session",
    "parse_session_item",
    "parse_session_snapshot",
    "parse_update_params",
    "required_action_adapter",
    "session_create_params_adapter",
    "session_event_adapter",
    "session_events_body_adapter",
    "session_input_adapter",
    "session_item_adapter",
    "session_item_list_page_adapter",
    "session_list_page_adapter",
    "session_notes",
    "session_of",
    "session_update_params_adapter",
    "turn_list_page_adapter",
]

