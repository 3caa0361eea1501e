"""Write the schema files that have no other source than the openai SDK from its own types, plus the overlay.

Used by `scripts/generate.py` (which writes them before generating the models, and checks them with `--check`).
The overlay, `schemas/sdk-overlay.json`, names for each generated file (a path under `schemas/`) the SDK type
(`module:Name`) of the file or of each of its `$defs`, and what is ours:

- `title`, `description` of the file or def, and the `description` of every field, in the order we write them
  (a field the SDK has and the overlay does not is an error: a new SDK field is a reviewed addition);
- `refs`: the SDK's nested types (its `$defs` names) mapped to our files (`token_usage.json`,
  `session_settings.json#/$defs/SpendControl`): an SDK type with no place in our schemas is an error;
- per field, `replace`: the schema written instead of the SDK's, keeping the SDK's nullability and requiredness:
  a `$ref` to a union or set written by hand (`required_action.json#/$defs/RequiredAction`; a closed set such as
  `common.json#/$defs/SessionStatus` is checked against the SDK's values), or a shape of our own with its `why`;
- per field, `inline`: the SDK's nested model written in place (not as a file of its own), with its own `fields`;
- per field, `items`: the schema of an array field's items written instead of the SDK's (our hand-written union
  of session items, content parts, required actions), the array itself the SDK's;
- per field, `extend`: keywords added to the SDK's schema of the field (the fail-closed limits: `minLength: 1` on
  an id that pairs, `minimum: 1`, a `pattern`);
- per field, `optional` / `nullable` (true or false) with `why` (and `differences`, rows of
  `schemas/differences.json`): a deliberate difference from the SDK's verdict; `all_optional` on a file or def:
  every field optional (the session snapshot an event carries may be trimmed), or every field but those of its
  `except` list (a trimmed tool keeps its `type`);
- `local_defs`: nested SDK models (`sdk_def`, a name in the SDK schema's `$defs`) written in this file's `$defs`;
  in `local_defs` and `defs`, our tagged unions of the file's SDK-made models (`union`: `oneOf` `$ref`s to sibling
  models and a `discriminator`, nothing else);
- `tag_prefix` (`openai:`): the namespace of the file's own `type` tag (OpenAI's native types are `openai:<type>`
  in Open Responses mode); `typed_enums`: `type: string` kept beside `enum` (the style of `schemas/openai/`);
- per field, `add` (a schema) with `why`: a field the SDK's type lacks (the `status` every namespaced item carries),
  written as given and optional;
- per field, `omit` (true) with `why`: an SDK field not written (a request parameter the SDK sends as an HTTP
  header, not in the body: `Idempotency-Key`, the SDK's `idempotency_key`);
- `closed`: the object refuses unknown fields (`additionalProperties: false`); `keywords`: schema keywords of the
  object written as they are, after its properties (an `allOf` of conditions the SDK states in prose only).

The SDK side is normalised as `scripts/drift.py` does (titles and `default: null` dropped, `anyOf` with `null` as
nullable, `type: string` beside `enum` / `const` dropped, the SDK's open objects left open; a TypedDict's field
named as the SDK sends it, by its `PropertyInfo` alias: `async`, not `async_`). Output: JSON with
two-space indentation, keys in a fixed order, so a file is byte-stable for a given SDK and overlay.
"""

from __future__ import annotations

import functools
import importlib
import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "schemas"
OVERLAY = SCHEMAS / "sdk-overlay.json"
DIALECT = "https://json-schema.org/draft/2020-12/schema"

#: Key order of a written schema node (other keys after these, sorted); a field's `description` comes last.
KEY_ORDER = ("$schema", "$id", "title", "description", "type", "const", "enum", "required", "customBasePath",
             "properties", "items", "additionalProperties", "anyOf", "oneOf", "allOf", "$ref", "$defs")  # fmt: skip


class OverlayError(Exception):
    """The SDK and the overlay do not fit: a field or type without a place, an override without a reason."""


@functools.cache
def sdk_schema(spec: str) -> dict[str, Any]:
    """`TypeAdapter(module:Name).json_schema()` of the installed SDK (computed once; never changed by a caller)."""
    from pydantic import TypeAdapter

    module, _, name = spec.partition(":")
    try:
        tp = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        raise OverlayError(f"{spec}: not in the installed SDK ({exc})") from None
    schema: dict[str, Any] = TypeAdapter(tp).json_schema()
    aliases: dict[str, dict[str, str]] = {}
    _typeddict_aliases(tp, aliases, set())
    for node in [schema, *schema.get("$defs", {}).values()]:
        renamed = aliases.get(str(node.get("title", "")), {})
        if renamed and isinstance(node.get("properties"), dict):
            node["properties"] = {renamed.get(k, k): v for k, v in node["properties"].items()}
            node["required"] = [renamed.get(k, k) for k in node.get("required", ())]
    return schema


