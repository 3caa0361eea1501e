"""The one strict JSON reader behind every path: item texts, JSONL, event texts, arguments, the CLI.

Every JSON text `replayable` reads goes through `loads` (jiter, pydantic's JSON parser, with its
duplicate-key and NaN checks on), and every Python value it is handed as JSON goes through
`check_value`, so bytes, text, JSONL lines, dicts, dict subclasses and SDK objects get the same verdict.
The rules (RFC 8259 without the liberties Python's `json` takes):

- `duplicate_key`: an object with the same key twice (readers disagree on which value counts).
- `non_finite_number`: `NaN`, `Infinity`, `-Infinity`, and numbers that only read as infinity
  (`1e400`) or, not being zero, as zero (`1e-400`, `-1e-400`: below the smallest double); a Python
  `float('nan')` or `inf`.
- `number_too_long`: an integer with more than `MAX_INT_DIGITS` (4300) digits, Python's default
  `int` <-> `str` limit, applied whatever `sys.set_int_max_str_digits` says.
- `invalid_utf8`: bytes that are not UTF-8 (never replaced); a text is read as UTF-8 only (no UTF-16).
- `lone_surrogate`: a `\\ud800`-style escape or a `str` holding a UTF-16 surrogate that is not part of a
  pair (it has no UTF-8 form).
- `too_many_containers`: more arrays and objects than the memory budget allows (`CONTAINERS_BASE` plus
  one per `BYTES_PER_CONTAINER` bytes of text), counted on the bytes before anything is built.
- `too_deep`: arrays and objects nested deeper than the caller's limit (`MAX_ITEM_DEPTH` for items and
  events, `replayable._arguments.MAX_DEPTH` for arguments); never a `RecursionError`.
- `not_json`: not JSON text, or a Python value JSON has no form for (a set, a tuple, bytes, a non-string
  key, an object of another class).
- A byte order mark: one U+FEFF at the very start of the input (a JSON text, the first line of a JSONL
  document, the first line of an iterable of lines) is ignored, as RFC 8259 section 8.1 allows; one
  anywhere else is `not_json`.
- JSONL lines end at `\\n` only (`\\r\\n` too, the `\\r` is dropped): U+2028, U+2029 and other Unicode
  line breaks inside a JSON string never split a line.

Dict subclasses and other `Mapping`s are read as JSON objects, list subclasses as arrays, `str` and `bytes`
subclasses as what they hold (`exact_text`); `to_plain` turns `openai` SDK objects into JSON values. Errors
are `JSONError` (a `ValueError`, `.reason` from the list above), wrapped by callers in their own error.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator, Mapping
from itertools import repeat
from operator import countOf, itemgetter
from typing import Any, overload

import jiter
from pydantic import BaseModel

from ._messages import printable
from .errors import JSONError

__all__ = [
    "MAX_INT_DIGITS",
    "MAX_ITEM_DEPTH",
    "JSONError",
    "check_value",
    "exact_text",
    "iter_jsonl",
    "loads",
    "printable",
    "reads_cleanly",
    "to_plain",
]

#: Deepest nesting accepted in one item or event, from JSON text or Python values. Levels count each object
#: and array and the value inside the deepest one: `{"a": 1}` is 2 levels, a message with a text content part 4.
#: A JSON text holding a list of items may be one level deeper. 200 is what the reader itself enforces per text
#: (jiter counts 201 levels, minus the list around items): the array fast path needs no second pass.
MAX_ITEM_DEPTH = 200
#: Most digits accepted in a JSON integer (Python's default `int` <-> `str` limit).
MAX_INT_DIGITS = 4300
#: Nesting jiter refuses past, whatever the caller's limit (tests pin it).
READER_DEPTH = 201
#: The memory budget of one JSON text: at most `CONTAINERS_BASE` arrays and objects plus one per
#: `BYTES_PER_CONTAINER` bytes of text (rule `too_many_containers`). Arrays and objects are what a text expands
#: most into (`[]` is 3 bytes of JSON and 64 of memory), so whatever is accepted peaks under 20x its size
#: (docs/security.md, "Budgets"); texts shorter than `2 * CONTAINERS_BASE` bytes are never counted.
CONTAINERS_BASE = 4096
BYTES_PER_CONTAINER = 16

_from_json = jiter.from_json
_BOM_BYTES, _BOM = b"\xef\xbb\xbf", "\ufeff"
_EXACT_TEXT = frozenset({str, bytes, bytearray, memoryview})
_INT_LIMIT = 10**MAX_INT_DIGITS
_INT_BITS = _INT_LIMIT.bit_length() - 1  # ints with fewer bits are surely short enough
_SURROGATE = re.compile("[\ud800-\udfff]")
# The shape of a JSON text as far as numbers go: digits to '0', exponent markers to 'e', '.' kept, the
# bytes a number can follow (`:`, `,`, whitespace) to ':', `[` and `{` to '[' (a number may follow a `[`;
# never a `{`, so that is only a wider filter, and one count of '[' then counts the arrays and objects),
# signs dropped, every other byte to 'x'. A number that overflows to infinity needs an exponent of three
# digits or more (`:0e000`, `:00.0e000` in this shape), or a run of at least 210 digits (JSON has no
# leading zeros).
_SHAPE_OF = dict(zip(b"0123456789eE.:, \t\r\n[{", b"0000000000ee.::::::[[", strict=True))
_NUMBER_SHAPE = bytes(_SHAPE_OF.get(b, ord("x")) for b in range(256))
_CANDIDATE, _WIDTH = b"0e000", 400  # a mantissa's last digit and a 3-digit exponent; how far its run is looked for
_LOOK, _LAST = itemgetter(slice(-_WIDTH, None)), itemgetter(slice(-1, None))
# Scalars that no number read as infinity (or as 0.0 though not zero) becomes: jiter reads those as floats.
_NO_FLOAT = frozenset({str, int, bool, type(None)})
_LONG_RUN = b"0" * 210
# A number literal with an exponent of three digits or more, or of 200 characters or more: the only ones
# that can read as 0.0 though not zero.
_TINY = re.compile(rb"-?[0-9.]+[eE][+-]?[0-9]{3,}|-?[0-9.]{200,}(?:[eE][+-]?[0-9]+)?")
_NUMBER_OR_ESCAPE = frozenset(b"0123456789.eE+-\\")
_BACKSLASH = ord("\\")
# Every byte but `"` and brackets (deleted to count the arrays and objects outside strings).
_NOT_STRUCTURAL = bytes(b for b in range(256) if b not in b'"[{]}')
_DEPTH_STEP = bytes(0 if chr(b) in "[{" else 1 for b in range(256))

_AT = re.compile(r"at line (\d+) column (\d+)$")


def _offset(raw: bytes, message: str) -> int | None:
    """The byte offset jiter's message names (`... at line L column C`, 1-based), or None."""
    found = _AT.search(message)
    if found is None:
        return None
    line, column = int(found.group(1)), int(found.group(2))
    lines = raw.split(b"\n", line - 1)
    return sum(len(x) + 1 for x in lines[: line - 1]) + column - 1 if len(lines) >= line else None


