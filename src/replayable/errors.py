"""The library's one exception root, and the error raised when a request or transcript is unsafe.

Every exception that `replayable` raises on bad data derives from `ReplayableError` (itself a
`ValueError`, so existing `except ValueError` code keeps working):

- `ItemError` (an item does not parse), `JSONError` (text is not strict JSON), `ArgumentsError`
  (arguments are not strict JSON), `SchemaError` (a tool schema is unusable), `InputError` (the command
  line cannot read a file), `StreamError` (a stream breaks the item state machine), `ToolResultError`
  (an Agents tool result cannot be accepted), `SchemaLoopError` (a schema loops in place; reported by
  `compile_schema` as a `SchemaError`), and
- `ReplayError`, raised by `Report.raise_for_violations()` and the integrations when a whole request or
  transcript is not safe to send; it carries the report.

`Verdict` is the base of every report with an `ok` verdict (`TranscriptReport`, `ReplayReport`,
`StreamReport`, `AgentsReport`, `ArgumentCheck`, `SessionChain`, `CardCheck`, `GateResult`): it gives them
`raise_for_violations()`, like `httpx.Response.raise_for_status()`.

Every exception class of the library is defined here, and only here (a test holds it): the modules that
raise them import them from here, and the public modules re-export the ones users catch (`ItemError`
from `replayable` and `replayable.items`, `StreamError` from `replayable.stream`, `ToolResultError` from
`replayable.agents`, ...). This module imports nothing from the rest of the library (pydantic only, for
`ModelError`), so every layer may import it; what an exception says about a higher layer's data comes in
as plain values (`StreamError.rule` is typed as the `StrEnum` that `StreamRule` is, never imported).
`printable` lives here because every message that quotes input goes through it.

The options a message may tell its reader to set (`pending_ok=True`, `provider='openai'`,
`agents=True`) are one table, `OPTIONS`, with each one's library and command-line spelling (`--pending-ok`,
...). A message names one as data, never in its words: a `{option:NAME}` field of a template (`said`,
`replayable._codes`), which makes the message a `Said`. `str(message)` and `str(error)` are the library's
wording; each door asks for its own (`spelled(message, Door.CLI)`, `error.worded(Door.CLI)`), so the
command line prints `--pending-ok` while the input a message quotes stays exactly as it was read.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Self

from pydantic import ValidationError
from pydantic_core import PydanticCustomError

# the exceptions users catch; `JSONError`, `InputError` and `SchemaLoopError` are the library's own (the
# strict reader's, the file reader's, the schema budget's) and stay out of the public face
__all__ = [
    "ArgumentsError",
    "ItemError",
    "ModelError",
    "ReplayError",
    "ReplayableError",
    "SchemaError",
    "StreamError",
    "ToolResultError",
    "Verdict",
]

_SURROGATE = re.compile("[\ud800-\udfff]")


# ---------------------------------------------------------------------------------- the options a message names


class Door(StrEnum):
    """Who reads a message: a caller of the library (`library`) or a user of the command line (`cli`)."""

    LIBRARY = "library"
    CLI = "cli"


@dataclass(frozen=True, slots=True)
class Option:
    """An option a message may tell its reader to set, as each door spells it."""

    name: str
    library: str
    cli: str

    def spelled(self, door: Door) -> str:
        """The option as `door` spells it: `pending_ok=True` for the library, `--pending-ok` on the command line."""
        return self.cli if door == Door.CLI else self.library


#: The options a message may name (a `{option:NAME}` field of a template, `said`), each with its library
#: and command-line spelling. A message names an option only through this table, never in its words.
OPTIONS: MappingProxyType[str, Option] = MappingProxyType(
    {
        o.name: o
        for o in (
            Option("pending_ok", "pending_ok=True", "--pending-ok"),
            Option("provider", "provider='openai'", "--provider openai"),
            Option("agents", "agents=True", "--agents"),
        )
    }
)


class Said(str):
    """A message that names options (`OPTIONS`): as a `str` it is the library's wording, `at(door)` is
    what `door` prints. Its `parts` are text (quoted input included, taken as it is) and `Option`s, so
    only the options themselves are ever spelled otherwise. Made by `said`; `+` with text keeps it."""

    parts: tuple[str | Option, ...]

    def __new__(cls, *parts: str | Option) -> Said:
        flat: list[str | Option] = []
        for p in parts:
            if isinstance(p, Said):
                flat.extend(p.parts)
            elif isinstance(p, Option) or p:
                flat.append(p if isinstance(p, Option) else str(p))
        self = super().__new__(cls, "".join(p.library if isinstance(p, Option) else p for p in flat))
        self.parts = tuple(flat)
        return self

    def at(self, door: Door) -> str:
        """The text as `door` spells the options it names."""
        return "".join(p.spelled(door) if isinstance(p, Option) else p for p in self.parts)

    def __add__(self, other: str) -> Said:
        return Said(self, other) if isinstance(other, str) else NotImplemented

    def __radd__(self, other: str) -> Said:
        return Said(other, self) if isinstance(other, str) else NotImplemented

    def __getnewargs__(self) -> tuple[Any, ...]:  # pickled (a worker's error) with its parts
        return self.parts


_FORMATTER = string.Formatter()


def said(template: str, /, **params: Any) -> str:
    """`template` filled as `str.format` fills it from `params`, each `{option:NAME}` field with the option
    `OPTIONS[NAME]`: a `Said` when it names an option (or quotes a `Said`), else a plain `str`. What the
    parameters hold is text, never read for options."""
    return said_from(template, params)


def said_from(template: str, params: Mapping[str, Any]) -> str:
    """`said(template, **params)` for a mapping of parameters."""
    if "{option:" not in template and not any(isinstance(v, Said) for v in params.values()):
        return template.format_map(params)
    parts: list[str | Option] = []
    for literal, field, spec, conversion in _FORMATTER.parse(template):
        parts.append(literal)
        if field is None:
            continue
        if field == "option":
            parts.append(OPTIONS[spec or ""])
            continue
        value = _FORMATTER.get_field(field, (), params)[0]
        if isinstance(value, Said) and not spec and conversion in (None, "s"):
            parts.append(value)
        else:
            parts.append(_FORMATTER.format_field(_FORMATTER.convert_field(value, conversion), spec or ""))
    return Said(*parts)


def spelled(text: str, door: Door) -> str:
    """`text` as `door` prints it: a `Said`'s options in that door's spelling; any other text as it is."""
    return text.at(door) if isinstance(text, Said) else text


def joined(sep: str, texts: list[str]) -> str:
    """`sep.join(texts)`, a `Said` when one of them is."""
    if not any(isinstance(t, Said) for t in texts):
        return sep.join(texts)
    parts: list[str] = []
    for n, t in enumerate(texts):
        parts.extend((sep, t) if n else (t,))
    return Said(*parts)


def printable(text: str) -> str:
    """`text` with each lone UTF-16 surrogate written as a `\\udXXX` escape, so that an error message
    that quotes hostile input can always be printed or encoded as UTF-8 (a `Said` stays one)."""
    if _SURROGATE.search(text) is None:
        return text
    if isinstance(text, Said):
        return Said(*(p if isinstance(p, Option) else printable(p) for p in text.parts))
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _printable_errors(errors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`{loc, type, msg}` problems whose messages always print (a lone surrogate escaped)."""
    return [e if printable(e["msg"]) is e["msg"] else {**e, "msg": printable(e["msg"])} for e in errors]