def _typeddict_aliases(tp: Any, out: dict[str, dict[str, str]], seen: set[int]) -> None:
    """The SDK's wire names of its TypedDicts' fields (`async_: Annotated[..., PropertyInfo(alias="async")]` is sent
    as `async` by the SDK's transform; pydantic's schema of a TypedDict keeps the Python name), by class name."""
    import typing

    import typing_extensions

    if id(tp) in seen:
        return
    seen.add(id(tp))
    if typing_extensions.is_typeddict(tp):  # the SDK's TypedDicts are typing_extensions'
        for name, hint in typing.get_type_hints(tp, include_extras=True).items():
            for meta in getattr(hint, "__metadata__", ()):
                alias = getattr(meta, "alias", None)
                if isinstance(alias, str) and alias != name:
                    out.setdefault(tp.__name__, {})[name] = alias
            _typeddict_aliases(hint, out, seen)
        return
    for arg in typing.get_args(tp):
        _typeddict_aliases(arg, out, seen)


def _ordered(node: dict[str, Any]) -> dict[str, Any]:
    keys = [k for k in KEY_ORDER if k in node] + sorted(k for k in node if k not in KEY_ORDER)
    return {k: node[k] for k in keys}


class Writer:
    """Turns one SDK schema document into our form (see the module docstring)."""

    def __init__(self, where: str, document: dict[str, Any], refs: dict[str, str], options: Any = None) -> None:
        self.where, self.doc, self.refs = where, document, refs
        options = options or {}
        #: `type: string` kept beside an `enum` (the style of `schemas/openai/`)
        self.typed_enums: bool = bool(options.get("typed_enums", False))
        #: the namespace of the file's own `type` tag (`openai:`: the SDK's `web_search_call` is ours
        #: `openai:web_search_call`, the Open Responses extension rule)
        self.tag_prefix: str = str(options.get("tag_prefix", ""))

    def clean(self, node: Any) -> Any:
        if isinstance(node, list):
            return [self.clean(x) for x in node]
        if not isinstance(node, dict):
            return node
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key in ("title", "description") or (key == "default" and value is None):
                continue
            if key == "additionalProperties" and value is True:
                continue
            if key == "type" and value == "string" and ("const" in node or ("enum" in node and not self.typed_enums)):
                continue
            if key == "$ref":
                name = value.rsplit("/", 1)[-1]
                if name not in self.refs:
                    raise OverlayError(f"{self.where}: the SDK type {name} has no place in our schemas (map it in "
                                       "`refs` of schemas/sdk-overlay.json)")  # fmt: skip
                value = self.refs[name]
            out[key] = self.clean(value)
        return _ordered(out)

    @staticmethod
    def all_optional(spec: dict[str, Any], name: str) -> bool:
        """`all_optional`: true (every field), or `{"except": [...]}` (every field but these, e.g. the tag)."""
        flag = spec.get("all_optional", False)
        if isinstance(flag, dict):
            return name not in flag.get("except", ())
        return bool(flag)

    def check_values(self, name: str, sdk: Any, ours: dict[str, Any]) -> None:
        """A field written as a `$ref` to one of our closed sets (`common.json#/$defs/SessionStatus`) keeps the SDK's
        values: the set is hand-written (shared by several files), so it is checked against the pin here."""
        if isinstance(sdk, dict) and "$ref" in sdk:  # an SDK enum of its own (`AgentOutputItemStatus`)
            sdk = self.doc.get("$defs", {}).get(sdk["$ref"].rsplit("/", 1)[-1], {})
        values = sdk.get("enum") if isinstance(sdk, dict) else None
        if not isinstance(values, list) or "$ref" not in ours:
            return
        target = resolve(Path(self.where.split("#", 1)[0]).parent, ours["$ref"])
        if isinstance(target.get("enum"), list) and set(target["enum"]) != set(values):
            raise OverlayError(f"{self.where}.{name}: {ours['$ref']} has {sorted(target['enum'])}, the SDK "
                               f"{sorted(values)}: update the set (after review)")  # fmt: skip

    @staticmethod
    def split_null(schema: dict[str, Any]) -> tuple[Any, bool]:
        """(the schema without its `null` branch, whether it had one)."""
        branches = schema.get("anyOf")
        if isinstance(branches, list) and {"type": "null"} in branches:
            rest = [b for b in branches if b != {"type": "null"}]
            core = rest[0] if len(rest) == 1 else {"anyOf": rest}
            return core, True
        return schema, False

    def model(self, sdk: dict[str, Any], spec: dict[str, Any]) -> dict[str, Any]:
        """One object schema: the SDK model `sdk` (a schema with `properties`) with the overlay `spec`."""
        props: dict[str, Any] = sdk.get("properties", {})
        fields: dict[str, Any] = spec["fields"]
        unknown = sorted(set(props) - set(fields))
        if unknown:
            raise OverlayError(f"{self.where}: SDK fields not in the overlay: {unknown} (add each with its "
                               "description to schemas/sdk-overlay.json, after review)")  # fmt: skip
        required_sdk = set(sdk.get("required", ()))
        out_props: dict[str, Any] = {}
        required: list[str] = []
        for name, field in fields.items():
            if "add" in field:  # a field the SDK's type lacks, written as given: always optional, never the SDK's
                if name in props:
                    raise OverlayError(f"{self.where}.{name}: `add` in the overlay, but the SDK has the field")
                if not str(field.get("why", "")).strip():
                    raise OverlayError(f"{self.where}.{name}: `add` differs from the SDK without a `why`")
                out_props[name] = {**field["add"], "description": field["description"]}
                continue
            if name not in props:
                raise OverlayError(f"{self.where}: field {name!r} is in the overlay and not in the SDK")
            for flag in ("optional", "nullable", "extend", "omit"):
                if flag in field and not str(field.get("why", "")).strip():
                    raise OverlayError(f"{self.where}.{name}: `{flag}` differs from the SDK without a `why`")
            if field.get("omit"):  # not a body field (the SDK sends it as a header): not written
                continue
            if set(field.get("replace", {})) - {"$ref"} and not str(field.get("why", "")).strip():
                raise OverlayError(f"{self.where}.{name}: `replace` with a shape of our own needs a `why`")
            core, nullable = self.split_null(props[name])
            if "replace" in field:
                self.check_values(name, core, field["replace"])
                core = field["replace"]
            elif "inline" in field:
                target = self.doc.get("$defs", {}).get(str(core.get("$ref", "")).rsplit("/", 1)[-1])
                if not isinstance(target, dict):
                    raise OverlayError(f"{self.where}.{name}: `inline` in the overlay, but the SDK's field is no model")
                body = self.model(target, {"title": "", "description": "", **field["inline"]})
                core = {k: v for k, v in body.items() if k not in ("title", "description")}
            elif "items" in field:
                if not (isinstance(core, dict) and core.get("type") == "array"):
                    raise OverlayError(f"{self.where}.{name}: `items` in the overlay, but the SDK's field is no array")
                array = self.clean({k: v for k, v in core.items() if k != "items"})
                core = _ordered({**array, "items": field["items"]})
            else:
                core = {**self.clean(core), **field.get("extend", {})}
                if name == "type" and self.tag_prefix and isinstance(core.get("const"), str):
                    core = {**core, "const": self.tag_prefix + core["const"]}
            nullable = field.get("nullable", nullable)
            node = {"anyOf": [core, {"type": "null"}]} if nullable else dict(core)
            node["description"] = field["description"]
            out_props[name] = node
            optional = field.get("optional", name not in required_sdk) or self.all_optional(spec, name)
            if not optional:
                required.append(name)
        out: dict[str, Any] = {"title": spec["title"], "description": spec["description"], "type": "object",
                               "required": required, "properties": out_props}  # fmt: skip
        if spec.get("closed"):
            out["additionalProperties"] = False
        return _ordered({**out, **spec.get("keywords", {})})


