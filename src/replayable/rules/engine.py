"""The engine of the transcript rules: feeds each item's view (with the next item as lookahead) to the
rules of `replayable.rules.table.RULES` that apply to it, keyed by item type and by call family, and keeps
the pairing tables that every call family shares (`replayable.families.FAMILIES`).

The engine itself owns one rule, the one that needs the whole pairing state: a call left unanswered once
the conversation moves on (a message, compaction or item reference follows), or at the end unless
pending calls are allowed (`function_call_without_output`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from replayable._base import read_field
from replayable.arguments import SchemaError
from replayable.codes import ViolationCode
from replayable.families import CallFamily, by_call_type, by_output_type
from replayable.findings import Findings
from replayable.items import Side
from replayable.rules.calls import listed_ids
from replayable.rules.state import Context
from replayable.rules.table import active, select
from replayable.rules.view import View, field_of
from replayable.tools import ToolSpec

__all__ = ["Engine", "run_rules"]

_BARRIERS = frozenset({"message", "compaction", "item_reference"})
#: Item type -> (its call family, True for the call and False for the output): one lookup per item.
_FAMILY_OF: dict[str, tuple[CallFamily, bool]] = {
    **{t: (f, False) for t, f in by_output_type.items()},
    **{t: (f, True) for t, f in by_call_type.items()},
}

_Fns = tuple[Callable[..., None], ...]


class Engine:
    """The rules as one state machine fed one item at a time, with the next item as lookahead (`nxt` is None
    for the last item). Holds per-id and per-call state only (`Context`), never the items."""

    __slots__ = (
        "ctx",
        "_item_rows",
        "_call_rows",
        "_output_rows",
        "_pending_rows",
        "_by_type",
        "_by_call",
        "_by_output",
        "_every",
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
        self.ctx = ctx = Context(out, target, tool_params, allowed, side, source, registry)
        self._item_rows, self._call_rows = active(ctx, "item"), active(ctx, "call")
        self._output_rows, self._pending_rows = active(ctx, "output"), active(ctx, "pending")
        self._every: _Fns = select(self._item_rows, None)  # the rules of an item whose type is not a string
        self._by_type: dict[str, _Fns] = {}
        self._by_call: dict[str, _Fns] = {}
        self._by_output: dict[str, _Fns] = {}

    def step(self, i: int, v: View, nxt: View | None) -> None:
        """Run the rules of item `i` (view `v`; `nxt` the next item's view, None at the end)."""
        ctx, vtype = self.ctx, v.type
        if type(vtype) is str:
            fns = self._by_type.get(vtype)
            if fns is None:
                fns = self._by_type[vtype] = select(self._item_rows, vtype)
        else:
            fns = self._every
        for fn in fns:
            fn(ctx, i, v, nxt)
        if not isinstance(vtype, str):  # a list `type` is unhashable
            if ctx.open_calls:
                self._close(i)
            return
        role = _FAMILY_OF.get(vtype)
        if role is None:
            if ctx.open_calls and vtype in _BARRIERS:  # the conversation moves on: open calls stay unanswered
                self._close(i)
        elif role[1]:
            self._call(i, v, role[0])
        else:
            self._output(i, v, role[0])

    def _call(self, i: int, v: View, fam: CallFamily) -> None:
        ctx = self.ctx
        key = v.call_id if fam.call_key == "call_id" else field_of(v, fam.call_key)
        slot = (fam.call_type, key) if isinstance(key, str) and fam.output_type is not None else None
        fns = self._by_call.get(fam.call_type)
        if fns is None:
            fns = self._by_call[fam.call_type] = select(self._call_rows, fam.call_type)
        ctx.finished = True
        for fn in fns:
            fn(ctx, i, v, fam, key, slot)
        if slot is not None:
            ctx.calls.setdefault(slot, i)
            if not ctx.finished:
                ctx.unfinished.add(slot)
            if fam.acknowledge is not None:
                ctx.to_acknowledge[slot] = listed_ids(read_field(v.src, fam.acknowledge[0]))
        if fam.call_type == "openai:program" and isinstance(key, str):
            ctx.programs.add(key)
        if ctx.finished and isinstance(key, str) and fam.needs_output(v.src):
            ctx.open_calls.setdefault((fam.call_type, key), i)

    def _output(self, i: int, v: View, fam: CallFamily) -> None:
        ctx = self.ctx
        key, ctx.key_field = _output_key(fam, v)
        if not isinstance(key, str):
            return  # a server-run tool search's output names no call
        slot = (fam.call_type, key)
        fns = self._by_output.get(fam.call_type)
        if fns is None:
            fns = self._by_output[fam.call_type] = select(self._output_rows, fam.call_type)
        for fn in fns:
            fn(ctx, i, v, fam, key, slot)
        ctx.answered.add(slot)
        ctx.open_calls.pop(slot, None)

    def _close(self, i: int) -> None:
        ctx = self.ctx
        for (ctype, key), j in sorted(ctx.open_calls.items(), key=lambda kv: kv[1]):
            fam = by_call_type[ctype]
            ctx.out.at(
                j, ViolationCode.FUNCTION_CALL_WITHOUT_OUTPUT, "/" + fam.call_key, family=fam.name, key=key,
                output_type=fam.output_type, next_index=i,
            )  # fmt: skip
        ctx.open_calls.clear()

    def finish(self, pending_ok: bool) -> list[int]:
        """End of the items: the trailing unanswered calls are pending (returned) or violations."""
        ctx = self.ctx
        trailing = sorted(ctx.open_calls.items(), key=lambda kv: kv[1])
        if pending_ok:
            for (ctype, key), j in trailing:
                fam = by_call_type[ctype]
                for fn in select(self._pending_rows, ctype):
                    fn(ctx, j, fam, key)
            return [j for _, j in trailing]
        for (ctype, key), j in trailing:
            fam = by_call_type[ctype]
            ctx.out.at(
                j, ViolationCode.FUNCTION_CALL_WITHOUT_OUTPUT, "/" + fam.call_key, family=fam.name, key=key,
                output_type=fam.output_type, variant="end",
            )  # fmt: skip
        return []


def _output_key(fam: CallFamily, v: View) -> tuple[Any, str]:
    """(the key an output names its call by, the field it is in); (None, first field) when absent."""
    keys = fam.output_keys
    if keys == ("call_id",):  # every family but a few of OpenAI's
        return v.call_id, "call_id"
    for name in keys:
        key = field_of(v, name)
        if key is not None:
            return key, name
    return None, keys[0]


def run_rules(views: list[View], engine: Engine, pending_ok: bool) -> list[int]:
    """Run the rules over all views in one pass (each with its successor as lookahead); returns pending."""
    step = engine.step
    following: list[View | None] = [*views[1:], None]  # each item's successor (the lookahead)
    for i, (v, nxt) in enumerate(zip(views, following, strict=False)):  # one longer when there are no views
        step(i, v, nxt)
    return engine.finish(pending_ok)
