"""Text every message may hold: the options a message names (spelled by each door: `pending_ok=True` for
the library, `--pending-ok` on the command line), hostile input made printable, a stream event's place.

The bottom of the house (below `errors`): exception messages and findings both build their text here.
A message names an option only through `OPTIONS` (a `{option:NAME}` field of a template, `said`), so no
door ever rewrites a message's words: what a message quotes stays as it was read.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Any

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
