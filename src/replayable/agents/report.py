"""The report of `check_event_log`: violation codes, violations, `AgentsReport` and `format_report`
(the `replayable check --agents` output). Part of `replayable.agents`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from replayable._generated.agents.function_call_action import FunctionCallAction
from replayable._json import printable


class AgentsViolationCode(StrEnum):
    """Stable codes of `check_event_log`."""

    EVENT_INVALID = "event_invalid"
    """A known event or an input event that does not parse."""
    MALFORMED_RESULT = "malformed_result"
    """A tool result that breaks the tool-result rule."""
    RESULT_WITHOUT_ACTION = "result_without_action"
    """A tool result whose (turn_id, call_id) pair is not pending."""
    DOUBLE_ANSWER = "double_answer"
    """A second tool result for one pending action."""
    UNANSWERED_ACTION = "unanswered_action"
    """A required function_call that no tool result answers by the end of the log."""
    UNKNOWN_TOOL = "unknown_tool"
    """A required function_call naming no function tool of the session's agent."""
    ARGUMENTS_SCHEMA = "arguments_schema"
    """A required function_call whose arguments fail its tool's `parameters`."""
    EXECUTED_REJECTED_CALL = "executed_rejected_call"
    """A `success: true` result for a call whose arguments failed the tool schema."""


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
    """The result of `check_event_log`: `ok`, `violations` in log order, the `pending` actions
    (index of the requires_action event, the action), `unknown_events` (indexes of events of unknown
    types, kept and not acted on) and the `session_id` when seen."""

    violations: tuple[AgentsViolation, ...]
    unknown_events: tuple[int, ...] = ()
    session_id: str | None = None
    events: int = 0
    pending: tuple[tuple[int, FunctionCallAction], ...] = field(default=())

    @property
    def ok(self) -> bool:
        return not self.violations


def format_report(report: AgentsReport, fmt: str = "text", name: str = "<events>") -> str:
    """`report` as the `replayable check --agents` output: text lines like the items check, or JSON."""
    if fmt == "json":
        return json.dumps(
            {
                "file": name,
                "ok": report.ok,
                "events": report.events,
                "session_id": report.session_id,
                "violations": [v.as_dict() for v in report.violations],
                "pending": [
                    {"index": i, "turn_id": a.turn_id, "call_id": a.call_id, "name": a.name} for i, a in report.pending
                ],
                "unknown_events": list(report.unknown_events),
            },
            indent=2,
        )
    lines = [f"{name}: event {v.index}: {v.code}: {v.message}" for v in report.violations]
    if report.unknown_events:
        lines.append(
            f"{name}: unknown event types (kept, not acted on) at events " + ", ".join(map(str, report.unknown_events))
        )
    if report.violations:
        lines.append(f"{name}: NOT safe: {len(report.violations)} violation(s), {report.events} events")
    else:
        lines.append(f"{name}: ok: {report.events} events, every required action answered once")
    return "\n".join(lines)
