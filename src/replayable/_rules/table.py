"""The table of transcript rules: which function checks what, on which items, and when.

One row per rule, in the order their findings are listed (the only meaning the order has: every rule has
the one signature `rule(ctx, item) -> findings`, `replayable._rules.state.RuleCheck`, reads only what the
engine computed before the rules of an item run, and writes nothing another rule reads). `on` says what
the rule is handed: `item` (every item, or the item types in `types`), `call` or `output` (the calls, or
outputs, of the call families in `types`, by call type; None: every family), `pending` (each call still
waiting for its output at the end, with `pending_ok`). `when` switches a rule on for one check from its
settings (a target given, items read as output, ...). `gate` names the fact of an item without which the
rule finds nothing (`replayable._rules.state.Gate`: a duplicate id, a call seen or unfinished, an output
that pairs with no open call): the engine, which computes these facts anyway, asks the rule only where it
holds. `codes` are the codes it may report (`replayable._codes`). The target's profile
(`replayable._profiles`) runs here too, as rows. A new rule is one function (in `item_rules`,
`call_rules`, `tool_rules` or `body_rules`) and one row here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from replayable._codes import ViolationCode as C
from replayable._families import FAMILIES
from replayable._findings import Finding
from replayable._rules import body_rules, call_rules, item_rules, tool_rules
from replayable._rules.state import GATE_STAGES, Context, Facts, Gate, RuleCheck
from replayable._rules.view import View

__all__ = ["BODY_RULES", "RULES", "BodyRule", "Rule", "run_body_rules"]


@dataclass(frozen=True, slots=True)
class Rule:
    """One row: `check` (the function), `on` (`item`, `call`, `output` or `pending`), `types` (item types, or call types
    of families; None: all), `when` (a switch read from the check's settings; None: always), `codes`,
    `source`: where a provider's rule comes from (its error text, the OpenAPI component, a case), and
    `gate`: the fact without which the rule finds nothing (`Gate`, of the row's own stage; None: the rule
    is asked of every item it applies to), and, for a rule without a gate, `sweep`: told the check's settings,
    an item type and the views (each a `dict`) of every item of that type in a list checked at once (where every call is
    finished, its key new, and every output answers an open call: `Engine.run`), whether the rule may
    find anything among them (False: it is asked of none of them; it must never say False where the rule
    would find something). A sweep reads the items' values as they are now, never what their class
    declares: a parsed model is frozen, but the lists it holds can still be changed in place."""

    check: RuleCheck
    on: Literal["item", "call", "output", "pending"]
    codes: tuple[C, ...]
    types: frozenset[str] | None = None
    when: Callable[[Context], bool] | None = None
    source: str = ""
    gate: Gate | None = None
    sweep: Callable[[Context, str, list[View]], bool] | None = None

    def __post_init__(self) -> None:
        if self.gate is not None and GATE_STAGES[self.gate] != self.on:
            raise ValueError(f"a rule on {self.on!r} items cannot be gated by {self.gate!r}")


def _with_target(ctx: Context) -> bool:
    return ctx.target is not None


def _with_allowed(ctx: Context) -> bool:
    return ctx.allowed is not None


def _output_side(ctx: Context) -> bool:
    return ctx.side == "output"


def _with_profile(ctx: Context) -> bool:
    return ctx.profile is not None


#: What the target's profile refuses (`replayable._profiles.check`), item and body alike.
_PROFILE_CODES = (
    C.FIELD_NOT_ACCEPTED, C.FIELD_SHAPE, C.NULL_NOT_ACCEPTED, C.ID_FORMAT, C.COMPUTER_OUTPUT_NOT_SCREENSHOT,
    C.IMAGE_SOURCE_MISSING, C.FILE_DATA_WITHOUT_FILENAME, C.REASONING_NOT_PERSISTED, C.ITEM_REFERENCE_NOT_PERSISTED,
)  # fmt: skip
_PROFILE_SOURCE = "the target's profile (replayable._profiles: OpenAPI components, SDK types, recorded requests)"


_ACKNOWLEDGING = frozenset(f.call_type for f in FAMILIES if f.acknowledge is not None)

RULES: tuple[Rule, ...] = (
    # item rules: what the target accepts in the item's JSON first (as an item is read), then the rest
    Rule(
        item_rules.profile_accepts,
        "item",
        _PROFILE_CODES,
        when=_with_profile,
        source=_PROFILE_SOURCE,
        sweep=item_rules.profile_possible,
    ),
    Rule(item_rules.unique_item_id, "item", (C.DUPLICATE_ITEM_ID,), gate=Gate.DUPLICATE_ID),
    Rule(
        item_rules.foreign_extension_item,
        "item",
        (C.FOREIGN_EXTENSION_ITEM,),
        when=_with_target,
        sweep=item_rules.foreign_extension_possible,
    ),
    Rule(
        item_rules.foreign_provider_state,
        "item",
        (C.FOREIGN_PROVIDER_STATE,),
        frozenset({"reasoning", "compaction"}),
        _with_target,
        sweep=item_rules.foreign_state_possible,
    ),
    Rule(
        item_rules.reasoning_followed,
        "item",
        (C.REASONING_WITHOUT_FOLLOWING_ITEM,),
        frozenset({"reasoning"}),
        source="OpenAI 400 \"Item 'fc_...' of type 'function_call' was provided without its required 'reasoning' "
        "item: 'rs_...'\" (issue 31: 22 public threads)",
    ),
    Rule(item_rules.incomplete_not_last, "item", (C.INCOMPLETE_NOT_LAST,), when=_output_side),
    Rule(
        item_rules.data_urls_readable,
        "item",
        (C.DATA_URL_INVALID,),
        frozenset(item_rules.PART_HOLDERS),
        source="OpenAPI InputImageContent.image_url ('base64 encoded image in a data URL'); RFC 2397",
        sweep=item_rules.data_urls_possible,
    ),
    Rule(
        item_rules.compaction_trigger_last,
        "item",
        (C.COMPACTION_TRIGGER_NOT_LAST,),
        item_rules.COMPACTION_TRIGGERS,
        source="OpenAI 400 \"The 'compaction_trigger' item must be the final input item.\" "
        "(james-6-23/codex2api#546, case R61); OpenAPI CompactionTriggerItemParam",
    ),
    # call rules
    Rule(call_rules.one_call_per_key, "call", (C.DUPLICATE_CALL_ID,), gate=Gate.KEY_SEEN),
    Rule(
        call_rules.finished_call,
        "call",
        (C.INCOMPLETE_CALL_REPLAYED, C.IN_PROGRESS_CALL_REPLAYED),
        gate=Gate.UNFINISHED,
    ),  # fmt: skip
    Rule(tool_rules.allowed_tool, "call", (C.TOOL_NOT_ALLOWED,), frozenset({"function_call"}), _with_allowed),
    Rule(
        tool_rules.arguments_fit_tool,
        "call",
        (C.UNKNOWN_TOOL, C.ARGUMENTS_PARSE, C.ARGUMENTS_SCHEMA, C.INVALID_TOOL),
        frozenset({"function_call"}),
        sweep=tool_rules.arguments_possible,
    ),
    # output rules
    Rule(
        call_rules.output_answers_call,
        "output",
        (C.OUTPUT_WITHOUT_FUNCTION_CALL, C.DUPLICATE_OUTPUT, C.OUTPUT_FOR_UNFINISHED_CALL),
        gate=Gate.UNPAIRED,
    ),
    Rule(call_rules.acknowledged_safety_checks, "output", (C.SAFETY_CHECK_NOT_ACKNOWLEDGED,), _ACKNOWLEDGING),
    # pending rules: the calls still waiting for their output at the end
    Rule(call_rules.call_id_empty, "pending", (C.CALL_ID_EMPTY,), when=_output_side),
)


@dataclass(frozen=True, slots=True)
class BodyRule:
    """One row of the request body rules: `check(ctx, item)` (the body in `ctx.doc`, the facts of the body:
    index None), its `codes`, and the `source` of the rule (the provider's error text, the OpenAPI
    component, a case)."""

    check: RuleCheck
    codes: tuple[C, ...]
    source: str


BODY_RULES: tuple[BodyRule, ...] = (
    BodyRule(
        body_rules.continuation_read,
        (C.BODY_INVALID,),
        "OpenAPI CreateResponse.previous_response_id (string), CreateResponse.conversation and ConversationParam "
        "(an id, or {id}); issue 31: a `conversation: true` made every unanswered output external",
    ),
    BodyRule(
        body_rules.foreign_tools,
        (C.FOREIGN_EXTENSION_ITEM,),
        "Open Responses 2026-04-24, \"Extending items\": provider items (and tools) are `slug:name` and not "
        "portable; OpenAPI CreateResponse.tools (OpenAI's hosted tools are OpenAI's)",
    ),
    BodyRule(
        body_rules.tool_choice_declared,
        (C.TOOL_CHOICE_NOT_DECLARED,),
        "OpenAI 400 \"Tool choice 'web_search' not found in 'tools' parameter.\" (vercel/ai#18997, case R68); "
        "OpenAPI ToolChoiceAllowed.tools, ToolChoiceFunction, ToolChoiceCustom, ToolChoiceMCP, ToolChoiceTypes",
    ),
    BodyRule(
        body_rules.profile_body,
        (C.FIELD_NOT_ACCEPTED, C.INCLUDE_INVALID, C.BODY_CONFLICT),
        "the target's profile (replayable._profiles: OpenAPI CreateResponse, IncludeEnum; openai SDK "
        "ResponseCreateParams)",
    ),
)


def run_body_rules(ctx: Context) -> list[Finding]:
    """The findings of every body rule over `ctx.doc` when it is a request body (anything else has no
    body to judge), in table order."""
    doc = ctx.doc
    if doc is None or doc.kind != "request":
        return []
    body = Facts(None, {})
    return [f for row in BODY_RULES for f in row.check(ctx, body)]


def active(ctx: Context, on: str) -> list[Rule]:
    """The rows for `on` that are switched on for the check `ctx`, in table order."""
    return [r for r in RULES if r.on == on and (r.when is None or r.when(ctx))]


def select(rows: list[Rule], kind: Any) -> tuple[RuleCheck, ...]:
    """The functions of `rows` that apply to `kind` (an item type or a family's call type; not a string:
    only the rows for every kind)."""
    return tuple(r.check for r in rows if r.types is None or (isinstance(kind, str) and kind in r.types))
