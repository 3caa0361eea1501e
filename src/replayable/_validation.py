"""The one error normalizer: pydantic's validation errors in the library's words.

pydantic names a failing place with the labels of its internal validators as well as the value's own
keys and indexes: union branches (`tagged-union[Message,FunctionCall,...]`, `UrlCitationParam`,
`function-wrap[_read_native_types()]`, `constrained-str`, `list[...]`), the tag a tagged union chose
(`message`, `assistant`, `output_text`) and wrapper validators. `clean_errors` walks each error's
location together with the value that was validated and keeps only what names a place in that value:
field names and list indexes. Union branches that do not speak for the value (the `url_citation` model
for a `slug:name` annotation, the `item_reference` model for a message) are dropped, so that each real
problem is reported once; messages that would quote a private class are rewritten in JSON terms.

`ItemError` (an item, body or model does not parse) and `ModelError` (a model constructor or
`model_validate` refused its values) are the library's exceptions for such errors; they are defined in
`replayable.errors` with every other exception, and re-exported here. `ModelError` is also a pydantic
`ValidationError`, so code written for pydantic (`except ValidationError`, `.errors()`,
`.error_count()`, `.title`) keeps working on the library's models, and `except ReplayableError` /
`except ItemError` / `except ValueError` catch it too.

This module is part of the foundation: it imports only `errors` and pydantic.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Literal, get_args, get_origin

from pydantic import BaseModel, ValidationError

from ._messages import OPTIONS, Said
from .errors import ItemError, ModelError

__all__ = ["ItemError", "ModelError", "clean_errors", "json_type", "model_defined", "value_at"]


# ---------------------------------------------------------------------------------- model registry

_generation = [0, -1]  # [models defined so far, generation the registry was built at]
_registry: list[dict[str, tuple[str, ...] | None]] = [{}]  # swapped whole, so readers never see a half-built one


def model_defined() -> None:
    """Called by the base model whenever a model class is defined: the registry is rebuilt on next use."""
    _generation[0] += 1


def _models() -> dict[str, tuple[str, ...] | None]:
    """Class name -> the literal `type` values it accepts (None: no literal `type`), for every pydantic
    model defined in `replayable` (classes of one name in several modules: every value any of them takes)."""
    if _generation[1] != _generation[0]:
        generation = _generation[0]
        registry: dict[str, tuple[str, ...] | None] = {}
        stack: list[type[BaseModel]] = [BaseModel]
        seen: set[type[BaseModel]] = set()
        while stack:
            cls = stack.pop()
            for sub in cls.__subclasses__():
                if sub not in seen:
                    seen.add(sub)
                    stack.append(sub)
            if not cls.__module__.startswith("replayable"):
                continue
            field = cls.model_fields.get("type")
            tags = _literals(field.annotation) if field is not None else None
            if cls.__name__ in registry:
                before = registry[cls.__name__]
                # one name in several modules (`Compaction` is also an Agents config): the literal types
                # any of them takes (a class without one adds nothing)
                tags = tuple(dict.fromkeys((*(before or ()), *(tags or ())))) or None
            registry[cls.__name__] = tags
        _registry[0] = registry
        _generation[1] = generation
    return _registry[0]


def _literals(annotation: Any) -> tuple[str, ...] | None:
    """The string literals an annotation allows (`Literal["a"] | None` -> `("a",)`); None if it allows
    any string (or no literal at all)."""
    if get_origin(annotation) is Literal:
        return tuple(str(a) for a in get_args(annotation))
    args = get_args(annotation)
    if not args:
        return None
    out: list[str] = []
    for a in args:
        if a is type(None):
            continue
        lits = _literals(a)
        if lits is None:
            return None
        out.extend(lits)
    return tuple(out) or None


# ---------------------------------------------------------------------------------- the normalizer

_SCALARS: dict[str, type | tuple[type, ...]] = {
    "str": str,
    "constrained-str": str,
    "int": int,
    "constrained-int": int,
    "float": (int, float),
    "constrained-float": (int, float),
    "bool": bool,
    "none": type(None),
}
_WRAPPERS = (
    "function-",
    "union[",
    "nullable[",
    "missing-sentinel",
    "default[",
    "lax-or-strict[",
    "json-or-python[",
    "chain[",
    "definition-ref",
    "literal[",
    "list[",
    "dict[",
    "tagged-union[",
    "model[",
)
_NAMESPACED = ("function-wrap[_read_native_types", "function-wrap[route")
#: Error types that say a value has the wrong JSON kind, and the kind each one expected.
_KIND_ERRORS: dict[str, str] = {
    "string_type": "a string",
    "list_type": "an array",
    "model_type": "an object",
    "model_attributes_type": "an object",
    "dict_type": "an object",
    "int_type": "an integer",
    "float_type": "a number",
    "bool_type": "a boolean",
    "none_required": "null",
    "is_instance_of": "an object",
}
_OBJECT_ERRORS = frozenset({"model_type", "model_attributes_type", "dict_type", "is_instance_of"})


def json_type(value: Any) -> str | None:
    """The JSON Schema type name of a plain Python value: `null`, `boolean`, `integer`, `number`,
    `string`, `array` or `object` (a tuple is an array, any mapping an object); None for a value that
    is none of these. The one namer of JSON kinds: error messages here and the profile checks use it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, Mapping):
        return "object"
    if isinstance(value, list | tuple):
        return "array"
    return None


