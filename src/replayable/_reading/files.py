"""Reading a file: bytes -> one typed `Document` (`read_file`), with the limits a file needs.

`read_file(path)` opens a file (`-`: standard input), finds what container it is (`read_input`) and hands
its value to the one reader (`replayable._reading.read_value`), which decides the document's
kind from what the data says:

- an SSE capture (`text/event-stream`): a `.sse` file name, or a first non-blank line starting with
  `event:`, `data:` or `:`; read whole, and kept as bytes (`Document.value`, kind `events`);
- JSONL: the first non-blank line is one complete JSON value and more non-blank lines follow. A JSONL
  of items (its first value is an item) read with `lazy=True` stays open and is read one line at a time
  (`Document.iter_items()`) or in batches of lines (`Input.batches()`), so it is checked in bounded memory
  however long it is, from a file or from standard input alike; any other JSONL is a list;
- otherwise one JSON document, read whole.

A Codex session file (`rollout-*.jsonl`, whose first value is a rollout line) is read line by line into
its response items, each with the line it came from (kind `codex_rollout`).

Limits, so that `/dev/zero`, a runaway capture or a huge file end with one `InputError`, never a
`MemoryError`: a JSON document or SSE capture read whole, and each JSONL line, may be at most
`max_bytes` bytes (`DEFAULT_MAX_BYTES`, 128 MiB). A JSONL file as a whole has no limit. JSON text is
read by the library's one strict reader (`replayable._json`): a duplicate key, `NaN`/`Infinity`, a
number too large for a float, an integer over 4300 digits, text that is not UTF-8, a lone surrogate or
nesting too deep for the parser is an `InputError` naming the line. One byte order mark at the very
start of the input is ignored; one anywhere else is refused. A FIFO given by name is opened without
waiting for a writer. Names in messages are escaped (`display_name`).
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import IO, Any

from replayable import _json
from replayable._messages import OPTIONS, Said, said
from replayable._names import shown
from replayable._reading.document import (
    Document,
    DocumentKind,
    first_value_kind,
    is_event_list,
    is_rollout_line,
    read_value,
    rollout_document,
)
from replayable._reading.places import Places
from replayable.errors import InputError
from replayable.items import ItemError, Provider

__all__ = [
    "BATCH_BYTES",
    "BATCH_LINES",
    "DEFAULT_MAX_BYTES",
    "Input",
    "InputError",
    "InputKind",
    "check_depth",
    "display_name",
    "document_of",
    "is_item_stream",
    "looks_like_sse",
    "read_file",
    "read_input",
]

#: Largest JSON document or SSE capture read whole, and longest JSONL line, in bytes (128 MiB).
DEFAULT_MAX_BYTES = 128 * 1024 * 1024
_BLANK = b" \t\r\n"
#: Deepest nesting of one JSONL line: one item or event (`replayable.items.MAX_ITEM_DEPTH`). Nesting
#: past it is unreadable input (exit status 2) in every container: a JSONL line, a JSON array (the
#: reader's own limit is one level more), a Response or a single item (`check_depth`).
_LINE_DEPTH = _json.MAX_ITEM_DEPTH
_BOM_BYTES = b"\xef\xbb\xbf"

#: Most JSONL lines validated in one call when a JSONL of items is checked (`Input.batches`), and the
#: bytes of JSON after which a batch ends early: memory holds one batch, however long the input.
BATCH_LINES = 4096
BATCH_BYTES = 4 * 1024 * 1024


class InputKind(StrEnum):
    """What an input holds: `sse` (a stream capture), `jsonl` (one JSON value per line), `json`."""

    SSE = "sse"
    JSONL = "jsonl"
    JSON = "json"


def display_name(path: str) -> str:
    """`<stdin>` for `-`, else the path as given, with control characters and line breaks escaped
    (`replayable._names.shown`): a name in a message or a text report is always one line of its own
    making, never a forged one."""
    return "<stdin>" if path == "-" else shown(path)


def read_input_json(data: bytes, where: str, *, first: bool = True, max_depth: int = _json.READER_DEPTH) -> Any:
    """One strict JSON value from UTF-8 bytes, read by the library's one strict reader
    (`replayable._json.loads`, the same as `parse_items` and every other path; the command line's single
    JSON reading call site). One byte order mark is ignored at the very start of the input (`first`);
    one at the start of a later JSONL line is refused. `max_depth`: `MAX_ITEM_DEPTH` for a JSONL line
    (one item or event), the reader's own limit for a document. Raises `InputError` starting with
    `where`."""
    if not first and data.startswith(b"\xef\xbb\xbf"):
        raise InputError(f"{where}: a byte order mark is only allowed at the very start of the input")
    try:
        return _json.loads(data, what=where, max_depth=max_depth)
    except _json.JSONError as exc:
        if exc.reason == "invalid_utf8":
            raise InputError(f"{where} is not UTF-8 text: {exc.detail}") from None
        if exc.reason == "not_json":
            raise InputError(f"{where} is not valid JSON: {_not_json_detail(data, exc)}") from None
        refused = InputError(f"{exc} (the input is refused)")
        refused.json_error = exc
        raise refused from None


def _not_json_detail(data: bytes, exc: _json.JSONError) -> str:
    """What is wrong with `data`, which is not JSON. A string left open at the end of the text (a JSONL
    line cut short) runs into the line break that ends it, which jiter calls a control character "at line
    2 column 0", a line the value does not have: read without its final line break, the same text is
    named as parse_items names it, "EOF while parsing a string at line 1 column N". Only on this error
    path: valid input is never read twice."""
    detail = exc.detail
    if data.endswith(b"\n") and "control character" in detail:
        try:
            _json.loads(data.rstrip(b"\r\n"), what="", max_depth=_json.READER_DEPTH)
        except _json.JSONError as again:
            if again.reason == "not_json":
                detail = again.detail
    return detail.removeprefix("not valid JSON: ")


def looks_like_sse(head: bytes, name: str = "") -> bool:
    """True for an SSE capture: a `.sse` file name, or content whose first non-blank line starts with an
    SSE field (`event:`, `data:`, `id:`, `retry:`) or `:` (a comment). `head` is the start of the
    content."""
    if name.endswith(".sse"):
        return True
    return head.lstrip(b"\xef\xbb\xbf" + _BLANK).startswith((b"event:", b"data:", b"id:", b"retry:", b":"))


def _too_big(name: str, limit: int, what: str) -> InputError:
    return InputError(
        f"{name}: {what} is larger than the {limit}-byte limit (raise it with --max-bytes; "
        "a JSONL file is read line by line and only each line is limited)"
    )


@dataclass
class Input:
    """An opened input. `kind` says what it holds; `name` is for messages and text (`<stdin>` for `-`,
    control characters escaped); `file` is the path as given (`<stdin>` for `-`), for JSON reports.

    For `sse` and `json`, `data` is the whole content. For `jsonl`, `first` is the first line's value and
    `values()` yields every value, the first included, reading one line at a time (call it once)."""

    name: str
    kind: InputKind
    data: bytes = b""
    first: Any = None
    file: str = ""
    _file: IO[bytes] | None = field(default=None, repr=False)
    _pending: list[tuple[int, bytes]] = field(default_factory=list, repr=False)
    _limit: int = DEFAULT_MAX_BYTES
    _lineno: int = 0
    #: For JSONL, what `replayable._reading.places.Places` needs to say on which line each value is: the
    #: blank lines read so far (the lines between are the values, in order) and the blank characters
    #: before the value of the few lines that do not start with `{` (nothing is kept for other lines).
    blank_lines: list[int] = field(default_factory=list, repr=False)
    indents: dict[int, int] = field(default_factory=dict, repr=False)
    _first_line: int = 1
    _started: bool = field(default=False, repr=False)

    def value(self) -> Any:
        """The whole input as one JSON value: the document, or the list of JSONL values. Raises
        `InputError` when it is not JSON (or when a JSONL input is larger than the limit in total)."""
        if self.kind is InputKind.JSON:
            return self.first
        if self.kind is InputKind.SSE:
            raise InputError(f"{self.name} is an SSE capture, not JSON")
        out = []
        total = 0
        for size, value in self._sized_values():
            total += size
            if total > self._limit:
                raise _too_big(self.name, self._limit, "this JSONL read as one document")
            out.append(value)
        return out

    def numbered(self) -> Iterator[tuple[int, Any]]:
        """(line number, value) for each non-blank line of a JSONL input, one line at a time (call it
        once), read as `values()` reads them; for a JSON document, `(line, the document)`, its line
        being where it starts. Raises `InputError` as `values()` does."""
        if self.kind is not InputKind.JSONL:
            yield self._first_line, self.value()
            return
        for lineno, line, first in self._lines():
            yield lineno, read_input_json(line, f"{self.name}, line {lineno}", first=first, max_depth=_LINE_DEPTH)

    def values(self) -> Iterator[Any]:
        """The JSONL values one at a time (memory holds one line); for a JSON document, the document as
        the one value. Raises `InputError` naming the line that is not JSON or longer than the limit, or
        for an SSE capture."""
        if self.kind is not InputKind.JSONL:
            yield self.value()  # never nothing: a one-line file is a document, not an empty JSONL
            return
        for _, value in self._sized_values():
            yield value

    def batches(self, lines: int | None = None, size: int | None = None) -> Iterator[list[Any]]:
        """The JSONL values in batches of at most `lines` values (default `BATCH_LINES`), a batch ending
        once its lines add up to `size` bytes (default `BATCH_BYTES`) or more: memory holds one batch
        and one line. Each value is read exactly as `values()` reads it, with the same errors (a line
        nesting deeper than an item may, `MAX_ITEM_DEPTH` levels, is one of them)."""
        if self.kind is not InputKind.JSONL:
            raise InputError(f"{self.name} is not JSONL: read it with value()")
        lines = BATCH_LINES if lines is None else lines
        size = BATCH_BYTES if size is None else size
        batch: list[tuple[int, bytes, bool]] = []
        used = 0
        for lineno, line, first in self._lines():
            batch.append((lineno, line, first))
            used += len(line)
            if len(batch) >= lines or used >= size:
                yield self._read_batch(batch)
                batch, used = [], 0
        if batch:
            yield self._read_batch(batch)

    def _read_batch(self, batch: list[tuple[int, bytes, bool]]) -> list[Any]:
        # the input's one allowed byte order mark is dropped; one on any later line fails to read (jiter
        # refuses it) and is then refused with its own message below
        texts = [line[3:] if first and line[:3] == _BOM_BYTES else line for _, line, first in batch]
        values = _json.loads_lines(texts, max_depth=_json.MAX_ITEM_DEPTH)
        if values is not None:
            return values
        return [
            read_input_json(line, f"{self.name}, line {lineno}", first=first, max_depth=_LINE_DEPTH)
            for lineno, line, first in batch
        ]

    def _sized_values(self) -> Iterator[tuple[int, Any]]:
        for lineno, line, first in self._lines():
            yield len(line), read_input_json(line, f"{self.name}, line {lineno}", first=first, max_depth=_LINE_DEPTH)

    def _lines(self) -> Iterator[tuple[int, bytes, bool]]:
        """(line number, line, whether it is the input's first value) for each non-blank line; closes the
        file at the end. Raises `InputError` for a line longer than the limit or a read error, and when the
        lines were read already (a JSONL left open is read once: read the file again to check it again)."""
        if self._started:
            raise InputError(f"{self.name} was read already: a JSONL read lazily is read once (read the file again)")
        self._started = True
        pending, self._pending = self._pending, []
        blank, indents = self.blank_lines.append, self.indents
        budget = _json.ContainerBudget()  # one budget for the whole input, as for one JSON document
        try:
            for n, (lineno, line) in enumerate(pending):
                self._spend(budget, lineno, line)
                if line[0] != _BRACE:
                    indents[lineno] = _indent(line, n == 0)
                yield lineno, line, n == 0
            f = self._file
            if f is None:
                return
            lineno = self._lineno
            limit = self._limit
            readline = f.readline
            while True:
                line = readline(limit + 1)
                if not line:
                    return
                lineno += 1
                if len(line) > limit:
                    raise _too_big(self.name, limit, f"line {lineno}")
                if line.strip(_BLANK):
                    self._spend(budget, lineno, line)
                    if line[0] != _BRACE:  # rare: a value that is no object, or an indented line
                        indents[lineno] = _indent(line, False)
                    yield lineno, line, False
                else:
                    budget.size += len(line)
                    blank(lineno)
        except OSError as exc:
            raise InputError(f"cannot read {self.name}: {exc.strerror or exc}") from None
        finally:
            self.close()

    def _spend(self, budget: _json.ContainerBudget, lineno: int, line: bytes) -> None:
        """Count `line` against the input's container budget; raises `InputError` naming it when the
        input is then over (200,000 `{}` lines are refused as the same values in one JSON array are)."""
        over = budget.add(line, 0 if line.endswith(b"\n") else 1)
        if over is not None:
            raise InputError(f"{self.name}, line {lineno}: the input {over} [too_many_containers]")

    def tell(self) -> int | None:
        """How many bytes of a JSONL input are read so far (None once closed, or for a pipe)."""
        try:
            return self._file.tell() if self._file is not None else None
        except (OSError, ValueError):
            return None

    def close(self) -> None:
        """Close the file (never standard input)."""
        f, self._file = self._file, None
        if f is not None and f is not getattr(sys.stdin, "buffer", None):
            f.close()


_BRACE = ord("{")


def _indent(line: bytes, first: bool) -> int:
    """The blank characters before a JSONL line's value (the input's one byte order mark not counted)."""
    if first:
        line = line.removeprefix(_BOM_BYTES)
    return len(line) - len(line.lstrip(b" \t"))


def _stdin() -> IO[bytes]:
    stdin = getattr(sys.stdin, "buffer", None)
    if stdin is None:
        raise InputError("cannot read <stdin>: there is no standard input")
    return stdin  # type: ignore[no-any-return]


def _open(path: str) -> IO[bytes]:
    """The file at `path` opened for reading. A FIFO given by name (`<(cmd)` in a shell, a named pipe)
    is opened without waiting for a writer: with none, it reads as empty (exit status 2), so the
    command never blocks on opening it; with one, it is read like standard input."""
    if path == "-":
        return _stdin()
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
        try:
            mode = os.fstat(fd).st_mode
            if stat.S_ISDIR(mode):
                raise IsADirectoryError(21, "Is a directory")
            os.set_blocking(fd, True)  # reads wait for a writer that is there, as they do on standard input
            return open(fd, "rb")  # noqa: SIM115  closed by Input.close or read_input
        except BaseException:
            os.close(fd)
            raise
    except OSError as exc:
        raise InputError(f"cannot read {display_name(path)}: {exc.strerror or exc}") from None


def _read_rest(f: IO[bytes], start: bytes, name: str, limit: int) -> bytes:
    rest = f.read(limit + 1 - len(start))
    data = start + rest
    if len(data) > limit:
        raise _too_big(name, limit, "the input")
    return data


def _path_text(path: Any) -> str:
    """`path` as text: a `str`, or an `os.PathLike` of one; anything else, and a NUL inside, is an `InputError`."""
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if not isinstance(path, str):
        raise InputError(f"a path must be a str or an os.PathLike of one, got {type(path).__name__}")
    if "\x00" in path:
        raise InputError(f"{display_name(path.replace(chr(0), '?'))}: a path cannot hold a NUL character")
    return path


def read_input(path: str | os.PathLike[str], *, max_bytes: int = DEFAULT_MAX_BYTES) -> Input:
    """Open `path` (`-` for standard input) and find what it holds (see the module docstring).

    Raises `InputError` (one line) when it cannot be read, is empty, is not UTF-8 or strict JSON, or is
    larger than `max_bytes` (a whole document or capture; for JSONL, one line), and for a path that is no
    `str` or `os.PathLike` of one, or that holds a NUL character."""
    path = _path_text(path)
    name = display_name(path)
    file = "<stdin>" if path == "-" else path
    f = _open(path)
    keep_open = False
    try:
        lines: list[tuple[int, bytes]] = []
        lineno = 0
        size = 0
        while True:  # the first non-blank line, and the blank ones before it
            line = f.readline(max_bytes + 1)
            if not line:
                break
            lineno += 1
            size += len(line)
            if size > max_bytes:
                raise _too_big(name, max_bytes, "the input" if lineno == 1 else f"line {lineno}")
            lines.append((lineno, line))
            if line.strip(_BLANK):
                break
        if not lines or not lines[-1][1].strip(_BLANK):
            raise InputError(f"{name} is empty")
        head = b"".join(line for _, line in lines)
        first_no, first_line = lines[-1]
        if looks_like_sse(head, name):
            return Input(name, InputKind.SSE, data=_read_rest(f, head, name, max_bytes), file=file)
        try:
            first = read_input_json(first_line, name)
        except InputError:
            first = _NOT_JSON
        if first is not _NOT_JSON:
            # JSONL when another non-blank line follows; else the document is that one line
            while True:
                line = f.readline(max_bytes + 1)
                if not line:
                    return Input(name, InputKind.JSON, data=head, first=first, file=file, _first_line=first_no)
                lineno += 1
                if len(line) > max_bytes:
                    raise _too_big(name, max_bytes, f"line {lineno}")
                size += len(line)
                if size > max_bytes and not line.strip(_BLANK):  # endless blank lines after one document
                    raise _too_big(name, max_bytes, "the input")
                if line.strip(_BLANK):
                    inp = Input(name, InputKind.JSONL, first=first, file=file, _file=f, _limit=max_bytes)
                    inp._pending = [(first_no, first_line), (lineno, line)]
                    inp._lineno = lineno
                    inp.blank_lines += [*range(1, first_no), *range(first_no + 1, lineno)]
                    keep_open = True
                    return inp
        data = _read_rest(f, head, name, max_bytes)
        try:
            value = read_input_json(data, name)
        except InputError as exc:
            detail = str(exc).removeprefix(name).lstrip(": ")
            error = exc.json_error
            # one JSON array refused by a strict rule (a duplicate key, ...) rather than for its syntax: the
            # item the error is in, from the reader's offset (only looked for once the document is refused)
            if error is not None and error.offset is not None and data.lstrip(_BLANK + _BOM_BYTES).startswith(b"["):
                item = _json.array_element_at(data, error.offset)
                if item is not None:
                    raise InputError(f"{name}: item {item}: {detail}") from None
            detail = detail.removeprefix("is not valid JSON: ").removeprefix("is ")
            raise InputError(f"{name} is neither JSON nor JSONL: {detail}") from None
        return Input(name, InputKind.JSON, data=data, first=value, file=file)
    except OSError as exc:
        raise InputError(f"cannot read {name}: {exc.strerror or exc}") from None
    finally:
        if not keep_open and path != "-":
            f.close()


_NOT_JSON = object()


def is_item_stream(first: Any) -> bool:
    """Is a JSONL whose first value is `first` a JSONL of items (checked line by line, in bounded
    memory)? Decided by the one reader (`replayable._reading.first_value_kind`): Responses, request bodies,
    tool definitions and stream or Agents events are read as one document instead."""
    return first_value_kind(first) is DocumentKind.ITEMS


def check_depth(value: Any, name: str) -> None:
    """Raise `InputError` when a document that is one item or event nests deeper than an item may
    (`MAX_ITEM_DEPTH` levels): unreadable, as the same item is in a JSON array or a JSONL line."""
    try:
        _json.check_value(value, what=name, max_depth=_LINE_DEPTH)
    except _json.JSONError as exc:
        raise InputError(f"{exc} (the input is refused)") from None


def _json_kind(value: Any) -> str:
    """The JSON name of a scalar read from a document (`null`, `boolean`, `number`, `string`)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    return "string" if isinstance(value, str) else "number"


