"""Stream rule codes and findings: `StreamRule`, `StreamWarning` (recorded) and `StreamError` (raised).

See `replayable.stream` for what breaks each rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from replayable._codes import Severity, StreamRule
from replayable._findings import Finding
from replayable._json import printable
from replayable.errors import ReplayableError

__all__ = ["StreamError", "StreamRule", "StreamWarning"]


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


@dataclass(frozen=True, slots=True, init=False, repr=False)
class StreamWarning(Finding):
    """A rule finding recorded instead of raised: a `Finding` of a stream event.

    `StreamWarning(sequence_number, index, event_type, rule, message, violation=True)`: `sequence_number`
    of the event (None when it had none), `index` (position of the event in what was fed, from 0),
    `event_type`, `rule` (the finding's `code`, a `StreamRule`), `message`, and `violation`: True when the
    stream breaks the rule (severity `violation`: strict mode raises `StreamError` for it), False for a
    note that strict mode also lets pass (`sequence_missing` in OpenAI mode, `snapshot_schema`).
    """

    sequence_number: int | None
    event_type: str | None

    __hash__ = Finding.__hash__

    def __init__(
        self,
        sequence_number: int | None,
        index: int | None,
        event_type: str | None,
        rule: StreamRule | None = None,
        message: str | None = None,
        violation: bool = True,
        *,
        params: Any = None,
        path: str = "",
        code: StreamRule | None = None,
        severity: Any = None,
    ) -> None:
        if severity is None:
            severity = Severity.VIOLATION if violation else Severity.NOTE
        Finding.__init__(self, index, code or rule, message, path, params=params, severity=severity)
        object.__setattr__(self, "sequence_number", sequence_number)
        object.__setattr__(self, "event_type", event_type)

    @property
    def rule(self) -> StreamRule:
        """The rule broken (the finding's `code`)."""
        return self.code  # type: ignore[no-any-return]

    @property
    def violation(self) -> bool:
        """True when the stream breaks the rule; False for a note."""
        return self.severity is Severity.VIOLATION

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
    offset of the SSE frame, for `parse_sse` errors), `.message`, and `.errors`: one dict per problem,
    `{"loc", "type", "msg"}` as `ItemError.errors` has them (`loc` a tuple path into the event, `()` for
    the event or the stream as a whole; `type` a stable code: pydantic's for a field of an `event_schema`
    error, from the one error normalizer, else the rule's own value). `str()` names them all."""

    def __init__(
        self,
        rule: StreamRule,
        message: str,
        *,
        sequence_number: int | None = None,
        index: int | None = None,
        event_type: str | None = None,
        offset: int | None = None,
        errors: list[dict[str, Any]] | None = None,
    ) -> None:
        self.rule = rule
        self.message = message
        self.sequence_number = sequence_number
        self.index = index
        self.event_type = event_type
        self.offset = offset
        if not errors:
            errors = [{"loc": (), "type": str(rule), "msg": message}]
        # messages may quote hostile input: a lone surrogate is escaped so that they always print
        self.errors: list[dict[str, Any]] = [
            e if printable(e["msg"]) is e["msg"] else {**e, "msg": printable(e["msg"])} for e in errors
        ]
        super().__init__(printable(f"{_where(sequence_number, index, event_type, offset)}: {message} [{rule}]"))