def resolve(folder: Path, ref: str) -> dict[str, Any]:
    """The schema a `$ref` of a file in `schemas/<folder>` points at."""
    file, _, pointer = ref.partition("#")
    node: Any = json.loads((SCHEMAS / folder / file).read_text(encoding="utf-8"))
    for part in [p for p in pointer.split("/") if p]:
        node = node[part]
    if not isinstance(node, dict):
        raise OverlayError(f"{ref}: not a schema")
    return node


def local_union(where: str, union: dict[str, Any], local_defs: dict[str, Any], key: str) -> dict[str, Any]:
    """A `union` in `local_defs` or `defs`: our tagged union of this file's own SDK-made models (those with `key`,
    `sdk_def` or `sdk`), written as given. It may hold nothing but `oneOf` `$ref`s to its sibling models and their
    `discriminator` (no shape of its own)."""
    members = union.get("oneOf")
    if set(union) != {"title", "description", "oneOf", "discriminator"} or not isinstance(members, list):
        raise OverlayError(f"{where}: a `union` holds its title, description, `oneOf` and `discriminator`, only")
    for member in members:
        name = member.get("$ref", "").removeprefix("#/$defs/") if isinstance(member, dict) else ""
        if set(member) != {"$ref"} or key not in local_defs.get(name, {}):
            raise OverlayError(f"{where}: a `union` member must be a `$ref` to an SDK-made model of this file")
    mapping = union.get("discriminator", {}).get("mapping", {})
    if sorted(mapping.values()) != sorted(m["$ref"] for m in members):
        raise OverlayError(f"{where}: the `discriminator` mapping must name each `oneOf` member once")
    return _ordered(union)


