"""The library's one exception root, and the error raised when a request or transcript is unsafe.

Every exception that `replayable` raises on bad data derives from `ReplayableError` (itself a
`ValueError`, so existing `except ValueError` code keeps working):

- `ItemError` (an item does not parse), `JSONError` (text is not strict JSON), `ArgumentsError`
  (arguments are not strict JSON), `SchemaError` (a tool schema is unusable), `InputError` (the command
  line cannot read a file), `StreamError` (a stream breaks the item state machine), `ToolResultError`
  (an Agents tool result cannot be accepted), and
- `ReplayError`, raised by `Report.raise_for_violations()` and the integrations when a whole request or
  transcript is not safe to send; it carries the report.

This module imports nothing from the rest of the library, so every layer may import it.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ReplayError", "ReplayableError"]


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


def _describe(report: Any) -> str:
    """One line per violation of `report`: `item N: code: message` (or the report's own text)."""
    violations = list(getattr(report, "violations", ()) or ())
    if not violations:
        return "not replay-safe"
    lines = [f"not replay-safe: {len(violations)} violation{'s' if len(violations) != 1 else ''}"]
    for v in violations:
        index = getattr(v, "index", None)
        where = "request" if index is None else f"item {index}"
        code = getattr(v, "code", "?")
        lines.append(f"  {where}: {getattr(code, 'value', code)}: {getattr(v, 'message', '')}")
    return "\n".join(lines)
