"""`replayable check --target openai` reads each input once, validates each item once, and never dumps a
validated item back to JSON for the target's profile (which reads the JSON the item came from). An item
that does not parse is validated with its batch, then once more alone for its own findings.

Counted while the command runs (`replayable._cli.main`), by wrapping the real functions: the opening of
the file, every validation by an item adapter (a list validated at once counts each of its items), and
every dump of one of the library's item models (`model_dump`, `TypeAdapter.dump_python`, `to_plain`,
`plain_json`, `dump_item`).
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, needs_checkout
from pydantic import BaseModel, TypeAdapter

from replayable import items as items_module
from replayable._base import WireModel
from replayable._cli import main

_ITEM_EXAMPLES = [
    "conversation.json",
    "openai_weather_response.json",
    "sales_report.json",
    "sales_report_broken.json",
    "weather.next_request.json",
    "weather.response.json",
]


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=repr)


class _Counting:
    """A validator stand-in that counts each item it is asked to validate, then asks the real one."""

    def __init__(self, real: Any, seen: Counter[str]) -> None:
        self._real, self._seen = real, seen

    def _count(self, value: Any) -> None:
        for item in value if isinstance(value, list) else [value]:
            self._seen[_key(item)] += 1

    def validate_python(self, value: Any, *args: Any, **kw: Any) -> Any:
        self._count(value)
        return self._real.validate_python(value, *args, **kw)

    def validate_json(self, value: Any, *args: Any, **kw: Any) -> Any:
        self._count(json.loads(value))
        return self._real.validate_json(value, *args, **kw)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


def _item_adapters() -> list[TypeAdapter[Any]]:
    """Every adapter that validates items: the public ones, and the list adapters of the one private
    module that reads items for a check (when it exists)."""
    adapters = [a for pair in items_module.ITEM_ADAPTERS.values() for a in pair]
    reader = sys.modules.get("replayable._item_read")
    adapters.extend(getattr(reader, "_LENIENT_LISTS", {}).values())
    return adapters


def _replace_everywhere(monkeypatch: pytest.MonkeyPatch, real: Callable[..., Any], fake: Callable[..., Any]) -> None:
    """`fake` in place of `real` under every name a module of the library imported it by."""
    for name, module in list(sys.modules.items()):
        if (name == "replayable" or name.startswith("replayable.")) and module is not None:
            for attr, value in list(vars(module).items()):
                if value is real:
                    monkeypatch.setattr(module, attr, fake)


def _is_ours(value: Any) -> bool:
    return isinstance(value, WireModel)


class _Counts:
    def __init__(self) -> None:
        self.validated: Counter[str] = Counter()
        self.dumped: list[str] = []
        self.opened: Counter[str] = Counter()


@pytest.fixture
def counts(monkeypatch: pytest.MonkeyPatch) -> Iterator[_Counts]:
    main(["check", "--target", "openai", str(EXAMPLES / "sales_report.json")])  # everything imported, built
    found = _Counts()
    for adapter in _item_adapters():
        adapter.rebuild()  # a deferred adapter's stand-in validator would replace itself on first use
        monkeypatch.setattr(adapter, "validator", _Counting(adapter.validator, found.validated))
    members = items_module.SPEC_MEMBERS
    real_members = members.validate

    def members_validate(data: Any, side: Any) -> Any:  # start-up: a spec item validated by its own model
        used = members.used[side]
        model = real_members(data, side)
        if members.used[side] != used:  # it did validate (past its limit it leaves the union to)
            found.validated[_key(data)] += 1
        return model

    monkeypatch.setattr(members, "validate", members_validate)

    real_dump = BaseModel.model_dump
    real_dump_json = BaseModel.model_dump_json
    real_dump_python = TypeAdapter.dump_python

    def model_dump(self: BaseModel, *args: Any, **kw: Any) -> Any:
        if _is_ours(self):
            found.dumped.append(f"model_dump {type(self).__name__}")
        return real_dump(self, *args, **kw)

    def model_dump_json(self: BaseModel, *args: Any, **kw: Any) -> Any:
        if _is_ours(self):
            found.dumped.append(f"model_dump_json {type(self).__name__}")
        return real_dump_json(self, *args, **kw)

    def dump_python(self: TypeAdapter[Any], value: Any, *args: Any, **kw: Any) -> Any:
        if _is_ours(value) or (isinstance(value, list) and any(map(_is_ours, value))):
            found.dumped.append("dump_python")
        return real_dump_python(self, value, *args, **kw)

    monkeypatch.setattr(BaseModel, "model_dump", model_dump)
    monkeypatch.setattr(BaseModel, "model_dump_json", model_dump_json)
    monkeypatch.setattr(TypeAdapter, "dump_python", dump_python)
    for module_name, fn_name in [
        ("replayable._json", "to_plain"),
        ("replayable.items", "plain_json"),
        ("replayable.items", "dump_item"),
        ("replayable._item_json", "plain_json"),
    ]:
        module = sys.modules.get(module_name)
        real = getattr(module, fn_name, None)
        if real is None:
            continue

        def counted(value: Any, *args: Any, _real: Any = real, _name: str = fn_name, **kw: Any) -> Any:
            if _is_ours(value):
                found.dumped.append(f"{_name} {type(value).__name__}")
            return _real(value, *args, **kw)

        _replace_everywhere(monkeypatch, real, counted)

    real_open = os.open

    def os_open(path: Any, *args: Any, **kw: Any) -> int:
        found.opened[os.fspath(path)] += 1
        return real_open(path, *args, **kw)

    monkeypatch.setattr(os, "open", os_open)
    yield found


def _items_of(path: Path) -> list[Any]:
    text = path.read_text()
    value = json.loads(text) if not path.suffix == ".jsonl" else [json.loads(line) for line in text.splitlines()]
    if isinstance(value, dict):
        value = value.get("input", value.get("output", [value]))
    return value if isinstance(value, list) else [value]


def _check_counts(counts: _Counts, path: Path, unparsed: int = 0) -> None:
    """Read once, nothing dumped, each item that parses validated once; the `unparsed` items that do not
    parse are validated once with their batch and once more alone, for their findings (their errors).
    (Items the rules read before parsing, a Chat Completions message, are never validated.)"""
    items = _items_of(path)
    assert counts.opened[str(path)] == 1, f"{path.name} opened {counts.opened[str(path)]} times"
    assert counts.dumped == [], f"{path.name}: validated items dumped back to JSON: {Counter(counts.dumped)}"
    twice = [n for n in counts.validated.values() if n > 1]
    assert twice == [2] * unparsed, f"{path.name}: items validated more than once: {twice}"
    keys = {_key(item) for item in items}
    assert counts.validated and set(counts.validated) <= keys, f"{path.name}: validated what is not one of its items"


@needs_checkout
@pytest.mark.parametrize("name", _ITEM_EXAMPLES)
def test_each_bundled_example_is_read_once_validated_once_and_never_dumped(
    name: str, counts: _Counts, capsys: pytest.CaptureFixture[str]
) -> None:
    path = EXAMPLES / name
    main(["check", "--target", "openai", str(path)])
    capsys.readouterr()
    _check_counts(counts, path, unparsed=1 if name == "sales_report_broken.json" else 0)


def _call(n: int) -> list[dict[str, Any]]:
    return [
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": f"question {n}"}]},
        {
            "type": "function_call",
            "id": f"fc_{n}",
            "call_id": f"call_{n}",
            "name": "lookup",
            "arguments": json.dumps({"q": n}),
            "status": "completed",
        },
        {"type": "function_call_output", "call_id": f"call_{n}", "output": f"answer {n}"},
        {
            "type": "message",
            "id": f"msg_{n}",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": f"done {n}", "annotations": []}],
        },
    ]


@pytest.mark.parametrize("broken", [False, True], ids=["clean", "with-findings"])
def test_a_jsonl_of_hundreds_of_items_is_read_once_validated_once_and_never_dumped(
    broken: bool, counts: _Counts, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    values = [item for n in range(100) for item in _call(n)]
    if broken:  # a field OpenAI does not accept, an item that does not parse, an id of another provider
        values[5] = {**values[5], "role": "assistant"}
        values[41] = {**values[41], "arguments": {"q": 1}}
        values[77] = {**values[77], "id": "toolu_1"}
    path = tmp_path / "items.jsonl"
    path.write_text("".join(json.dumps(v) + "\n" for v in values))
    code = main(["check", "--target", "openai", str(path)])
    out = capsys.readouterr().out
    assert code == (1 if broken else 0), out
    if broken:
        assert "field_not_accepted" in out and "function_arguments_not_string" in out and "id_format" in out
    _check_counts(counts, path, unparsed=1 if broken else 0)
