"""One finding type for items, tools, streams and Agents logs, and the transcript report.

A `Finding` is data: the item's (or event's) `index`, a stable `code` (a member of one of the code enums
of `replayable._codes`), `path` (a JSON Pointer into the item, event or tool), `params` (what the message
names) and `severity`. Its text, `message`, is made from the code's template in `replayable._codes`
when it is read: no rule writes a sentence, and nothing rewrites one afterwards. An option the message
tells its reader to set is a `{option:NAME}` field of the template (`replayable.errors.OPTIONS`): the
message is then a `replayable.errors.Said`, which each door (library, command line) spells its own way.

`Violation` (transcripts and tools) and `AgentsViolation` are this class; `Note` and
`replayable.stream.StreamWarning` are thin subclasses that keep their historical constructors.

This module sits below every rule, reader and renderer: it imports only `codes`, `errors` and `_json`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from replayable._codes import CodeInfo, Severity, code_info
from replayable._json import printable
from replayable._messages import Door, spelled
from replayable.errors import Verdict

__all__ = ["Finding", "Findings", "Severity", "TranscriptReport", "Violation"]

_NO_PARAMS: Mapping[str, Any] = {}


@dataclass(frozen=True, slots=True, init=False, repr=False)
class Finding:
    """One finding.

    `Finding(index, code, message=None, path="", *, params=None, severity=None)`: `params` fill the code's
    message template (the table of codes, docs/codes.md); `message`, when given instead, is the whole text (for
    callers outside the library's rules: `rp.Violation(3, rp.ViolationCode.ITEM_INVALID, "...")`). The
    `severity` defaults to the code's. `message` and `as_dict()` give the text; equal findings have
    equal fields.
    """

    index: int | None
    code: Any
    path: str
    params: Mapping[str, Any]
    severity: Severity

    def __init__(
        self,
        index: int | None,
        code: Any,
        message: str | None = None,
        path: str = "",
        *,
        params: Mapping[str, Any] | None = None,
        severity: Severity | str | None = None,
    ) -> None:
        if message is not None:
            params = {**(params or _NO_PARAMS), "text": message}
        setattr_ = object.__setattr__
        setattr_(self, "index", index)
        setattr_(self, "code", code)
        setattr_(self, "path", path if path.isascii() else printable(path))
        setattr_(self, "params", params if params is not None else _NO_PARAMS)
        if severity is None:
            try:
                severity = code_info(code).severity
            except KeyError:  # a caller's own code, outside the table: it blocks
                severity = Severity.VIOLATION
        setattr_(self, "severity", severity if type(severity) is Severity else Severity(severity))

    @property
    def info(self) -> CodeInfo:
        """The code's row in the table of codes, docs/codes.md (meaning, default severity, template)."""
        return code_info(self.code)

    @property
    def message(self) -> str:
        """The readable text: the code's template filled with `params` (or the whole text given)."""
        params = self.params
        text = params.get("text")
        if text is None:  # `{option:NAME}` fields make a `Said`: each door spells the option its own way
            text = self.info.render(params)
        return printable(text)  # messages may quote the input: never a lone surrogate

    def worded(self, door: Door) -> str:
        """`message` as `door` prints it: an option it names in that door's spelling (`--pending-ok` on
        the command line, `pending_ok=True` for the library), the rest (quoted input too) as it is."""
        return spelled(self.message, door)

    def shifted(self, offset: int) -> Finding:
        """This finding with its index, and every item index its message names (`*_index` parameters),
        counted from `offset` (a continuation's request `input` after the previous output): an index
        before `offset` is named as one "of the previous output", and a finding of the previous output
        itself has no index and is placed under `/previous/N` (its item in that output)."""
        params = dict(self.params)
        for key, value in self.params.items():
            if key.endswith("_index") and type(value) is int:
                params[key] = value - offset if value >= offset else f"{value} of the previous output"
        if self.index is not None and self.index < offset:
            path = f"/previous/{self.index}{self.path}"
            previous: Finding = type(self)._from(self, index=None, path=path, params=params)
            return previous
        index = self.index - offset if self.index is not None else None
        shifted: Finding = type(self)._from(self, index=index, params=params)
        return shifted

    def under(self, prefix: str) -> Finding:
        """This finding with `prefix` (a JSON Pointer) before its path: a tool's finding placed in the list
        of tools it came from (`/tools/2` + `/parameters/required`)."""
        placed: Finding = type(self)._from(self, path=prefix + self.path)
        return placed

    @classmethod
    def _from(cls, other: Finding, **changes: Any) -> Any:
        new = object.__new__(cls)
        for name in _FIELDS_OF.get(cls) or _fields(cls):
            object.__setattr__(new, name, changes.get(name, getattr(other, name)))
        return new

    def as_dict(self) -> dict[str, Any]:
        """`{"index", "code", "message", "path"}`, JSON-ready."""
        return {"index": self.index, "code": str(self.code), "message": self.message, "path": self.path}

    def __hash__(self) -> int:
        return hash((self.index, str(self.code), self.path, self.message))

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(index={self.index!r}, code={self.code!r}, message={self.message!r}, "
            f"path={self.path!r})"
        )


_FIELDS_OF: dict[type, tuple[str, ...]] = {}


def _fields(cls: type) -> tuple[str, ...]:
    names = tuple(n for c in reversed(cls.__mro__) for n in getattr(c, "__slots__", ()) if not n.startswith("__"))
    _FIELDS_OF[cls] = names
    return names


class Findings(list[Finding]):
    """A list of findings that rules add to: `at(index, code, path, **params)`."""

    __slots__ = ()

    def at(self, index: int | None, code: Any, path: str = "", /, **params: Any) -> None:
        """Add the finding `code` of item (or event) `index` at `path`, its message made from `params`."""
        self.append(Finding(index, code, None, path, params=params))


#: A broken rule of a transcript or a tool (`check_transcript`, `check_transcript_iter`, `check_tool`).
Violation = Finding


@dataclass(frozen=True, slots=True)
class TranscriptReport(Verdict):
    """The result of `check_transcript`.

    `ok` is true when nothing is violated (pending calls allowed with `pending_ok=True` do not count);
    `violations` lists every broken rule in item order; `pending` lists the indexes of trailing calls
    still waiting for their output (only with `pending_ok=True`); `items` holds each parsed item, or
    `None` where an item did not parse; `external` lists the `function_call_output`s of a continuation
    request (one with `previous_response_id`, checked without `previous=`) whose calls are outside it.
    `raise_for_violations()` returns the report when ok and raises `ReplayError(report)` otherwise.
    """

    violations: tuple[Finding, ...]
    pending: tuple[int, ...] = ()
    items: tuple[Any, ...] = field(default=(), repr=False)
    external: tuple[int, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.violations

    def __bool__(self) -> bool:
        return self.ok
