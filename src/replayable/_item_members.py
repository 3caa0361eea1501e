"""Start-up (issue 26): a spec item validated by its own model before the whole item union is built.

Building the validator of `InputItem` (or `OutputItem`) builds every item model; a short document holds
one or two kinds. Until a side's union is built, a spec item in a dict (`message`, `function_call`, ...)
is validated by the model the union's tagged spec branch picks for it by `type` (an input message by
`role`): on success that is exactly the union's answer (its spec branch comes first, is tagged, and
validates with that model). Whatever the model refuses, or raises on, is left to the union, which
reports it as it always does. After `limit` items the union is built: a long document pays it once.
`replayable.items.validate_item` asks `SpecMembers.validate` first (tests/contracts/test_startup_members.py).
"""

from __future__ import annotations

from typing import Any, get_args

__all__ = ["SpecMembers", "tagged_members"]


def _tag(model: Any, name: str) -> str:
    """The one value a model's `Literal` tag field (`type`, `role`) takes."""
    (value,) = get_args(model.model_fields[name].annotation)
    return str(value)


def tagged_members(union: Any) -> dict[str, Any]:
    """`{tag: model, or the table of a nested tagged union}` of `Annotated[A | B, Field(discriminator=...)]`."""
    members, info = get_args(union)[:2]
    table: dict[str, Any] = {}
    for m in get_args(members):
        if get_args(m):  # a nested tagged union (an input message, told apart by `role`)
            table[_tag(get_args(get_args(m)[0])[0], info.discriminator)] = tagged_members(m)
        else:
            table[_tag(m, info.discriminator)] = m
    return table


class SpecMembers:
    """The spec models of each side's tagged union (`tables`), and validation by one of them."""

    def __init__(self, unions: dict[str, Any], limit: int = 64) -> None:
        self.tables: dict[str, dict[str, Any]] = {side: tagged_members(u) for side, u in unions.items()}
        self.limit = limit
        self.used = dict.fromkeys(unions, 0)

    def model(self, data: dict[str, Any], side: str) -> Any:
        """The spec model the tagged union picks for the dict `data`, or None when `data` names none
        (an item reference, a namespaced item, a tag that is no string or no spec type)."""
        t = data.get("type")
        member = self.tables[side].get(t) if type(t) is str else None
        if type(member) is dict:
            role = data.get("role")
            member = member.get(role) if type(role) is str else None
        return member

    def validate(self, data: dict[str, Any], side: str) -> Any:
        """`data` validated by its spec model, or None: the union decides (no spec model, refused,
        or `limit` items already read this way on `side`)."""
        member = self.model(data, side)
        if member is None or self.used[side] >= self.limit:
            return None
        self.used[side] += 1
        try:
            return member.__pydantic_validator__.validate_python(data)
        except Exception:  # the union validates it again and reports (or raises) as it always does
            return None
