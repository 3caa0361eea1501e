"""Reading a `text/event-stream` body into event dicts (spec "Streaming"; WHATWG SSE framing)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from itertools import chain
from typing import IO, Any

from replayable._json import ContainerBudget, loads, may_overflow
from replayable.items import Provider

from ._events import peek_event
from ._stream_codes import StreamError, StreamRule, StreamWarning

__all__ = ["event_offsets", "parse_sse"]

# ---------------------------------------------------------------------------------------------------
# SSE


def _encode(text: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise StreamError(
            StreamRule.SSE_MALFORMED, f"the text holds a lone UTF-16 surrogate at character {exc.start}"
        ) from None


def _chunks(source: Any) -> Iterator[tuple[bytes, bool]]:
    """Yield (bytes, is_line) pieces of the source."""
    if isinstance(source, bytes | bytearray | memoryview):
        yield bytes(source), False
    elif isinstance(source, str):
        yield _encode(source), False
    elif hasattr(source, "read"):
        stream: IO[Any] = source
        while True:
            block = stream.read(65536)
            if not block:
                return
            yield (_encode(block) if isinstance(block, str) else bytes(block)), False
    else:
        if not isinstance(source, Iterable):
            raise StreamError(
                StreamRule.SSE_MALFORMED,
                "an SSE source is bytes, text, a binary or text file, or an iterable of lines; "
                f"got {type(source).__name__}",
            )
        for piece in source:
            if isinstance(piece, str):
                yield _encode(piece), True
            elif isinstance(piece, bytes | bytearray | memoryview):
                yield bytes(piece), False
            else:
                raise StreamError(
                    StreamRule.SSE_MALFORMED,
                    f"expected str lines or bytes chunks, got {type(piece).__name__}",
                )


def _iter_lines(source: Any) -> Iterator[tuple[int, bytes]]:
    """(byte offset, line without terminator); CRLF, LF and CR all end a line (WHATWG SSE)."""
    return _lines_of(_chunks(source))


def _lines_of(pieces: Iterable[tuple[bytes, bool]]) -> Iterator[tuple[int, bytes]]:
    """`_iter_lines` of the `(bytes, is_line)` pieces `_chunks` gives.

    Linear in the input however it is chunked: each chunk is split once (`bytes.splitlines`, which
    splits on CR, LF and CRLF only), and the pieces of a line that spans chunks are kept in a list and
    joined once, when the line ends.
    """
    offset = 0
    partial: list[bytes] = []  # the pieces of a line not ended yet (none holds a terminator)
    skip_lf = False  # the last chunk ended with CR: a LF starting the next one completes that CRLF
    for piece, is_line in pieces:
        if skip_lf and piece[:1] == b"\n":
            piece = piece[1:]
            offset += 1
        skip_lf = False
        if is_line:
            if partial:
                piece = b"".join((*partial, piece))
                partial = []
            body = piece.rstrip(b"\r\n")
            for line in body.splitlines() or [b""]:
                yield offset, line
                offset += len(line) + 1
            continue
        if not piece:
            continue
        lines = piece.splitlines(keepends=True)
        tail = lines.pop() if not lines[-1].endswith((b"\n", b"\r")) else None
        for line in lines:
            if partial:
                partial.append(line)
                line = b"".join(partial)
                partial = []
            yield offset, line.rstrip(b"\r\n")
            offset += len(line)
        if tail is not None:
            partial.append(tail)
        else:
            skip_lf = piece.endswith(b"\r")
    if partial:
        yield offset, b"".join(partial)


def parse_sse(source: Any, *, provider: Provider = None) -> Iterator[dict[str, Any]]:
    """Read a `text/event-stream` body into event dicts (spec "Streaming": SSE rules; WHATWG SSE framing).

    `source` is the whole capture (`bytes` or `str`), a binary or text file object, an iterable of
    `bytes` chunks (a byte stream, split anywhere, e.g. `httpx.Response.iter_bytes()`), or an iterable
    of `str` lines (terminators optional, e.g. `httpx.Response.iter_lines()`).

    Yields one dict per frame, the JSON of its `data:` lines (several `data:` lines are joined with
    newlines). Comment lines (`:`), `id:` and `retry:` are ignored, and so is one leading byte order
    mark (U+FEFF); CRLF, LF and CR end lines; a frame ends at a blank line. `data: [DONE]` ends the
    stream and is not yielded; the input is still read to its end, and a frame after it is a fault
    (`after_done_marker`), never dropped silently.

    The end of input is checked once the last event is yielded (a reader with no lenient mode raises):
    a last frame without its terminating blank line is cut off and dropped, as the SSE standard and the
    openai SDK drop it (rule `sse_truncated`; a cut-off `data: [DONE]` only lacks its blank line and
    passes); a capture that does not end with the literal `data: [DONE]` breaks the spec's streaming
    rule (`done_missing`), except with `provider="openai"`: OpenAI's Responses API ends its streams
    at the terminal event without `[DONE]`, which is read as the end.

    Raises `StreamError` with `.offset` (the frame's byte offset): rule `sse_malformed` for a line that
    is not an SSE field (the SSE standard ignores one; this strict reader refuses it, naming the line, as
    it is most often a `data:` line that lost its prefix; a lenient `StreamAssembler` and `check_stream`
    ignore it with a note), data that is not a JSON object, or an `event:` without data; rule
    `event_name` when the `event:` field differs from the body's `type`; `after_done_marker` for a
    frame after `data: [DONE]`; `sse_truncated` and `done_missing` as above.
    """
    return _parse_sse(source, None, provider=provider)


#: A whole capture is read a common frame at a time (`event: NAME`, `data: JSON`, a blank line, each
#: ended by LF, no CR inside) where no frame is open; anything else (comments, `id:`, several data lines,
#: CR or CRLF endings, no space after the colon) line by line. Both give the same events, offsets and
#: errors. (`.` is any byte but LF: the CR check is a separate search, which is faster than a class.)
_FRAME = re.compile(rb"(?:event: (.*)\n)?data: (.*)\n\n")
_EOL = re.compile(rb"[\r\n]")
_DONE = b"[DONE]"
_BOM = b"\xef\xbb\xbf"  # U+FEFF in UTF-8
_Frame = tuple[str | None, bytes, int]  # (event name, data, byte offset)


class _Framer:
    """The SSE fields of the frame being read, one line at a time (WHATWG SSE)."""

    __slots__ = (
        "after", "after_at", "after_index", "at", "budget", "cut", "data", "done", "name", "notes", "numbers_ok",
        "strict", "through",
    )  # fmt: skip

    def __init__(self) -> None:
        self.name: str | None = None
        self.data: list[bytes] = []
        self.at: int | None = None  # the offset of the open frame's first field, None when none is open
        self.cut: _Frame | None = None  # the frame open at the end of input (cut off, never dispatched)
        self.done = False  # `data: [DONE]` was read
        self.after = 0  # frames read after `data: [DONE]` (each one a fault: `after_done_marker`)
        self.after_at: int | None = None  # the byte offset of the first of them
        self.after_index: int | None = None  # and its index among the events (read `through`)
        self.through = False  # frames after `data: [DONE]` are read as events too (counted all the same)
        self.budget = ContainerBudget()  # the capture's container budget, whatever its chunks
        #: No number in any line read so far can read as infinity or zero (`may_overflow` said no for
        #: every cut scanned): each `data:` body, a part of those lines, then needs no filter of its own.
        self.numbers_ok = False
        self.strict = True  # an unknown field line raises (strict) or is ignored with a note (set by `_events`)
        self.notes: list[StreamWarning] | None = None

    def spend(self, piece: bytes, offset: int, extra: int = 0) -> None:
        """Count the bytes `piece` of the capture (at `offset`) against its container budget: one budget
        per input, as one JSON text of the same size has. Over it, every reader raises (lenient ones too:
        it is a limit of memory, not a finding), rule `sse_malformed`, type `too_many_containers`."""
        over = self.budget.add(piece, extra)
        if over is not None:
            msg = f"the SSE capture {over}"
            raise StreamError(
                StreamRule.SSE_MALFORMED,
                msg,
                offset=offset,
                errors=[{"loc": (), "type": "too_many_containers", "msg": msg}],
            )

    def line(self, offset: int, line: bytes) -> _Frame | None:
        """Apply one line (without its terminator); the frame a blank line ends, else None."""
        if offset == 0 and line.startswith(_BOM):
            line = line[len(_BOM) :]  # WHATWG SSE: one leading U+FEFF is ignored
        if not line:
            at, name, payload = self.at, self.name, self.data
            if at is None:
                return None
            self.name, self.data, self.at = None, [], None
            if not payload:
                if name is not None:
                    raise StreamError(StreamRule.SSE_MALFORMED, f"event '{name}' has no data line", offset=at)
                return None
            return name, b"\n".join(payload), at
        if line.startswith(b":"):
            return None
        if self.at is None:
            self.at = offset
        key, _, value = line.partition(b":")
        if value.startswith(b" "):
            value = value[1:]
        if key == b"data":
            self.data.append(value)
        elif key == b"event":
            self.name = value.decode("utf-8", "replace")
        elif key not in (b"id", b"retry"):
            self._unknown_field(offset, line)
        return None

    def _unknown_field(self, offset: int, line: bytes) -> None:
        """A line whose field is not `event`, `data`, `id` or `retry`. WHATWG SSE ignores it; a strict
        reader refuses it (`sse_malformed`, naming the line): the Open Responses streams use `event:` and
        `data:` only, and such a line is most often a `data:` line that lost its prefix (an event silently
        lost). A lenient reader follows the standard: the line is ignored and a note names it."""
        shown = line[:60].decode("utf-8", "replace")
        if self.strict or self.notes is None:
            raise StreamError(
                StreamRule.SSE_MALFORMED,
                f"line {shown!r} is not an SSE field (expected 'event:', 'data:', 'id:', 'retry:' or a ':' comment)",
                offset=offset,
            )
        msg = f"line {shown!r} (byte {offset}) is not an SSE field; ignored, as the SSE standard (WHATWG) says"
        self.notes.append(StreamWarning(None, None, None, StreamRule.SSE_MALFORMED, msg, violation=False))

    def end(self) -> None:
        """End of input: a frame still open lacks its terminating blank line. It is cut off and never
        dispatched (WHATWG SSE: "if the data buffer ... at the end of the stream, discard it"; the
        openai SDK's decoder drops it too); kept in `cut` for the reader to say so."""
        if self.at is not None and (self.data or self.name is not None):
            self.cut = self.name, b"\n".join(self.data), self.at
        self.name, self.data, self.at = None, [], None


#: Most bytes held waiting for a line end before a byte stream is read line by line instead (a line
#: that long, or a stream that ends its lines with CR alone).
_MAX_PENDING = 1 << 16


def _scan(buf: bytes, base: int, framer: _Framer) -> Iterator[_Frame]:
    """The frames ended in `buf` (bytes from offset `base` of the input, ending at a line end or at the
    end of input): common frames whole where no frame is open, every other line through `framer`."""
    framer.spend(buf, base)
    find, match, search = buf.find, _FRAME.match, _EOL.search
    pos, n = 0, len(buf)
    while pos < n:
        if framer.at is None:
            m = match(buf, pos)
            if m is not None and find(b"\r", pos, m.end()) < 0:
                name, body = m.group(1, 2)
                yield (None if name is None else name.decode("utf-8", "replace")), body, base + pos
                pos = m.end()
                continue
        e = search(buf, pos)
        if e is None:
            line, nxt = buf[pos:], n
        else:
            j = e.start()
            line = buf[pos:j]
            nxt = j + 2 if buf[j] == 13 and buf[j + 1 : j + 2] == b"\n" else j + 1
        got = framer.line(base + pos, line)
        pos = nxt
        if got is not None:
            yield got


def _frames(source: Any, framer: _Framer) -> Iterator[_Frame]:
    """The frames of any `parse_sse` source (a frame open at the end of input goes to `framer.cut`).
    Bytes are cut after their last LF (no line and no CRLF spans two cuts) and each cut is scanned;
    `str` lines, and a line longer than `_MAX_PENDING`, are read line by line (`_frames_by_line`) from
    there on. Linear in the input however it is chunked."""
    if isinstance(source, bytes | bytearray | memoryview | str):
        data = _encode(source) if isinstance(source, str) else bytes(source)
        framer.numbers_ok = not may_overflow(data)  # once per capture instead of once per event
        yield from _scan(data, 0, framer)
    else:
        framer.numbers_ok = True
        base = 0
        pending: list[bytes] = []  # the bytes after the last LF so far
        size = 0
        pieces = _chunks(source)
        for piece, is_line in pieces:
            k = -1 if is_line or size > _MAX_PENDING else piece.rfind(b"\n")
            if k < 0:
                if not is_line and size <= _MAX_PENDING:
                    pending.append(piece)
                    size += len(piece)
                    continue
                rest = chain(((b"".join(pending), False),) if pending else (), ((piece, is_line),), pieces)
                framer.numbers_ok = False  # read line by line from here: each body is checked
                yield from _frames_by_line(rest, framer, base)
                return
            cut = b"".join((*pending, piece[: k + 1])) if pending else piece[: k + 1]
            framer.numbers_ok = framer.numbers_ok and not may_overflow(cut)
            yield from _scan(cut, base, framer)
            base += len(cut)
            pending = [piece[k + 1 :]] if k + 1 < len(piece) else []
            size = len(piece) - k - 1
        if pending:
            tail = b"".join(pending)
            framer.numbers_ok = framer.numbers_ok and not may_overflow(tail)
            yield from _scan(tail, base, framer)
    framer.end()


def _frames_by_line(pieces: Iterable[tuple[bytes, bool]], framer: _Framer, base: int = 0) -> Iterator[_Frame]:
    """The frames of `(bytes, is_line)` pieces, line by line, from offset `base` (a frame open at the end
    of input goes to `framer.cut`)."""
    for offset, line in _lines_of(pieces):
        framer.spend(line, base + offset, 1)
        got = framer.line(base + offset, line)
        if got is not None:
            yield got
    framer.end()


def event_offsets(data: bytes) -> list[int]:
    """The byte offset of each frame of the SSE capture `data` that carries an event (the frames before
    `data: [DONE]`), in order: the n-th is where event n (as `parse_sse` and `check_stream` count them)
    starts. Read as a lenient reader reads (unknown field lines ignored); framing it cannot read ends the
    list there. For placing findings on a file's lines (`replayable._reading.places`)."""
    framer = _Framer()
    framer.strict, framer.notes = False, []
    out: list[int] = []
    try:
        for _, body, at in _frames(data, framer):
            if body.strip() == _DONE:
                break
            out.append(at)
    except StreamError:
        pass
    return out


def _parse_sse(
    source: Any,
    notes: list[StreamWarning] | None,
    *,
    first: int = 0,
    keep_bad: bool = False,
    strict: bool = True,
    provider: Provider = None,
) -> Iterator[Any]:
    """`parse_sse`, for the assembler: `notes` collects notes (and, with `strict=False`, the findings
    `parse_sse` raises for: `event_name`, `sse_truncated`; `done_missing` is then a note); `first` is
    the index (among the events fed) of the first event, for those findings. With `keep_bad`, a `data:`
    body that is not a JSON object is yielded as its bytes instead of raising `sse_malformed`, for a
    lenient reader to record as a finding."""
    framer = _Framer()
    return _events(
        _frames(source, framer), framer, notes, first=first, keep_bad=keep_bad, strict=strict, provider=provider
    )


def _events(
    frames: Iterable[_Frame],
    framer: _Framer,
    notes: list[StreamWarning] | None,
    *,
    first: int = 0,
    keep_bad: bool = False,
    strict: bool = True,
    provider: Provider = None,
    final: bool = True,
) -> Iterator[Any]:
    """The event dicts of `frames`, up to `data: [DONE]` (which sets `framer.done`; a frame after it is
    `after_done_marker`); with `final`, the end of input is checked once the frames run out (`_end`)."""
    framer.strict, framer.notes = strict, notes  # read as the frames are (lazily): an unknown field line
    count = first
    for name, body, at in frames:
        if framer.done:  # the stream ended: what follows is a fault, never dropped silently
            if framer.after_index is None:
                framer.after_index = count
            _after_done(framer, name, at, strict)
            if not framer.through:
                continue
        if body.strip() == _DONE:
            framer.done = True
            continue
        try:  # `_frame`, inlined for the common case; anything else goes through it for its finding
            value = loads(body, what="data", numbers_checked=framer.numbers_ok)
        except (ValueError, RecursionError):
            value = None
        if type(value) is dict and (name is None or name == value.get("type")):
            yield value
        elif keep_bad and type(value) is not dict:
            yield body
        else:
            yield _frame(body, name, at, count, notes, strict)
        count += 1
    if final:
        _end(framer, notes, strict, provider)


def _end(framer: _Framer, notes: list[StreamWarning] | None, strict: bool, provider: Provider) -> None:
    """The end of an SSE capture: a cut-off last frame (`sse_truncated`), no `data: [DONE]`
    (`done_missing`); strict readers raise, lenient ones record (see `parse_sse`)."""
    if framer.done:
        if framer.cut is not None:  # a cut-off frame after [DONE]: after it all the same
            _after_done(framer, framer.cut[0], framer.cut[2], strict)
            framer.cut = None
        if framer.after and notes is not None:
            n = framer.after
            msg = (
                f"{n} SSE frame{'s' if n > 1 else ''} after data: [DONE] (the first at byte {framer.after_at}): "
                "the stream ended there, so they were not read as events"
            )
            notes.append(StreamWarning(None, None, None, StreamRule.AFTER_DONE_MARKER, msg))
            framer.after = 0
        return
    cut = framer.cut
    if cut is not None:
        name, body, at = cut
        where = f"the last frame (byte {at}{f', event: {name}' if name else ''})"
        if body.strip() == _DONE:
            if notes is not None:
                notes.append(
                    StreamWarning(
                        None,
                        None,
                        None,
                        StreamRule.SSE_TRUNCATED,
                        f"{where}, data: [DONE], lacks its terminating blank line; read as the end of the stream",
                        violation=False,
                    )
                )
            return
        msg = (
            f"{where} lacks its terminating blank line: the capture is cut off, so that frame is dropped "
            "(WHATWG SSE; the openai SDK drops it too)"
        )
        if strict:
            raise StreamError(StreamRule.SSE_TRUNCATED, msg, event_type=name, offset=at)
        if notes is not None:
            notes.append(StreamWarning(None, None, name, StreamRule.SSE_TRUNCATED, msg))
    if provider == "openai":
        msg = (
            "the stream ended without data: [DONE], as OpenAI's Responses API streams do "
            "(they end at the terminal event)"
        )
        if notes is not None:
            notes.append(StreamWarning(None, None, None, StreamRule.DONE_MISSING, msg, violation=False))
        return
    msg = 'the stream ended without data: [DONE] (spec "Streaming": the terminal event MUST be the literal [DONE])'
    if strict:
        raise StreamError(StreamRule.DONE_MISSING, msg)
    if notes is not None:
        notes.append(StreamWarning(None, None, None, StreamRule.DONE_MISSING, msg, violation=False))


def _after_done(framer: _Framer, name: str | None, at: int, strict: bool) -> None:
    """A frame read after `data: [DONE]`: a strict reader raises (`after_done_marker`), a lenient one
    counts it for the one finding the end of input records (`_end`)."""
    if strict and not framer.through:
        shown = f", event: {name}" if name else ""
        raise StreamError(
            StreamRule.AFTER_DONE_MARKER,
            f"an SSE frame (byte {at}{shown}) follows data: [DONE], which ends the stream: what follows the end "
            "is never dropped silently",
            event_type=name,
            offset=at,
        )
    if framer.after == 0:
        framer.after_at = at
    framer.after += 1


def _frame(
    body: bytes, name: str | None, at: int, index: int, notes: list[StreamWarning] | None, strict: bool = True
) -> dict[str, Any]:
    try:
        value = loads(body, what="data")  # the one strict reader (replayable._json)
    except (ValueError, RecursionError) as exc:
        raise StreamError(StreamRule.SSE_MALFORMED, f"data is not JSON: {exc}", index=index, offset=at) from None
    if not isinstance(value, dict):
        raise StreamError(
            StreamRule.SSE_MALFORMED,
            f"data must be a JSON object, got {type(value).__name__}",
            index=index,
            offset=at,
        )
    if name is not None and name != value.get("type"):
        etype, seq = peek_event(value)
        msg = f"SSE 'event: {name}' differs from the body's type {etype!r}"
        if strict or notes is None:
            raise StreamError(
                StreamRule.EVENT_NAME,
                msg,
                sequence_number=seq,
                index=index,
                event_type=etype,
                offset=at,
                errors=[{"loc": ("type",), "type": str(StreamRule.EVENT_NAME), "msg": msg}],
            )
        notes.append(StreamWarning(seq, index, etype, StreamRule.EVENT_NAME, msg + f" (byte {at})"))
    return value


class ByteReader:
    """SSE read from bytes pushed as they arrive (`StreamAssembler.feed_bytes`): each chunk is cut after
    its last line end (LF or CR; a LF starting the next chunk then completes that CRLF), and the complete
    lines are scanned as `parse_sse` scans a whole capture; the rest waits for the next chunk. The same
    frames and byte offsets as `parse_sse` on the joined bytes, linear however the bytes are split
    (inside a line, a CRLF or a UTF-8 character): only complete lines are ever decoded."""

    __slots__ = ("base", "framer", "pending", "skip_lf")

    def __init__(self) -> None:
        self.framer = _Framer()
        self.base = 0  # the input offset of the first byte held in `pending`
        self.pending: list[bytes] = []  # bytes after the last line end (none holds one)
        self.skip_lf = False  # the last cut ended with CR: a LF starting the next chunk completes it

    def push(self, chunk: bytes) -> Iterator[_Frame]:
        """The frames the chunk completes (after `[DONE]` too: each is a fault), read lazily, as `parse_sse` reads
        them (a framing error after a frame comes after that frame's event): iterate them to the end
        before the next `push`."""
        if self.skip_lf and chunk[:1] == b"\n":
            chunk = chunk[1:]
            self.base += 1
        if not chunk:
            return iter(())
        self.skip_lf = False
        k = max(chunk.rfind(b"\n"), chunk.rfind(b"\r"))
        if k < 0:
            self.pending.append(chunk)
            return iter(())
        cut = b"".join((*self.pending, chunk[: k + 1])) if self.pending else chunk[: k + 1]
        self.pending = [chunk[k + 1 :]] if k + 1 < len(chunk) else []
        self.skip_lf = chunk[k] == 13 and k + 1 == len(chunk)
        base, self.base = self.base, self.base + len(cut)
        return _scan(cut, base, self.framer)

    def finish(self) -> Iterator[_Frame]:
        """End of input: the bytes still held (a line without its end; a frame left open goes to
        `framer.cut` once this is iterated to the end)."""
        if self.pending:
            rest, self.pending = b"".join(self.pending), []
            yield from _scan(rest, self.base, self.framer)
        self.framer.end()


def read_sse_through_done(source: Any, *, provider: Provider = None) -> tuple[list[Any], int, int | None, int | None]:
    """The events of a whole SSE capture as `parse_sse` reads them (strictly), the frames after a `data:
    [DONE]` read as events too, with how many frames followed `[DONE]`, the byte offset of the first and
    its index among the events (0, None, None when none did): for a reader that reports them as a finding
    and checks what they say (`check --agents` on an SSE capture) rather than refusing the capture. A
    cut-off last frame after `[DONE]` is counted, never read. Raises `StreamError` as `parse_sse` does
    for anything else."""
    framer = _Framer()
    framer.through = True
    events = list(_events(_frames(source, framer), framer, None, provider=provider))
    return events, framer.after, framer.after_at, framer.after_index


# Package-internal names for the assembler's SSE entry points (`replayable.stream._sources`).
read_sse = _parse_sse
frame_events = _events
encode_text = _encode
