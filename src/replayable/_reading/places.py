"""Where an item, event or field starts in the file it was read from: 1-based line and column.

`replayable._reading.read_file` gives every `Document` it reads from a file a `Places`
(`Document.places`): `Places.at(index, path)` says the line and column where item (or event) `index` of
the document starts, or where the field at JSON Pointer `path` inside it starts when that can be found.
Nothing is computed while a file is read: a JSONL keeps the numbers of its blank lines (and the indent of
a line that does not start with `{`), a JSON document or an SSE capture keeps its bytes (which the reader
held anyway). The text is scanned only when a finding asks, once per document:

- JSON (one document, pretty-printed or not): the starts of the elements of the array the items are in
  (the top-level array; a request body's `input`; a Response's `output`; the document itself for one
  item), found by the standard library's decoder, which skips each element at C speed (the text was
  judged strict JSON already by the one strict reader, `replayable._json`);
- JSONL: the line of the index-th value, its column that of the line's first non-blank character (a
  field inside it is not looked for: the line's text is not kept);
- SSE: the frames that carry events, from the byte offsets the stream reader gives (`frames`).

Columns count characters (Unicode code points), 1-based, as editors do and as SARIF's
`unicodeCodePoints` column kind says; a byte order mark at the start is not counted.
"""

from __future__ import annotations

import json
from array import array
from bisect import bisect_right
from collections.abc import Callable, Mapping, Sequence
from itertools import accumulate

__all__ = ["Places"]

_SPACE = " \t\r\n"
_DECODER = json.JSONDecoder()


def _skip(text: str, i: int) -> int:
    n = len(text)
    while i < n and text[i] in _SPACE:
        i += 1
    return i


def _members(text: str, start: int) -> dict[str | int, int]:
    """Where each value of the array (by index) or object (by key) starting at `start` begins (character
    offsets); {} for a scalar or text that cannot be walked."""
    out: dict[str | int, int] = {}
    opener = text[start : start + 1]
    if opener not in ("[", "{"):
        return out
    close = "]" if opener == "[" else "}"
    i, index = _skip(text, start + 1), 0
    try:
        while i < len(text) and text[i] != close:
            name: str | int = index
            if opener == "{":
                key, i = _DECODER.raw_decode(text, i)
                i = _skip(text, i)
                if text[i : i + 1] != ":":
                    return out
                i = _skip(text, i + 1)
                name = str(key)
            out.setdefault(name, i)
            _, i = _DECODER.raw_decode(text, i)
            i = _skip(text, i)
            if text[i : i + 1] == ",":
                i = _skip(text, i + 1)
            index += 1
    except (ValueError, RecursionError):
        pass
    return out


def _value_line(blank_lines: Sequence[int], index: int) -> int:
    """The line of value `index` of a JSONL whose blank lines are `blank_lines` (sorted): the smallest
    line L with L - (blank lines up to L) = index + 1 (binary search; that line is never blank)."""
    low, high = index + 1, index + 1 + len(blank_lines)
    while low < high:
        mid = (low + high) // 2
        if mid - bisect_right(blank_lines, mid) >= index + 1:
            high = mid
        else:
            low = mid + 1
    return low


def _line_lengths(text: str | bytes) -> array[int]:
    """The lengths of the lines of `text` before each line, summed (line k starts at `sums[k] + k`: each
    line before it also ends with one LF), read once, in C (`split`, `map(len)`, `accumulate`)."""
    nl = "\n" if isinstance(text, str) else b"\n"
    return array("q", accumulate(map(len, text.split(nl)), initial=0))  # type: ignore[arg-type]


def _pointer(path: str) -> list[str]:
    if not path.startswith("/"):
        return []
    return [p.replace("~1", "/").replace("~0", "~") for p in path[1:].split("/")]


