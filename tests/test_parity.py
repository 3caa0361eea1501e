"""Parity of schemas/open_responses with the generated models: the same fields, the same required list,
the same const tags. A diff here means the generated code and the contract drifted apart."""

from __future__ import annotations

import importlib
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
    fields = model.model_fields
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
