"""The `openresponses` target: the Open Responses reading (the default, and any target without a profile).

Item fields, nulls and shapes are the spec's own (the schemas under `schemas/` decide them: no rows
here). The one body rule: with `store: false` nothing persists, so nothing may be referred to by id
alone (spec `CreateResponseBody.store`; case R43).
"""

from __future__ import annotations

from types import MappingProxyType

from .model import BodyRules, Profile

__all__ = ["OPENRESPONSES"]

OPENRESPONSES = Profile(
    name="openresponses",
    description="Open Responses 2026-04-24 (the schemas decide item fields; a body rule for store: false)",
    items=MappingProxyType({}),
    parts=MappingProxyType({}),
    body=BodyRules(
        stateless_references=True,
        sources=MappingProxyType(
            {"stateless_references": "Open Responses CreateResponseBody.store; case R43 (vercel/ai#7543)"}
        ),
    ),
    closed=False,
    refusals=(
        ("with `store: false`, a reasoning item sent as a bare `id` without `encrypted_content`",
         "reasoning_not_persisted", "case R43 (vercel/ai#7543)"),
        ("with `store: false`, an `item_reference`", "item_reference_not_persisted", "case R43 (vercel/ai#7543)"),
    ),
)  # fmt: skip
"""The `openresponses` profile (today's default reading)."""