def _reason(message: str) -> str:
    """jiter's error message -> our rule."""
    if message.startswith("Detected duplicate key"):
        return "duplicate_key"
    if "recursion limit" in message:
        return "too_deep"
    if "surrogate" in message or "hex escape" in message:
        return "lone_surrogate"
    if message.startswith("number out of range"):
        return "number_too_long"
    if message.startswith(("invalid unicode code point", "invalid UTF-8")):
        return "invalid_utf8"
    return "not_json"


@overload
def exact_text(data: str) -> str: ...
@overload
def exact_text(data: bytes | bytearray) -> bytes | bytearray: ...
@overload
def exact_text(data: memoryview) -> memoryview | bytes: ...
def exact_text(data: str | bytes | bytearray | memoryview) -> str | bytes | bytearray | memoryview:
    """A JSON text as its exact built-in type: a `str` or `bytes` subclass read once by the base type's own
    conversion, so that no overridden method (`encode`, `__bytes__`, slicing) is what a reader reads."""
    if type(data) in _EXACT_TEXT:
        return data
    return str.__str__(data) if isinstance(data, str) else bytes(memoryview(data))


def _as_bytes(data: str | bytes | bytearray | memoryview, what: str) -> bytes:
    if isinstance(data, str):
        try:
            return str.removeprefix(data, _BOM).encode("utf-8")  # str's own methods: never a subclass's
        except UnicodeEncodeError as exc:
            msg = f"holds a lone UTF-16 surrogate at character {exc.start}"
            raise JSONError("lone_surrogate", f"{what} {msg}", msg) from None
    if type(data) is not bytes:
        data = bytes(memoryview(data))  # the buffer itself: never a subclass's `__bytes__` or slicing
    return data[3:] if data[:3] == _BOM_BYTES else data


def read_strict(raw: bytes) -> Any:
    """jiter with the strict reader's settings (raises its `ValueError`; `loads` says which rule). Only the
    parse: `loads` runs the whole-text filters (`clears_filters`) and names the rule of an error."""
    return _from_json(raw, allow_inf_nan=False, catch_duplicate_keys=True, cache_mode="keys")


def container_budget(size: int) -> int:
    """The most arrays and objects a JSON text of `size` bytes may hold (see `BYTES_PER_CONTAINER`)."""
    return CONTAINERS_BASE + size // BYTES_PER_CONTAINER


