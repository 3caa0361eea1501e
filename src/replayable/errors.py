"""The library's one exception root, and the error raised when a request or transcript is unsafe.

Every exception that `replayable` raises on bad data derives from `ReplayableError` (itself a
`ValueError`, so existing `except ValueError` code keeps working):

- `ItemError` (an item does not parse), `JSONError` (text is not strict JSON), `ArgumentsError`
  (arguments are not strict JSON), `SchemaError` (a tool schema is unusable), `InputError` (the command
  line cannot read a file), `StreamError` (a stream breaks the item state machine), `ToolResultError`
  (an Agents tool result cannot be accepted), `SchemaLoopError` (a schema loops in place; reported by
  `compile_schema` as a `SchemaError`), and
- `ReplayError`, raised by `Report.raise_for_violations()` and the integrations when a whole request or
  transcript is not safe to send; it carries the report.

`Verdict` is the base of every report with an `ok` verdict (`TranscriptReport`, `ReplayReport`,
`StreamReport`, `AgentsReport`, `ArgumentCheck`, `SessionChain`, `CardCheck`, `GateResult`): it gives them
`raise_for_violations()`, like `httpx.Response.raise_for_status()`.

This module imports nothing from the rest of the library, so every layer may import it.
"""

from __future__ import annotations

from typing import Any, Self

__all__ = ["ReplayError", "ReplayableError", "Verdict"]


class ReplayableError(ValueError):
    """Root of every exception `replayable` raises on bad data: `except ReplayableError` catches them all."""


class ReplayError(ReplayableError):
    """A request or transcript is not safe to replay.

    `.report` is the report that found it (a `TranscriptReport`, or the Agents / stream report of the
    entry point that raised); `str(error)` lists each violation with its item index and code.
    """

    def __init__(self, report: Any, message: str | None = None) -> None:
        self.report = report
        super().__init__(message if message is not None else _describe(report))


class Verdict:
    """Base of every report that has an `ok` verdict: adds `raise_for_violations()`.

    A report class defines `ok` and, when it does not list `.violations` with `index`, `code` and
    `message`, overrides `violation_lines()`.
    """

    __slots__ = ()

    @property
    def ok(self) -> bool:
        raise NotImplementedError

    def raise_for_violations(self) -> Self:
        """Return this report when it is ok; otherwise raise `ReplayError(self)`, whose message lists
        each violation (like `httpx.Response.raise_for_status()`, so a check reads
        `report = check_transcript(items).raise_for_violations()`)."""
        if not self.ok:
            raise ReplayError(self)
        return self

    def violation_lines(self) -> list[str]:
        """One line per violation, `item N: code: message` (`request` for a finding without an index),
        as `ReplayError` prints them."""
        return _lines(getattr(self, "violations", ()) or (), "item")


def _lines(violations: Any, unit: str) -> list[str]:
    lines = []
    for v in violations:
        index = getattr(v, "index", None)
        where = "request" if index is None else f"{unit} {index}"
        code = getattr(v, "code", "?")
        lines.append(f"{where}: {getattr(code, 'value', code)}: {getattr(v, 'message', '')}")
    return lines


def _describe(report: Any) -> str:
    """A heading, then one indented line per violation of `report` (its `violation_lines()`, or its
    `.violations` read as `index`, `code`, `message`)."""
    describe = getattr(report, "violation_lines", None)
    lines = describe() if callable(describe) else _lines(getattr(report, "violations", ()) or (), "item")
    if not lines:
        return "not replay-safe"
    heading = f"not replay-safe: {len(lines)} violation{'s' if len(lines) != 1 else ''}"
    return "\n".join([heading, *(f"  {line}" for line in lines)])