#: The JSON type of a value of each exact Python class JSON is read into (`class_json_type`).
_CLASS_JSON = {type(None): "null", bool: "boolean", int: "integer", float: "number", str: "string", list: "array",
               tuple: "array", dict: "object"}  # fmt: skip


def class_json_type(kind: type) -> str | None:
    """`json_type` of every value of class `kind`, told from the class alone (a pydantic model and any mapping
    are objects); None for a class whose values it cannot tell (a subclass of `int`, of `str`, ...)."""
    found = _CLASS_JSON.get(kind)
    if found is not None:
        return found
    return "object" if issubclass(kind, Mapping | BaseModel) else None


_ARTICLE = {"null": "null", "boolean": "a boolean", "integer": "a number", "number": "a number",
            "string": "a string", "object": "an object", "array": "an array"}  # fmt: skip


def _kind(value: Any) -> str:
    """The JSON kind of a Python value, for messages (`a string`; an integer is `a number`)."""
    name = json_type(value)
    if name is not None:
        return _ARTICLE[name]
    try:  # a stand-in (a value nested too deeply) names itself; anything else by its class
        text = repr(value)
    except Exception:
        return type(value).__name__
    return text if len(text) <= 60 else type(value).__name__


def _is_class_label(seg: str) -> bool:
    name = seg.lstrip("_")
    return bool(name) and name[:1].isupper() and seg.isidentifier()


def _is_label(seg: str) -> bool:
    """A location segment pydantic adds for a validator or union branch (never a JSON field name here)."""
    return seg in _SCALARS or seg.startswith(_WRAPPERS) or "[" in seg or _is_class_label(seg)


def _type_of(value: Any) -> Any:
    return value.get("type") if isinstance(value, Mapping) else None


_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _label_tags(seg: str) -> set[str] | None:
    """The `type` values the union branch `seg` takes: a model's literal types, or those of every model
    a `tagged-union[...]` label names; None when the branch takes any type (or names no model)."""
    tags = _models()
    names = [seg] if _is_class_label(seg) else _IDENT.findall(seg) if seg.startswith("tagged-union[") else []
    if any(n not in tags for n in names if _is_class_label(n)):
        _generation[0] += 1  # a class defined after the registry was built
        tags = _models()
    out: set[str] = set()
    found = False
    for n in names:
        if tags.get(n) is not None:
            found = True
            out.update(tags[n] or ())
    return out if found else None


def _relevant(seg: str, value: Any, siblings: set[str] | None) -> bool | None:
    """Does the union branch labelled `seg` speak for `value`? None when `seg` is no branch label.
    `siblings` are the `type` values the other model branches at this place take (None: any)."""
    t = _type_of(value)
    if seg.startswith(_NAMESPACED):  # the slug:name branch: for a string type no other branch takes
        if not isinstance(value, Mapping):
            return True
        return isinstance(t, str) and (siblings is None or t not in siblings)
    if seg.startswith("tagged-union["):
        if not isinstance(value, Mapping) or not isinstance(t, str):
            return True
        accepted = _label_tags(seg)
        return accepted is None or t in accepted
    if seg in _SCALARS:
        return not isinstance(value, Mapping | list) or isinstance(value, _SCALARS[seg])
    if seg.startswith("literal["):
        return not isinstance(value, Mapping | list)
    if seg.startswith("list["):
        return isinstance(value, list)
    if seg.startswith("dict["):
        return isinstance(value, Mapping)
    if _is_class_label(seg):
        if not isinstance(value, Mapping):
            return True  # every model branch says "expected an object": reported once
        accepted = _label_tags(seg)
        if accepted is None:
            return True
        return isinstance(t, str) and t in accepted
    return None