class ReplayableError(ValueError):
    """Root of every exception `replayable` raises on bad data: `except ReplayableError` catches them all."""

    def worded(self, door: Door) -> str:
        """The message as `door` prints it: the options it names (`OPTIONS`) in that door's spelling
        (`--pending-ok` on the command line); `str(error)` is the library's."""
        text = self.args[0] if len(self.args) == 1 else None
        return text.at(door) if isinstance(text, Said) else str(self)


class ReplayError(ReplayableError):
    """A request or transcript is not safe to replay.

    `.report` is the report that found it (a `TranscriptReport`, or the Agents / stream report of the
    entry point that raised); `str(error)` lists each violation with its item index and code.
    """

    def __init__(self, report: Any, message: str | None = None) -> None:
        self.report = report
        super().__init__(message if message is not None else _describe(report))


# ---------------------------------------------------------------------------------- strict JSON


class JSONError(ReplayableError):
    """A JSON text or value breaks a strict-JSON rule. `.reason` is one of `not_json`,
    `duplicate_key`, `non_finite_number`, `number_too_long`, `invalid_utf8`, `lone_surrogate`,
    `too_deep`; `str(error)` says where (a line and column for texts)."""

    def __init__(self, reason: str, message: str, detail: str | None = None, offset: int | None = None) -> None:
        self.reason = reason
        self.detail = detail if detail is not None else message
        """The message without the leading `what`."""
        self.offset = offset
        """The byte offset in the text where the reader stopped (None when it does not say)."""
        super().__init__(message)


