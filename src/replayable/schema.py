"""JSON Schema export: one self-contained JSON Schema 2020-12 document per side, for other languages.

`json_schema(side)` returns the bundle for one side (`"input"`: an item sent as input, spec `ItemParam`;
`"output"`: an item of a response's `output`, spec `ItemField`; plus the Agents API sides when their
schemas exist). Each bundle is built from the contract in `schemas/` (one file per type, cross-file
`$ref`s) by inlining every reachable type under `$defs` (named by its `title`) and rewriting the
references to `#/$defs/<Name>`. Its root is a `oneOf` of

- the known items, a `oneOf` tagged on `type` that carries an OpenAPI-style `discriminator` mapping
  (input messages are tagged again on `role`);
- on the input side, `ItemReferenceParam` (`type` optional or null, no other keys);
- `NamespacedItem`, whose `type` must match the `slug:name` pattern.

The bundles accept exactly what `replayable.parse_item(x, side=side)` (strict mode, `provider=None`)
accepts, item by item; the rules across items (`check_transcript`) cannot be said in JSON Schema and are
stated in the root `description` and in `schemas/README.md`.

The committed bundles live in `schemas/dist/<side>.json` (written by `scripts/bundle_schemas.py`, checked
for staleness in CI); an installed wheel carries them as `replayable/schemas/`. Spec: Open Responses
2026-04-24, "Items" and "Extending items".
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from replayable._openai_schema import openai_wire, schema_objects  # its OpenAI forms load on first use

__all__ = [
    "AGENTS_RULES",
    "AGENTS_SIDES",
    "BODY_SIDES",
    "CROSS_ITEM_RULES",
    "NAMESPACED_PATTERN",
    "SIDES",
    "STREAM_RULES",
    "bundle",
    "json_schema",
    "sides",
    "source_root",
]

_DRAFT = "https://json-schema.org/draft/2020-12/schema"
#: Keys of the source schemas that only drive our code generator; they are not exported.
_GENERATOR_ONLY = frozenset({"customBasePath", "customTypePath"})
_GENERATED = "replayable._generated."

#: Rules over a list of items (`replayable.check_transcript`) that no per-item JSON Schema can express.
CROSS_ITEM_RULES: tuple[str, ...] = (
    "a function_call_output answers an earlier function_call with the same call_id (byte for byte); "
    "two calls never share a call_id and a call has at most one output",
    "a call is answered before any item other than another call or an output follows it "
    "(parallel calls, then their outputs, are fine)",
    "a function_call whose status is in_progress or incomplete is never replayed or answered",
    "every call family (custom_tool_call, computer_call, local_shell_call, shell_call, apply_patch_call, "
    "tool_search_call, program, mcp_approval_request) pairs with its output the same way, and a "
    "computer_call_output acknowledges every pending safety check of its call",
    "with a target provider, reasoning encrypted_content and compaction items from another provider are not replayed",
    "in a response's output, an incomplete item is the last item",
    "item ids are unique within a transcript",
    "a reasoning item with an id is immediately followed by an item with an id (the item it produced)",
    "a namespaced (slug:name) item is replayed only to its own provider",
    "function_call.arguments is a JSON text that parses strictly and satisfies the called tool's parameters",
)


def _item_side(
    title: str,
    description: str,
    known: list[tuple[str, str]],
    tag: str,
    extra: list[str],
    *,
    what: str = "items",
    rules: tuple[str, ...] | None = None,
) -> dict[str, Any]:
    """A side whose root is oneOf [known values tagged on `tag`, *extra branches]."""
    spec: dict[str, Any] = {
        "title": title,
        "description": description,
        "known": {
            "title": title + "Known",
            "description": f"The spec's own {what}, tagged on `{tag}`.",
            "oneOf": [{"$ref": ref} for _, ref in known],
            "discriminator": {"propertyName": tag, "mapping": dict(known)},
        },
        "extra": extra,
    }
    if rules is not None:
        spec["rules"] = rules
    return spec


_OR = "open_responses/"

#: Per side: the root union, in terms of source files below `schemas/` (`file.json`) or their `$defs`.
SIDES: dict[str, dict[str, Any]] = {
    "input": _item_side(
        "InputItem",
        "An Open Responses item sent as input (spec ItemParam, 2026-04-24): a spec item tagged on `type` "
        "(messages further on `role`), an item_reference (`type` absent, null or `item_reference`, no other "
        "keys), or a provider's own `slug:name` item (NamespacedItem, not portable).",
        [
            ("message", "#/$defs/InputMessage"),
            ("function_call", _OR + "function_call_param.json"),
            ("function_call_output", _OR + "function_call_output_param.json"),
            ("reasoning", _OR + "reasoning_param.json"),
            ("compaction", _OR + "compaction_param.json"),
        ],
        "type",
        [_OR + "item_reference_param.json", _OR + "namespaced_item.json"],
    ),
    "output": _item_side(
        "OutputItem",
        "An Open Responses item of a response's `output` (spec ItemField, 2026-04-24): a spec item tagged "
        "on `type`, or a provider's own `slug:name` item (NamespacedItem, not portable). Output items "
        "always carry `id`.",
        [
            ("message", _OR + "message.json"),
            ("function_call", _OR + "function_call.json"),
            ("function_call_output", _OR + "function_call_output.json"),
            ("reasoning", _OR + "reasoning.json"),
            ("compaction", _OR + "compaction.json"),
        ],
        "type",
        [_OR + "namespaced_item.json"],
    ),
}

#: Rules across the events of an Agents API session (`replayable.agents`), not expressible per event.
AGENTS_RULES: tuple[str, ...] = (
    "only session.required_actions makes a function call pending; a function_call item in the history never does",
    "each pending (turn_id, call_id) pair is answered by one agent.session.input.tool_result, matched byte for "
    "byte (the same result resent is no second answer; a different one is)",
    "each pending approval request is answered once, by request_id, with an answer that fits the request "
    "(mcp_approval_request: mcp_approval_request_result; computer_use_approval_request: "
    "computer_use_approval_request_result of the request's type, a login form's own fields and option)",
    "a tool result with success true carries output (a string or input_text / input_image parts); with "
    "success false a non-empty error",
    "a function_call action's arguments satisfy its tool's parameters before the call is executed",
    "an event, item or required action of an unknown type is kept verbatim and never acted on",
)

_AG = "agents/"


def _ref_side(title: str, description: str, ref: str) -> dict[str, Any]:
    """A side whose root is one union already named in the source schemas."""
    return {"title": title, "description": description, "root": ref, "rules": AGENTS_RULES}


#: Sides over the Agents API schemas, exported when `schemas/agents/` holds them (field-level reference:
#: the `openai` package's `openai.types.beta`).
AGENTS_SIDES: dict[str, dict[str, Any]] = {
    "agents-events": _ref_side(
        "AgentsSessionEvent",
        "An OpenAI Agents API session event (beta, `OpenAI-Beta: agents=v1`), tagged on `type`; an event "
        "of an unknown type is kept verbatim as UnknownSessionEvent.",
        _AG + "session_event.json#/$defs/SessionEvent",
    ),
    "agents-items": _ref_side(
        "AgentsSessionItem",
        "An item of an OpenAI Agents API session (beta), tagged on `type`; an item of an unknown type is "
        "kept verbatim as UnknownSessionItem.",
        _AG + "session_item.json#/$defs/SessionItem",
    ),
    "agents-input": _ref_side(
        "AgentsSessionInput",
        "A client input event of an OpenAI Agents API session (beta): a message, a cancel, a tool result, or "
        "an answer to an approval request, tagged on `type`.",
        _AG + "session_input.json#/$defs/SessionInput",
    ),
    "agents-required-actions": _ref_side(
        "AgentsRequiredAction",
        "A required action of an OpenAI Agents API session (beta), tagged on `type`; an action of an "
        "unknown type is kept verbatim as UnknownRequiredAction.",
        _AG + "required_action.json#/$defs/RequiredAction",
    ),
}
if (Path(__file__).resolve().parent / "_generated" / "agents").is_dir():
    SIDES.update(AGENTS_SIDES)

#: Rules across the events of one Open Responses stream (`replayable.stream.StreamAssembler`).
STREAM_RULES: tuple[str, ...] = (
    "sequence_number strictly increases along a stream",
    "an event about an output item comes after that item's response.output_item.added and before its "
    "response.output_item.done; no delta follows its done event",
    "a done event's text or arguments equal the concatenation of the deltas before it",
    "no output item follows an incomplete one, and nothing follows response.completed, response.failed or "
    "response.incomplete",
    "the item of response.output_item.done is authoritative and is an output item "
    '(replayable.parse_item(item, side="output"))',
    "an SSE `event:` name, when present, equals the event's type",
)

_ST = "streaming/"
_STREAM_EVENTS = (
    "response.created",
    "response.queued",
    "response.in_progress",
    "response.completed",
    "response.failed",
    "response.incomplete",
    "response.output_item.added",
    "response.output_item.done",
    "response.content_part.added",
    "response.content_part.done",
    "response.output_text.delta",
    "response.output_text.done",
    "response.output_text.annotation.added",
    "response.refusal.delta",
    "response.refusal.done",
    "response.reasoning.delta",
    "response.reasoning.done",
    "response.reasoning_summary_part.added",
    "response.reasoning_summary_part.done",
    "response.reasoning_summary_text.delta",
    "response.reasoning_summary_text.done",
    "response.function_call_arguments.delta",
    "response.function_call_arguments.done",
)

#: The streaming side: one event of an Open Responses `text/event-stream`.
SIDES["stream-events"] = _item_side(
    "StreamEvent",
    'One Open Responses streaming event (spec 2026-04-24, "Streaming"): a spec event tagged on `type`, or a '
    "provider's own `slug:name` event (ExtensionEvent, which clients may ignore). The Python counterpart is "
    "replayable.stream.parse_event in strict mode.",
    [(t, _ST + t.replace(".", "_") + "_event.json") for t in _STREAM_EVENTS] + [("error", _ST + "error_event.json")],
    "type",
    [_ST + "extension_event.json"],
    what="streaming events",
    rules=STREAM_RULES,
)
SIDES["stream-events"]["intro"] = (
    "This schema judges one event at a time. Rules across the events of a stream, checked by "
    "replayable.stream.StreamAssembler and not expressible in JSON Schema:"
)

#: Whole bodies: the request of `POST /responses` and the response object (`replayable.parse_request`,
#: `replayable.parse_response`); their items follow the `input` / `output` sides.
_BODY_INTRO = (
    "This schema judges one body at a time. Rules across the items of its `input` / `output`, checked by "
    "replayable.check_transcript and not expressible in JSON Schema:"
)
BODY_SIDES: dict[str, dict[str, Any]] = {
    "request": {
        "title": "CreateResponseBody",
        "description": "The body of POST /responses (Open Responses CreateResponseBody, 2026-04-24), as "
        "replayable.parse_request reads it in strict mode: every field optional, `input` a string or input "
        "items, `tools` function tools or a provider's own `slug:name` tools.",
        "root": _OR + "create_response_body.json",
        "rules": CROSS_ITEM_RULES,
        "intro": _BODY_INTRO,
    },
    "response": {
        "title": "Response",
        "description": "The response object (Open Responses ResponseResource, 2026-04-24), as "
        "replayable.parse_response reads it in strict mode: all 31 keys present, `output` output items.",
        "root": _OR + "response.json",
        "rules": CROSS_ITEM_RULES,
        "intro": _BODY_INTRO,
    },
}
BODY_SIDES["compact-request"] = {
    "title": "CompactRequestBody",
    "description": "The body of POST /responses/compact (Open Responses CompactResponseMethodPublicBody, "
    "2026-04-24), as replayable.parse_compact_request reads it in strict mode: `model` required, `input` a "
    "string or input items.",
    "root": _OR + "compact_request_body.json",
    "rules": CROSS_ITEM_RULES,
    "intro": _BODY_INTRO,
}
BODY_SIDES["compact-response"] = {
    "title": "CompactResource",
    "description": "The response.compaction object of POST /responses/compact (Open Responses CompactResource, "
    "2026-04-24), as replayable.parse_compact_response reads it in strict mode: `output` output items.",
    "root": _OR + "compact_resource.json",
    "rules": CROSS_ITEM_RULES,
    "intro": _BODY_INTRO,
}
SIDES.update(BODY_SIDES)

#: The spec's WebSocket mode: the client's response.create message and the server's error envelope.
SIDES["websocket-events"] = _item_side(
    "WebSocketEvent",
    "A message of the Open Responses WebSocket mode (spec 2026-04-24): the client's `response.create` (the "
    "POST /responses body plus `type`, without `stream`, `stream_options` or `background`) or the server's "
    "error envelope. The server's streaming events are the `stream-events` side. The Python counterpart is "
    "replayable.websocket.parse_websocket_event.",
    [
        ("response.create", _OR + "websocket_response_create_event.json"),
        ("error", _OR + "websocket_error_event.json"),
    ],
    "type",
    [],
    what="WebSocket-mode messages",
    rules=CROSS_ITEM_RULES,
)
SIDES["websocket-events"]["intro"] = _BODY_INTRO

#: Agents API sessions, their create and update bodies and list pages (`replayable.agents`).
AGENTS_BODY_SIDES: dict[str, dict[str, Any]] = {
    "agents-session": _ref_side(
        "AgentsSession",
        "A whole OpenAI Agents API session object (`GET /v1/agents/sessions/{id}`), as "
        "replayable.agents.parse_session reads it.",
        _AG + "agent_session.json",
    ),
    "agents-session-create": _ref_side(
        "AgentsSessionCreate",
        "The body of POST /v1/agents/sessions (`agent` with a `model`, or `agent_id` with partial overrides; "
        "`environment`), as replayable.agents.session_create_params_adapter reads it.",
        _AG + "session_create_params.json",
    ),
    "agents-session-update": _ref_side(
        "AgentsSessionUpdate",
        "The body of POST /v1/agents/sessions/{id} (the session's own settings; `agent_id` is refused: a saved "
        "template applies only to new sessions), as replayable.agents.session_update_params_adapter reads it.",
        _AG + "session_update_params.json",
    ),
    "agents-session-list": _ref_side(
        "AgentsSessionListPage",
        "A page of GET /v1/agents/sessions, as replayable.agents.session_list_page_adapter reads it.",
        _AG + "session_list_page.json",
    ),
    "agents-item-list": _ref_side(
        "AgentsSessionItemListPage",
        "A page of GET /v1/agents/sessions/{id}/items, as replayable.agents.session_item_list_page_adapter reads it.",
        _AG + "session_item_list_page.json",
    ),
    "agents-turn-list": _ref_side(
        "AgentsTurnListPage",
        "A page of GET /v1/agents/sessions/{id}/turns, as replayable.agents.turn_list_page_adapter reads it.",
        _AG + "turn_list_page.json",
    ),
}
if "agents-events" in SIDES:
    SIDES.update(AGENTS_BODY_SIDES)

#: Extra named unions a side may refer to as `#/$defs/<Name>` (built, not read from a file).
_SYNTHETIC: dict[str, dict[str, Any]] = {
    "InputMessage": {
        "title": "InputMessage",
        "description": "An input message, told apart by `role` (spec ItemParam: the four *MessageItemParam schemas).",
        "oneOf": [
            {"$ref": _OR + "user_message_param.json"},
            {"$ref": _OR + "system_message_param.json"},
            {"$ref": _OR + "developer_message_param.json"},
            {"$ref": _OR + "assistant_message_param.json"},
        ],
        "discriminator": {
            "propertyName": "role",
            "mapping": {
                "user": _OR + "user_message_param.json",
                "system": _OR + "system_message_param.json",
                "developer": _OR + "developer_message_param.json",
                "assistant": _OR + "assistant_message_param.json",
            },
        },
    }
}


def source_root() -> Path:
    """The `schemas/` folder of a source checkout (raises `FileNotFoundError` outside one)."""
    root = Path(__file__).resolve().parent.parent.parent / "schemas"
    if not (root / "open_responses").is_dir():
        raise FileNotFoundError(f"no schemas/open_responses below {root.parent}: bundles need a source checkout")
    return root


def sides() -> tuple[str, ...]:
    """The sides `json_schema` can export, in a stable order."""
    return tuple(SIDES)


class _Bundler:
    """Inlines the source files reachable from one side's root into a single `$defs` table."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.defs: dict[str, Any] = {}
        self.owner: dict[str, str] = {}  # def name -> where it came from, to catch clashes
        self.files: dict[Path, dict[str, Any]] = {}

    def load(self, path: Path) -> dict[str, Any]:
        if path not in self.files:
            self.files[path] = json.loads(path.read_text(encoding="utf-8"))
        return self.files[path]

    def claim(self, name: str, origin: str, build: Any) -> str:
        if name in self.owner:
            if self.owner[name] != origin:
                raise ValueError(f"two schemas export the name {name!r}: {self.owner[name]} and {origin}")
            return name
        self.owner[name] = origin
        self.defs[name] = None  # placeholder: breaks cycles
        self.defs[name] = build()
        return name

    def inherit(self, node: Mapping[str, Any], base: str) -> dict[str, Any]:
        """`node` with the fields its generated base model adds (`customBasePath`): the Python class
        inherits them (a `status` on every `openai:` item is validated as the base declares it), so the
        exported schema declares them too, and a value the models refuse is never valid in a bundle."""
        module = base.removeprefix(_GENERATED).rsplit(".", 1)[0]
        path = self.root / (module.replace(".", "/") + ".json")
        doc = self.load(path)
        props = dict(node["properties"])
        for name, sub in doc.get("properties", {}).items():
            if name not in props:
                props[name] = self.rewrite(sub, path)
        required = list(node.get("required", []))
        required += [r for r in doc.get("required", []) if r not in required]
        out = {**node, "properties": props}
        if required:
            out["required"] = required
        return out

    def ref(self, ref: str, origin: Path | None) -> str:
        """Rewrite a `$ref` found in file `origin` (None: a side spec, relative to the root) to `#/$defs/<Name>`."""
        target, _, fragment = ref.partition("#")
        if origin is None and not target:
            name = fragment.removeprefix("/$defs/")
            if name not in _SYNTHETIC:
                raise ValueError(f"unknown union {ref!r}")
            return "#/$defs/" + self.claim(name, "synthetic", lambda: self.rewrite(_SYNTHETIC[name], None))
        if target:
            path = ((origin.parent if origin is not None else self.root) / target).resolve()
        else:
            assert origin is not None
            path = origin
        doc = self.load(path)
        if fragment in ("", "/"):
            title = doc.get("title")
            if not isinstance(title, str):
                raise ValueError(f"{path} has no title to name it by")
            body = {k: v for k, v in doc.items() if k not in ("$schema", "$id", "$defs")}
            return "#/$defs/" + self.claim(title, str(path), lambda: self.rewrite(body, path))
        if not fragment.startswith("/$defs/") or "/" in fragment[7:]:
            raise ValueError(f"unsupported $ref {ref!r}: only file.json and file.json#/$defs/Name")
        name = fragment[7:]
        sub = doc.get("$defs", {}).get(name)
        if sub is None:
            raise ValueError(f"$ref {ref!r}: {path.name} has no $defs/{name}")
        return "#/$defs/" + self.claim(name, f"{path}#{fragment}", lambda: self.rewrite(sub, path))

    def rewrite(self, node: Any, origin: Path | None) -> Any:
        """Copy `node` (from file `origin`) with generator-only keys dropped and every reference rewritten.

        A `$ref` with sibling keywords (`{"$ref": ..., "description": ...}`) becomes
        `{"allOf": [{"$ref": ...}], "description": ...}`: the same schema in 2020-12, but code generators
        (json-schema-to-typescript) then name the referenced type once instead of emitting a numbered copy
        (`LongText1`) for every property that documents its reference.
        """
        if isinstance(node, list):
            return [self.rewrite(x, origin) for x in node]
        if not isinstance(node, Mapping):
            return node
        if "$ref" in node and any(k not in _GENERATOR_ONLY for k in node if k != "$ref"):
            rest = {k: v for k, v in node.items() if k != "$ref"}
            if "allOf" not in rest:
                return self.rewrite({"allOf": [{"$ref": node["$ref"]}], **rest}, origin)
        base = node.get("customBasePath")
        if isinstance(base, str) and base.startswith(_GENERATED) and isinstance(node.get("properties"), Mapping):
            node = self.inherit(node, base)
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key in _GENERATOR_ONLY:
                continue
            if key == "$ref" and isinstance(value, str):
                out[key] = self.ref(value, origin)
            elif key == "discriminator" and isinstance(value, Mapping) and "propertyName" in value:
                mapping = {k: self.ref(v, origin) for k, v in value.get("mapping", {}).items()}
                out[key] = {**value, "mapping": mapping}
            else:
                out[key] = self.rewrite(value, origin)
        return out


