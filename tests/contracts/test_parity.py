"""Parity of schemas/open_responses with the generated models: the same fields, the same required list,
the same const tags. A diff here means the generated code and the contract drifted apart."""

from __future__ import annotations

import importlib
import typing
from pathlib import Path

import pytest
from conftest import CHECKOUT, ROOT, load

if not CHECKOUT:
    pytest.skip("parity reads schemas/ of the source checkout, which is not beside tests/", allow_module_level=True)
SCHEMAS = sorted((ROOT / "schemas" / "open_responses").glob("*.json"))
OBJECT_SCHEMAS = [p for p in SCHEMAS if load(p).get("type") == "object"]


@pytest.mark.parametrize("path", OBJECT_SCHEMAS, ids=lambda p: p.stem)
def test_model_matches_its_schema(path: Path) -> None:
    schema = load(path)
    module = importlib.import_module(f"replayable._generated.open_responses.{path.stem}")
    model = getattr(module, schema["title"])
    # by wire name: a property that would shadow a pydantic attribute (`schema`) is `schema_` with an alias
    fields = {f.alias or name: f for name, f in model.model_fields.items()}
    assert set(fields) == set(schema["properties"])
    required = {name for name, f in fields.items() if f.is_required()}
    assert required == set(schema.get("required", []))
    for name, prop in schema["properties"].items():
        assert fields[name].description == prop["description"]
    extra = model.model_config.get("extra")
    assert extra == ("forbid" if schema.get("additionalProperties") is False else "allow")


@pytest.mark.parametrize("path", OBJECT_SCHEMAS, ids=lambda p: p.stem)
def test_every_property_is_described_and_type_is_a_required_const(path: Path) -> None:
    schema = load(path)
    assert schema["title"] and schema["description"]
    assert all("description" in p for p in schema["properties"].values())
    tag = schema["properties"].get("type", {})
    if "const" in tag:
        assert "type" in schema["required"]


def test_every_schema_has_a_module() -> None:
    generated = {p.stem for p in (ROOT / "src" / "replayable" / "_generated" / "open_responses").glob("*.py")}
    assert {p.stem for p in SCHEMAS} <= generated


def test_literal_tags_are_required_when_parsing_and_filled_when_building() -> None:
    """A schema `default` on a const tag lets code build a model without it (type checkers see the
    default), but parsing must still require the tag: WireModel takes the default off the field."""
    import replayable  # noqa: F401  (loads every public model)
    from replayable import request, response  # noqa: F401
    from replayable._base import WireModel

    seen = 0
    stack = list(WireModel.__subclasses__())
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        for name, value in cls._wire_tags:
            field = cls.model_fields[name]
            if name == "type" and cls.__name__ == "ItemReferenceParam":
                assert not field.is_required()  # `type` may be absent on a reference
                continue
            assert field.is_required(), (cls.__name__, name)
            assert typing.get_args(field.annotation) == (value,), (cls.__name__, name)
            seen += 1
    assert seen > 40
