"""The rule set of a check: which rows of `replayable._rules.table.RULES` are switched on for its settings,
and for each item type its plan (`Plan`: its item rules, its role, its call family's `Pairing`), made once
per table and switches (`rule_set`) and kept for every check with the same ones (issue 36: a check pays for
its plans only the first time its combination of settings is seen). The item-by-item walk
(`replayable._rules.engine.Engine`) and the whole-list pass (`replayable._rules.whole`) read the same
plans."""

from __future__ import annotations

from typing import Any, NamedTuple

from replayable._families import CallFamily, by_call_type, by_output_type
from replayable._rules import table
from replayable._rules.state import Context, RuleCheck
from replayable._rules.table import Rule, active, select

__all__ = ["BARRIERS", "Fns", "Pairing", "Plan", "RuleSet", "rule_set", "sweepable", "ungated"]

BARRIERS = frozenset({"message", "compaction", "item_reference"})
#: Item type -> (its call family, True for the call and False for the output): one lookup per item.
_FAMILY_OF: dict[str, tuple[CallFamily, bool]] = {
    **{t: (f, False) for t, f in by_output_type.items()},
    **{t: (f, True) for t, f in by_call_type.items()},
}

Fns = tuple[RuleCheck, ...]


class Pairing(NamedTuple):
    """What the engine reads of a call family for each of its calls or outputs, read once per family: the
    `family`, its call or output rules (`plain`: those without a gate, asked of a plain call or output;
    `every`: all of them, in table order), the field a call holds its key in (`key_field`), its call type,
    whether its calls have outputs (`paired`: a call with a string key then has a slot), whether it pairs
    by `call_id`, its unfinished statuses, whether a finished call needs an output (0 never, 1 always, 2
    asked of the call: `CallFamily.needs_output`), whether its calls need more than the shared tables
    (`special`: safety checks to acknowledge, a program's call ids), and whether its outputs name their
    call by `call_id` alone."""

    family: CallFamily
    plain: Fns
    every: Fns
    key_field: str
    call_type: str
    paired: bool
    by_call_id: bool
    unfinished: frozenset[str]
    needs: int
    special: bool
    output_by_call_id: bool


def _pairing(fam: CallFamily, rows: list[Rule]) -> Pairing:
    needs = 0 if not fam.output_required or fam.output_type is None else 1 if fam.hosted_when is None else 2
    return Pairing(
        fam, ungated(rows, fam.call_type), select(rows, fam.call_type), fam.call_key, fam.call_type,
        fam.output_type is not None, fam.call_key == "call_id", fam.unfinished, needs,
        fam.acknowledge is not None or fam.call_type == "openai:program", fam.output_keys == ("call_id",),
    )  # fmt: skip


class Plan(NamedTuple):
    """What to run for the items of one type: its item rules (`plain`: those without a gate, asked of an item
    whose id is no earlier item's; `every`: all of them, in table order), its `role` (0 none, 1 a call, 2 an
    output, 3 a barrier that closes the open calls) and, for a call or an output, its family's `pairing`."""

    plain: Fns
    every: Fns
    role: int
    pairing: Pairing | None


class RuleSet:
    """The rows of a table switched on for one combination of settings, and the plan of each item type
    (`Plan`), made once and kept for every check with the same table and switches (`rule_set`)."""

    __slots__ = ("rows", "plans", "every")

    def __init__(self, rows: dict[str, list[Rule]]) -> None:
        self.rows = rows
        # the rules of an item whose type is not a string; the conversation moves on past it
        self.every = Plan(ungated(rows["item"], None), select(rows["item"], None), 3, None)
        self.plans: dict[str, Plan] = {}

    def plan(self, vtype: str) -> Plan:
        """The plan of items of type `vtype` (kept for the next item of that type)."""
        plan = self.plans.get(vtype)
        if plan is not None:
            return plan
        items = self.rows["item"]
        role = _FAMILY_OF.get(vtype)
        if role is None:
            plan = Plan(ungated(items, vtype), select(items, vtype), 3 if vtype in BARRIERS else 0, None)
        else:
            fam, is_call = role
            pairing = _pairing(fam, self.rows["call" if is_call else "output"])
            plan = Plan(ungated(items, vtype), select(items, vtype), 1 if is_call else 2, pairing)
        if len(self.plans) < 1024:  # item types come from the input: never an unbounded cache
            self.plans[vtype] = plan
        return plan


def sweepable(rows: list[Rule], kind: str) -> bool:
    """Whether each of `rows` for `kind` without a gate has a sweep (the whole-list pass can tell them in bulk)."""
    return all(r.sweep is not None for r in rows if r.gate is None and (r.types is None or kind in r.types))


def ungated(rows: list[Rule], kind: Any) -> Fns:
    """`select` of the rows that have no gate: what a plain item is asked."""
    return select([r for r in rows if r.gate is None], kind)


#: The rule sets made so far, by table (its identity) and switches: (the table, its rule set).
_RULE_SETS: dict[tuple[int, tuple[bool, ...]], tuple[tuple[Rule, ...], RuleSet]] = {}


def rule_set(ctx: Context) -> RuleSet:
    """The rule set of `table.RULES` for the settings of `ctx` (its rows' `when` switches), made once per
    table and switches: a check pays for its plans only the first time its combination of settings is seen."""
    rules = table.RULES
    switches = tuple(bool(r.when(ctx)) for r in rules if r.when is not None)
    key = (id(rules), switches)
    kept = _RULE_SETS.get(key)
    if kept is not None and kept[0] is rules:
        return kept[1]
    made = RuleSet({on: active(ctx, on) for on in ("item", "call", "output", "pending")})
    if len(_RULE_SETS) >= 64:  # a table swapped many times (a test's): start again, never grow without bound
        _RULE_SETS.clear()
    _RULE_SETS[key] = (rules, made)
    return made