_OA = "openai/"
def _item_form(b: _Bundler, side: str) -> str | None:
    """The item form a bundle's unions hold (each reads OpenAI's typed items by their own model, as
    `replayable._item_routes` does): told by its root or by the union it holds (a request's `input`)."""
    if side == "input" or "InputItem" in b.defs:
        return "input"
    return "output" if side == "output" or "OutputItem" in b.defs else None


def _openai_typed(b: _Bundler, root: Path) -> dict[str, list[str]]:
    """Generic type (`NamespacedItem`, `NamespacedPart`, `ExtensionEvent`) -> the `schemas/openai/` files
    of its typed subclasses (`openai/web_search_call.json`, ...), by the base each one names (`customBasePath`)."""
    out: dict[str, list[str]] = {}
    for path in sorted((root / "openai").glob("*.json")):
        base = b.load(path).get("customBasePath")
        if isinstance(base, str) and base.startswith(_GENERATED):
            out.setdefault(base.rsplit(".", 1)[1], []).append(_OA + path.name)
    return out


def _add_typed(b: _Bundler, body: dict[str, Any], parent: str, files: list[str]) -> None:
    """The typed models of `files` as branches of every union that lists `parent` (right before it, in
    `body` and in every definition), and `parent` excluding their types (`not`): a malformed known type is
    refused, as by the models, and never reads as the opaque `parent`. Nothing when `parent` is absent.
    A field of `parent` a typed model does not redeclare (`status` of an input form) is checked by the
    model (a subclass), so its schema carries it."""
    if parent not in b.defs or not files:
        return
    refs = [b.ref(f, None).removeprefix("#/$defs/") for f in files]
    for name, sub in b.defs[parent].get("properties", {}).items():
        for r in refs:
            b.defs[r].setdefault("properties", {}).setdefault(name, sub)
    generic, typed = {"$ref": "#/$defs/" + parent}, [{"$ref": "#/$defs/" + r} for r in refs]
    for node in schema_objects([body, *b.defs.values()]):
        for key in ("oneOf", "anyOf"):
            branches = node.get(key)
            if isinstance(branches, list) and generic in branches:
                at = branches.index(generic)
                branches[at:at] = [t for t in typed if t not in branches]
    tags = sorted(b.defs[r]["properties"]["type"]["const"] for r in refs)
    b.defs[parent]["not"] = {"required": ["type"], "properties": {"type": {"enum": tags}}}
    b.defs[parent]["description"] += " Types with a known payload (listed under `not`) never read as this opaque form."


