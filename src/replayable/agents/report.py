"""The report of `check_event_log`: violation codes, violations, `AgentsReport` and `format_report`
(the `replayable check --agents` output). Part of `replayable.agents`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from replayable._json import printable
from replayable.notes import Note
from replayable.reports import count


class AgentsViolationCode(StrEnum):
    """Stable codes of `check_event_log`."""

    EVENT_INVALID = "event_invalid"
    """A known event or an input event that does not parse."""
    MALFORMED_RESULT = "malformed_result"
    """A tool result or approval answer that breaks its rule (or does not fit its approval request)."""
    RESULT_WITHOUT_ACTION = "result_without_action"
    """A tool result whose (turn_id, call_id) pair, or an approval answer whose request_id, is not pending."""
    DOUBLE_ANSWER = "double_answer"
    """A second, different answer for one pending action (resending the same answer is fine)."""
    UNANSWERED_ACTION = "unanswered_action"
    """A required function_call or approval request that nothing answers by the end of the log."""
    UNKNOWN_TOOL = "unknown_tool"
    """A required function_call naming no function tool of the session's agent (a refusal note: a
    violation only as `executed_rejected_call`)."""
    ARGUMENTS_SCHEMA = "arguments_schema"
    """A required function_call whose arguments fail its tool's `parameters` (a refusal note: a violation
    only as `executed_rejected_call`)."""
    EXECUTED_REJECTED_CALL = "executed_rejected_call"
    """A `success: true` result for a call that `check_arguments` refused (unknown tool, arguments that
    fail the tool schema, or a tool schema that cannot be checked)."""


@dataclass(frozen=True, slots=True)
class AgentsViolation:
    """One broken rule: `index` of the event in the log, a stable `code`, a readable `message`, and
    `path`, a JSON Pointer into the event."""

    index: int | None
    code: AgentsViolationCode
    message: str
    path: str = ""

    def __post_init__(self) -> None:  # messages may quote the input: never a lone surrogate
        object.__setattr__(self, "message", printable(self.message))
        object.__setattr__(self, "path", printable(self.path))

    def as_dict(self) -> dict[str, Any]:
        return {"index": self.index, "code": str(self.code), "message": self.message, "path": self.path}


@dataclass(frozen=True, slots=True)
class AgentsReport:
    """The result of `check_event_log`.

    `violations` in log order; `refused`, the required calls that `check_arguments` refused
    (`unknown_tool` / `arguments_schema` findings at the requires_action event): not violations, since
    answering them with `success: false` is the safe outcome, and only a `success: true` answer turns
    one into an `executed_rejected_call` violation; the `pending` actions (index of the requires_action
    event, the function_call or approval action); `unknown_events` (indexes of events of unknown
    types, kept and not acted on); the `session_id` when seen; `events`, the number of events read;
    `recognised`, how many of them are Agents API events or inputs (known types, or an `agent.` prefix);
    `notes`, advice that is not a violation (once per session: subagents do not get function tools).
    `ok` is true when there is no violation and something was recognised (or the log is empty).
    """

    violations: tuple[AgentsViolation, ...]
    unknown_events: tuple[int, ...] = ()
    session_id: str | None = None
    events: int = 0
    pending: tuple[tuple[int, Any], ...] = field(default=())
    refused: tuple[AgentsViolation, ...] = ()
    recognised: int = 0
    notes: tuple[Note, ...] = ()
    """Advice that is not a violation (`replayable.notes`), e.g. `subagents_without_function_tools`."""

    @property
    def nothing_recognised(self) -> bool:
        """True when the log has events but none is an Agents API event (e.g. a Responses transcript)."""
        return self.events > 0 and self.recognised == 0

    @property
    def ok(self) -> bool:
        return not self.violations and not self.nothing_recognised


def _pending_dict(index: int, action: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"index": index, "type": action.type, "turn_id": action.turn_id}
    if action.type == "function_call":
        out.update(call_id=action.call_id, name=action.name)
    else:
        out["request_id"] = action.request_id
    return out


def format_report(report: AgentsReport, fmt: str = "text", name: str = "<events>") -> str:
    """`report` as the `replayable check --agents` output: text lines like the items check, or JSON
    (`{file, ok, events, recognised, session_id, violations, refused, pending, unknown_events}`)."""
    if fmt == "json":
        return json.dumps(
            {
                "file": name,
                "ok": report.ok,
                "events": report.events,
                "recognised": report.recognised,
                "session_id": report.session_id,
                "violations": [v.as_dict() for v in report.violations],
                "refused": [v.as_dict() for v in report.refused],
                "pending": [_pending_dict(i, a) for i, a in report.pending],
                "unknown_events": list(report.unknown_events),
                "notes": [n.as_dict() for n in report.notes],
            },
            indent=2,
        )
    if report.nothing_recognised:
        return (
            f"{name}: nothing was recognised as an Agents API event ({count(report.events, 'value')}, no known "
            "event type or agent.* type); is this a Responses transcript? Check it without --agents"
        )
    lines = [f"{name}: event {v.index}: {v.code}: {v.message}" for v in report.violations]
    lines += [f"{name}: event {v.index}: refused before execution ({v.code}): {v.message}" for v in report.refused]
    lines += [f"{name}: event {n.index}: note ({n.code}): {n.message}" for n in report.notes]
    if report.unknown_events:
        lines.append(
            f"{name}: unknown event types (kept, not acted on) at events " + ", ".join(map(str, report.unknown_events))
        )
    if report.violations:
        lines.append(f"{name}: NOT safe: {count(len(report.violations), 'violation')}, {count(report.events, 'event')}")
    else:
        lines.append(f"{name}: ok: {count(report.events, 'event')}, every required action answered once")
    return "\n".join(lines)