def too_many_containers(raw: bytes, brackets: int | None = None) -> str | None:
    """Why the JSON text `raw` is over its container budget (`container_budget`), or None. Counted on the
    bytes before anything is built: brackets first (a sound filter; `brackets` is their count when the
    caller has it), then, only when those are over, brackets outside strings."""
    size = len(raw)
    if size < 2 * CONTAINERS_BASE:  # 2 bytes at least per container: never over
        return None
    limit = CONTAINERS_BASE + size // BYTES_PER_CONTAINER
    if (raw.count(b"[") + raw.count(b"{") if brackets is None else brackets) <= limit:
        return None
    count = _containers_outside_strings(raw) if b'"' in raw else raw.count(b"[") + raw.count(b"{")
    if count <= limit:
        return None
    return (
        f"holds {count} arrays and objects in {size} bytes, more than the memory budget allows "
        f"({CONTAINERS_BASE} plus one per {BYTES_PER_CONTAINER} bytes: {limit})"
    )


class ContainerBudget:
    """The container budget of one input read in pieces (JSONL lines, SSE `data:` bodies, chunks of a
    stream): the input as a whole may hold at most `container_budget(size)` arrays and objects, `size`
    its bytes so far, whatever its framing; exactly the budget one JSON text of that size has, so that
    200,000 `{}` lines are refused as the same values in one JSON array are.

    `add(piece)` counts the arrays and objects of `piece` (bytes of the input; `extra` more bytes of it,
    such as the line ends the caller dropped) and returns why the input is now over its budget, or None.
    Counted on the bytes before anything is built: each piece's brackets, and its brackets outside
    strings only when those are more than the piece's own share (so a count never exceeds the truth by
    more than the brackets inside strings of pieces well under their share)."""

    __slots__ = ("containers", "size")

    def __init__(self) -> None:
        self.containers = 0
        self.size = 0

    def add_line(self, line: str | bytes | bytearray) -> str | None:
        """`add` of one line (`str` counted in UTF-8), as if it ended with its line end."""
        piece = line.encode("utf-8", "surrogatepass") if isinstance(line, str) else line
        return self.add(piece, 0 if piece.endswith(b"\n") else 1)

    def add(self, piece: bytes | bytearray, extra: int = 0) -> str | None:
        n = piece.count(b"[") + piece.count(b"{")
        size = len(piece) + extra
        if n * BYTES_PER_CONTAINER > size and b'"' in piece:
            n = _containers_outside_strings(bytes(piece))
        self.containers += n
        self.size += size
        limit = CONTAINERS_BASE + self.size // BYTES_PER_CONTAINER
        if self.containers <= limit:
            return None
        return (
            f"holds {self.containers} arrays and objects in its first {self.size} bytes, more than the memory "
            f"budget allows ({CONTAINERS_BASE} plus one per {BYTES_PER_CONTAINER} bytes: {limit}), whatever its "
            "framing (JSON, JSONL, SSE)"
        )


def text_over_budget(text: str | bytes | bytearray) -> str | None:
    """`too_many_containers` of a whole text however it is framed (a JSONL text, an SSE capture): a `str`
    is counted on its characters first (never more than its UTF-8 bytes, so under budget there is under
    budget in bytes) and encoded only when that is over."""
    if isinstance(text, str):
        if len(text) < 2 * CONTAINERS_BASE or text.count("[") + text.count("{") <= container_budget(len(text)):
            return None
        return too_many_containers(text.encode("utf-8", "surrogatepass"))
    return too_many_containers(text if isinstance(text, bytes) else bytes(text))


def _outside_strings(raw: bytes) -> bytes:
    """The brackets (`[`, `{`, `]`, `}`) of a JSON text that are not inside a string, in order. Escapes go
    first (`\\\\` pairs, then `\\"`, left to right as JSON reads them), so every `"` left opens or
    closes a string; then only quotes and brackets are kept, and those outside quotes joined, 64 KB at a
    time (at most about twice the text in memory, all in C loops)."""
    if b"\\" in raw:
        raw = raw.replace(b"\\\\", b"").replace(b'\\"', b"")
    kept = raw.translate(None, _NOT_STRUCTURAL)
    if b'"' not in kept:
        return kept
    out = bytearray()
    inside = False
    step = 1 << 16
    for start in range(0, len(kept), step):
        pieces = kept[start : start + step].split(b'"')
        for piece in pieces[1::2] if inside else pieces[0::2]:
            out += piece
        if len(pieces) % 2 == 0:  # an odd number of quotes: the chunk ends on the other side
            inside = not inside
    return bytes(out)


def _containers_outside_strings(raw: bytes) -> int:
    """The arrays and objects of a JSON text: its `[` and `{` bytes outside strings."""
    outside = _outside_strings(raw)
    return outside.count(b"[") + outside.count(b"{")


def _nesting(raw: bytes) -> int:
    """How deep the arrays and objects of a JSON text nest (containers only; a sound count for valid
    JSON). Only asked of a text over its container budget, to name the better rule."""
    steps = _outside_strings(raw).translate(_DEPTH_STEP)
    depth = deepest = 0
    for step in steps:  # 0: an opening bracket, 1: a closing one
        depth += 1 - 2 * step
        if depth > deepest:
            deepest = depth
    return deepest


