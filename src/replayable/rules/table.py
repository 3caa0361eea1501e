"""The table of transcript rules: which function checks what, on which items, and when.

One row per rule, in the order they run on an item (the order of its findings). `on` says what the rule is
handed: `item` (every item, or the item types in `types`), `call` or `output` (the calls, or outputs, of
the call families in `types`, by call type; None: every family), `pending` (each call still waiting for
its output at the end, with `pending_ok`). `when` switches a rule on for one check
from its settings (a target given, items read as output, ...). `codes` are the codes it may report
(`replayable.codes`). A new rule is one function (in `items`, `calls` or `tools`) and one row here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from replayable.codes import ViolationCode as C
from replayable.families import FAMILIES
from replayable.findings import Findings
from replayable.reading import Document
from replayable.rules import body, calls, items, tools
from replayable.rules.state import Context

__all__ = ["BODY_RULES", "RULES", "BodyRule", "Rule", "run_body_rules"]


@dataclass(frozen=True, slots=True)
class Rule:
    """One row: `check` (the function), `on` (`item`, `call`, `output` or `pending`), `types` (item types, or call types
    of families; None: all), `when` (a switch read from the check's settings; None: always), `codes`, and
    `source`: where a provider's rule comes from (its error text, the OpenAPI component, a case)."""

    check: Callable[..., None]
    on: Literal["item", "call", "output", "pending"]
    codes: tuple[C, ...]
    types: frozenset[str] | None = None
    when: Callable[[Context], bool] | None = None
    source: str = ""


def _with_target(ctx: Context) -> bool:
    return ctx.target is not None


def _with_allowed(ctx: Context) -> bool:
    return ctx.allowed is not None


def _output_side(ctx: Context) -> bool:
    return ctx.side == "output"


_ACKNOWLEDGING = frozenset(f.call_type for f in FAMILIES if f.acknowledge is not None)

RULES: tuple[Rule, ...] = (
    # item rules
    Rule(items.unique_item_id, "item", (C.DUPLICATE_ITEM_ID,)),
    Rule(items.foreign_extension_item, "item", (C.FOREIGN_EXTENSION_ITEM,), when=_with_target),
    Rule(
        items.foreign_provider_state,
        "item",
        (C.FOREIGN_PROVIDER_STATE,),
        frozenset({"reasoning", "compaction"}),
        _with_target,
    ),
    Rule(
        items.reasoning_followed,
        "item",
        (C.REASONING_WITHOUT_FOLLOWING_ITEM,),
        frozenset({"reasoning"}),
        source="OpenAI 400 \"Item 'fc_...' of type 'function_call' was provided without its required 'reasoning' "
        "item: 'rs_...'\" (issue 31: 22 public threads)",
    ),
    Rule(items.incomplete_not_last, "item", (C.INCOMPLETE_NOT_LAST,), when=_output_side),
    Rule(
        items.data_urls_readable,
        "item",
        (C.DATA_URL_INVALID,),
        frozenset(items.PART_HOLDERS),
        source="OpenAPI InputImageContent.image_url ('base64 encoded image in a data URL'); RFC 2397",
    ),
    Rule(
        items.compaction_trigger_last,
        "item",
        (C.COMPACTION_TRIGGER_NOT_LAST,),
        items.COMPACTION_TRIGGERS,
        source="OpenAI 400 \"The 'compaction_trigger' item must be the final input item.\" "
        "(james-6-23/codex2api#546, case R61); OpenAPI CompactionTriggerItemParam",
    ),
    # call rules
    Rule(calls.one_call_per_key, "call", (C.DUPLICATE_CALL_ID,)),
    Rule(calls.finished_call, "call", (C.INCOMPLETE_CALL_REPLAYED, C.IN_PROGRESS_CALL_REPLAYED)),
    Rule(tools.allowed_tool, "call", (C.TOOL_NOT_ALLOWED,), frozenset({"function_call"}), _with_allowed),
    Rule(
        tools.arguments_fit_tool,
        "call",
        (C.UNKNOWN_TOOL, C.ARGUMENTS_PARSE, C.ARGUMENTS_SCHEMA, C.INVALID_TOOL),
        frozenset({"function_call"}),
    ),
    # output rules
    Rule(
        calls.output_answers_call,
        "output",
        (C.OUTPUT_WITHOUT_FUNCTION_CALL, C.DUPLICATE_OUTPUT, C.OUTPUT_FOR_UNFINISHED_CALL),
    ),
    Rule(calls.acknowledged_safety_checks, "output", (C.SAFETY_CHECK_NOT_ACKNOWLEDGED,), _ACKNOWLEDGING),
    # pending rules: the calls still waiting for their output at the end
    Rule(calls.call_id_empty, "pending", (C.CALL_ID_EMPTY,), when=_output_side),
)


@dataclass(frozen=True, slots=True)
class BodyRule:
    """One row of the request body rules: `check(out, body)` (`body` a request `Document`), its `codes`, and
    the `source` of the rule (the provider's error text, the OpenAPI component, a case)."""

    check: Callable[[Findings, Document], None]
    codes: tuple[C, ...]
    source: str


BODY_RULES: tuple[BodyRule, ...] = (
    BodyRule(
        body.continuation_read,
        (C.BODY_INVALID,),
        "OpenAPI CreateResponse.previous_response_id (string), CreateResponse.conversation and ConversationParam "
        "(an id, or {id}); issue 31: a `conversation: true` made every unanswered output external",
    ),
    BodyRule(
        body.tool_choice_declared,
        (C.TOOL_CHOICE_NOT_DECLARED,),
        "OpenAI 400 \"Tool choice 'web_search' not found in 'tools' parameter.\" (vercel/ai#18997, case R68); "
        "OpenAPI ToolChoiceAllowed.tools, ToolChoiceFunction, ToolChoiceCustom, ToolChoiceMCP, ToolChoiceTypes",
    ),
)


def run_body_rules(out: Findings, doc: Document) -> None:
    """Run every body rule over `doc` when it is a request body (anything else has no body to judge)."""
    if doc.kind == "request":
        for row in BODY_RULES:
            row.check(out, doc)


def active(ctx: Context, on: str) -> list[Rule]:
    """The rows for `on` that are switched on for the check `ctx`, in table order."""
    return [r for r in RULES if r.on == on and (r.when is None or r.when(ctx))]


def select(rows: list[Rule], kind: Any) -> tuple[Callable[..., None], ...]:
    """The functions of `rows` that apply to `kind` (an item type or a family's call type; not a string:
    only the rows for every kind)."""
    return tuple(r.check for r in rows if r.types is None or (isinstance(kind, str) and kind in r.types))
