"""The report of `check_event_log`: violation codes, violations, `AgentsReport` and `format_report`
(the `replayable check --agents` output). Part of `replayable.agents`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from replayable._codes import AgentsViolationCode
from replayable._findings import Finding
from replayable._notes import Note
from replayable._render import agents_record, count, render
from replayable.errors import Verdict

__all__ = ["AgentsReport", "AgentsViolation", "AgentsViolationCode", "format_report"]


#: A broken rule of an Agents API event log: the library's one finding type (`replayable._findings.Finding`).
AgentsViolation = Finding


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
    """Advice that is not a violation (`replayable._notes`), e.g. `subagents_without_function_tools`."""

    @property
    def nothing_recognised(self) -> bool:
        """True when the log has events but none is an Agents API event (e.g. a Responses transcript)."""
        return self.events > 0 and self.recognised == 0

    @property
    def ok(self) -> bool:
        return not self.violations and not self.nothing_recognised

    def violation_lines(self) -> list[str]:
        """One line per violation (`event N: code: message`), as `ReplayError` prints them."""
        lines = [f"{'log' if v.index is None else f'event {v.index}'}: {v.code}: {v.message}" for v in self.violations]
        if self.nothing_recognised:
            lines.append(f"log: nothing was recognised as an Agents API event ({count(self.events, 'value')})")
        return lines


def format_report(report: AgentsReport, fmt: str = "text", name: str = "<events>") -> str:
    """`report` as the `replayable check --agents` output: text
    lines like the items check, ending `NAME: replay-safe: ...` or `NAME: NOT replay-safe: ...`, or JSON
    (`{file, kind, ok, events, recognised, session_id, findings, violations, refused, pending,
    unknown_events}`, and `error` when nothing in the log is an Agents API event)."""
    return render(agents_record(report, name), fmt)