def _add_openai(b: _Bundler, root: Path, side: str, body: dict[str, Any]) -> None:
    """OpenAI's items, annotations and stream events with a known payload, as typed branches wherever the
    models read them typed: annotations and events wherever `NamespacedPart` / `ExtensionEvent` are (their
    `typed_models` is a class attribute), items where an item union routes them (`_item_form`)."""
    typed = _openai_typed(b, root)
    form = _item_form(b, side)
    if form is not None:
        items = typed.get("NamespacedItem", [])
        if form == "output":
            items = [f for f in items if not f.endswith("_param.json")]
        else:  # the `*_param.json` form where there is one (the same table as `replayable._native`)
            items = [f for f in items if f.endswith("_param.json") or f.replace(".json", "_param.json") not in items]
        _add_typed(b, body, "NamespacedItem", items)
    for parent in ("NamespacedPart", "ExtensionEvent"):
        _add_typed(b, body, parent, typed.get(parent, []))


#: The stream events whose `item` is an output item (spec: `ItemField` or null).
_ITEM_EVENTS = ("ResponseOutputItemAddedEvent", "ResponseOutputItemDoneEvent")
#: The stream events whose `part` is a content part (spec: the content part union).
_PART_EVENTS = (
    "ResponseContentPartAddedEvent",
    "ResponseContentPartDoneEvent",
    "ResponseReasoningSummaryPartAddedEvent",
    "ResponseReasoningSummaryPartDoneEvent",
)


