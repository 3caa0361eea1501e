"""What the transcript rules read: the settings and pairing state of one check (`Context`), the facts of
the item (or body) a rule is asked about (`Facts`), and the one signature every rule has (`RuleCheck`).

A rule reads, never writes: `rule(ctx, facts)` returns its findings (`replayable._findings.Finding`, an
empty tuple for none). Everything a rule needs is computed once by the engine (`replayable._rules.engine`)
before the rules of an item run: the pairing key of a call or output and the field it was read from,
whether a call is finished, the item's successor, the JSON the item came from. So no rule depends on
another rule having run, and the order of `replayable._rules.table.RULES` is only the order of findings.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol

from replayable._arguments import SchemaError
from replayable._findings import Finding
from replayable._tools import ToolSpec
from replayable.items import Side

if TYPE_CHECKING:
    from replayable._families import CallFamily
    from replayable._reading import Document
    from replayable._rules.view import View

__all__ = ["GATE_STAGES", "Context", "Facts", "Gate", "ProfileCheck", "RuleCheck", "Slot", "found"]

#: A call's place in the pairing tables: (its family's call type, its pairing key).
Slot = tuple[str, str]


class ProfileCheck(Protocol):
    """What a target accepts (`replayable._profiles.TargetCheck`): the findings of one item's JSON, and
    of the request body's own keys."""

    active: bool

    def item(self, index: int, raw: Any) -> list[Finding]: ...

    def may_refuse(self, vtype: str, views: list[Any]) -> bool: ...

    def body(self) -> list[Finding]: ...


class Context:
    """The settings of one check and the pairing state the engine keeps (the rules read it; only the
    engine writes it, after the rules of an item have run).

    Settings: `target`, `tool_params` (name -> tool, or None without `tools=`), `allowed` (names, or None),
    `side`, `source` (the provider the items came from), `registry` (shared JSON Schemas), `profile` (what
    the target accepts, `replayable._profiles.TargetCheck`; None when it can find nothing), `doc` (the request
    body being checked, for the body rules; None for anything else). State: `ids` (item id -> first
    index), `calls` (slot -> index of the call), `call_ids` (a `call_id` of any family -> the first call
    that has it), `answered`, `unfinished`, `programs` (call ids of OpenAI `program` items),
    `to_acknowledge` (slot -> safety check ids), `open_calls` (calls awaiting an output -> index). After a
    whole list found clean at once (`replayable._rules.engine.Engine.run`), only `open_calls` (what the end
    of the check reads) is kept.
    """

    __slots__ = (
        "target",
        "tool_params",
        "allowed",
        "side",
        "source",
        "registry",
        "profile",
        "doc",
        "ids",
        "calls",
        "call_ids",
        "answered",
        "unfinished",
        "programs",
        "to_acknowledge",
        "open_calls",
    )

    def __init__(
        self,
        target: str | None,
        tool_params: dict[str, ToolSpec | SchemaError] | None,
        allowed: frozenset[str] | None,
        side: Side | None,
        source: str | None = None,
        registry: Mapping[str, Any] | None = None,
        profile: ProfileCheck | None = None,
        doc: Document | None = None,
    ) -> None:
        self.target, self.tool_params, self.allowed, self.side = target, tool_params, allowed, side
        self.source = source
        self.registry = registry
        self.profile = profile if profile is not None and profile.active else None
        self.doc = doc
        self.ids: dict[str, int] = {}
        self.calls: dict[Slot, int] = {}
        self.call_ids: dict[str, int] = {}
        self.answered: set[Slot] = set()
        self.unfinished: set[Slot] = set()
        self.programs: set[str] = set()
        self.to_acknowledge: dict[Slot, list[str]] = {}
        self.open_calls: dict[Slot, int] = {}


class Facts:
    """What the rules read of one item, computed by the engine before they run (read-only).

    `index` (None for the body), `view` (its fields, `replayable._rules.view`), `next` (its successor's
    view, None for the last item), `json` (the JSON value it came from, for what reads JSON: the target's
    profile), `first_index` (the first item with the same `id`; None when it has none or is that item).
    For a call or an output: `family`, `key` (the pairing key), `slot` (its place in the pairing tables,
    None without a usable key or without outputs), `finished` (a call: not `incomplete` or `in_progress`,
    unless a program's call still waiting) and `key_field` (an output: the field its key was read from).
    The engine may set the fields of one `Facts` anew for each item: a rule reads them while it runs and
    keeps no reference."""

    __slots__ = ("index", "view", "next", "json", "first_index", "family", "key", "slot", "finished", "key_field")

    def __init__(
        self,
        index: int | None,
        view: View,
        nxt: View | None = None,
        json: Any = None,
        first_index: int | None = None,
        family: CallFamily | None = None,
        key: Any = None,
        slot: Slot | None = None,
        finished: bool = True,
        key_field: str = "call_id",
    ) -> None:
        self.index, self.view, self.next, self.json, self.first_index = index, view, nxt, json, first_index
        self.family, self.key, self.slot, self.finished, self.key_field = family, key, slot, finished, key_field


class Gate(StrEnum):
    """A fact the engine computes of every item anyway, without which a rule finds nothing (its row's
    `gate`, `replayable._rules.table.Rule`): on an item where it does not hold, the engine does not ask the
    rule at all. Most items of a clean transcript hold none, so checking one costs the rules that read the
    item itself (its content parts, its arguments), not every rule of the table. A gate only skips a rule
    where the rule itself would find nothing (`tests/rules/test_engine_gates.py` runs the table with and
    without them): it never decides a finding."""

    DUPLICATE_ID = "duplicate_id"
    """An item rule: the item's `id` is an earlier item's (`Facts.first_index` is set)."""
    KEY_SEEN = "key_seen"
    """A call rule: the call has a `slot` that an earlier call holds, or (a family paired by `call_id`) an
    earlier call of any family has its key."""
    UNFINISHED = "unfinished"
    """A call rule: the call is not finished (`Facts.finished` is false)."""
    UNPAIRED = "unpaired"
    """An output rule: the output's `slot` is no earlier call's, or that call is answered already or
    not finished."""


#: The stage of the engine each gate is computed in (a row's `on`).
GATE_STAGES: dict[Gate, str] = {
    Gate.DUPLICATE_ID: "item",
    Gate.KEY_SEEN: "call",
    Gate.UNFINISHED: "call",
    Gate.UNPAIRED: "output",
}


class RuleCheck(Protocol):
    """The one signature of a rule: the check's settings and state, the facts of one item (or of the
    body); its findings out."""

    def __call__(self, ctx: Context, item: Facts, /) -> Iterable[Finding]: ...


def found(index: int | None, code: Any, path: str = "", /, **params: Any) -> Finding:
    """The finding `code` of item `index` at `path`, its message made from `params` and the code's template."""
    return Finding(index, code, None, path, params=params)