def _may_be_too_deep(raw: bytes, max_depth: int) -> bool:
    """Could the JSON text nest deeper than `max_depth`? (A cheap, sound filter: False means no.)"""
    return len(raw) >= max_depth and raw.count(b"[") + raw.count(b"{") >= max_depth


def may_overflow(data: bytes) -> bool:
    """Could a number in the JSON text read as infinity? (A cheap, sound filter: False means no.)"""
    if len(data) < 5:
        return False
    return _shape_may_overflow(data.translate(_NUMBER_SHAPE, b"+-"))


def _shape_may_overflow(shape: bytes) -> bool:
    """`may_overflow` of the text whose `_NUMBER_SHAPE` is `shape`: a candidate (`_CANDIDATE`) whose run of
    mantissa bytes (`0`, `.`) starts where a number can (after `:` or `[`, or at the start), or 210 digits in
    a row. The candidates are cut apart and judged in C (`split`, `map`): base64 holds thousands, none costs
    a Python step. One overlapping the one before never is a number (its run reaches that one's `e`)."""
    if _CANDIDATE in shape:
        heads = shape.split(_CANDIDATE)[:-1]  # what precedes each candidate
        tails = list(map(bytes.rstrip, map(_LOOK, heads), repeat(b"0.")))  # up to each run's start
        if not all(tails) and any(not t and (k == 0 or len(heads[k]) >= _WIDTH) for k, t in enumerate(tails)):
            return True  # a run from the text's start or longer than the look: maybe (else it ends at an `e`)
        if not {b":", b"["}.isdisjoint(map(_LAST, tails)):  # the byte before a run: where a number starts
            return True
    # 210 digits in a row: 40 first (a short needle is found by skipping, a long one is not)
    return len(shape) >= 210 and _LONG_RUN[:40] in shape and _LONG_RUN in shape


def clears_filters(raw: bytes) -> bool:
    """Whether a JSON text (UTF-8, no byte order mark) passes `loads`' whole-text filters as they run on a
    long text: under its container budget, and no number in it may read as infinity or as zero."""
    shape = raw.translate(_NUMBER_SHAPE, b"+-")
    return too_many_containers(raw, shape.count(b"[")) is None and not _shape_may_overflow(shape)


def loads(
    data: str | bytes | bytearray | memoryview,
    *,
    what: str = "JSON text",
    max_depth: int = MAX_ITEM_DEPTH,
    count_values: bool = True,
    numbers_checked: bool = False,
) -> Any:
    """Read one JSON text strictly (see the module docstring for the rules).

    `data` is `str` or UTF-8 `bytes`; one leading byte order mark is ignored. `max_depth` is the deepest
    nesting accepted (at most `READER_DEPTH`), counted as `check_value` does (`count_values`). Returns
    plain `dict`/`list`/scalars. `numbers_checked`: the caller ran `may_overflow` over a text holding
    this one where every number of it starts after the same kind of byte, and it said no (an SSE
    capture and its `data:` bodies), so the filter is not run again. Raises `JSONError`
    whose message starts with `what`; never `RecursionError`, `UnicodeError` or a bare `ValueError`.
    """
    if type(data) is str and data[:1] != _BOM:  # the common case, inlined (tool-call arguments are hot)
        try:
            raw = data.encode()
        except UnicodeEncodeError:
            raw = _as_bytes(data, what)  # raises lone_surrogate
    elif type(data) is bytes and data[:1] != b"\xef":  # no byte order mark: read as it is (events are hot)
        raw = data
    elif isinstance(data, str | bytes | bytearray | memoryview):
        raw = _as_bytes(data, what)
    else:
        raise JSONError("not_json", f"{what} must be str or bytes, got {type(data).__name__}")
    overflow: bool | None = None  # long texts: the number filter runs on the shape the budget is counted on
    if len(raw) >= 2 * CONTAINERS_BASE:
        shape = None if numbers_checked else raw.translate(_NUMBER_SHAPE, b"+-")
        over = too_many_containers(raw, None if shape is None else shape.count(b"["))
        if over is None and shape is not None:
            overflow = _shape_may_overflow(shape)
        del shape  # before the read: the shape never adds to the peak of a parse
        if over is not None:
            limit = min(max_depth, READER_DEPTH)
            if _may_be_too_deep(raw, limit) and _nesting(raw) > limit:  # the better rule to name
                msg = f"nests deeper than {limit} levels"
                raise JSONError("too_deep", f"{what}: {msg}", msg)
            raise JSONError("too_many_containers", f"{what}: {over}", over)
    try:
        value = read_strict(raw)
    except ValueError as exc:
        msg = str(exc)
        reason = _reason(msg)
        if reason == "not_json" and _only_constants(raw):
            reason, msg = "non_finite_number", f"NaN and Infinity are not JSON numbers ({msg})"
        if reason == "too_deep":
            msg = f"nests deeper than {min(max_depth, READER_DEPTH)} levels ({msg})"
        elif reason == "number_too_long":
            msg = f"an integer has more than {MAX_INT_DIGITS} digits ({msg})"
        elif reason == "lone_surrogate":
            msg = f"a \\u escape is a lone UTF-16 surrogate, which is not valid Unicode ({msg})"
        elif reason == "invalid_utf8":
            msg = f"not valid UTF-8 ({msg})"
        elif reason == "duplicate_key":
            msg = f"duplicate key: readers disagree on which value counts ({msg})"
        elif reason == "not_json":
            msg = f"not valid JSON: {msg}"
        raise JSONError(reason, f"{what}: {msg}", msg, _offset(raw, str(exc))) from None
    if overflow is None:
        flat = type(value) is dict and len(value) <= 16 and _NO_FLOAT.issuperset(map(type, value.values()))
        # checked by the caller, or an object of strings and integers: no float to be inf or 0.0
        overflow = False if numbers_checked or flat else may_overflow(raw)
    if overflow or (max_depth < READER_DEPTH and _may_be_too_deep(raw, max_depth)):
        why = json_problem(value, max_depth, count_values)
        if why is None and overflow:
            why = _underflow(raw)
        if why is not None:
            raise JSONError(why[0], f"{what}: {why[1]}", why[1])
    return value