def document_of(value: Any, name: str, provider: Provider = None, *, streams: bool = True) -> Document:
    """The `Document` of a value read from the input named `name` (`replayable._reading.read_value`;
    with `streams`, stream events, Agents API logs and tool definitions recognised too); what the reader refuses is an
    `InputError` naming the input and saying what to pass. A document that is a JSON scalar (a string, a
    number, `true`, `null`) is named as such: the file held it, it was not text handed to the library.
    One item nested deeper than an item may is refused (`check_depth`)."""
    doc = _typed(value, name, provider, streams=streams)
    if doc.kind is DocumentKind.ITEM:
        check_depth(doc.value, name)
    return doc


def _typed(value: Any, name: str, provider: Provider = None, *, streams: bool = True) -> Document:
    """The `Document` of `value` (`document_of` without its depth check, which `read_file` makes last)."""
    if value is None or isinstance(value, str | int | float):
        raise InputError(
            f"{name}: the document is a JSON {_json_kind(value)}, not a transcript: give a JSON array of items, "
            "JSONL, one item (an object with 'type'), a request body, a Response, stream events or tool definitions"
        )
    try:
        doc = read_value(value, provider=provider, streams=streams)
    except ItemError as exc:
        first = exc.errors[0]["msg"] if exc.errors else str(exc)
        raise InputError(f"{name}: {first}") from None
    return doc