class ArgumentsError(ReplayableError):
    """Arguments are not strict JSON. `.reason` says which rule: `not_json`, `duplicate_key`,
    `non_finite_number`, `number_too_long`, `too_deep` or `lone_surrogate` (`replayable._json`)."""

    def __init__(self, reason: str, message: str) -> None:
        self.reason = reason
        super().__init__(message)


# ---------------------------------------------------------------------------------- tool schemas


class SchemaError(ReplayableError):
    """The tools given cannot be used: a tool's JSON Schema is not a JSON Schema (or the tool is no shape
    the library knows), refers outside itself (`$ref`/`$schema` to a URL or file), is not valid or is over
    the work budget; or a `tools` / `allowed_tools` argument is not a collection of tools / tool names."""


class SchemaLoopError(ReplayableError):
    """The schema enters itself without stepping into the value, or names what cannot be found.
    (`replayable._arguments.compile_schema` reports it as a `SchemaError`.)"""


# ---------------------------------------------------------------------------------- items and models


class ItemError(ReplayableError):
    """Raised when items do not parse.

    `.errors` is a list of dicts, one per problem, each with `loc` (a tuple that starts with the item's
    index in its list when there is a list, then the field path), `type` (a stable error code such as
    `string_type`, `missing`, `namespaced_type`, `union_tag_invalid`) and `msg` (a readable sentence).
    `str(error)` names the item index, the field and the rule of each problem.
    """

    def __init__(self, errors: list[dict[str, Any]], title: str = "invalid item") -> None:
        # messages may quote hostile input: a lone surrogate is escaped so that they always print
        errors = _printable_errors(errors)
        self.errors: list[dict[str, Any]] = errors
        lines = [
            said("{where}: {msg} [{type}]", where=_where(e["loc"]), msg=e["msg"], type=e["type"]) for e in errors[:20]
        ]
        if len(errors) > 20:
            lines.append(f"... and {len(errors) - 20} more")
        count = f"{len(errors)} problem{'s' if len(errors) != 1 else ''}"
        super().__init__(said("{title} ({count}):\n  {lines}", title=title, count=count, lines=joined("\n  ", lines)))


def _where(loc: tuple[Any, ...]) -> str:
    if not loc:
        return "item"
    head, rest = loc[0], loc[1:]
    if isinstance(head, int):
        field = ".".join(str(x) for x in rest)
        return f"item {head}" + (f", field {field}" if field else "")
    return "field " + ".".join(str(x) for x in loc)


class _ErrorList(list[dict[str, Any]]):
    """`ModelError.errors`: the list of `{loc, type, msg}` dicts of `ItemError`, which can also be called
    as pydantic's `ValidationError.errors()` is (its keyword arguments are accepted and ignored)."""

    def __call__(self, **_: Any) -> list[dict[str, Any]]:
        return [dict(e) for e in self]


class ModelError(ItemError, ValidationError):  # type: ignore[misc]  # `.errors` is a list and callable
    """A model of the library was built (`FunctionCall(...)`, `CreateResponseBody(...)`,
    `Model.model_validate(...)`) from values that do not validate.

    An `ItemError` (so a `ReplayableError` and a `ValueError`) whose `.errors` name each field by its
    plain path and rule, and also a pydantic `ValidationError` for code written against pydantic:
    `except ValidationError` catches it, `.errors()` returns the same cleaned list, `.error_count()`
    counts it and `.title` names the model. Its text is the library's (`str(error)`), never pydantic's
    internal union labels. Build one with `ModelError.build`.
    """

    def __init__(self, *_: Any) -> None:  # the native part is made by ValidationError.__new__
        pass

    @classmethod
    def build(cls, errors: list[dict[str, Any]], title: str) -> ModelError:
        """A `ModelError` titled `title` (`invalid FunctionCall`) for the cleaned `errors`."""
        line_errors: list[Any] = [
            {"type": PydanticCustomError(str(e["type"]), printable(str(e["msg"]))), "loc": e["loc"], "input": None}
            for e in errors
        ]
        exc = cls.from_exception_data(title, line_errors, hide_input=True)
        ItemError.__init__(exc, errors, title)
        exc.errors = _ErrorList(exc.errors)
        return exc

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "invalid model"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.args[0] if self.args else ''!r})"


# ---------------------------------------------------------------------------------- files, streams, agents


class InputError(ReplayableError):
    """Input that cannot be read as anything the command understands (exit status 2). The message is
    one line naming the input (and the line, for JSONL). `json_error`: the strict reader's error it
    comes from, if any (its `reason` and `offset`)."""

    json_error: JSONError | None = None


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