def render(path: str, spec: dict[str, Any], refs: dict[str, str]) -> str:
    """The text of one generated file."""
    head: dict[str, Any] = {"$schema": DIALECT, "$id": Path(path).name, "title": spec["title"],
                            "description": spec["description"]}  # fmt: skip
    if "defs" in spec:
        defs = {}
        for name, sub in spec["defs"].items():
            if "union" in sub:
                defs[name] = local_union(f"{path}#/$defs/{name}", sub["union"], spec["defs"], "sdk")
                continue
            sdk = sdk_schema(sub["sdk"])
            defs[name] = Writer(f"{path}#/$defs/{name}", sdk, refs, spec).model(sdk, sub)
        document = {**head, "$defs": defs}
    else:
        sdk = sdk_schema(spec["sdk"])
        body = Writer(path, sdk, refs, spec).model(sdk, spec)
        document = {**head, **{k: v for k, v in body.items() if k not in ("title", "description")}}
        local = {}
        for name, sub in spec.get("local_defs", {}).items():  # nested SDK models kept in this file's $defs
            if "union" in sub:
                local[name] = local_union(f"{path}#/$defs/{name}", sub["union"], spec["local_defs"], "sdk_def")
                continue
            target = sdk.get("$defs", {}).get(sub["sdk_def"])
            if not isinstance(target, dict):
                raise OverlayError(
                    f"{path}#/$defs/{name}: the SDK type {sub['sdk_def']} is not nested in {spec['sdk']}"
                )
            local[name] = Writer(f"{path}#/$defs/{name}", sdk, refs, spec).model(target, sub)
        if local:
            document["$defs"] = local
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def load_overlay() -> dict[str, Any]:
    overlay: dict[str, Any] = json.loads(OVERLAY.read_text(encoding="utf-8"))
    rows = {row["id"] for row in json.loads((SCHEMAS / "differences.json").read_text(encoding="utf-8"))}
    for path, spec in overlay["files"].items():
        for sub in [spec, *spec.get("defs", {}).values()]:
            for name, field in sub.get("fields", {}).items():
                for row in field.get("differences", ()):
                    if row not in rows:
                        raise OverlayError(f"{path}.{name}: {row!r} is not a row of schemas/differences.json")
    return overlay


def pinned_openai() -> str:
    """The `openai==X` pin of the test extra (the SDK the files are generated from)."""
    import re
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    for requirement in project["optional-dependencies"]["test"]:
        found = re.fullmatch(r"openai==(\S+)", requirement.strip())
        if found:
            return found.group(1)
    raise OverlayError("pyproject.toml's test extra pins no openai==X")


def generated() -> dict[str, str]:
    """path under schemas/ -> text, for every file the overlay generates. Raises OverlayError when the installed
    openai is not the pin (the files follow the pin) or the SDK and the overlay do not fit."""
    import openai

    pin = pinned_openai()
    if openai.__version__ != pin:
        raise OverlayError(f"the installed openai is {openai.__version__}, the pin is {pin}: the SDK-generated "
                           "schemas follow the pin (install the test extra)")  # fmt: skip
    overlay = load_overlay()
    refs: dict[str, str] = overlay.get("refs", {})
    out = {}
    for path, spec in overlay["files"].items():
        out[path] = render(path, spec, {**refs, **spec.get("refs", {})})
    return out