def read_file(
    path: str | os.PathLike[str],
    *,
    provider: Provider = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    lazy: bool = False,
    agents: bool = False,
) -> Document:
    """Read the file at `path` (`-`: standard input) into one `Document` (see the module docstring): a
    JSON document, a JSON array or JSONL of items, a request body, a Response, one item, a list of stream
    events or an SSE capture (kind `events`; `value` holds the capture's bytes), an OpenAI Agents API
    event log (`agents_log`), a file of tool definitions (`tools`) or a Codex session file (`codex_rollout`:
    its first value is a rollout line `{timestamp, type, payload}`; its `response_item` payloads are the
    items, `Document.places` their file lines. `provider` is the reading of
    the items (None strict, `openai`). With `lazy=True` a JSONL of items stays open and is read one line
    at a time as `Document.iter_items()` is consumed (memory holds one line; the file is closed at its
    end, or by `Document.source.close()`); otherwise everything is read here and the file closed.
    An OpenAI Agents API event log is read only when the caller says the file is one (`agents=True`;
    without it such a log is refused, saying so); with `agents=True`, an SSE capture is a log (kind
    `agents_log`, `value` the capture's bytes), and anything but a JSON array, JSONL, SSE or one event,
    and a list of Responses stream events, is refused.

    Raises `InputError` (one line naming the file, and the line for JSONL) when the file cannot be read,
    is empty, is not UTF-8 or strict JSON, is larger than `max_bytes` (a whole document or capture; for
    JSONL, one line), nests deeper than an item may, or holds no transcript (saying what to pass)."""
    inp = read_input(path, max_bytes=max_bytes)
    if inp.kind is InputKind.SSE:
        # an Agents API log captured as SSE: its events are read by `checking.agents_events`; the places of
        # its frames are given by the stream reader, which knows the framing (`replayable._checking`)
        kind = DocumentKind.AGENTS_LOG if agents else DocumentKind.EVENTS
        return Document(kind, [], provider, value=inp.data)
    if lazy and not agents and inp.kind is InputKind.JSONL and is_item_stream(inp.first):
        return Document(DocumentKind.ITEMS, [], provider, source=inp, places=Places.jsonl(inp.blank_lines, inp.indents))
    # the rest is read whole, in one pass down: the document, where its items are, then the depth of a
    # document that is one item, event or rollout line (as deep as one JSONL line may be), then what that
    # depth check comes before (a list of stream events given as an Agents API log)
    one: Any = None  # the value that is one item, event or rollout line, whose depth is checked last
    stream_events = False
    try:
        if not agents and is_rollout_line(inp.first):  # a Codex session file (an SSE capture returned above)
            doc = rollout_document(inp.numbered(), provider)
            if inp.kind is InputKind.JSON:
                one = inp.first
        else:
            value = inp.value()
            if agents:
                doc = _agents_log(value, inp.name, provider)
                stream_events = is_event_list(doc.items)  # checking it as a log would call every event unknown
                if isinstance(value, dict):
                    one = value
            else:
                doc = _typed(value, inp.name, provider)
                if doc.kind is DocumentKind.AGENTS_LOG:
                    raise _unasked_log(value if isinstance(value, list) else [value], inp.name)
                if doc.kind is DocumentKind.ITEM:
                    one = doc.value
            doc.places = _places(inp, doc)
    finally:
        inp.close()
    if one is not None:
        check_depth(one, inp.name)
    if stream_events:
        raise InputError(
            said("{name} is a list of Responses stream events, {not_a_log}", name=inp.name, not_a_log=_NOT_A_LOG)
        )
    return doc


