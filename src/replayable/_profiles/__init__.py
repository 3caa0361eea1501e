"""Target profiles: what each provider accepts in a request's `input`, as data (issue 22).

`check_transcript(..., target=)`, `prepare_replay(..., target=)` and `replayable check --target` ask the
profile of their target. `PROFILES` holds the shipped ones: `openresponses` (the spec; the default, and
the reading for any target without a profile of its own) and `openai` (OpenAI's Responses API). Another
provider (vLLM, Ollama, Bedrock, ...) is added as a `Profile` row set here when a documented rule exists.

    >>> from replayable._profiles import get_profile
    >>> get_profile("openai").items["function_call"].id_prefix
    'fc_'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

from pydantic import BaseModel

from replayable._findings import Finding
from replayable._item_read import Read

from .check import FIXABLE, Fix, check_body, check_item, fix_item, item_type, may_refuse
from .model import BodyRules, FieldRule, ItemRule, PartRule, Profile
from .openai import OPENAI
from .openresponses import OPENRESPONSES

__all__ = [
    "FIXABLE",
    "PROFILES",
    "BodyRules",
    "FieldRule",
    "Fix",
    "ItemRule",
    "PartRule",
    "Profile",
    "TargetCheck",
    "check_body",
    "check_target",
    "check_item",
    "fix_item",
    "get_profile",
    "item_type",
    "markdown_table",
    "request_settings",
]

PROFILES: Mapping[str, Profile] = MappingProxyType({p.name: p for p in (OPENRESPONSES, OPENAI)})
"""Every shipped profile by target slug."""

_SLUG = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


def check_target(target: Any) -> None:
    """Refuse a `target` that is not a provider slug (the `slug` of `slug:name` types), or that spells a
    shipped profile another way (`"OpenAI"`, which would silently skip the `openai` profile's rules).
    Raises `ValueError` naming it; `None` (no target) is fine."""
    if target is None:
        return
    if not isinstance(target, str) or not _SLUG.match(target):
        raise ValueError(f"target must be a provider slug such as 'openai' or 'acme', got {target!r:.60}")
    if target not in PROFILES and target.lower() in PROFILES:
        raise ValueError(f"target {target!r} is not a profile name: did you mean {target.lower()!r}?")
    close = None if target in PROFILES else next((name for name in PROFILES if _misspelt(target, name)), None)
    if close is not None:  # a misspelt profile name (`opneai`) would silently get no profile's rules
        raise ValueError(
            f"target {target!r} is not a profile name: did you mean {close!r}? (a provider without a profile "
            "of its own gets the Open Responses rules only)"
        )


def _misspelt(target: str, name: str) -> bool:
    """Whether `target` is `name` with one slip: a separator added (`open_ai`), two neighbours swapped
    (`opneai`), or one letter added, dropped or changed (`openia` is two swapped; `opena`, `openaii`)."""
    t = target.lower()
    if t.replace("_", "").replace("-", "").replace(".", "") == name:
        return True
    if len(t) == len(name):
        diff = [i for i, (a, b) in enumerate(zip(t, name, strict=True)) if a != b]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and t[diff[0]] == name[diff[1]]
                                  and t[diff[1]] == name[diff[0]])  # fmt: skip
    short, long = sorted((t, name), key=len)
    return len(long) - len(short) == 1 and any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def get_profile(target: str | None) -> Profile:
    """The profile of `target` (a provider slug): its own when one ships, else `openresponses` (no
    invented rules for providers without a documented profile). `None` is `openresponses`. Raises
    `ValueError` for a target that is no slug (`check_target`)."""
    check_target(target)
    if target is None:
        return OPENRESPONSES
    return PROFILES.get(target, OPENRESPONSES)


def _plain(value: Any) -> Any:
    from replayable._item_json import plain_json  # noqa: PLC0415
    from replayable.items import ItemError  # noqa: PLC0415  the item models load when used

    if type(value) is Read:  # read once: the JSON the item came from, never a dump of its model
        return value.value
    if isinstance(value, Mapping):
        return value
    if isinstance(value, BaseModel | str | bytes | bytearray):
        try:
            return plain_json(value)
        except ItemError:
            return None
    return None


def request_settings(value: Any) -> dict[str, Any] | None:
    """The keys of a request body the profiles read (`store`, `include`, `previous_response_id`,
    `conversation`), or None when `value` is not a request body (a list of items, a response, ...).
    Read by the one reader (`replayable._reading.read_document`)."""
    from replayable._reading import read_document  # noqa: PLC0415

    try:
        return read_document(value, text=False).settings
    except ValueError:
        return None


class TargetCheck:
    """The profile rules of one check, run by the rules engine as rows of its table
    (`replayable._rules.table`): `item(i, raw)` for each item (the JSON it was read from), `body()` once
    (the body's `settings` and all its keys, `body_keys`).

    `active` is False when nothing can be found (the Open Responses reading of a list of items), so a
    caller skips the per-item work entirely."""

    __slots__ = ("active", "body_keys", "profile", "settings")

    def __init__(
        self, target: str | None, settings: Mapping[str, Any] | None = None, body_keys: Iterable[str] = ()
    ) -> None:
        self.profile = get_profile(target)
        self.settings = settings
        self.body_keys = tuple(body_keys)
        stateless = settings is not None and settings.get("store") is False
        body_rules = settings is not None and self.profile.body.include is not None
        self.active = self.profile.closed or stateless or body_rules

    def item(self, index: int, raw: Any) -> list[Finding]:
        """The findings of item `index` (any form: a JSON object, one of our models, an SDK object, text)."""
        if not self.active:
            return []
        data = _plain(raw)
        return check_item(self.profile, index, data, self.settings) if isinstance(data, Mapping) else []

    def may_refuse(self, vtype: str, views: list[Any]) -> bool:
        """Whether `item` may find anything in the items of type `vtype` whose fields are `views` (each a
        `dict`: the JSON read or a validated model's storage; `replayable._profiles.check.may_refuse`). A
        namespaced type of another slug is no item the profile reads."""
        if not self.active:
            return False
        t = item_type({"type": vtype}, self.profile)
        return t is not None and may_refuse(self.profile, t, views, self.settings)

    def body(self) -> list[Finding]:
        """The findings about the body's own keys (none without a body)."""
        return check_body(self.profile, self.settings, self.body_keys) if self.settings is not None else []


def markdown_table(profile: Profile) -> str:
    """The table of what `profile` refuses (docs/targets.md): each rule, its violation code and its source."""
    rows = ["| Refused | Code | Source |", "|---|---|---|"]
    rows.extend(f"| {what} | `{code}` | {source} |" for what, code, source in profile.refusals)
    return "\n".join(rows)
