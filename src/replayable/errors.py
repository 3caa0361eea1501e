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

from enum import StrEnum
from typing import Any, Self

from pydantic import ValidationError
from pydantic_core import PydanticCustomError

from ._messages import Door, Said, event_line, event_where, joined, printable, said

# every exception the library defines (the ones most users catch are re-exported by `replayable`,
# `replayable.stream` and `replayable.agents`)
__all__ = [
    "ArgumentsError",
    "InputError",
    "ItemError",
    "JSONError",
    "ModelError",
    "ReplayError",
    "ReplayableError",
    "SchemaError",
    "SchemaLoopError",
    "StreamError",
    "ToolResultError",
    "Verdict",
]

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
    `non_finite_number`, `number_too_long`, `too_deep` or `lone_surrogate` (the strict JSON reader:
    docs/strict-json.md)."""

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
    (Where a schema is compiled, as by `replayable.gate`, it is reported as a `SchemaError`.)"""


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