def reads_cleanly(text: str, max_depth: int) -> bool:
    """Whether `loads(text, max_depth=max_depth, count_values=False)` surely returns, asked the short way
    (no value kept, no error built): True only for a text under the container budget's threshold that
    jiter reads strictly and that neither number nor depth filter flags; False means "ask `loads`", which
    says why. For the hot callers that only need the verdict (every call's arguments in a transcript)."""
    if type(text) is not str or text[:1] == _BOM:
        return False
    try:
        raw = text.encode()
    except UnicodeEncodeError:
        return False
    if len(raw) >= 2 * CONTAINERS_BASE:
        return False
    try:
        value = _from_json(raw, allow_inf_nan=False, catch_duplicate_keys=True, cache_mode=False)
    except ValueError:
        return False
    if len(raw) >= max_depth and raw.count(b"[") + raw.count(b"{") >= max_depth:
        return False  # `_may_be_too_deep`: the depth is counted by `loads`
    if type(value) is dict and len(value) <= 16 and _NO_FLOAT.issuperset(map(type, value.values())):
        return True  # as in `loads`: an object of strings and integers has no float to be inf or 0.0
    return not may_overflow(raw)


def _underflow(raw: bytes) -> tuple[str, str] | None:
    """(`non_finite_number`, message) when a number literal of the JSON text is not zero but reads as
    zero (`1e-400`, or a fraction with hundreds of zeros: below the smallest double), else None. Only
    asked when `may_overflow` says maybe. Numbers are looked for outside strings only, 1 MB at a time
    (escapes dropped first, so that every quote left opens or closes a string; a chunk never ends inside
    an escape or a number)."""
    inside = False
    size = len(raw)
    i = 0
    while i < size:
        end = min(i + (1 << 20), size)
        while end < size and raw[end] in _NUMBER_OR_ESCAPE:
            end += 1
        if end < size and raw[end - 1] == _BACKSLASH:
            end += 1  # the escaped character stays with its backslash
        chunk = raw[i:end]
        if b"\\" in chunk:
            chunk = chunk.replace(b"\\\\", b"").replace(b'\\"', b"")
        pos = 0
        for match in _TINY.finditer(chunk):
            if chunk.count(b'"', pos, match.start()) % 2:
                inside = not inside
            pos = match.start()
            literal = match.group()
            if inside or float(literal) != 0.0 or not literal.split(b"e")[0].split(b"E")[0].strip(b"-0."):
                continue
            shown = literal[:40].decode() + ("..." if len(literal) > 40 else "")
            return (
                "non_finite_number",
                f"{shown} is not a JSON number a double can hold: it is not zero but reads as 0.0 "
                "(below the smallest double)",
            )
        if chunk.count(b'"', pos) % 2:
            inside = not inside
        i = end
    return None


def _only_constants(raw: bytes) -> bool:
    """Is NaN / Infinity all that keeps `raw` from being JSON? (Only asked after a failure.)"""
    if b"NaN" not in raw and b"Infinity" not in raw:
        return False
    try:
        jiter.from_json(raw, allow_inf_nan=True, catch_duplicate_keys=True, cache_mode=False)
    except ValueError:
        return False
    return True


def json_problem(value: Any, limit: int, count_values: bool = True) -> tuple[str, str] | None:
    """(reason, message) when `value` is not a JSON value within `limit` levels, else None.
    Mappings and list subclasses count as objects and arrays here. With `count_values` a scalar inside
    the deepest container is a level too (jiter's count, so that `{"a": 1}` is 2 levels); without, only
    arrays and objects count (`{"a": 1}` is 1 level)."""
    return _scan(value, limit, count_values)[0]


