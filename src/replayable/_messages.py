"""Text every message may quote: hostile input made printable, a stream event's place in words.

The bottom of the house (below `errors`): exception messages and findings both use it.
"""

from __future__ import annotations

import re

_SURROGATE = re.compile("[\ud800-\udfff]")


def printable(text: str) -> str:
    """`text` with each lone UTF-16 surrogate written as a `\\udXXX` escape, so that an error message
    that quotes hostile input can always be printed or encoded as UTF-8."""
    if _SURROGATE.search(text) is None:
        return text
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def event_where(sequence_number: int | None, index: int | None, event_type: str | None, offset: int | None) -> str:
    """Where a stream event is, for messages: `event 3 (response.created) at byte 120`; `stream` when
    nothing is known (used by `StreamError` and by the stream's findings)."""
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