def _type_stream_items(b: _Bundler) -> None:
    """The `item` of `response.output_item.added` / `.done` as the output-item union (as the output side
    has it, OpenAI's typed items included) or null, as in the official document: code generators then type
    it, and `event.item.type` narrows in TypeScript. `replayable.stream.parse_event` reads it the same way
    (`parse_item(item, side="output")`). So are a part event's `part` (the output message content union),
    an annotation event's `annotation` and an `output_text` event's `logprobs`, as `parse_event` reads
    them. The source schemas keep them objects: no cross-folder `$ref`. OpenAI's typed items, annotations
    and events are added to all of them afterwards (`_add_openai`)."""
    union = b.ref(_OR + "items.json#/$defs/OutputItem", None)
    for name in _ITEM_EVENTS:
        props = b.defs[name]["properties"]
        props["item"] = {"anyOf": [{"$ref": union}, {"type": "null"}], "description": props["item"]["description"]}
    # the parts, annotations and logprobs events carry, typed as parse_event reads them (inside an output message)
    part: dict[str, Any] = {
        "allOf": [{"$ref": b.ref(_OR + "content.json#/$defs/MessageContent", None)}]
    }  # no `$ref` sibling
    note: dict[str, Any] = {
        "anyOf": [{"$ref": b.ref(_OR + "output_text.json#/$defs/Annotation", None)}, {"type": "null"}]
    }
    logprobs: dict[str, Any] = {"type": "array", "items": {"$ref": b.ref(_OR + "log_prob.json", None)}}
    for name, field, schema in (
        *((n, "part", part) for n in _PART_EVENTS),
        ("ResponseOutputTextAnnotationAddedEvent", "annotation", note),
        *((n, "logprobs", logprobs) for n in ("ResponseOutputTextDeltaEvent", "ResponseOutputTextDoneEvent")),
    ):
        props = b.defs[name]["properties"]
        props[field] = {**schema, "description": props[field]["description"]}


