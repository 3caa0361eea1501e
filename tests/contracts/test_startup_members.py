"""Start-up: until a side's item union is built, a spec item in a dict is validated by its own
model (`replayable._item_members`, `replayable.items.SPEC_MEMBERS`), so that a short document builds only the models it holds. The
verdict must not change: whenever the member model accepts a value, the union accepts it too and returns
the same model with the same fields (its spec branch comes first and is tagged), and whatever the member
model refuses goes to the union, which reports as always. Checked here on every item of the cases and the
corpus and on variants of them (fields dropped, fields given wrong values)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_args

import pytest
from pydantic import ValidationError

from replayable.items import (
    ITEM_ADAPTERS,
    SPEC_MEMBERS,
    FunctionCall,
    InputItem,
    ItemReferenceParam,
    Message,
    NamespacedItem,
    OutputItem,
    UserMessageParam,
)

HERE = Path(__file__).parent.parent
SOURCES = [
    *sorted((HERE / "fixtures" / "cases").glob("*.json")),
    *sorted((HERE.parent / "../shared/corpus").glob("*.json")),
]
ODD = [None, 1, "", "x", [], {}, True, [{"type": "input_text", "text": "t"}]]


def spec_dicts(value: Any) -> Iterator[dict[str, Any]]:
    """Every dict in a JSON value whose `type` is a spec item type."""
    if isinstance(value, dict):
        if value.get("type") in SPEC_MEMBERS.tables["input"] or value.get("type") in SPEC_MEMBERS.tables["output"]:
            yield value
        for v in value.values():
            yield from spec_dicts(v)
    elif isinstance(value, list):
        for v in value:
            yield from spec_dicts(v)


def variants(item: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield item
    yield {**item, "x_unknown": {"kept": [1, None]}}  # unknown fields are kept (extra="allow")
    for key in item:
        yield {k: v for k, v in item.items() if k != key}
        for odd in ODD:
            yield {**item, key: odd}


def samples() -> list[dict[str, Any]]:
    seen: dict[str, dict[str, Any]] = {}
    for path in SOURCES:
        for item in spec_dicts(json.loads(path.read_text())):
            for v in variants(item):
                seen.setdefault(json.dumps(v, sort_keys=True), v)
    return list(seen.values())


@pytest.mark.parametrize("side", ["input", "output"])
def test_a_member_accepts_only_what_the_union_accepts_the_same_way(side: str) -> None:
    data = samples()
    assert len(data) > 1000, "too few samples: are the cases missing?"
    union = ITEM_ADAPTERS[(side, False)][0]
    accepted = 0
    for d in data:
        m = SPEC_MEMBERS.model(d, side)
        if m is None:
            continue
        try:
            got = m.__pydantic_validator__.validate_python(d)
        except ValidationError:
            continue
        accepted += 1
        want = union.validate_python(d)
        assert type(got) is type(want), d
        assert got.model_fields_set == want.model_fields_set, d
        assert got.model_dump(mode="json", by_alias=True) == want.model_dump(mode="json", by_alias=True), d
    assert accepted > 50


def models(union: object) -> set[object]:
    """The model classes of an (Annotated, nested) union alias."""
    if isinstance(union, type):
        return {union}
    args = get_args(union)
    if getattr(union, "__metadata__", None) is not None:  # Annotated[X, ...]: only X holds models
        args = args[:1]
    return set().union(*(models(a) for a in args))


def table_models(table: dict[str, object]) -> set[object]:
    return set().union(*(table_models(v) if isinstance(v, dict) else {v} for v in table.values()))


def test_the_tables_cover_the_tagged_unions() -> None:
    """Every model of each side's union is in its table, except the two the tags cannot name."""
    tables = SPEC_MEMBERS.tables
    assert table_models(tables["input"]) == models(InputItem) - {ItemReferenceParam, NamespacedItem}
    assert table_models(tables["output"]) == models(OutputItem) - {NamespacedItem}
    assert tables["input"]["message"]["user"] is UserMessageParam
    assert tables["output"]["message"] is Message
    assert tables["output"]["function_call"] is FunctionCall
    for side, table in tables.items():  # each model is filed under the tag it requires
        for tag, model in table.items():
            assert SPEC_MEMBERS.model({"type": tag, "role": "user"}, side) is (
                model["user"] if isinstance(model, dict) else model
            )


def test_a_one_message_check_builds_only_its_model() -> None:
    """In a fresh process: one user message builds `UserMessageParam`, not the union; a refused item is
    reported by the union, with the union's error paths."""
    code = (
        "import json, replayable\n"
        "from replayable.items import ITEM_ADAPTERS, FunctionCallParam, UserMessageParam\n"
        "ok = replayable.check_transcript([{'type': 'message', 'role': 'user', 'content': 'hi'}]).ok\n"
        "single = ITEM_ADAPTERS[('input', False)][0]\n"
        "state = [ok, single.pydantic_complete, UserMessageParam.__pydantic_complete__,"
        " FunctionCallParam.__pydantic_complete__]\n"
        "try:\n"
        "    replayable.parse_item({'type': 'function_call', 'call_id': 'c', 'name': 'f'})\n"
        "except replayable.ItemError as e:\n"
        "    state.append([list(x['loc']) for x in e.errors])\n"
        "state.append(single.pydantic_complete)\n"
        "print(json.dumps(state))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    ok, union_built, user_built, call_built, locs, union_after = json.loads(run.stdout.splitlines()[-1])
    assert ok is True
    assert (union_built, user_built, call_built) == (False, True, False)
    assert locs == [["arguments"]]
    assert union_after is True
