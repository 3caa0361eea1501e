"""The SSE entry points of `StreamAssembler`: a whole capture or an iterable of chunks (`feed_sse`), bytes
pushed as they arrive (`feed_bytes`), an async source (`afeed_sse`). Each reads the frames with
`replayable.stream._sse` and applies the events with the assembler's rules; the end of the SSE (a cut-off
last frame, no `data: [DONE]`) is checked as `parse_sse` checks it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from replayable.items import OutputItem, Provider

from ._sse import ByteReader, encode_text, frame_events, read_sse
from ._stream_codes import StreamError, StreamRule, StreamWarning

__all__ = ["SSEFeeding"]


class SSEFeeding:
    """Mixed into `StreamAssembler`: its SSE entry points (see each method)."""

    if TYPE_CHECKING:  # provided by StreamAssembler
        strict: bool
        provider: Provider
        warnings: list[StreamWarning]
        _count: int
        _bytes: ByteReader | None
        _deferred: StreamError | None

        def feed(self, event: Any) -> list[OutputItem]: ...

        def _feed_read(self, events: Iterable[Any]) -> Iterator[OutputItem]: ...

    def feed_sse(self, source: Any) -> Iterator[OutputItem]:
        """Read a `text/event-stream` body and feed its events in order, yielding the items they finish.

        `source` is anything `parse_sse` reads (the whole capture as `bytes`/`str`, a file object, an
        iterable of `bytes` chunks such as `httpx.Response.iter_bytes()`, or of `str` lines). The same
        as `for event in parse_sse(source): yield from asm.feed(event)`, with the same rules, findings
        and items, but each event is read by the strict JSON reader once instead of read and then
        checked again as a Python value (`benchmarks/bench_stream.py`). A generator: iterate it to the end
        (`for item in asm.feed_sse(...)`, or `list(...)` just to feed), then call `close()`.

        Raises `StreamError` as `parse_sse` does for framing (`sse_malformed`) and as `feed` does, in
        strict mode; in lenient mode a `data:` body that is not a JSON object is a finding, as for `feed`,
        and an `event:` name that differs from the body's `type` is a finding in `warnings`. The end of
        the source is checked as `parse_sse` checks it: a cut-off last frame is dropped (`sse_truncated`,
        raised in strict mode, a finding in lenient mode); no `data: [DONE]` is `done_missing` (raised in
        strict Open Responses mode, a note in lenient mode and, as OpenAI's streams never send it, with
        `provider="openai"`).
        """
        events = read_sse(
            source,
            self.warnings,
            first=self._count,
            keep_bad=not self.strict,
            strict=self.strict,
            provider=self.provider,
        )
        yield from self._feed_read(events)

    def feed_bytes(self, chunk: Any) -> list[OutputItem]:
        """Feed raw `text/event-stream` bytes as they arrive, split anywhere (inside a line, a CRLF or a
        UTF-8 character); return the items the events completed by this chunk finish.

        The same items, findings and errors as `feed_sse` on the joined bytes: `chunk` is `bytes`,
        `bytearray`, `memoryview` or `str` (text is UTF-8 encoded). Events are applied as soon as their
        frame's blank line arrives; a frame after `data: [DONE]` is `after_done_marker`. Call `close()` when the
        source ends: it checks the end of the SSE as `feed_sse` does (`sse_truncated`, `done_missing`)
        before `no_terminal`. Raises `StreamError` as `feed_sse` does (a chunk of another type is
        `sse_malformed`); when a chunk finishes items and then breaks a rule (strict mode), those items
        are returned and the error is raised by the next `feed_bytes` or `close()`, so that the items
        handed out are exactly those `feed_sse` yields before it raises.
        """
        reader = self._bytes
        if reader is None:
            reader = self._bytes = ByteReader()
        if self._deferred is not None:
            return self._feed_frames(reader, (), final=False)  # raises it
        if isinstance(chunk, bytes | bytearray | memoryview):
            data = bytes(chunk)
        elif isinstance(chunk, str):
            data = encode_text(chunk)
        else:
            raise StreamError(
                StreamRule.SSE_MALFORMED,
                f"feed_bytes takes bytes (or str) chunks of an SSE body, got {type(chunk).__name__}",
            )
        return self._feed_frames(reader, reader.push(data), final=False)

    async def afeed_sse(self, source: Any) -> AsyncIterator[OutputItem]:
        """`feed_sse` over an async source: `async for item in asm.afeed_sse(response.aiter_bytes())`.

        `source` is an async iterable (or a plain iterable) of `bytes` or `str` chunks of an SSE body,
        split anywhere (httpx's `aiter_bytes()`, `aiter_text()`, a file read in blocks), or of events
        already read from the SSE (the openai SDK's `AsyncStream` of typed events, or dicts), each fed with
        `feed` (no end-of-SSE check then: the SDK has read the framing). The first chunk decides which; a
        chunk of the other kind is `sse_malformed`. Yields the items finished, as they finish: the same items,
        findings and errors as `feed_sse` on the joined bytes, the end of the SSE checked when the source
        ends (`sse_truncated`, `done_missing`). Then call `close()`.
        """
        events: bool | None = None
        if hasattr(source, "__aiter__"):
            async for chunk in source:
                events = self._afeed_kind(chunk, events)
                for item in self.feed(chunk) if events else self.feed_bytes(chunk):
                    yield item
        else:
            for chunk in source:
                events = self._afeed_kind(chunk, events)
                for item in self.feed(chunk) if events else self.feed_bytes(chunk):
                    yield item
        if not events:
            for item in self._end_bytes():
                yield item

    @staticmethod
    def _afeed_kind(chunk: Any, events: bool | None) -> bool:
        is_event = not isinstance(chunk, bytes | bytearray | memoryview | str)
        if events is not None and is_event != events:
            want = "events" if events else "bytes (or str) chunks"
            raise StreamError(
                StreamRule.SSE_MALFORMED,
                f"the source gave {want} first, then a {type(chunk).__name__}: one source holds one kind",
            )
        return is_event

    def _end_bytes(self) -> list[OutputItem]:
        """End the bytes given to `feed_bytes`: the frames still held, then the end-of-SSE checks. A later
        chunk starts a new SSE body."""
        reader, self._bytes = self._bytes or ByteReader(), None
        return self._feed_frames(reader, reader.finish(), final=True)

    def _feed_frames(self, reader: ByteReader, frames: Iterable[Any], *, final: bool) -> list[OutputItem]:
        """Apply the frames' events; a `StreamError` after items were finished by earlier frames of the
        same chunk is raised at the next call (`feed_bytes`, `close`), once those items are handed out, as
        `feed_sse` yields them before it raises."""
        error, self._deferred = self._deferred, None
        if error is not None:
            raise error
        events = frame_events(
            frames,
            reader.framer,
            self.warnings,
            first=self._count,
            keep_bad=not self.strict,
            strict=self.strict,
            provider=self.provider,
            final=final,
        )
        found: list[OutputItem] = []
        try:
            found.extend(self._feed_read(events))
        except StreamError as exc:
            if not found:
                raise
            self._deferred = exc
        return found
