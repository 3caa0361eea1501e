"""OpenAI's wire forms of a JSON Schema bundle: what `replayable.json_schema(side, provider="openai")` exports.

A bundle (`replayable.schema.bundle`) describes items in the library's own terms: OpenAI's item types are
namespaced (`openai:web_search_call`) and the spec's items are read strictly. OpenAI sends and stores
them differently, and `parse_item(value, provider="openai")` reads them as OpenAI does. `openai_wire(bundle,
side)` rewrites a bundle so that it describes OpenAI's data as sent, for a frontend that types it
(json-schema-to-typescript, `tsc --strict`):

- every typed OpenAI item, part, annotation and stream event has its un-prefixed type (`web_search_call`,
  not `openai:web_search_call`), so `switch (item.type) { case "web_search_call": ... }` narrows; the
  opaque `UnknownOpenai*` branches (an `openai:` type without a typed model) take the un-prefixed types
  OpenAI mode reads as opaque (`UnknownOpenaiItem`: OpenAI's other item types, as OpenAI mode refuses an
  un-prefixed item type it does not know; `UnknownOpenaiPart`: any other annotation type, which OpenAI
  mode keeps), typed `never` in TypeScript;
- the spec items take the forms OpenAI mode reads (`replayable._openai_forms`, from OpenAI's SDK 3.57): the
  `null`s OpenAI writes (a message's `phase`, a reasoning item's `encrypted_content` and `content`, an
  `output_text` part's `logprobs`, ...) are allowed and the keys OpenAI leaves out (`image_url` of an image
  sent by `file_id`, ...) are optional, each where the OpenAI form says so; OpenAI's extra enum values
  (`input_image.detail` `original`) are listed;
- on the input side, OpenAI's shorthand message (`{"role": "user", "content": "hi"}`, no `type`; SDK
  `EasyInputMessageParam`) is a branch of its own, one per role.

Objects the spec closes (`additionalProperties: false`, e.g. `item_reference`) stay closed, so a typo in
a property name does not compile in TypeScript there. The `openai:`-prefixed spellings, which are the
library's own names and never on OpenAI's wire, are not part of this schema (`parse_item` still reads
them). Sources: OpenAI's OpenAPI document 2.3.0 and `openai.types.responses` 3.57 (via the forms).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

__all__ = ["NATIVE_PATTERN", "SHORTHAND_ROLES", "WIRE_SIDES", "openai_wire", "schema_objects"]

#: The sides with an OpenAI wire form: items as input and as output (`parse_item(provider="openai")`). The
#: bodies are not among them: OpenAI mode reads a body's own fields (its tools, its settings) in ways these
#: item forms do not cover, so an OpenAI wire form of a body would not give `parse_request`'s verdict.
WIRE_SIDES = ("input", "output")

#: The input message schemas a shorthand message (no `type`) is read as, by role (`replayable.items`).
SHORTHAND_ROLES = {
    "user": "UserMessageParam",
    "system": "SystemMessageParam",
    "developer": "DeveloperMessageParam",
    "assistant": "AssistantMessageParam",
}
_PREFIX = "openai:"
#: The un-prefixed types OpenAI mode reads as `openai:<type>` where no typed model or spec type claims them
#: (`replayable._base`'s native type pattern; `tests/interop/test_schema_openai_wire.py` holds the two equal).
NATIVE_PATTERN = "^[a-z][a-z0-9_.]*$"


def openai_wire(bundle: dict[str, Any], side: str) -> dict[str, Any]:
    """`bundle` (a `replayable.schema.bundle` document of `side`) rewritten to OpenAI's wire forms (see
    the module docstring); a new document, `bundle` is not changed. Raises `ValueError` for a side that
    is not in `WIRE_SIDES` (the bodies: see there)."""
    if side not in WIRE_SIDES:
        raise ValueError(f"provider='openai' describes the {' and '.join(WIRE_SIDES)} sides (items); got {side!r}")
    doc = copy.deepcopy(bundle)
    defs: dict[str, Any] = doc["$defs"]
    _unprefix(defs)
    _drop_unknown_openai(doc, defs)
    _apply_forms(defs)
    if "ItemReferenceParam" in defs:  # input items
        _add_shorthand(doc, defs)
    if side == "output" and isinstance(defs.get("Message"), dict):  # OpenAI mode reads one on this side too
        defs["ShorthandOutputMessage"] = _shorthand(defs["Message"], "ShorthandOutputMessage", "An output message")
        doc["oneOf"].append({"$ref": "#/$defs/ShorthandOutputMessage"})
    doc["title"] = "OpenAI" + str(doc.get("title", ""))
    doc["description"] = (
        f"{doc.get('description', '')}\n\nOpenAI's wire forms (replayable.json_schema(side, provider='openai'), "
        "`replayable schema --provider openai`): OpenAI's own types un-prefixed (`web_search_call`), the nulls "
        "OpenAI writes allowed and the keys it leaves out optional, as parse_item(value, provider='openai') "
        "reads them; the `openai:`-prefixed spellings are the library's own and not listed here."
    )
    doc["$defs"] = dict(sorted(defs.items()))
    return doc


def _unprefix(defs: dict[str, Any]) -> None:
    for node in defs.values():
        tag: Any = (node.get("properties") or {}).get("type") if isinstance(node, dict) else None
        const = tag.get("const") if isinstance(tag, dict) else None
        if isinstance(tag, dict) and isinstance(const, str) and const.startswith(_PREFIX):
            name = const.removeprefix(_PREFIX)
            tag["const"] = name
            tag["description"] = f"`{name}`, as OpenAI sends it (replayable names it `{const}`)."
            if tag.get("default") == const:
                tag["default"] = name


def _drop_unknown_openai(doc: dict[str, Any], defs: dict[str, Any]) -> None:
    """The `UnknownOpenai*` branches (an `openai:` type without a typed model here) as OpenAI mode reads
    their un-prefixed types:

    - `UnknownOpenaiItem` becomes OpenAI's other item types, un-prefixed: the ones without a typed model on
      this side, which OpenAI mode reads as opaque items (`compaction_trigger` on the output side); an
      un-prefixed type OpenAI does not have is refused;
    - `UnknownOpenaiPart` (an annotation) becomes every un-prefixed type OpenAI mode reads as an opaque
      `openai:` part (`NATIVE_PATTERN`, neither a spec part type nor a typed annotation): OpenAI mode keeps
      an annotation of a type it does not know (`NamespacedPart` names no unknown type);

    any other `UnknownOpenai*` branch is left out."""
    from replayable._base import SPEC_PART_TYPES  # noqa: PLC0415
    from replayable._native import ANNOTATION_TYPES, INPUT_TYPES, OUTPUT_TYPES  # noqa: PLC0415

    typed = {
        node["properties"]["type"].get("const")
        for node in defs.values()
        if isinstance(node, dict) and isinstance((node.get("properties") or {}).get("type"), dict)
    }
    names = sorted({t.removeprefix(_PREFIX) for t in (*INPUT_TYPES, *OUTPUT_TYPES)} - typed)
    item: Any = defs.get("UnknownOpenaiItem")
    if isinstance(item, dict) and names:
        item["properties"]["type"] = {
            "type": "string",
            "enum": names,
            "description": "One of OpenAI's item types without a typed model on this side, un-prefixed.",
            "tsType": "never",
        }
        item["description"] = (
            "An OpenAI item of a type without a typed model on this side (read as an opaque openai: item). In "
            "TypeScript its `type` is `never`, so that a `switch` on a typed type never selects it."
        )
    part: Any = defs.get("UnknownOpenaiPart")
    if isinstance(part, dict):
        known = sorted(SPEC_PART_TYPES | {t.removeprefix(_PREFIX) for t in ANNOTATION_TYPES})
        part["properties"]["type"] = {
            "type": "string",
            "pattern": NATIVE_PATTERN,
            "not": {"enum": known},
            "description": "An un-prefixed type that is neither a spec part type nor one of OpenAI's typed "
            "annotations (read as an opaque openai: annotation).",
            "tsType": "never",
        }
        part["description"] = (
            "An OpenAI annotation of a type without a typed model here (OpenAI mode reads it as an opaque "
            "openai: annotation). In TypeScript its `type` is `never`, so that a `switch` on a typed type never "
            "selects it."
        )
    kept = {"UnknownOpenaiItem"} if names else set()
    kept |= {"UnknownOpenaiPart"} if isinstance(part, dict) else set()
    gone = [name for name in defs if name.startswith("UnknownOpenai") and name not in kept]
    refs = [{"$ref": f"#/$defs/{name}"} for name in gone]
    for name in gone:
        del defs[name]
    for node in schema_objects([doc, *defs.values()]):
        for key in ("oneOf", "anyOf"):
            branches = node.get(key)
            if isinstance(branches, list):
                node[key] = [b for b in branches if b not in refs]


def _apply_forms(defs: dict[str, Any]) -> None:
    """Each OpenAI form (`replayable._openai_forms.OPENAI_FORMS`) widens the spec schema it subclasses: the
    fields it redeclares take its schema (the nulls OpenAI writes, its enums, its parts), and the fields it
    does not require are optional."""
    from replayable._openai_forms import OPENAI_FORMS  # noqa: PLC0415  (the forms load only for this export)

    forms: tuple[Any, ...] = OPENAI_FORMS  # pydantic models (the table is typed `type`)
    for form in forms:
        target = defs.get(form.__mro__[1].__name__)
        if not isinstance(target, dict) or "properties" not in target:
            continue
        schema = form.model_json_schema(by_alias=True)
        form_defs = schema.get("$defs", {})
        props: dict[str, Any] = target["properties"]
        own = form.__dict__.get("__annotations__", {})
        for field, info in form.model_fields.items():
            key = info.alias or field
            if key == "type" or (field not in own and key in props):
                continue
            sub = schema["properties"][key]
            description = sub.get("description") or props.get(key, {}).get("description") or f"OpenAI's `{key}`."
            props[key] = {**_adopt(sub, form_defs, defs), "description": description}
        required = set(schema.get("required", ()))
        target["required"] = [r for r in target.get("required", ()) if r in required or r not in schema["properties"]]


def _adopt(sub: Any, form_defs: dict[str, Any], defs: dict[str, Any]) -> Any:
    """A form's field schema in the bundle's terms: a `$ref` to a type the bundle has keeps it, another is
    inlined (pydantic's titles dropped)."""
    if isinstance(sub, list):
        return [_adopt(s, form_defs, defs) for s in sub]
    if not isinstance(sub, dict):
        return sub
    ref = sub.get("$ref")
    if isinstance(ref, str):
        name = ref.rsplit("/", 1)[-1]
        if name in defs:
            return {"$ref": f"#/$defs/{name}"}
        return _adopt(form_defs.get(name, {}), form_defs, defs)
    return {k: _adopt(v, form_defs, defs) for k, v in sub.items() if k != "title"}


def _add_shorthand(doc: dict[str, Any], defs: dict[str, Any]) -> None:
    """OpenAI's shorthand message (no `type`): `ShorthandMessage`, one branch per role told apart by `role`,
    listed wherever input items are a union (beside `ItemReferenceParam`, the other item without a `type`)."""
    mapping = {}
    for role, name in SHORTHAND_ROLES.items():
        base = defs.get(name)
        if not isinstance(base, dict):
            continue
        short = _shorthand(base, f"Shorthand{name.removesuffix('Param')}", f"A {role} message")
        defs[short["title"]] = short
        mapping[role] = f"#/$defs/{short['title']}"
    if not mapping:
        return
    defs["ShorthandMessage"] = {
        "title": "ShorthandMessage",
        "description": "An input message in OpenAI's shorthand (`{role, content}`, no `type`), told apart by `role`.",
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "role", "mapping": mapping},
    }
    ref, new = {"$ref": "#/$defs/ItemReferenceParam"}, {"$ref": "#/$defs/ShorthandMessage"}
    for node in schema_objects([doc, *defs.values()]):
        for key in ("oneOf", "anyOf"):
            branches = node.get(key)
            if isinstance(branches, list) and ref in branches and new not in branches:
                branches.insert(branches.index(ref) + 1, new)


def _shorthand(base: dict[str, Any], title: str, what: str) -> dict[str, Any]:
    """`base` (a message schema) without its `type`: OpenAI's shorthand (SDK EasyInputMessageParam)."""
    short = copy.deepcopy(base)
    short["title"] = title
    short["description"] = f"{what} in OpenAI's shorthand, without `type`; read as {base.get('title')}."
    short["properties"]["type"] = False
    short["required"] = [r for r in short.get("required", ()) if r != "type"]
    return short


def schema_objects(node: Any) -> Iterator[dict[str, Any]]:
    """Every object inside a JSON Schema document (or any JSON value), `node` first, depth first: where
    `$ref`s, `oneOf` and `anyOf` branches and `type` tags are looked for."""
    if isinstance(node, dict):
        yield node
        for v in node.values():
            yield from schema_objects(v)
    elif isinstance(node, list):
        for v in node:
            yield from schema_objects(v)
