"""Checking a recorded stream (used by `replayable check`): the streaming rules, then the replay rules
of the items it assembles."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from replayable._reading import is_event_list
from replayable._replay import TranscriptReport, check_transcript
from replayable.errors import Verdict
from replayable.items import OutputItem, Provider

from ._assembler import StreamAssembler
from ._sse import read_sse
from ._stream_codes import StreamWarning

__all__ = ["StreamReport", "check_stream", "is_event_list"]


@dataclass(frozen=True, slots=True)
class StreamReport(Verdict):
    """The result of `check_stream`: `findings` (every stream rule finding, `StreamWarning`s, notes
    included), `transcript` (the `TranscriptReport` of the assembled items, read as output items with
    pending calls allowed), `items` (the finished items), `events` (how many were read), `status`
    (the terminal status or None). `ok` is true when no stream rule and no replay rule is broken."""

    findings: list[StreamWarning]
    transcript: TranscriptReport
    items: list[OutputItem]
    events: int
    status: str | None

    @property
    def ok(self) -> bool:
        return self.transcript.ok and not any(f.violation for f in self.findings)

    def violation_lines(self) -> list[str]:
        """Each stream rule broken (`event N: rule: message`), then each replay rule broken by the
        assembled items, as `ReplayError` prints them."""
        events = [
            f"{'stream' if f.index is None else f'event {f.index}'}: {f.rule}: {f.message}"
            for f in self.findings
            if f.violation
        ]
        return [*events, *self.transcript.violation_lines()]


def check_stream(
    source: Any, *, provider: Provider = None, tools: Iterable[Any] | None = None, target: str | None = None
) -> StreamReport:
    """Check a recorded stream: the streaming rules, then the replay rules of its items.

    `source` is an SSE capture (`bytes`/`str`/lines, see `parse_sse`) or a list of event objects. The
    stream is assembled leniently (every finding collected), closed, and the finished items are checked
    with `check_transcript(items, side="output", pending_ok=True, provider=provider, tools=tools,
    target=target)`.

    Raises `StreamError` (rule `sse_malformed`) only when the SSE framing cannot be read.
    """
    notes: list[StreamWarning] = []
    asm = StreamAssembler(provider=provider, strict=False)
    if isinstance(source, list):
        for ev in source:
            asm.feed(ev)
    else:  # read once by the strict reader, not checked again (StreamAssembler.feed_sse)
        for _ in asm._feed_read(read_sse(source, notes, strict=False, provider=provider)):
            pass
    n = asm._count
    asm.close()
    items = asm.items
    report = check_transcript(items, side="output", pending_ok=True, provider=provider, tools=tools, target=target)
    return StreamReport([*notes, *asm.warnings], report, items, n, asm.status)