def _scan(value: Any, limit: int, count_values: bool = True) -> tuple[tuple[str, str] | None, bool]:
    """(`json_problem`'s answer, whether every container is exactly `dict`/`list` and every scalar exactly
    `str`/`int`/`float`/`bool`/`None`, so that no copy is needed).

    Depth first (a deep value is refused after at most `limit` steps down, even when shared references
    make it an enormous tree) and iterative (no recursion limit): `pending[d]` holds the containers still
    to open at depth `d + 1`. Strings, keys and floats are gathered and checked in one pass at the end.
    Every item and event a caller hands over as a Python value goes through here: the loop is kept tight.
    """
    plain = True
    strings: list[str] = []
    keys: list[str] = []
    floats: list[float] = []
    big = _INT_BITS
    scalars: list[Any] = []  # values other than dict/list, checked once the walk is done
    kind = type(value)
    if kind is dict or kind is list:
        pending: list[list[Any]] = [[value]]
    elif isinstance(value, Mapping | list):
        plain, pending = False, [[value]]
    else:
        if count_values and limit < 1:
            return ("too_deep", f"nests deeper than {limit} levels"), plain
        pending, scalars = [], [value]
    while pending:
        top = pending[-1]
        if not top:
            pending.pop()
            continue
        node = top.pop()
        depth = len(pending)
        if depth > limit:
            return ("too_deep", f"nests deeper than {limit} levels"), plain
        kind = type(node)
        if kind is dict:
            keys.extend(node)
            values: Any = node.values()
        elif kind is list:
            values = node
        else:
            plain = False
            if isinstance(node, Mapping):
                for k in node:
                    if not isinstance(k, str):
                        return ("not_json", f"key {k!r} is not a string"), plain
                    keys.append(k)
                values = node.values()
            else:
                values = node
        children: list[Any] = []
        n_scalars = len(scalars) + len(strings)
        for v in values:
            kv = type(v)
            if kv is dict or kv is list:
                children.append(v)
            elif kv is str:
                strings.append(v)
            elif isinstance(v, Mapping | list):  # a dict or list subclass, another Mapping
                plain = False
                children.append(v)
            else:
                scalars.append(v)
        if count_values and depth >= limit and len(scalars) + len(strings) > n_scalars:  # scalars at depth + 1
            return ("too_deep", f"nests deeper than {limit} levels"), plain
        if children:
            pending.append(children)
    try:
        joined_keys = "".join(keys)  # a TypeError names no key: look for it only then
    except TypeError:
        bad = next(k for k in keys if not isinstance(k, str))
        return ("not_json", f"key {bad!r} is not a string"), plain
    if plain and countOf(map(type, keys), str) != len(keys):
        plain = False  # a str subclass as a key: copied as str (two such keys may then be the same)
    for v in scalars:
        kind = type(v)
        if kind is str:
            strings.append(v)
        elif kind is int:
            if v.bit_length() > big and abs(v) >= _INT_LIMIT:
                return ("number_too_long", f"an integer has more than {MAX_INT_DIGITS} digits"), plain
        elif kind is float:
            floats.append(v)
        elif kind is bool or v is None:
            continue
        else:
            why = _odd_scalar(v)
            if why is not None:
                return why, plain
            plain = False
            if isinstance(v, str):
                strings.append(v)
            elif isinstance(v, float):
                floats.append(v)
    for x in floats:
        if not math.isfinite(x):
            return ("non_finite_number", f"{x!r} is not a JSON number (strict JSON has no NaN or Infinity)"), plain
    if not joined_keys.isascii():
        for key in keys:
            if _SURROGATE.search(key):
                return ("lone_surrogate", f"key {key!r} holds a lone UTF-16 surrogate"), plain
    joined = "".join(strings)  # one search over all the text (a surrogate cannot form across strings)
    if not joined.isascii() and _SURROGATE.search(joined):
        return ("lone_surrogate", "a string holds a lone UTF-16 surrogate, which is not valid Unicode"), plain
    return None, plain


def _odd_scalar(node: Any) -> tuple[str, str] | None:
    """Why a value of an unexpected class is not a JSON scalar (None for subclasses of str, int and float:
    enum members, for instance, read as their plain value)."""
    if isinstance(node, bool):
        return None
    if isinstance(node, str):
        return None
    if isinstance(node, int):
        if node.bit_length() > _INT_BITS and abs(node) >= _INT_LIMIT:
            return "number_too_long", f"an integer has more than {MAX_INT_DIGITS} digits"
        return None
    if isinstance(node, float):
        return None
    return "not_json", f"a {type(node).__name__} is not a JSON value"


