"""The report of `check_event_log`: violation codes, violations, `AgentsReport` and `format_report`
(the `replayable check --agents` output). Part of `replayable.agents`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from replayable._json import printable
from replayable.errors import Verdict
from replayable.notes import Note
from replayable.reports import agents_record, count, render


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
    DUPLICATE_TOOL = "duplicate_tool"
    """Two function tools of the session's agent share one name: which one a call to it runs would be a
    guess (the last one would silently win), so calls to that name are refused too."""
    ACTION_CONFLICT = "action_conflict"
    """A later required function_call reuses a (turn_id, call_id) pair with another name or other
    arguments (the same action listed again is fine): one call id, two different calls."""
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
class AgentsReport(Verdict):
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

    def violation_lines(self) -> list[str]:
        """One line per violation (`event N: code: message`), as `ReplayError` prints them."""
        lines = [
            f"{'log' if v.index is None else f'event {v.index}'}: {v.code}: {v.message}" for v in self.violations
        ]
        if self.nothing_recognised:
            lines.append(f"log: nothing was recognised as an Agents API event ({count(self.events, 'value')})")
        return lines


def format_report(report: AgentsReport, fmt: str = "text", name: str = "<events>") -> str:
    """`report` as the `replayable check --agents` output (`replayable.reports.agents_record`): text
    lines like the items check, ending `NAME: replay-safe: ...` or `NAME: NOT replay-safe: ...`, or JSON
    (`{file, kind, ok, events, recognised, session_id, findings, violations, refused, pending,
    unknown_events}`, and `error` when nothing in the log is an Agents API event)."""
    return render(agents_record(report, name), fmt)