#: Where a document's items are, by its kind: the array under this key of the top-level object
#: (None: the top-level array; "": the document itself is the one item).
_ITEMS_AT = {DocumentKind.REQUEST: "input", DocumentKind.RESPONSE: "output", DocumentKind.ITEM: ""}


def _places(inp: Input, doc: Document) -> Places | None:
    """Where the items (or events) of a document read from `inp` start (`replayable._reading.places`)."""
    if inp.kind is InputKind.JSONL:
        return Places.jsonl(inp.blank_lines, inp.indents)
    if doc.kind is DocumentKind.TOOLS:
        return None  # tool findings name a tool by its path, not an item
    if doc.kind in (DocumentKind.EVENTS, DocumentKind.AGENTS_LOG) and isinstance(inp.first, dict):
        return Places.json(inp.data, "")  # one event on its own: event 0 is the document
    return Places.json(inp.data, _ITEMS_AT.get(doc.kind))


_NOT_A_LOG = Said("not an OpenAI Agents API event log: check it without ", OPTIONS["agents"])


def _agents_log(value: Any, name: str, provider: Provider) -> Document:
    """The events of a file the caller says is an Agents API event log: a JSON array, JSONL, or one event
    (whose depth `read_file` checks: as deep as it may be in an array or a JSONL line)."""
    if not isinstance(value, list | dict):
        raise InputError(f"{name}: expected Agents API events as JSONL or a JSON array")
    events = value if isinstance(value, list) else [value]
    return Document(DocumentKind.AGENTS_LOG, events, provider, value=value)


def _unasked_log(values: list[Any], name: str) -> InputError:
    """The one-line error for an OpenAI Agents API event log read without `agents=True`: its `agent.*`
    events are no Open Responses items, and one error per event would hide what to do."""
    for n, v in enumerate(values):
        t = v.get("type") if isinstance(v, dict) else None
        if isinstance(t, str) and t.startswith("agent."):
            return InputError(
                said(
                    "{name} is an OpenAI Agents API event log (value {n} is an {type!r} event), not a transcript: "
                    "check it with {option:agents}",
                    name=name,
                    n=n,
                    type=_json.printable(t[:80]),
                )
            )
    return InputError(
        said("{name} is an OpenAI Agents API event log, not a transcript: check it with {option:agents}", name=name)
    )
