"""Replay checks, the public layer: `check_transcript` before replaying a list of items, `check_transcript_iter`
for one too large to hold, `gate` one function call before executing it (`replayable._call_gate`), and
`check_tool` for the rules of tool definitions (`replayable._tool_lint`).

The rules themselves are the table of `replayable._rules` (per-item rules live in the schemas, and so in
the models; the rules there span items: a `function_call_output` answers an earlier completed
`function_call` with the same `call_id`, calls are answered before the conversation moves on,
`incomplete` is terminal, ids are unique, reasoning is followed by what it produced, and provider items
stay with their provider). Findings and their codes: `replayable._findings`, `replayable._codes`. Spec:
Open Responses 2026-04-24, "Items are state machines", "Tool calling", "Extending items".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from replayable._base import checked_provider, read_field
from replayable._call_gate import GateReason, GateResult, allowed_tool_names, gate
from replayable._codes import ViolationCode
from replayable._continuation import unwrap
from replayable._findings import Findings, TranscriptReport, Violation
from replayable._item_validation import is_openai_form
from replayable._json import MAX_ITEM_DEPTH, JSONError, check_value
from replayable._messages import said
from replayable._pointers import json_pointer
from replayable._profiles import TargetCheck, check_target
from replayable._reading import Document, DocumentKind, read_document
from replayable._rules.engine import Engine, run_rules
from replayable._rules.item_rules import foreign_state_kind
from replayable._rules.parse import read_item, recheck_sent_as_is
from replayable._rules.state import Context
from replayable._rules.table import run_body_rules
from replayable._rules.view import View, model_views
from replayable._tools import tool_index
from replayable.items import Provider, Side, is_openai_model

if TYPE_CHECKING:
    from replayable._tool_lint import ToolFindings, check_tool

__all__ = [
    "GateReason",
    "GateResult",
    "ToolFindings",
    "TranscriptReport",
    "Violation",
    "ViolationCode",
    "body_findings",
    "check_transcript_iter",
    "check_tool",
    "check_transcript",
    "foreign_state",
    "gate",
    "infer_source",
]


def __getattr__(name: str) -> Any:
    """`check_tool` and `ToolFindings` (`replayable._tool_lint`, with the strict-mode schema rules under
    it) load on first use: checking a transcript never lints its tools, so `import replayable` does not
    build them (benchmarks/README.md, start-up)."""
    if name in ("check_tool", "ToolFindings"):
        from replayable import _tool_lint  # noqa: PLC0415  (a lower layer, loaded when first asked for)

        value = getattr(_tool_lint, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def check_transcript(
    items: Iterable[Any] | Document,
    *,
    tools: Iterable[Any] | None = None,
    target: str | None = None,
    provider: Provider = None,
    pending_ok: bool = False,
    allowed_tools: Iterable[str] | None = None,
    side: Side | None = None,
    source: str | None = None,
    registry: Mapping[str, Any] | None = None,
    previous: Any = None,
) -> TranscriptReport:
    """Check a list of items before it is replayed (sent as the `input` of a request).

    `items` are raw JSON objects, parsed items, or `openai` SDK objects. Without `side` the items are what
    is about to be sent as `input`: each is read in its input form or, failing that, its output form, except
    `function_call` and `function_call_output`, which always meet the input rules (`call_id` 1-64
    characters, a valid function name) since they are sent back as they are, and OpenAI's typed items
    (`openai:additional_tools`, ...), which meet their input form's, as `parse_request` reads them; `side`
    pins one form. `tools` are tool definitions in any shape `replayable.check_tool` accepts (Responses,
    Agents or Chat Completions function tools, MCP tools; hosted tools are skipped); with them each call's
    arguments are checked against its tool's schema and a call to a tool not listed is a violation.
    Arguments must be a JSON object whatever the schema. `registry` maps absolute URIs to shared JSON
    Schemas for `$ref` (in-process only: no schema ever causes I/O). `target` is the slug of the provider
    the items are replayed to: a namespaced item of any other slug is a violation, and the target's profile
    applies (docs/targets.md: for `openai`, the fields, nulls, shapes and id formats OpenAI accepts in
    `input`). A request body's `store: false` refuses what refers to a stored item by id alone
    (`reasoning_not_persisted`, `item_reference_not_persisted`) for any target. `provider="openai"` reads
    OpenAI's native item types and shorthand messages. `pending_ok=True` reports trailing unanswered calls
    in `.pending` instead of as violations. `allowed_tools` (names) limits which tools may be called
    (`None`: no limit, `[]`: none). `side="output"` also enforces that an `incomplete` item is the last item
    of a response. `source` is the slug of the provider the items came from (default: `provider`, else
    `openai` for SDK objects, else unknown); with `target`, reasoning `encrypted_content` and compaction
    items from any other (or an unknown) source are `foreign_provider_state`, the rule `prepare_replay`
    drops them by. Calls and outputs of every call family (docs/openai.md) are paired and checked alike.

    `items` may also be a request body (its `input` is checked; its own fields, `tools` included, are read
    as `parse_request` reads them, `body_invalid`, and its tools are linted as `check_tool` lints them, as
    the command line lints them: `tools=` given here are not, call `check_tool` on them), a whole response
    (its `output`, as output), one item, or a `replayable.Document` (what the one reader made of any of these).
    A request with `previous_response_id` continues a response: pass that response (or its
    `output`) as `previous` to pair its calls with the request's outputs (a call of it left unanswered
    is reported with no index and a `/previous/N` path; a previous Response with
    another `id` is an `ItemError`); without it, outputs answering calls outside the request are listed
    in `.external`, not reported (see docs/requests.md). A response that is not finished
    (status `queued`, `in_progress`, `failed`, `cancelled`) is `response_not_finished`.

    Returns a `TranscriptReport`; it never raises on bad items (they are violations, with codes from
    `ViolationCode`). Every rule an item breaks is reported. Raises `ValueError` only for bad arguments:
    `side="sideways"`, `items` that are neither a list nor a body, `allowed_tools="get_weather"` (a
    string, not a collection of names), `tools` that are not a list of tools, two tools with the same
    name, a `previous` that is not the response the request continues (`ItemError`, a `ValueError`;
    `SchemaError` for a tool in no known shape). Spec: Open Responses 2026-04-24, "Items are state
    machines", "Tool calling", "Extending items" and `CreateResponseBody.previous_response_id`.
    """
    _check_arguments(side, provider, target)
    doc = read_document(items, provider=provider, text=False)  # the one reader: kind, items, tools, settings
    settings = doc.settings  # a request body: its own tools and tool_choice apply too
    if tools is None:
        tools = doc.tools
    if allowed_tools is None:
        allowed_tools = doc.tool_choice
    tool_params = tool_index(tools)
    allowed = allowed_tool_names(allowed_tools)
    unwrapped = unwrap(doc, previous, side)
    raw_items, side, provider = unwrapped.items, unwrapped.side, unwrapped.provider
    pending_ok = pending_ok or unwrapped.response  # a response's trailing calls wait to be executed
    violations = Findings()
    parsed: list[Any] = []
    views: list[View] = []
    resend: list[int] = []
    # what the reader told of these items, trusted only when it read them in this call: a Document handed in
    # may have had its list changed since it was read
    told = doc._item_classes if doc is not items and raw_items is doc.items else None
    plain = None if told is None else frozenset(told)
    already = model_views(raw_items, side, resend, plain)  # already parsed: only the views are needed
    if already is not None:
        parsed, views = raw_items, already
        if resend:  # output-form calls sent back as they are: their input form is checked too
            recheck_sent_as_is(raw_items, resend, provider, violations)
    else:
        raw_items = read_mappings_once(raw_items)  # the rules and the target profile read the same copy
        for i, raw in enumerate(raw_items):
            model, view = read_item(i, raw, side, provider, violations, text=doc.text_items)
            parsed.append(model)
            views.append(view)
    if target is not None and source is None:
        source = provider or doc.read_with  # what the items say they are; never guessed (prepare_replay alike)
    profile = TargetCheck(target, settings, doc.body_keys)  # what the target accepts (replayable._profiles)
    ctx = Context(target, tool_params, allowed, side, source, registry, profile, doc)
    engine = Engine(ctx, violations)
    stored = already is not None  # the views are the models' storages: the reader's classes are theirs
    classes = told if stored else None
    pending = run_rules(views, engine, pending_ok, unwrapped.offset, raw_items, stored, classes)
    violations.extend(body_findings(doc, ctx))  # what the body says decides how its items are read
    violations.sort(key=lambda v: v.index if v.index is not None else -1)
    return unwrapped.finish(TranscriptReport(tuple(violations), tuple(pending), tuple(parsed)))


def _check_arguments(side: Any, provider: Any, target: Any) -> None:
    """`ValueError` for a `side`, `provider` or `target` the checks do not know (both checks' arguments)."""
    if side not in (None, "input", "output"):
        raise ValueError(f"side must be None, 'input' or 'output', got {side!r}")
    checked_provider(provider)
    check_target(target)


def body_findings(doc: Document, ctx: Context | None = None) -> Findings:
    """What a request body's own fields break (none for anything else): each field that breaks the body's
    schema, and the body rules (`replayable._rules.table.BODY_RULES`: a `tool_choice` naming an undeclared
    tool, a `conversation` or `previous_response_id` of the wrong shape, and with `ctx` of a check with a
    target, what its profile refuses in the body's keys), as findings with no index. What the body says
    decides how its items are read, so these are refused, never ignored; `prepare_replay` cannot fix them
    either."""
    out = Findings()
    for err in doc.envelope_errors():
        loc = err.get("loc") or ()
        out.at(
            None, ViolationCode.BODY_INVALID, json_pointer(loc), field=".".join(map(str, loc)) or "(body)",
            msg=err.get("msg", ""), rule=err.get("type", ""),
        )  # fmt: skip
    if doc.kind is DocumentKind.REQUEST and doc.tool_list:  # the tools it sends, linted (`check_tool`)
        from replayable._tool_lint import lint_tools  # noqa: PLC0415  (a lower layer, loaded when a body has tools)

        out.extend(lint_tools(doc.tool_list, doc.provider))
    if ctx is None:
        ctx = Context(None, None, None, None, doc=doc)
    out.extend(run_body_rules(ctx))
    return out


def check_transcript_iter(
    items: Iterable[Any] | Document,
    *,
    tools: Iterable[Any] | None = None,
    target: str | None = None,
    provider: Provider = None,
    pending_ok: bool = False,
    allowed_tools: Iterable[str] | None = None,
    side: Side | None = None,
    source: str | None = None,
    registry: Mapping[str, Any] | None = None,
) -> TranscriptReport:
    """`check_transcript` for transcripts too large to hold: items are read one at a time from any
    iterable (a generator over JSONL lines, a database cursor, ...) and dropped once checked.

    Arguments and violations are exactly those of `check_transcript` (same rules, codes, order), but
    the report's `items` is empty. Memory holds the rule state only: the item ids and call ids seen so
    far (for the uniqueness and pairing rules), the calls still open, and the violations found; never
    the items. The provider state rule takes `source`, else `provider`, else what the items say as they
    come (an `openai` SDK object or a model parsed with `provider="openai"` makes them OpenAI's from the
    item before it on: the items are not seen in advance). Raises `ValueError` only for bad arguments.
    """
    _check_arguments(side, provider, target)
    if isinstance(items, Document):  # `read_file(path, lazy=True)`: its items as they are read
        if items.kind is not DocumentKind.ITEMS:
            raise ValueError(f"items must be items, got a {items.kind.value} document: check it with check_transcript")
        text = items.text_items  # a file's lines are JSON values already
        items = items.iter_items()
    else:
        text = True
    if isinstance(items, str | bytes | bytearray | Mapping):
        raise ValueError("items must be an iterable of items; use iter_items for JSON text")
    if not isinstance(items, Iterable):
        raise ValueError(f"items must be an iterable of items, got {type(items).__name__}")
    violations = Findings()
    allowed = allowed_tool_names(allowed_tools)
    profile = TargetCheck(target)  # what the target accepts in each item (replayable._profiles)
    ctx = Context(target, tool_index(tools), allowed, side, source or provider, registry, profile)
    rules = Engine(ctx, violations)
    prev: View | None = None
    prev_raw: Any = None
    unowned = target is not None and rules.ctx.source is None  # whose state: what the items say, as they come
    for i, raw in enumerate(items):
        raw = read_mapping_once(raw)  # the rules and the target profile read the same copy
        _, view = read_item(i, raw, side, provider, violations, text=text)
        if unowned and (is_openai_form(raw) or is_openai_model(raw)):
            rules.ctx.source, unowned = "openai", False  # read with provider="openai", or an SDK object
        if prev is not None:  # rules for item i-1 run once its successor is known (one-item lookahead)
            rules.step(i - 1, prev, view, prev_raw)
        prev, prev_raw = view, raw
    if prev is not None:
        rules.step(i, prev, None, prev_raw)
    pending = rules.finish(pending_ok)
    violations.sort(key=lambda v: v.index if v.index is not None else -1)
    return TranscriptReport(tuple(violations), tuple(pending), ())


def read_mapping_once(raw: Any) -> Any:
    """A `Mapping` item that is no `dict` read once into a plain `dict` (`check_value`), so that every
    reader of the check (the rules, the target profile) sees one copy, never a second read of a mapping
    that may answer differently; anything else, and a mapping that is not JSON (the rules report it), as
    it is."""
    if isinstance(raw, Mapping) and type(raw) is not dict:
        try:
            return check_value(raw, what="item", max_depth=MAX_ITEM_DEPTH)
        except JSONError:
            return raw
    return raw


def read_mappings_once(items: list[Any]) -> list[Any]:
    """`read_mapping_once` of each item (the list itself when every item is a `dict` or a model)."""
    if all(type(x) is dict or not isinstance(x, Mapping) for x in items):
        return items
    return [read_mapping_once(x) for x in items]


def foreign_state(item: Any, source: str | None, target: str) -> str | None:
    """Why `item` holds provider state that `target` cannot read, or None.

    Reasoning with `encrypted_content` and compaction items carry state only the provider that wrote it
    can read; `source` is that provider's slug (None: unknown, which never matches a target). The one rule
    behind both `check_transcript(..., target=)` and `prepare_replay`.
    """
    kind = foreign_state_kind(item, source, target)
    if kind is None:
        return None
    what = "compaction state" if kind == "compaction" else "reasoning encrypted_content"
    if source is None:
        return said(
            "{what} was written by a provider nobody named, so it may not be {target!r} (name it with source=; "
            "items read with {option:provider} are OpenAI's)",
            what=what,
            target=target,
        )
    return f"{what} belongs to provider {source!r}, not {target!r}"


def infer_source(items: Iterable[Any], provider: Provider = None) -> str | None:
    """The slug of the provider items came from: `provider`, else `openai` for `openai` SDK objects, else the
    one slug of their namespaced items, else None (unknown)."""
    if provider is not None:
        return provider
    slugs: set[str] = set()
    for item in items:
        if is_openai_model(item):
            return "openai"
        t = read_field(item, "type")
        if isinstance(t, str) and ":" in t:
            slugs.add(t.split(":", 1)[0])
    return slugs.pop() if len(slugs) == 1 else None