def _tag_here(
    seg: str,
    value: Mapping[str, Any],
    consumed: set[str],
    rest: tuple[Any, ...],
    err_type: str,
    err_input: Any = None,
) -> bool:
    """Is `seg` the tag a tagged union chose for `value` (the value of its `type`, `role` or another
    discriminator field), not a field of it? `err_input` is the value pydantic reports the error at
    (for a missing key: the object that lacks it)."""
    for key in ("type", "role"):
        if key in consumed or value.get(key) != seg or not isinstance(value.get(key), str):
            continue
        if seg not in value:
            if not rest and err_type == "missing":
                return False  # a required field named like the type (`refusal`), no tag before it
            consumed.add(key)
            return True
        if not rest:
            return False
        nxt, inner = rest[0], value[seg]
        if err_type == "missing" and len(rest) == 1 and isinstance(inner, Mapping) and inner == err_input:
            return False  # a key missing inside the field named like the type (`error.code` of an `error`)
        if (isinstance(inner, Mapping) and isinstance(nxt, str) and nxt in inner) or (
            isinstance(inner, list) and isinstance(nxt, int)
        ):
            return False  # the field, with a path inside it
        consumed.add(key)
        return True
    if (
        "type" not in value
        and "type" not in consumed
        and seg not in value
        and (rest or err_type.startswith("union_tag"))
        and _implied_tag(seg)
    ):
        # a value whose `type` a reader implies (OpenAI's `{role, content}` shorthand is a `message`): the
        # tag stands in the location although the value has no `type` key
        consumed.add("type")
        return True
    if seg not in value and rest:  # a union tagged on another field (`action`): its value, never a key
        for key, tag in value.items():
            if key not in consumed and isinstance(tag, str) and tag == seg:
                consumed.add(key)
                return True
    return False


def _implied_tag(seg: str) -> bool:
    """Is `seg` a `type` value some model of the library takes (`message`), so that it may stand in a
    location as the tag of a value whose reader implied its `type`?"""
    return any(seg in tags for tags in _models().values() if tags)


def _discriminator(ctx: Any) -> str:
    d = ctx.get("discriminator", "'type'") if isinstance(ctx, Mapping) else "'type'"
    d = str(d).strip("'\"")
    return d if d.isidentifier() else "type"


def _walk(
    err: Mapping[str, Any],
    raw: Any,
    siblings: dict[tuple[Any, ...], set[str] | None] | None,
    seen: dict[tuple[Any, ...], set[str] | None] | None = None,
) -> tuple[tuple[Any, ...], Any, bool | None, str | None]:
    """(plain path, value there, whether a union branch label stands at that path (None: a branch that
    does not speak for the value was met, so the error is dropped), a replacement error type).

    With `siblings` None the walk only records, per path, the `type` values its model branches take
    (into `seen`), and drops nothing."""
    value: Any = raw
    clean: list[Any] = []
    consumed: set[str] = set()
    union = False
    loc = tuple(err["loc"])
    for i, seg in enumerate(loc):
        rest = loc[i + 1 :]
        if isinstance(seg, int) and not isinstance(seg, bool):
            clean.append(seg)
            value = value[seg] if isinstance(value, list) and 0 <= seg < len(value) else None
            consumed, union = set(), False
            continue
        if not isinstance(seg, str):
            continue
        if isinstance(value, Mapping):
            if _tag_here(seg, value, consumed, rest, err["type"], err.get("input")):
                union = True
                continue
            if seg in value:
                clean.append(seg)
                value = value[seg]
                consumed, union = set(), False
                continue
        if _is_label(seg):
            here = tuple(clean)
            if siblings is None:
                if seen is not None and (seg.startswith("tagged-union[") or _is_class_label(seg)):
                    tags = _label_tags(seg)
                    if here in seen and (seen[here] is None or tags is None):
                        seen[here] = None
                    else:
                        seen[here] = (seen.get(here) or set()) | (tags or set())
                relevant: bool | None = True
            else:
                relevant = _relevant(seg, value, siblings.get(here, set()))
            if relevant is False:
                modelish = seg.startswith(("tagged-union[", *_NAMESPACED)) or _is_class_label(seg)
                return tuple(clean), value, None, ("model" if modelish else "kind") + ("-direct" if not rest else "")
            if isinstance(value, Mapping) and "type" in value and not isinstance(value["type"], str):
                if seg.startswith(("tagged-union[", *_NAMESPACED)) or _is_class_label(seg):
                    return (*clean, "type"), value.get("type"), False, "type_not_string"
            if _is_class_label(seg) or seg.startswith(_NAMESPACED):
                consumed = {"type", "role"}  # a plain union's branch: no tag follows
            union = union or relevant is True
            continue
        clean.append(seg)  # a missing field (or an extra key that must not be there)
        value = value.get(seg) if isinstance(value, Mapping) else None
        consumed, union = set(), False
    return tuple(clean), value, union, None