#: The `slug:name` pattern of namespaced items, parts and extension events (schemas/open_responses).
NAMESPACED_PATTERN = "^[A-Za-z0-9][A-Za-z0-9._-]*:[A-Za-z0-9][A-Za-z0-9._:/-]*$"
#: TypeScript type of a namespaced `type`: a template literal, so that `switch (x.type)` on a spec type
#: (which has no colon) never selects the namespaced branch.
TS_NAMESPACED = "`${string}:${string}`"
#: TypeScript type of an unknown fallback's `type` (`UnknownSessionEvent`, ...). TypeScript has no type for
#: "any string but these", and a plain `string` would keep the fallback in every `case` of a `switch`;
#: `never` keeps it out of every known case and leaves it, alone, in the `default` branch.
TS_UNKNOWN = "never"


def _all_conditions(nodes: Any) -> bool:
    return (
        isinstance(nodes, list) and bool(nodes) and all(isinstance(n, dict) and set(n) == {"if", "then"} for n in nodes)
    )


def _chain(conditions: list[dict[str, Any]]) -> dict[str, Any]:
    """`allOf: [if I1 then T1, if I2 then T2, ...]` as one `if I1 then (T1 and rest) else rest`: the same
    schema, without the `allOf` that json-schema-to-typescript turns into a numbered copy of the object."""
    first, rest = conditions[0], conditions[1:]
    if not rest:
        return dict(first)
    tail = _chain(rest)
    return {"if": first["if"], "then": {"allOf": [first["then"], tail]}, "else": tail}


