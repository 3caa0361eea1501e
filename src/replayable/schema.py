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
from collections.abc import Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

__all__ = ["AGENTS_RULES", "AGENTS_SIDES", "CROSS_ITEM_RULES", "SIDES", "bundle", "json_schema", "source_root", "sides"]

_DRAFT = "https://json-schema.org/draft/2020-12/schema"
#: Keys of the source schemas that only drive our code generator; they are not exported.
_GENERATOR_ONLY = frozenset({"customBasePath"})

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
    "with a target provider, reasoning encrypted_content and compaction items from another provider are not "
    "replayed",
    "in a response's output, an incomplete item is the last item",
    "item ids are unique within a transcript",
    "a reasoning item with an id is immediately followed by an item with an id (the item it produced)",
    "a namespaced (slug:name) item is replayed only to its own provider",
    "function_call.arguments is a JSON text that parses strictly and satisfies the called tool's parameters",
)


def _item_side(
    title: str, description: str, known: list[tuple[str, str]], tag: str, extra: list[str]
) -> dict[str, Any]:
    """A side whose root is oneOf [known items tagged on `tag`, *extra branches]."""
    return {
        "title": title,
        "description": description,
        "known": {
            "title": title + "Known",
            "description": f"The spec's own items, tagged on `{tag}`.",
            "oneOf": [{"$ref": ref} for _, ref in known],
            "discriminator": {"propertyName": tag, "mapping": dict(known)},
        },
        "extra": extra,
    }


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
        """Copy `node` (from file `origin`) with generator-only keys dropped and every reference rewritten."""
        if isinstance(node, list):
            return [self.rewrite(x, origin) for x in node]
        if not isinstance(node, Mapping):
            return node
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
#: `schemas/openai/` files that are not items (shared shapes and annotations).
_OPENAI_NOT_ITEMS = frozenset({"common.json", "file_citation.json", "container_file_citation.json", "file_path.json"})


def _openai_items(root: Path, side: str) -> list[str]:
    """The OpenAI item schemas of `side` (the same table as `replayable.native`): on the input side the
    `*_param.json` form where there is one, on the output side the forms without `_param`."""
    folder = root / "openai"
    if not folder.is_dir() or side not in ("input", "output"):
        return []
    names = sorted(
        p.name
        for p in folder.glob("*.json")
        if p.name not in _OPENAI_NOT_ITEMS and not p.name.endswith("_event.json")  # stream events: no items
    )
    if side == "output":
        return [_OA + n for n in names if not n.endswith("_param.json")]
    return [
        _OA + n for n in names if n.endswith("_param.json") or n.replace(".json", "_param.json") not in names
    ]


def _add_openai(b: _Bundler, root: Path, side: str, body: dict[str, Any]) -> None:
    """OpenAI's own items and annotations with a known payload: typed branches, which the generic
    `NamespacedItem` / `NamespacedPart` then exclude (a malformed known item is refused, as by the models)."""
    items = _openai_items(root, side)
    if not items:
        return
    refs = [b.ref(ref, None) for ref in items]
    body["oneOf"][-1:-1] = [{"$ref": r} for r in refs]
    tags = [b.defs[r.removeprefix("#/$defs/")]["properties"]["type"]["const"] for r in refs]
    _exclude(b.defs["NamespacedItem"], tags)
    notes = [_OA + n for n in ("file_citation.json", "container_file_citation.json", "file_path.json")]
    if "Annotation" in b.defs:
        note_refs = [b.ref(ref, None) for ref in notes]
        b.defs["Annotation"]["anyOf"][-1:-1] = [{"$ref": r} for r in note_refs]
        _exclude(b.defs["NamespacedPart"], [b.defs[r[8:]]["properties"]["type"]["const"] for r in note_refs])


def _exclude(schema: dict[str, Any], tags: list[str]) -> None:
    schema["not"] = {"required": ["type"], "properties": {"type": {"enum": sorted(tags)}}}
    schema["description"] += " Types with a known payload (listed under `not`) never read as this opaque form."


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
    else:
        known = b.claim(spec["known"]["title"], "side", lambda: b.rewrite(spec["known"], None))
        body = {"oneOf": [{"$ref": "#/$defs/" + known}] + [{"$ref": b.ref(ref, None)} for ref in spec["extra"]]}
        _add_openai(b, root, side, body)
        intro = "This schema judges one item at a time. Rules across the items of a transcript, checked by "
        intro += "replayable.check_transcript and not expressible in JSON Schema:"
    rules = "".join(f"\n- {r}" for r in spec.get("rules", CROSS_ITEM_RULES))
    return {
        "$schema": _DRAFT,
        "title": spec["title"],
        "description": spec["description"] + "\n\n" + intro + rules,
        **body,
        "$defs": dict(sorted(b.defs.items())),
    }


def _dist_text(side: str) -> str:
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


def json_schema(side: str = "input") -> dict[str, Any]:
    """The JSON Schema 2020-12 document for one item of `side` (a fresh dict the caller may change).

    `side` is `"input"` (spec `ItemParam`, plus `item_reference` and namespaced items), `"output"` (spec
    `ItemField` plus namespaced items), or one of the other names in `sides()`. A value is valid exactly
    when `replayable.parse_item(value, side=side)` accepts it in strict mode (`provider=None`); the
    cross-item rules are listed in the document's `description`. Raises `ValueError` for an unknown side.
    """
    if side not in SIDES:
        raise ValueError(f"side must be one of {', '.join(SIDES)}; got {side!r}")
    return copy.deepcopy(_load(side))