def _message(err: Mapping[str, Any], value: Any, loc: tuple[Any, ...], parent: Any) -> str:
    code = err["type"]
    msg = str(err["msg"]).removeprefix("Value error, ")
    if code in _OBJECT_ERRORS:
        return f"expected an object, got {_kind(value)}"
    if code == "union_tag_not_found":
        disc = loc[-1] if loc else "type"
        if disc == "role":
            return "missing 'role': a message needs a role (user, system, developer or assistant)"
        msg = f"missing '{disc}': every item, part, tool, format and event needs a string '{disc}'"
        if isinstance(parent, Mapping) and "role" in parent and "type" not in parent:
            msg = Said(msg, " (a {role, content} shorthand message is read only with ", OPTIONS["provider"], ")")
        return msg
    if code in _KIND_ERRORS and not isinstance(value, str | int | float | bool | type(None)):
        return f"{msg}, got {_kind(value)}"
    return msg


def clean_errors(exc: ValidationError, raw: Any, prefix: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
    """pydantic's errors for `raw` (the value that was validated) as the library's: one `{loc, type,
    msg}` per real problem, `loc` a plain path of field names and list indexes into `raw` after `prefix`.

    Union branches that do not speak for the value are dropped (see the module docstring); the branches
    that refuse a value of the wrong JSON kind are reported once at the value's path (`expected a string
    or an array, got an object`); a `type` that is not a string is one `type_not_string` error at
    `....type`; a tagged union's missing or unknown tag is reported at the tag's own field (`type` or
    `role`). A rule over a whole object (a model validator) that raises
    `PydanticCustomError(code, message, {"field": name})` is reported at that field, not at the object.
    Never raises, whatever `raw` holds."""
    try:
        errors = exc.errors(include_url=False, include_context=True, include_input=True)
    except TypeError:  # an ErrorList of a ModelError: already clean
        errors = exc.errors()
    if any(e["type"] != "known_type" for e in errors):
        errors = [e for e in errors if e["type"] != "known_type"]
    kept: list[dict[str, Any]] = []
    kinds: dict[tuple[Any, ...], list[Mapping[str, Any]]] = {}  # path -> wrong-kind errors of union branches
    # path -> (error, "model" or "kind" branch, "-direct" when the error is right at the path)
    dropped: dict[tuple[Any, ...], list[tuple[Mapping[str, Any], str]]] = {}
    siblings: dict[tuple[Any, ...], set[str] | None] = {}
    for err in errors:  # first the `type` values the model branches at each place take
        try:
            _walk(err, raw, None, siblings)
        except Exception:
            pass
    for err in errors:
        try:
            loc, value, union, code = _walk(err, raw, siblings)
        except Exception:  # a value that fails while read: the path as pydantic gave it, labels removed
            loc = tuple(s for s in err["loc"] if not (isinstance(s, str) and _is_label(s)))
            value, union, code = None, False, None
        if union is None:
            dropped.setdefault(loc, []).append((err, code or ""))
            continue
        if union and err["type"] in _KIND_ERRORS or err["type"] == "literal_error" and union:
            kinds.setdefault(loc, []).append(err)
            continue
        parent = value_at(raw, loc)
        if err["type"] in ("union_tag_not_found", "union_tag_invalid"):
            disc = _discriminator(err.get("ctx"))
            loc = (*loc, disc)
            if isinstance(parent, Mapping) and disc in parent and not isinstance(parent[disc], str):
                code = "type_not_string"
            value = parent.get(disc) if isinstance(parent, Mapping) else None
        if code == "type_not_string":
            field = loc[-1] if loc else "type"
            msg = f"'{field}' must be a string naming the type, got {_kind(value)}"
            kept.append({"loc": loc, "type": code, "msg": msg})
            continue
        ctx = err.get("ctx")
        field = ctx.get("field") if isinstance(ctx, Mapping) else None
        if isinstance(field, str) and field:  # a rule over the whole object that names the field it is about
            loc = (*loc, field)
        elif isinstance(field, tuple | list) and all(isinstance(f, str | int) for f in field):  # or its path
            loc = (*loc, *(f for f in field if f != ""))
        kept.append({"loc": loc, "type": err["type"], "msg": _message(err, value, loc, parent)})
    # A union position where every branch was dropped (deepest first): say why once, at that position.
    for pos in sorted(dropped, key=len, reverse=True):
        errs = dropped[pos]
        direct = [
            e
            for e, how in errs
            if how.endswith("-direct") and (e["type"] in _KIND_ERRORS or e["type"] == "literal_error")
        ]
        models = any(how.startswith("model") for _, how in errs)
        if pos in kinds:
            kinds[pos].extend(direct)
            continue
        if any(k["loc"][: len(pos)] == pos for k in kept) or any(k[: len(pos)] == pos for k in kinds):
            continue
        here = value_at(raw, pos)
        if models and isinstance(here, Mapping) and not isinstance(here.get("type"), str):
            if "type" in here:
                msg = f"'type' must be a string naming the type, got {_kind(here['type'])}"
                kept.append({"loc": (*pos, "type"), "type": "type_not_string", "msg": msg})
            else:
                msg = "missing 'type': it needs a string 'type'"
                kept.append({"loc": (*pos, "type"), "type": "missing_type", "msg": msg})
        elif direct:
            kinds[pos] = direct
        else:  # nothing better to say: the branches' own errors
            for e, _ in errs:
                kept.append({"loc": pos, "type": e["type"], "msg": _message(e, here, pos, None)})
    # Wrong-kind errors of union branches: one error per path, naming every kind the branches take.
    for loc, kind_errs in kinds.items():
        if not kind_errs or any(len(k["loc"]) > len(loc) and k["loc"][: len(loc)] == loc for k in kept):
            continue  # another branch took the value's kind and found what is wrong inside it
        here = value_at(raw, loc)
        wanted = list(dict.fromkeys(_want(e) for e in kind_errs))
        etype = kind_errs[0]["type"]
        if {e["type"] for e in kind_errs} == {"int_type", "float_type"}:
            # a JSON number is `int | float` in the models (so `1` dumps back as `1`): one rule, a number
            wanted, etype = ["a number"], "float_type"
        msg = f"expected {' or '.join(wanted)}, got {_kind(here)}"
        if len(kind_errs) == 1 and kind_errs[0]["type"] == "literal_error":
            msg = _message(kind_errs[0], here, loc, None)
        kept.append({"loc": loc, "type": etype, "msg": msg})
    out: list[dict[str, Any]] = []
    seen: set[tuple[Any, ...]] = set()
    objects: set[tuple[Any, ...]] = set()
    for e in kept:
        loc = prefix + tuple(e["loc"])
        if e["type"] in _OBJECT_ERRORS:
            if loc in objects:
                continue
            objects.add(loc)
        key = (loc, e["type"])
        if key in seen:
            continue
        seen.add(key)
        out.append({"loc": loc, "type": e["type"], "msg": e["msg"]})
    if not out:
        out = [{"loc": prefix, "type": "invalid", "msg": "the value does not validate"}]
    return out


def _want(err: Mapping[str, Any]) -> str:
    if err["type"] == "literal_error":
        return str(err["msg"]).removeprefix("Input should be ")
    return _KIND_ERRORS.get(err["type"], "another value")


def value_at(raw: Any, loc: tuple[Any, ...]) -> Any:
    """The value at a plain `loc` path (field names and list indexes) inside `raw`, or None when the
    path leads nowhere."""
    value = raw
    for seg in loc:
        if isinstance(value, Mapping) and isinstance(seg, str):
            value = value.get(seg)
        elif isinstance(value, list) and isinstance(seg, int) and 0 <= seg < len(value):
            value = value[seg]
        else:
            return None
    return value
