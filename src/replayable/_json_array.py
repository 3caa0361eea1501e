"""A JSON array read a piece at a time, by the one strict reader's rules (`replayable._json`).

`parse_items` reads the items of a JSON array text through `iter_array`: each piece's values are
validated while still in the CPU cache and dropped before the next piece is read, so the plain values
of a large array are never all held at once (less memory at the peak, fewer objects for the garbage
collector to count: benchmarks/README.md, issue 36). The verdict is `loads`' own: the same values, and
for a text it refuses the same error.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ._json import CONTAINERS_BASE, MAX_ITEM_DEPTH, READER_DEPTH, clears_filters, loads, read_strict

__all__ = ["ARRAY_PIECE", "iter_array"]

#: About how many bytes of a JSON array `iter_array` reads at a time (some fifty core items).
ARRAY_PIECE = 8192

#: Cut candidates (`},`) looked at for one cut once the braces are counted: past them, the rest of the
#: text is read in one piece, so a text of many nested objects costs at most this many steps per piece.
_MAX_TRIES = 64

_BOM = b"\xef\xbb\xbf"


def _text_bytes(data: str | bytes | bytearray | memoryview) -> bytes | None:
    """The UTF-8 bytes `loads` reads of a JSON text (one leading byte order mark dropped), or None for a
    `str` that has no UTF-8 form (`loads` names its lone surrogate)."""
    if isinstance(data, str):
        try:
            raw = str.encode(data)  # str's own method, as `loads` reads it: never a subclass's `encode`
        except UnicodeEncodeError:
            return None
    else:
        raw = data if type(data) is bytes else bytes(memoryview(data))  # the buffer, as `loads` reads it
    return raw[3:] if raw[:3] == _BOM else raw


def iter_array(
    data: str | bytes | bytearray | memoryview,
    *,
    what: str = "JSON text",
    max_depth: int = MAX_ITEM_DEPTH,
    piece: int = ARRAY_PIECE,
) -> Iterator[list[Any]]:
    """The elements of a JSON text that is one array, read a piece at a time: yields lists of consecutive
    elements which, joined, are exactly `loads(data, what=what, max_depth=max_depth)`, by the same rules.
    Raises `JSONError` exactly as that call does (the same reason, message and offset), possibly after
    some pieces were yielded; the caller checked that the text's first character is `[`.

    The whole-text filters (the container budget, the number filter) run first, on the whole text, as in
    `loads`. The text is then cut after a `}` followed by `,`, about every `piece` bytes, and each piece
    `[...]` is read by jiter with the strict settings. A cut is never trusted, only checked: a piece that
    reads as a non-empty array is a run of whole elements (JSON values end where they end, so the text
    up to a cut that both sides read is the same elements read whole), and any object lies entirely in
    one piece (duplicate keys, depth and numbers are judged there as in the whole text). A cut inside a
    string or a nested object makes its piece fail to read: the cuts are then placed only where the
    braces since the last cut balance (`{` and `}` counted on the bytes, at most `_MAX_TRIES` candidates
    per cut); should that find no cut, or such a piece fail too, the rest of the text is read in one
    piece, and a text that does not read is read whole by `loads`, which raises its error (or, were it
    valid after all, gives the elements not yet yielded)."""
    raw = _text_bytes(data)
    first = -1 if raw is None else raw.find(b"[")
    if (
        raw is None
        or len(raw) < 2 * max(piece, CONTAINERS_BASE)
        or max_depth < READER_DEPTH
        or raw[:first].strip(b" \t\r\n")
        or not clears_filters(raw)  # over budget, or a number to look at: `loads` names the rule
    ):
        yield loads(data, what=what, max_depth=max_depth)
        return
    pos = first  # the piece starts after raw[pos]: the array's `[`, then the `,` after the last cut
    yielded = 0  # elements yielded so far
    balanced = False  # cut only where the braces since the last cut balance (after a piece failed)
    view = memoryview(raw)
    while True:
        cut = raw.find(b"},", pos + piece)
        if balanced:
            depth, at, tries = 0, pos + 1, 0
            while cut >= 0:
                depth += raw.count(b"{", at, cut + 1) - raw.count(b"}", at, cut + 1)
                at = cut + 1
                if depth == 0:
                    break
                tries += 1
                # many nested objects (or a hostile text): the rest in one piece, as `loads` reads it
                cut = raw.find(b"},", at + 1) if tries < _MAX_TRIES else -1
        text = b"".join((b"[", view[pos + 1 : cut + 1], b"]") if cut >= 0 else (b"[", view[pos + 1 :]))
        try:
            values = read_strict(text)
        except ValueError:
            values = None
        del text
        if values:  # a non-empty list: whole elements, the rest of the text from the cut on
            yielded += len(values)
            yield values
            del values
            if cut < 0:
                return
            pos = cut + 1
            continue
        if cut >= 0 and not balanced:
            balanced = True  # the cut was inside a string or a nested object: cut where the braces balance
            continue
        if cut >= 0:  # a balanced cut failed too (a brace inside a string): the rest in one piece
            try:
                values = read_strict(b"".join((b"[", view[pos + 1 :])))
            except ValueError:
                values = None
            if values:
                yield values
                return
        break
    view.release()
    whole = loads(data, what=what, max_depth=max_depth)  # raises the error of a text that is not valid
    yield whole[yielded:]