class Places:
    """The start (line, column) of each item or event of one document read from a file (see the module
    docstring). Made by `json`, `jsonl`, `numbered` or `frames`; asked with `at`."""

    __slots__ = (
        "_data", "_frames", "_indents", "_key", "_lines", "_numbered", "_offsets", "_starts", "_starts_of_lines",
        "_text",
    )  # fmt: skip

    def __init__(self) -> None:
        self._data: bytes = b""
        self._text: str | None = None
        self._key: str | None = None
        self._starts: dict[str | int, int] | None = None
        self._lines: Sequence[int] | None = None
        self._numbered: Sequence[int] | None = None
        self._indents: Mapping[int, int] = {}
        self._offsets: Callable[[bytes], list[int]] | None = None
        self._frames: list[int] | None = None
        self._starts_of_lines: array[int] | None = None

    @classmethod
    def json(cls, data: bytes, key: str | None = None) -> Places:
        """The places of the JSON document `data` (UTF-8): its items are the elements of the top-level
        array (`key` None), of the array under the top-level object's `key` (a lone value there is item
        0), or (`key` "") the document itself, as one item."""
        places = cls()
        places._data, places._key = data, key
        return places

    @classmethod
    def jsonl(cls, blank_lines: Sequence[int], indents: Mapping[int, int]) -> Places:
        """The places of a JSONL input: `blank_lines` are the 1-based numbers of its blank lines, in
        order (every other line holds one value), `indents` the blank characters before the value of
        the few lines that start with some, by line. The reader fills both as it reads, at no cost for
        a line that starts with `{` and follows another value."""
        places = cls()
        places._lines, places._indents = blank_lines, indents
        return places

    @classmethod
    def numbered(cls, lines: Sequence[int]) -> Places:
        """The places of items read one per line, not every line an item (a Codex session file: only its
        `response_item` lines): `lines[index]` is the 1-based line of item `index`, which starts in
        column 1."""
        places = cls()
        places._numbered = lines
        return places

    @classmethod
    def frames(cls, data: bytes, offsets: Callable[[bytes], list[int]]) -> Places:
        """The places of the SSE capture `data`: `offsets(data)` is the byte offset of each frame that
        carries an event, in order (called once, when a place is first asked for)."""
        places = cls()
        places._data, places._offsets = data, offsets
        return places

    def _decoded(self) -> str:
        if self._text is None:
            self._text = self._data.decode("utf-8", "replace").removeprefix("\ufeff")
        return self._text

    def _item_starts(self) -> dict[str | int, int]:
        if self._starts is None:
            text = self._decoded()
            top = _skip(text, 0)
            if self._key == "":
                self._starts = {0: top}
            elif self._key is None:
                self._starts = _members(text, top)
            else:
                at = _members(text, top).get(self._key)
                if at is None:
                    self._starts = {}
                else:
                    self._starts = _members(text, at) if text[at] == "[" else {0: at}
        return self._starts

    def _line_column(self, at: int, text: str | bytes) -> tuple[int, int]:
        """The (line, column) of offset `at` of `text` (characters of the decoded JSON text, or bytes of an
        SSE capture, whose frames start at a line's start); the lines' starts are found once."""
        if self._starts_of_lines is None:
            self._starts_of_lines = _line_lengths(text)
        sums = self._starts_of_lines
        line = bisect_right(range(len(sums) - 1), at, key=lambda k: sums[k] + k)  # lines starting at or before
        start = sums[line - 1] + line - 1
        if isinstance(text, str):  # characters: the column is a difference (no slice of a long line per finding)
            return line, at - start + 1
        head = text[start:at].removeprefix(b"\xef\xbb\xbf").decode("utf-8", "replace")
        return line, len(head) + 1

    def at(self, index: int | None, path: str = "") -> tuple[int, int] | None:
        """The 1-based (line, column) where item or event `index` starts, or where the field at the JSON
        Pointer `path` inside it starts when found (else the item's start); None when unknown (no index,
        an index past the document)."""
        if index is None or index < 0:
            return None
        if self._numbered is not None:
            return (self._numbered[index], 1) if index < len(self._numbered) else None
        if self._lines is not None:
            line = _value_line(self._lines, index)
            return line, self._indents.get(line, 0) + 1
        if self._offsets is not None:
            if self._frames is None:
                self._frames = self._offsets(self._data)
            if index >= len(self._frames):
                return None
            return self._line_column(self._frames[index], self._data)
        start = self._item_starts().get(index)
        if start is None:
            return None
        text = self._decoded()
        for part in _pointer(path):
            inner = _members(text, start)
            step: str | int = int(part) if part.isdigit() and text[start] == "[" else part
            if step not in inner:
                break
            start = inner[step]
        return self._line_column(start, text)
