"""What the command line reads besides the input it checks: directories, `--tools` files, sizes.

The input itself is read by the library's file reader, `replayable._reading.read_file` (SSE, JSONL, one
JSON document; size and depth limits), into one `Document`. Here: `find_files` lists what a directory
holds, reporting (never silently skipping) entries that are not regular files; `load_tools` reads a
`--tools` file; `read_transcript` finds the items of a document for `diff`, `convert` and `prepare`;
`parse_size` reads `--max-bytes`.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from replayable._checking import document_tools, tools_of
from replayable._findings import Violation
from replayable._reading import Document, allowed_from_tool_choice, display_name
from replayable._reading.files import DEFAULT_MAX_BYTES, document_of, read_input
from replayable._tool_lint import lint_tools

__all__ = [
    "SUFFIXES",
    "Found",
    "Transcript",
    "find_files",
    "load_tools",
    "parse_size",
    "read_transcript",
    "transcript_of",
]

#: File name endings a directory is searched for.
SUFFIXES = (".json", ".jsonl", ".sse")


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


def transcript_of(doc: Document, name: str) -> Transcript:
    """The `Transcript` of a document the reader read: its items, and its request's tools linted. Raises
    `InputError` for two tools sharing a name."""
    tool_list = doc.tool_list or []
    return Transcript(
        doc.items,
        str(doc.kind),
        side=doc.side,
        tools=document_tools(doc, name),  # as the reader limits them
        allowed_tools=allowed_from_tool_choice(doc.tool_choice),
        tool_findings=lint_tools(tool_list, doc.provider),
        document=doc,
    )


def read_transcript(value: Any, name: str, provider: Any = None) -> Transcript:
    """Find the items in a parsed document with the one reader: a list, a Response (`output`), a
    request body (`input`, `tools`, `tool_choice`) or one item. Raises `InputError` for anything else."""
    return transcript_of(document_of(value, name, provider, streams=False), name)


def load_tools(path: str, *, max_bytes: int = DEFAULT_MAX_BYTES) -> list[Any]:
    """The tool definitions of a `--tools` file: a JSON array of tools, one tool, an object with a
    `tools` array (a request body), or JSONL of tools. Raises `InputError`."""
    inp = read_input(path, max_bytes=max_bytes)
    return tools_of(inp.value(), inp.name)


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