def _annotate(defs: dict[str, Any]) -> None:
    """Make the bundle say what the models enforce, and let code generators narrow unions.

    - A namespaced `type` (the `slug:name` pattern) gets `tsType` `${string}:${string}`.
    - An object's `allOf` of `if`/`then` conditions becomes one `if`/`then`/`else` chain (see `_chain`).
    - An `anyOf [Known, Unknown]` fallback union (Agents API): the fallback's `type` gets `minLength: 1`
      and `not: {enum: [every known type]}`, taken from the known union's discriminator mapping, as the
      models refuse a known type in the fallback (a known event with a bad field is an error, not an
      unknown event); and `tsType` `never` (see `TS_UNKNOWN`).
    """
    for node in defs.values():
        tag = (node.get("properties") or {}).get("type")
        if isinstance(tag, dict) and tag.get("pattern") == NAMESPACED_PATTERN:
            tag["tsType"] = TS_NAMESPACED
        conditions = node.get("allOf")
        if "properties" in node and "if" not in node and _all_conditions(conditions):
            node.update(_chain(conditions))
            del node["allOf"]
    for node in defs.values():
        branches = [b.get("$ref", "").removeprefix("#/$defs/") for b in node.get("anyOf", ())]
        if len(branches) != 2 or not all(b in defs for b in branches):
            continue
        known, fallback = defs[branches[0]], defs[branches[1]]
        mapping = (known.get("discriminator") or {}).get("mapping")
        tag = (fallback.get("properties") or {}).get("type")
        if not mapping or not isinstance(tag, dict) or tag.get("type") != "string" or "const" in tag:
            continue
        if tag.get("pattern") == NAMESPACED_PATTERN:  # a `slug:name` branch (a body's items): never a known type
            continue
        tag["minLength"] = 1
        tag["not"] = {"enum": sorted(mapping)}
        tag["tsType"] = TS_UNKNOWN


