"""Stream rule codes and findings: `StreamRule`, `StreamWarning` (recorded) and `StreamError` (raised).

See `replayable.stream` for what breaks each rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from replayable._codes import Severity, StreamRule
from replayable._findings import Finding
from replayable._messages import event_line, event_where
from replayable.errors import StreamError

__all__ = ["StreamError", "StreamRule", "StreamWarning"]


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
        return event_line(event_where(self.sequence_number, self.index, self.event_type, None), self.message, self.rule)

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
