"""Reading what the command line is given: files, standard input, directories, and what is in them.

One place decides what an input is (`read_input`), for `check`, `diff`, `convert` and `prepare`:

- an SSE capture (`text/event-stream`): a `.sse` file name, or a first non-blank line starting with
  `event:`, `data:` or `:`; read whole;
- JSONL: the first non-blank line is one complete JSON value and more non-blank lines follow; read one
  line at a time (`Input.values()`) or in batches of lines (`Input.batches()`, for a JSONL of items),
  so a JSONL of items is checked in bounded memory however long it is, from a file or from standard
  input alike;
- otherwise one JSON document, read whole.

Then `read_transcript` finds the items in a document (a list of items, a Response's `output`, a request
body's `input` with its `tools` and `tool_choice`, or one item), `looks_like_tools` recognises a file of
tool definitions, and `load_tools` reads a `--tools` file. `find_files` lists what a directory holds,
reporting (never silently skipping) entries that are not regular files; a FIFO given by name is opened
without waiting for a writer. Names in messages are escaped (`display_name`).

Limits, so that `/dev/zero`, a runaway capture or a huge file end with one line and exit status 2,
never a `MemoryError`: a JSON document or SSE capture read whole, and each JSONL line, may be at most
`max_bytes` bytes (`DEFAULT_MAX_BYTES`, 128 MiB; `--max-bytes` on the command line). A JSONL file as a
whole has no limit. JSON text is read by the library's one strict reader (`replayable._json`): a duplicate
key, `NaN`/`Infinity`, a number too large for a float, an integer over 4300 digits, text that is not
UTF-8, a lone surrogate or nesting too deep for the parser is an `InputError` naming the line. One byte
order mark at the very start of the input is ignored, as the library does; one anywhere else is refused.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import IO, Any

from replayable import _json, reading
from replayable.errors import ReplayableError
from replayable.items import ItemError
from replayable.names import shown
from replayable.reading import (
    HOSTED_TOOL_TYPES,
    Document,
    DocumentKind,
    allowed_from_tool_choice,
    first_value_kind,
    looks_like_tools,
)
from replayable.replay import Violation, ViolationCode, check_tool
from replayable.tools import tool_index

__all__ = [
    "BATCH_BYTES",
    "BATCH_LINES",
    "DEFAULT_MAX_BYTES",
    "HOSTED_TOOL_TYPES",
    "SUFFIXES",
    "Input",
    "InputError",
    "Kind",
    "Transcript",
    "check_depth",
    "display_name",
    "find_files",
    "function_tools",
    "is_item_stream",
    "lint_tools",
    "load_tools",
    "looks_like_sse",
    "looks_like_tools",
    "parse_size",
    "read_document",
    "read_input",
    "read_transcript",
    "transcript_of",
    "tools_of",
]

#: Largest JSON document or SSE capture read whole, and longest JSONL line, in bytes (128 MiB).
DEFAULT_MAX_BYTES = 128 * 1024 * 1024

#: File name endings a directory is searched for.
SUFFIXES = (".json", ".jsonl", ".sse")

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


class InputError(ReplayableError):
    """Input that cannot be read as anything the command understands (exit status 2). The message is
    one line naming the input (and the line, for JSONL)."""


class Kind(StrEnum):
    """What an input holds: `sse` (a stream capture), `jsonl` (one JSON value per line), `json`."""

    SSE = "sse"
    JSONL = "jsonl"
    JSON = "json"


def display_name(path: str) -> str:
    """`<stdin>` for `-`, else the path as given, with control characters and line breaks escaped
    (`replayable.names.shown`): a name in a message or a text report is always one line of its own
    making, never a forged one."""
    return "<stdin>" if path == "-" else shown(path)


def parse_size(text: str) -> int:
    """A byte count for `--max-bytes`: digits with an optional `K`, `M` or `G` (powers of 1024).
    Raises `ValueError` for anything else or a value below 1."""
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    s = text.strip().upper().removesuffix("B").removesuffix("I")
    factor = units.get(s[-1:], 1)
    digits = s[:-1] if s[-1:] in units else s
    if not digits.isdigit() or len(digits) > 15 or int(digits) * factor < 1:
        raise ValueError(f"expected a positive number of bytes such as 1048576, 512K, 64M or 2G, got {text!r}")
    return int(digits) * factor


def loads(data: bytes, where: str, *, first: bool = True, max_depth: int = _json.READER_DEPTH) -> Any:
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
            raise InputError(f"{where} is not valid JSON: {exc.detail.removeprefix('not valid JSON: ')}") from None
        raise InputError(f"{exc} (the input is refused)") from None


def looks_like_sse(head: bytes, name: str = "") -> bool:
    """True for an SSE capture: a `.sse` file name, or content whose first non-blank line starts with
    `event:`, `data:` or `:` (a comment). `head` is the start of the content."""
    if name.endswith(".sse"):
        return True
    return head.lstrip(b"\xef\xbb\xbf" + _BLANK).startswith((b"event:", b"data:", b":"))


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
    kind: Kind
    data: bytes = b""
    first: Any = None
    file: str = ""
    _file: IO[bytes] | None = field(default=None, repr=False)
    _pending: list[tuple[int, bytes]] = field(default_factory=list, repr=False)
    _limit: int = DEFAULT_MAX_BYTES
    _lineno: int = 0

    def value(self) -> Any:
        """The whole input as one JSON value: the document, or the list of JSONL values. Raises
        `InputError` when it is not JSON (or when a JSONL input is larger than the limit in total)."""
        if self.kind is Kind.JSON:
            return self.first
        if self.kind is Kind.SSE:
            raise InputError(f"{self.name} is an SSE capture, not JSON")
        out = []
        total = 0
        for size, value in self._sized_values():
            total += size
            if total > self._limit:
                raise _too_big(self.name, self._limit, "this JSONL read as one document")
            out.append(value)
        return out

    def values(self) -> Iterator[Any]:
        """The JSONL values one at a time (memory holds one line); for a JSON document, the document as
        the one value. Raises `InputError` naming the line that is not JSON or longer than the limit, or
        for an SSE capture."""
        if self.kind is not Kind.JSONL:
            yield self.value()  # never nothing: a one-line file is a document, not an empty JSONL
            return
        for _, value in self._sized_values():
            yield value

    def batches(self, lines: int | None = None, size: int | None = None) -> Iterator[list[Any]]:
        """The JSONL values in batches of at most `lines` values (default `BATCH_LINES`), a batch ending
        once its lines add up to `size` bytes (default `BATCH_BYTES`) or more: memory holds one batch
        and one line. Each value is read exactly as `values()` reads it, with the same errors (a line
        nesting deeper than an item may, `MAX_ITEM_DEPTH` levels, is one of them)."""
        if self.kind is not Kind.JSONL:
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
            loads(line, f"{self.name}, line {lineno}", first=first, max_depth=_LINE_DEPTH)
            for lineno, line, first in batch
        ]

    def _sized_values(self) -> Iterator[tuple[int, Any]]:
        for lineno, line, first in self._lines():
            yield len(line), loads(line, f"{self.name}, line {lineno}", first=first, max_depth=_LINE_DEPTH)

    def _lines(self) -> Iterator[tuple[int, bytes, bool]]:
        """(line number, line, whether it is the input's first value) for each non-blank line; closes the
        file at the end. Raises `InputError` for a line longer than the limit or a read error."""
        pending, self._pending = self._pending, []
        try:
            for n, (lineno, line) in enumerate(pending):
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
                    yield lineno, line, False
        except OSError as exc:
            raise InputError(f"cannot read {self.name}: {exc.strerror or exc}") from None
        finally:
            self.close()

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


def read_input(path: str, *, max_bytes: int = DEFAULT_MAX_BYTES) -> Input:
    """Open `path` (`-` for standard input) and find what it holds (see the module docstring).

    Raises `InputError` (one line) when it cannot be read, is empty, is not UTF-8 or strict JSON, or is
    larger than `max_bytes` (a whole document or capture; for JSONL, one line)."""
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
            return Input(name, Kind.SSE, data=_read_rest(f, head, name, max_bytes), file=file)
        try:
            first = loads(first_line, name)
        except InputError:
            first = _NOT_JSON
        if first is not _NOT_JSON:
            # JSONL when another non-blank line follows; else the document is that one line
            while True:
                line = f.readline(max_bytes + 1)
                if not line:
                    return Input(name, Kind.JSON, data=head, first=first, file=file)
                lineno += 1
                if len(line) > max_bytes:
                    raise _too_big(name, max_bytes, f"line {lineno}")
                size += len(line)
                if size > max_bytes and not line.strip(_BLANK):  # endless blank lines after one document
                    raise _too_big(name, max_bytes, "the input")
                if line.strip(_BLANK):
                    inp = Input(name, Kind.JSONL, first=first, file=file, _file=f, _limit=max_bytes)
                    inp._pending = [(first_no, first_line), (lineno, line)]
                    inp._lineno = lineno
                    keep_open = True
                    return inp
        data = _read_rest(f, head, name, max_bytes)
        try:
            value = loads(data, name)
        except InputError as exc:
            detail = str(exc).removeprefix(name).lstrip(": ")
            detail = detail.removeprefix("is not valid JSON: ").removeprefix("is ")
            raise InputError(f"{name} is neither JSON nor JSONL: {detail}") from None
        return Input(name, Kind.JSON, data=data, first=value, file=file)
    except OSError as exc:
        raise InputError(f"cannot read {name}: {exc.strerror or exc}") from None
    finally:
        if not keep_open and path != "-":
            f.close()


_NOT_JSON = object()


# ---------------------------------------------------------------------------------------------------
# What a document holds


def is_item_stream(first: Any) -> bool:
    """Is a JSONL whose first value is `first` a JSONL of items (checked line by line, in bounded
    memory)? Decided by the one reader (`replayable.reading.first_value_kind`): Responses, request bodies,
    tool definitions and stream or Agents events are read as one document instead."""
    return first_value_kind(first) is DocumentKind.ITEMS


@dataclass
class Transcript:
    """The items of a document, and what its envelope says about them: `kind` (`items`, `response`,
    `request`, `item`), `side` (`output` for a Response), the request's function `tools`, the names
    its `tool_choice` allows, the `check_tool` findings of its tools, and the reader's `document`."""

    items: list[Any]
    kind: str
    side: str | None = None
    tools: list[Any] | None = None
    allowed_tools: list[str] | None = None
    tool_findings: list[Violation] = field(default_factory=list)
    document: Document | None = field(default=None, repr=False)


def lint_tools(tools: list[Any]) -> list[Violation]:
    """`check_tool` findings for the tools of a request body or a --tools file (paths under `/tools/N`):
    a hosted tool has none (no schema to lint), a tool type that is neither `function`, a hosted tool
    type nor a `slug:name` is `invalid_tool`, and so is a tool that is not a JSON object."""
    findings: list[Violation] = []
    for n, tool in enumerate(tools):
        if not isinstance(tool, dict):
            findings.append(Violation(None, ViolationCode.INVALID_TOOL, "not a tool definition", f"/tools/{n}"))
        elif tool.get("type") is not None and not isinstance(tool.get("type"), str):
            findings.append(Violation(None, ViolationCode.INVALID_TOOL, "'type' must be a string", f"/tools/{n}/type"))
        else:  # a hosted tool has no violation (check_tool notes it); an unknown tool type is invalid_tool
            findings.extend(v.under(f"/tools/{n}") for v in check_tool(tool))
    return findings


def function_tools(tools: list[Any], name: str) -> list[Any]:
    """The function tools of a request body or a --tools file (any shape `replayable.tools.read_tool`
    knows: Responses, Agents, Chat Completions, MCP; hosted tools are left out). Raises `InputError`
    when two share a name (which one a call meant would be a guess)."""
    try:
        tool_index([t for t in tools if isinstance(t, dict)])  # a bare schema among them is refused there
    except ValueError as exc:
        raise InputError(f"{name}: {exc}") from None
    return reading.function_tools(tools)


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


def read_document(value: Any, name: str, provider: Any = None, *, streams: bool = False) -> Document:
    """The one reader's `Document` of a parsed input (`replayable.reading.read_document`); what it
    refuses is an `InputError` naming the input and saying what to pass. A document that is a JSON
    scalar (a string, a number, `true`, `null`) is named as such: the file held it, it was not text
    handed to the library."""
    if value is None or isinstance(value, str | int | float):
        raise InputError(
            f"{name}: the document is a JSON {_json_kind(value)}, not a transcript: give a JSON array of items, "
            "JSONL, one item (an object with 'type'), a request body, a Response, stream events or tool definitions"
        )
    try:
        return reading.read_document(value, provider=provider, text=False, streams=streams)
    except ItemError as exc:
        first = exc.errors[0]["msg"] if exc.errors else str(exc)
        raise InputError(f"{name}: {first}") from None


def transcript_of(doc: Document, name: str) -> Transcript:
    """The `Transcript` of a document the reader read: its items, and its request's tools linted. Raises
    `InputError` for one item nested deeper than an item may, or two tools sharing a name."""
    if doc.kind is DocumentKind.ITEM:
        check_depth(doc.value, name)
    tool_list = doc.tool_list or []
    return Transcript(
        doc.items,
        str(doc.kind),
        side=doc.side,
        tools=None if doc.tools is None else function_tools(tool_list, name),  # as the reader limits them
        allowed_tools=allowed_from_tool_choice(doc.tool_choice),
        tool_findings=lint_tools(tool_list),
        document=doc,
    )


def read_transcript(value: Any, name: str, provider: Any = None) -> Transcript:
    """Find the items in a parsed document with the one reader: a list, a Response (`output`), a
    request body (`input`, `tools`, `tool_choice`) or one item. Raises `InputError` for anything else."""
    return transcript_of(read_document(value, name, provider), name)


def load_tools(path: str, *, max_bytes: int = DEFAULT_MAX_BYTES) -> list[Any]:
    """The tool definitions of a `--tools` file: a JSON array of tools, one tool, an object with a
    `tools` array (a request body), or JSONL of tools. Raises `InputError`."""
    inp = read_input(path, max_bytes=max_bytes)
    return tools_of(inp.value(), inp.name)


def tools_of(value: Any, name: str) -> list[Any]:
    """The tool definitions in a document: a JSON array of tools, one tool, or an object with a `tools`
    array (a request body). Raises `InputError` for anything else, or when two tools share a name."""
    if isinstance(value, dict) and isinstance(value.get("tools"), list):
        value = value["tools"]
    if isinstance(value, dict):
        value = [value]
    if not isinstance(value, list):
        raise InputError(f"{name}: expected a JSON array of tool definitions")
    function_tools(value, name)  # two tools with one name: an error, not a guess
    return value


# ---------------------------------------------------------------------------------------------------
# Directories


@dataclass(frozen=True, slots=True)
class Found:
    """A file to check (`error` empty), or a path that cannot be listed (`error` says why)."""

    path: str
    error: str = ""


def find_files(paths: Iterable[str]) -> list[Found]:
    """The files to check: each path as given (`-` is standard input; a path that does not exist is
    kept and reported as unreadable), and for a directory every `*.json`, `*.jsonl` and `*.sse` under
    it, sorted, following symbolic links once. A directory (or subdirectory) that cannot be listed, and
    an entry whose name matches but which is not a regular file (a dangling symbolic link, a FIFO, a
    socket, a device: never opened, so a scan never blocks) is a `Found` with an `error` saying why: it
    is unreadable (exit status 2), never silently skipped."""
    out: list[Found] = []
    for p in paths:
        if p != "-" and os.path.isdir(p):
            out.extend(_walk(p))
        else:
            out.append(Found(p))
    return out


_SPECIAL = (
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


def _not_regular(path: str) -> str:
    """Why a directory entry whose name matches `SUFFIXES` but which is not a regular file was not read:
    a dangling symbolic link (nothing to read) or a FIFO, socket or device (reading one may block or
    never end)."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        if os.path.islink(path):
            try:
                target = os.readlink(path)
            except OSError:
                target = "?"
            return (
                f"skipped: a dangling symbolic link (to {display_name(target)}: {exc.strerror or exc}), nothing to read"
            )
        return f"cannot read {display_name(path)}: {exc.strerror or exc}"
    what = next((name for test, name in _SPECIAL if test(mode)), "not a regular file")
    return f"skipped: {what}, not read in a directory (it may block or never end); give its name to read it"


def _walk(top: str) -> list[Found]:
    found: list[Found] = []
    seen: set[tuple[int, int]] = set()

    def visit(directory: str) -> None:
        try:
            st = os.stat(directory)
            key = (st.st_dev, st.st_ino)
            if key in seen:  # a symbolic link back up the tree
                return
            seen.add(key)
            with os.scandir(directory) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            found.append(Found(directory, f"cannot list {display_name(directory)}: {exc.strerror or exc}"))
            return
        for entry in entries:
            try:
                is_dir = entry.is_dir()
                is_file = not is_dir and entry.is_file()
            except OSError as exc:
                found.append(Found(entry.path, f"cannot read {display_name(entry.path)}: {exc.strerror or exc}"))
                continue
            if is_dir:
                visit(entry.path)
            elif entry.name.endswith(SUFFIXES):
                found.append(Found(entry.path) if is_file else Found(entry.path, _not_regular(entry.path)))

    visit(top)
    return found