def event_line(where: str, message: str, rule: Any) -> str:
    """A stream finding or error as one line, `event 3 (response.created): message [rule]` (a `Said` when
    the message is one: the options it names stay data)."""
    return said("{where}: {message} [{rule}]", where=where, message=message, rule=rule)


class StreamError(ReplayableError):
    """A stream breaks a rule: `.rule` (`StreamRule`), `.sequence_number` of the offending event (None
    when it had none), `.index` (its position among the events fed), `.event_type`, `.offset` (byte
    offset of the SSE frame, for `parse_sse` errors), `.message`, and `.errors`: one dict per problem,
    `{"loc", "type", "msg"}` as `ItemError.errors` has them (`loc` a tuple path into the event, `()` for
    the event or the stream as a whole; `type` a stable code: pydantic's for a field of an `event_schema`
    error, from the one error normalizer, else the rule's own value). `str()` names them all.

    `rule` is typed as `StrEnum`, the base of `replayable.stream.StreamRule`: the table of stream codes
    sits layers above this module, which never imports it."""

    def __init__(
        self,
        rule: StrEnum,
        message: str,
        *,
        sequence_number: int | None = None,
        index: int | None = None,
        event_type: str | None = None,
        offset: int | None = None,
        errors: list[dict[str, Any]] | None = None,
    ) -> None:
        self.rule = rule
        self.message = message
        self.sequence_number = sequence_number
        self.index = index
        self.event_type = event_type
        self.offset = offset
        if not errors:
            errors = [{"loc": (), "type": str(rule), "msg": message}]
        # messages may quote hostile input: a lone surrogate is escaped so that they always print
        self.errors: list[dict[str, Any]] = _printable_errors(errors)
        super().__init__(printable(event_line(event_where(sequence_number, index, event_type, offset), message, rule)))


class ToolResultError(ReplayableError):
    """A tool result (or an answer to an approval request) that must not be sent.

    `.reason` is one of `malformed` (breaks the tool-result rule or does not parse), `unknown_call` (no
    pending action has this `call_id`), `turn_mismatch` (the `call_id` is pending under another
    `turn_id`), `already_answered` (a second answer that differs from the first), `check_passed`
    (asking for a failure result of a check that passed), `unknown_request` (no pending approval has
    this `request_id`) or `response_mismatch` (an approval answer that does not fit its request: another
    request type, an unknown field or option, a required field left empty). `.turn_id` / `.call_id`
    name the pair when known; `.request_id` the approval request.
    """

    def __init__(
        self, reason: str, message: str, *, turn_id: Any = None, call_id: Any = None, request_id: Any = None
    ) -> None:
        self.reason = reason
        self.turn_id = turn_id
        self.call_id = call_id
        self.request_id = request_id
        super().__init__(printable(message))


# ---------------------------------------------------------------------------------- verdicts


class Verdict:
    """Base of every report that has an `ok` verdict: adds `raise_for_violations()`.

    A report class defines `ok` and, when it does not list `.violations` with `index`, `code` and
    `message`, overrides `violation_lines()`.
    """

    __slots__ = ()

    @property
    def ok(self) -> bool:
        raise NotImplementedError

    def raise_for_violations(self) -> Self:
        """Return this report when it is ok; otherwise raise `ReplayError(self)`, whose message lists
        each violation (like `httpx.Response.raise_for_status()`, so a check reads
        `report = check_transcript(items).raise_for_violations()`)."""
        if not self.ok:
            raise ReplayError(self)
        return self

    def violation_lines(self) -> list[str]:
        """One line per violation, `item N: code: message` (`request` for a finding without an index),
        as `ReplayError` prints them."""
        return _lines(getattr(self, "violations", ()) or (), "item")


def _lines(violations: Any, unit: str) -> list[str]:
    lines = []
    for v in violations:
        index = getattr(v, "index", None)
        where = "request" if index is None else f"{unit} {index}"
        code = getattr(v, "code", "?")
        lines.append(f"{where}: {getattr(code, 'value', code)}: {getattr(v, 'message', '')}")
    return lines


def _describe(report: Any) -> str:
    """A heading, then one indented line per violation of `report` (its `violation_lines()`, or its
    `.violations` read as `index`, `code`, `message`)."""
    describe = getattr(report, "violation_lines", None)
    lines = describe() if callable(describe) else _lines(getattr(report, "violations", ()) or (), "item")
    if not lines:
        return "not replay-safe"
    heading = f"not replay-safe: {len(lines)} violation{'s' if len(lines) != 1 else ''}"
    return "\n".join([heading, *(f"  {line}" for line in lines)])