def _copy_plain(value: Any, limit: int) -> Any:
    """A copy of a value `_scan` found not plain, read once: every Mapping as `dict` (read through its
    `items()`), list subclass as `list`, `str`/`int`/`float` subclasses (enum members, for instance) as the
    plain type by the base class's own conversion (an overridden `__str__`, `__int__` or `__float__` is
    never called). The copy, not the original, is then checked: a subclass that answers differently
    each time it is read cannot slip a value past the check. Iterative; containers past `limit` levels
    are refused as they are met (no blow-up on shared references). Raises `JSONError` for a non-string
    key, two keys that are the same string, nesting past `limit`."""
    root: list[Any] = [None]
    stack: list[tuple[Any, Any, Any, int]] = [(value, root, 0, 1)]
    while stack:
        node, parent, key, depth = stack.pop()
        if isinstance(node, Mapping | list):
            if depth > limit:
                raise JSONError("too_deep", f"nests deeper than {limit} levels")
            if isinstance(node, Mapping):
                out: Any = {}
                pairs = list(node.items())
                if isinstance(node, dict) and type(node) is not dict and _lies(node, pairs):
                    raise JSONError(
                        "not_json",
                        f"a {type(node).__name__} whose items() differ from what it holds: readers (json.dumps, "
                        "an HTTP client) would disagree on what it says",
                    )
                for k, v in pairs:
                    if not isinstance(k, str):
                        raise JSONError("not_json", f"key {k!r} is not a string")
                    k = str.__str__(k)
                    if k in out:
                        raise JSONError(
                            "duplicate_key", f"duplicate key {printable(k)!r}: readers disagree on which value counts"
                        )
                    out[k] = None
                    stack.append((v, out, k, depth + 1))
            else:
                out = []
                for n, v in enumerate(node):
                    out.append(None)
                    stack.append((v, out, n, depth + 1))
        elif isinstance(node, bool) or node is None:
            out = node
        elif isinstance(node, str):
            out = str.__str__(node)
        elif isinstance(node, int):
            out = int.__int__(node)
        elif isinstance(node, float):
            out = float.__float__(node)
        else:
            raise JSONError("not_json", f"a {type(node).__name__} is not a JSON value")
        parent[key] = out
    return root[0]


def _lies(node: dict[Any, Any], pairs: list[tuple[Any, Any]]) -> bool:
    """Whether a dict subclass's `items()` (`pairs`) differ from its own storage: other keys, another
    order, or other values (by identity)."""
    own = list(dict.items(node))
    if len(own) != len(pairs):
        return True
    return any(k1 != k2 or v1 is not v2 for (k1, v1), (k2, v2) in zip(own, pairs, strict=True))


def check_value(value: Any, *, what: str = "value", max_depth: int = MAX_ITEM_DEPTH, count_values: bool = True) -> Any:
    """Check that a Python value is JSON within `max_depth` levels, by the same rules as `loads`.
    Levels count each array and object and, with `count_values`, the value inside the deepest one
    (`{"a": 1}` is 2 levels, `{"a": {}}` too), which is how the reader counts.

    Returns the value itself when it is made only of `dict`, `list` and plain scalars, else a plain copy
    (`OrderedDict` and other `Mapping`s as `dict`, list subclasses as `list`, `str`/`int` subclasses as
    `str`/`int`). Raises `JSONError` for sets, tuples, bytes, non-string keys, NaN/infinite floats,
    integers past `MAX_INT_DIGITS`, lone surrogates and nesting past `max_depth`.
    """
    try:
        why, plain = _scan(value, max_depth, count_values)
        if why is None and not plain:  # check the plain copy: a subclass may answer differently when read again
            value = _copy_plain(value, max_depth)
            why = _scan(value, max_depth, count_values)[0]
    except JSONError as exc:
        raise JSONError(exc.reason, f"{what}: {exc.detail}", exc.detail) from None
    except Exception as exc:  # a Mapping or subclass that fails while read (RecursionError included)
        msg = f"a {type(value).__name__} could not be read as JSON ({type(exc).__name__})"
        raise JSONError("not_json", f"{what}: {msg}", msg) from None
    if why is not None:
        raise JSONError(why[0], f"{what}: {why[1]}", why[1])
    return value


def is_openai_model(value: Any) -> bool:
    """True for a pydantic model from the `openai` package (an SDK object, which implies OpenAI mode)."""
    return isinstance(value, BaseModel) and type(value).__module__.startswith("openai.")


def to_plain(value: Any) -> Any:
    """A pydantic model (an `openai` SDK object or one of ours) as its JSON value, dumped as
    `replayable.dump_item` does (by alias, unset fields left out) but with no coercion: values are
    dumped as the Python values they are (python mode), so that what `model_construct` or
    `model_copy(update=...)` put in (bytes, NaN, a set) reaches `check_value` and is refused as the
    equal dict would be, never turned into text or `null`. Any other value is returned as it is.
    Raises `JSONError` (`not_json`) for a model that cannot be dumped (nesting past pydantic's
    serialization depth, a serializer that fails). The result still needs `check_value`."""
    if isinstance(value, BaseModel):
        try:
            return value.model_dump(mode="python", by_alias=True, exclude_unset=True, warnings=False)
        except Exception as exc:  # noqa: BLE001  e.g. an object built with model_construct, or a dump of its own that fails
            msg = f"the {type(value).__name__} object has no JSON form: {str(exc).splitlines()[0]}"
            raise JSONError("not_json", msg) from None
    return value


