"""The shape of a target profile: what one provider accepts in a request's `input`, as data.

A profile is a table, not code: for each item type and content part the fields the target accepts (a
closed set when the profile says so: any other key is refused), the JSON types each field takes, whether
an explicit `null` is accepted (an absent key always is), the id prefix the target requires, and rules
about the request body as a whole. Every row names its `source` (a component of an OpenAPI document, an
SDK type, a recorded request, a public report). `replayable._profiles.check` reads these tables; nothing
else branches on a provider.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

__all__ = ["BodyRules", "FieldRule", "ItemRule", "PartRule", "Profile", "fields"]

#: The JSON types a field may take (`any` for no constraint).
JSON_TYPES = frozenset({"string", "object", "array", "boolean", "integer", "number", "any"})


@dataclass(frozen=True, slots=True)
class FieldRule:
    """One accepted field: the JSON `types` it may take and whether an explicit `null` is accepted."""

    types: frozenset[str]
    nullable: bool = False

    def describe(self) -> str:
        """`string`, `array or string`, ... (`, or null` when null is accepted)."""
        shown = " or ".join(sorted(self.types))
        return shown + (", or null" if self.nullable else "")


def fields(spec: Mapping[str, str]) -> MappingProxyType[str, FieldRule]:
    """Field rules from a compact spec: `{"status": "string?", "output": "array|string"}`.

    A trailing `?` accepts an explicit null; `|` separates JSON types. Raises `ValueError` for a type
    outside `JSON_TYPES` (a typo in a table is an import error, never a silent accept)."""
    out: dict[str, FieldRule] = {}
    for name, text in spec.items():
        nullable = text.endswith("?")
        types = frozenset(text.rstrip("?").split("|"))
        if not types <= JSON_TYPES:
            raise ValueError(f"field {name!r}: unknown JSON type in {text!r}")
        out[name] = FieldRule(types, nullable)
    return MappingProxyType(out)


@dataclass(frozen=True, slots=True)
class ItemRule:
    """What a target accepts for one item `type` (the wire type, without a `slug:` prefix).

    `fields` are the accepted keys besides `type` (closed when the profile is closed); `id_prefix` is the
    prefix an `id` must start with (None: any id); `source` says where the row comes from. `parts_in`:
    fields that hold a list of content parts (checked against the part table when they are a list);
    `single_part` (field, part type): a field that must be one part object of that type."""

    type: str
    fields: Mapping[str, FieldRule]
    source: str
    id_prefix: str | None = None
    id_source: str = ""
    parts_in: tuple[str, ...] = ()
    single_part: tuple[str, str] | None = None


@dataclass(frozen=True, slots=True)
class PartRule:
    """What a target accepts for one content part `type` (in message content and tool outputs).

    `one_of`: at least one of these fields must be a non-null value (an image needs a URL or a file).
    (A broken `data:` URL is refused for every target, by the transcript rule `data_url_invalid`.)
    `needs`: (field, the field it needs, the code, the source) rows: when the first is given, the second
    must be a non-empty string."""

    type: str
    fields: Mapping[str, FieldRule]
    source: str
    one_of: tuple[str, ...] = ()
    needs: tuple[tuple[str, str, str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class BodyRules:
    """Rules about a request body as a whole.

    `stateless_references`: with `store: false` nothing is kept server-side, so an item that refers to a
    stored item by id alone (an `item_reference`, a reasoning item with an `id` and no
    `encrypted_content`) is refused. `include`: the accepted values of `include` (None: not checked).
    `exclusive`: pairs of body keys that may not both be set. `keys`: the request keys the target
    accepts (None: not checked; a key outside it is `field_not_accepted`). `sources` cites each rule."""

    stateless_references: bool = True
    include: frozenset[str] | None = None
    exclusive: tuple[tuple[str, str], ...] = ()
    keys: frozenset[str] | None = None
    sources: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Profile:
    """What one target provider accepts in a request's `input`.

    `name` is the target slug (`openai`); `native_slug` the slug of the provider's own item types
    (`openai:web_search_call` is read as `web_search_call`). `items` / `parts`: the item and content
    part tables; `closed` makes them exhaustive (an item or part type not listed is not checked against
    the table, a key not listed in a row is refused). An empty table means the profile has no rule
    about item fields (the Open Responses reading: the schemas already decide). `body`: request rules.
    `refusals`: the rows of docs/targets.md (what the profile refuses, its code, where the rule comes from)."""

    name: str
    description: str
    items: Mapping[str, ItemRule]
    parts: Mapping[str, PartRule]
    body: BodyRules
    closed: bool = False
    native_slug: str | None = None
    refusals: tuple[tuple[str, str, str], ...] = ()