_SLUG_FIRST = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_SLUG_REST = _SLUG_FIRST + "._-"


def _ts_chars(chars: str, without: str = "") -> str:
    return "${" + " | ".join(f'"{c}"' for c in chars if c not in without) + "}"


def _ts_other_slug(slug: str) -> str:
    """A TypeScript type for every `slug:name` whose slug is not `slug`, as a union of template literals.

    TypeScript cannot subtract a string pattern, but the slug alphabet (`NAMESPACED_PATTERN`) is finite:
    a slug differs from `openai` in its first character, or is a proper prefix of it (`op:`), or first
    differs at position i, or goes on after it (`openaix:`). Only those members are listed, so a
    `case "openai:web_search_call"` never selects this type."""
    parts = [f"`{_ts_chars(_SLUG_FIRST, slug[0])}${{string}}:${{string}}`"]
    for i in range(1, len(slug)):
        parts.append(f"`{slug[:i]}:${{string}}`")
        parts.append(f"`{slug[:i]}{_ts_chars(_SLUG_REST, slug[i])}${{string}}:${{string}}`")
    parts.append(f"`{slug}{_ts_chars(_SLUG_REST)}${{string}}:${{string}}`")
    return " | ".join(parts)


def _split_typed_slug(defs: dict[str, Any], body: dict[str, Any]) -> None:
    """Where a namespaced type excludes typed types of one slug (OpenAI's native items: its `not` lists
    `openai:web_search_call`, ...), split it in two equivalent branches, so TypeScript narrows the typed ones:

    - the namespaced type itself takes every *other* slug (`not` the slug's pattern; `tsType` from
      `_ts_other_slug`), keeping its `slug:name` shape for `acme:search_result`;
    - `Unknown<Slug><Item|Part>` takes the slug's types that have no typed model (`openai:brand_new`,
      read by the models as the same opaque namespaced type), with `tsType` `never`, like the Agents API
      fallbacks.

    Every union that lists the namespaced type lists the new branch right after it; together they accept
    exactly what the namespaced type accepted."""
    for name in [n for n in defs if isinstance(defs[n], dict)]:
        node = defs[name]
        tag = (node.get("properties") or {}).get("type")
        excluded = ((node.get("not") or {}).get("properties") or {}).get("type", {}).get("enum")
        if not isinstance(tag, dict) or tag.get("pattern") != NAMESPACED_PATTERN or not excluded:
            continue
        slugs = {t.split(":", 1)[0] for t in excluded}
        if len(slugs) != 1:
            continue
        (slug,) = slugs
        kind = name.removeprefix("Namespaced")  # Item, Part, ExtensionEvent
        noun = re.sub(r"(?<!^)(?=[A-Z])", " ", kind).lower()
        other = f"Unknown{slug.title()}{kind}"
        if other in defs:
            continue
        own = f"^{slug}:[A-Za-z0-9][A-Za-z0-9._:/-]*$"
        extra = {k: copy.deepcopy(v) for k, v in node.items() if k not in ("title", "description", "not")}
        extra["properties"]["type"] = {
            "type": "string",
            "pattern": own,
            "not": {"enum": sorted(excluded)},
            "description": f"A `{slug}:` type with no typed model here.",
            "tsType": TS_UNKNOWN,
        }
        defs[other] = {
            "title": other,
            "description": f"A `{slug}:` {noun} of a type without a typed "
            f"model here, kept verbatim (the models read it as {name}). In TypeScript its `type` is `never`, "
            f"so that a `switch` on a typed `{slug}:` type never selects it.",
            **extra,
        }
        tag["not"] = {"pattern": f"^{slug}:"}
        tag["tsType"] = _ts_other_slug(slug)
        ref, new = {"$ref": f"#/$defs/{name}"}, {"$ref": f"#/$defs/{other}"}
        for holder in [body, *defs.values()]:
            for n in schema_objects(holder):
                for key in ("oneOf", "anyOf"):
                    branches = n.get(key)
                    if isinstance(branches, list) and ref in branches and new not in branches:
                        branches.insert(branches.index(ref) + 1, new)


