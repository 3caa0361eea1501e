"""Stream rule codes and findings: `StreamRule`, `StreamWarning` (recorded) and `StreamError` (raised).

See `replayable.stream` for what breaks each rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from replayable._json import printable
from replayable.errors import ReplayableError

__all__ = ["StreamError", "StreamRule", "StreamWarning"]


class StreamRule(StrEnum):
    """Stable codes of the streaming rules (see the module docstring for what breaks each)."""

    SSE_MALFORMED = "sse_malformed"
    SSE_TRUNCATED = "sse_truncated"
    DONE_MISSING = "done_missing"
    EVENT_NAME = "event_name"
    EVENT_SCHEMA = "event_schema"
    UNKNOWN_EVENT = "unknown_event"
    SEQUENCE_MISSING = "sequence_missing"
    SEQUENCE_ORDER = "sequence_order"
    NOT_ADDED = "not_added"
    ITEM_ID = "item_id"
    ADDED_TWICE = "added_twice"
    OUTPUT_INDEX = "output_index"
    DUPLICATE_ID = "duplicate_id"
    AFTER_DONE = "after_done"
    ITEM_SCHEMA = "item_schema"
    ITEM_CHANGED = "item_changed"
    DONE_STATUS = "done_status"
    WRONG_ITEM = "wrong_item"
    PART_ORDER = "part_order"
    TEXT_MISMATCH = "text_mismatch"
    ARGUMENTS_MISMATCH = "arguments_mismatch"
    AFTER_INCOMPLETE = "after_incomplete"
    RESPONSE_STATUS = "response_status"
    AFTER_TERMINAL = "after_terminal"
    SNAPSHOT_MISMATCH = "snapshot_mismatch"
    SNAPSHOT_SCHEMA = "snapshot_schema"
    NO_TERMINAL = "no_terminal"


def _where(sequence_number: int | None, index: int | None, event_type: str | None, offset: int | None) -> str:
    parts = []
    if sequence_number is not None:
        parts.append(f"event {sequence_number}")
    elif index is not None:
        parts.append(f"event #{index} (no sequence_number)")
    if event_type:
        parts.append(f"({event_type})")
    if offset is not None:
        parts.append(f"at byte {offset}")
    return " ".join(parts) or "stream"


@dataclass(frozen=True, slots=True)
class StreamWarning:
    """A rule finding recorded instead of raised.

    `sequence_number` of the event (None when it had none), `index` (position of the event in what was
    fed, from 0), `event_type`, `rule` (a `StreamRule`), `message`, and `violation`: True when the
    stream breaks the rule (strict mode raises `StreamError` for it), False for a note that strict mode
    also lets pass (`sequence_missing` in OpenAI mode, `snapshot_schema`).
    """

    sequence_number: int | None
    index: int | None
    event_type: str | None
    rule: StreamRule
    message: str
    violation: bool = True

    def __str__(self) -> str:
        return f"{_where(self.sequence_number, self.index, self.event_type, None)}: {self.message} [{self.rule}]"

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form: `{"sequence_number", "index", "event_type", "rule", "message", "violation"}`."""
        return {
            "sequence_number": self.sequence_number,
            "index": self.index,
            "event_type": self.event_type,
            "rule": str(self.rule),
            "message": self.message,
            "violation": self.violation,
        }


class StreamError(ReplayableError):
    """A stream breaks a rule: `.rule` (`StreamRule`), `.sequence_number` of the offending event (None
    when it had none), `.index` (its position among the events fed), `.event_type`, `.offset` (byte
    offset of the SSE frame, for `parse_sse` errors) and `.message`. `str()` names them all."""

    def __init__(
        self,
        rule: StreamRule,
        message: str,
        *,
        sequence_number: int | None = None,
        index: int | None = None,
        event_type: str | None = None,
        offset: int | None = None,
    ) -> None:
        self.rule = rule
        self.message = message
        self.sequence_number = sequence_number
        self.index = index
        self.event_type = event_type
        self.offset = offset
        super().__init__(printable(f"{_where(sequence_number, index, event_type, offset)}: {message} [{rule}]"))