def _lines(data: str | bytes | bytearray) -> Iterator[tuple[int, Any]]:
    sep: Any = "\n" if isinstance(data, str) else b"\n"
    yield from enumerate(data.split(sep), 1)


def iter_jsonl(
    source: str | bytes | bytearray | Iterable[Any], *, what: str = "line", max_depth: int = MAX_ITEM_DEPTH
) -> Iterator[tuple[int, Any]]:
    """Read JSONL: yields `(line number, value)` for each non-blank line, read by `loads`.

    `source` is one text (`str` or `bytes`, split at `\\n` only, a trailing `\\r` dropped, so U+2028 and
    other Unicode line breaks inside strings never split a line), or an iterable of lines (`str` or
    `bytes`, such as a binary file object; line terminators optional). One byte order mark at the start
    of the first line is ignored. Raises `JSONError` naming the line number (`what` is the noun used).
    """
    budget: ContainerBudget | None = None
    if isinstance(source, str | bytes | bytearray):
        over = text_over_budget(source)  # one budget for the whole text, as for one JSON array
        if over is not None:
            raise JSONError("too_many_containers", f"the JSONL text {over}", over)
        lines: Iterable[tuple[int, Any]] = _lines(source)
    else:
        budget, lines = ContainerBudget(), enumerate(source, 1)
    for lineno, line in lines:
        if not isinstance(line, str | bytes | bytearray):
            raise JSONError("not_json", f"{what} {lineno} is not text: got {type(line).__name__}")
        if budget is not None:
            over = budget.add_line(line)
            if over is not None:
                raise JSONError("too_many_containers", f"{what} {lineno}: the input {over}", over)
        text = isinstance(line, str)
        bom: Any = _BOM if text else _BOM_BYTES
        if lineno == 1:
            line = line.removeprefix(bom)
        elif line.startswith(bom):
            raise JSONError("not_json", f"{what} {lineno}: a byte order mark is only allowed at the very start")
        line = line.removesuffix("\n" if text else b"\n").removesuffix("\r" if text else b"\r")  # type: ignore[arg-type]
        if not line.strip(" \t" if text else b" \t"):  # type: ignore[arg-type]
            continue
        yield lineno, loads(line, what=f"{what} {lineno}", max_depth=max_depth)


def loads_lines(
    lines: list[bytes], *, max_depth: int = MAX_ITEM_DEPTH, numbers_checked: bool = False
) -> list[Any] | None:
    """`loads(line, max_depth=max_depth)` for each of `lines` (UTF-8 JSON texts without a byte order
    mark, such as a batch of JSONL lines), with the whole-text filter run once over all of them (or not
    at all: `numbers_checked`, the caller ran `may_overflow` over these lines joined by `\\n`, among
    others, and it said no). Returns the values only when every line reads and none needs a closer look
    (a number that may overflow, nesting that may be too deep); otherwise None, for the caller to read
    them one by one with `loads` and its exact errors. So it accepts exactly what `loads` accepts line by
    line, and is only faster."""
    if not numbers_checked and may_overflow(b"\n".join(lines)):
        return None
    out = []
    for raw in lines:
        if _may_be_too_deep(raw, max_depth) or (len(raw) >= 2 * CONTAINERS_BASE and too_many_containers(raw)):
            return None
        try:
            out.append(read_strict(raw))
        except ValueError:
            return None
    return out


def array_element_at(data: bytes, offset: int) -> int | None:
    """The index of the element of the top-level JSON array in `data` (UTF-8) whose text holds the byte at
    `offset`, or None (not an array, or past its elements). Read with the standard library's decoder,
    which only finds each element's end here (the value itself was judged by `loads`); meant for naming
    the item of an error, never for reading."""
    import json  # noqa: PLC0415  only on the error path

    try:
        text = data.decode("utf-8").lstrip("\ufeff")
        skipped = len(data) - len(text.encode("utf-8"))
        char_offset = len(data[skipped:offset].decode("utf-8", errors="ignore"))
    except UnicodeDecodeError:
        return None
    decoder, space = json.JSONDecoder(), " \t\r\n"
    i, n, end = len(text) - len(text.lstrip(space)), 0, len(text)
    if text[i : i + 1] != "[":
        return None
    i += 1
    try:
        while i < end:
            while i < end and text[i] in space:
                i += 1
            _, stop = decoder.raw_decode(text, i)
            if char_offset < stop:
                return n
            i = stop
            while i < end and text[i] in space:
                i += 1
            if text[i : i + 1] != ",":
                return None
            i, n = i + 1, n + 1
    except (ValueError, RecursionError):
        return n
    return None