def bundle(side: str, root: Path | None = None) -> dict[str, Any]:
    """Build the bundle of `side` from the source schemas below `root` (default: this checkout's `schemas/`).

    Returns a JSON Schema 2020-12 document: `$schema`, `title`, `description`, a root `oneOf` and
    `$defs` with every type it reaches (named by title). Raises `ValueError` for an unknown side, a
    `$ref` it cannot resolve or two types with one name; `FileNotFoundError` outside a source checkout.
    """
    spec = SIDES.get(side)
    if spec is None:
        raise ValueError(f"side must be one of {', '.join(SIDES)}; got {side!r}")
    root = source_root() if root is None else root.resolve()
    b = _Bundler(root)
    if "root" in spec:  # one union named in the source schemas
        body: dict[str, Any] = {"$ref": b.ref(spec["root"], None)}
        intro = "This schema judges one value at a time. Rules across the values of a session, checked by "
        intro += "replayable.agents and not expressible in JSON Schema:"
        intro = spec.get("intro", intro)
    else:
        known = b.claim(spec["known"]["title"], "side", lambda: b.rewrite(spec["known"], None))
        body = {"oneOf": [{"$ref": "#/$defs/" + known}] + [{"$ref": b.ref(ref, None)} for ref in spec["extra"]]}
        if side == "stream-events":
            _type_stream_items(b)
        intro = spec.get("intro") or (
            "This schema judges one item at a time. Rules across the items of a transcript, checked by "
            "replayable.check_transcript and not expressible in JSON Schema:"
        )
    _add_openai(b, root, side, body)
    _annotate(b.defs)
    _split_typed_slug(b.defs, body)
    rules = "".join(f"\n- {r}" for r in spec.get("rules", CROSS_ITEM_RULES))
    return {
        "$schema": _DRAFT,
        "title": spec["title"],
        "description": spec["description"] + "\n\n" + intro + rules,
        **body,
        "$defs": dict(sorted(b.defs.items())),
    }


def _dist_text(side: str) -> str:
    from importlib import resources  # noqa: PLC0415  (with tempfile and shutil: loaded only to read a bundle)

    name = f"{side}.json"
    packaged = resources.files("replayable") / "schemas" / name
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    return (Path(__file__).resolve().parent.parent.parent / "schemas" / "dist" / name).read_text(encoding="utf-8")


@cache
def _load(side: str) -> dict[str, Any]:
    try:
        data: dict[str, Any] = json.loads(_dist_text(side))
    except FileNotFoundError:  # a checkout whose bundles were never written
        data = bundle(side)
    return data


def json_schema(side: str = "input", provider: str | None = None) -> dict[str, Any]:
    """The JSON Schema 2020-12 document for one item of `side` (a fresh dict the caller may change).

    `side` is `"input"` (spec `ItemParam`, plus `item_reference` and namespaced items), `"output"` (spec
    `ItemField` plus namespaced items), or one of the other names in `replayable.schema.sides()`. A value
    is valid exactly when `replayable.parse_item(value, side=side)` accepts it in strict mode (`provider=None`); the
    cross-item rules are listed in the document's `description`. `provider="openai"`: OpenAI's data as sent
    (OpenAI's reading, docs/openai.md: `web_search_call` un-prefixed, OpenAI's nulls and omitted keys, shorthand
    messages; sides `input`, `output`), valid when `parse_item(value, side=side, provider="openai")` accepts
    it. Raises `ValueError` for an unknown side or provider.
    """
    if not isinstance(side, str) or side not in SIDES or provider not in (None, "openai"):
        raise ValueError(f"side must be one of {', '.join(SIDES)}, provider None or openai; got {side!r}/{provider!r}")
    if provider is None:
        return copy.deepcopy(_load(side))
    return openai_wire(_load(side), side)  # a new document; refuses a side without one
