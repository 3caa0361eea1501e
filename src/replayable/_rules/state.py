"""The state the transcript rules share while one transcript is checked (`Context`): the settings of the
check, the findings so far, and per-id and per-call state (never the items themselves)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from replayable._arguments import SchemaError
from replayable._findings import Findings
from replayable._tools import ToolSpec
from replayable.items import Side

__all__ = ["Context", "Slot"]

#: A call's place in the pairing tables: (its family's call type, its pairing key).
Slot = tuple[str, str]


class Context:
    """The settings of one check and the state its rules keep.

    Settings: `target`, `tool_params` (name -> tool, or None without `tools=`), `allowed` (names, or None),
    `side`, `source` (the provider the items came from), `registry` (shared JSON Schemas). State: `ids`
    (item id -> first index), `calls` (slot -> index of the call), `call_ids` (a `call_id` of any family ->
    the first call that has it), `answered`, `unfinished`, `programs`
    (call ids of OpenAI `program` items), `to_acknowledge` (slot -> safety check ids), `open_calls` (calls
    awaiting an output -> index). While a call's rules run, `finished` says whether it is finished (a rule
    that finds it unfinished sets it False); while an output's run, `key_field` names the field its key
    was read from. Rules add findings with `out.at(index, code, path, **params)`.
    """

    __slots__ = (
        "out",
        "target",
        "tool_params",
        "allowed",
        "side",
        "source",
        "registry",
        "ids",
        "calls",
        "call_ids",
        "answered",
        "unfinished",
        "programs",
        "to_acknowledge",
        "open_calls",
        "finished",
        "key_field",
    )

    def __init__(
        self,
        out: Findings,
        target: str | None,
        tool_params: dict[str, ToolSpec | SchemaError] | None,
        allowed: frozenset[str] | None,
        side: Side | None,
        source: str | None = None,
        registry: Mapping[str, Any] | None = None,
    ) -> None:
        self.out = out
        self.target, self.tool_params, self.allowed, self.side = target, tool_params, allowed, side
        self.source = source
        self.registry = registry
        self.ids: dict[str, int] = {}
        self.calls: dict[Slot, int] = {}
        self.call_ids: dict[str, int] = {}
        self.answered: set[Slot] = set()
        self.unfinished: set[Slot] = set()
        self.programs: set[str] = set()
        self.to_acknowledge: dict[Slot, list[str]] = {}
        self.open_calls: dict[Slot, int] = {}
        self.finished = True
        self.key_field = "call_id"
