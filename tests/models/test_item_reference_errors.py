"""An input item without `type` (or with `type: null`) whose only keys are `id` and `type` is an
`item_reference` (spec `ItemReferenceParam`: `id` required, `type` optional and nullable): when its `id` is
missing or not a string, the error names `id` with the rule it breaks (`missing`, `string_type`), on every
entry point, never a missing `type` (found by the official sweep)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import replayable as rp

#: (item, rule at `id`)
BAD_REFERENCES = [
    ({"type": "item_reference"}, "missing"),
    ({"type": None}, "missing"),
    ({}, "missing"),
    ({"id": 12345}, "string_type"),
    ({"id": None}, "string_type"),
    ({"id": None, "type": None}, "string_type"),
    ({"id": ["x"], "type": "item_reference"}, "string_type"),
]


def _one(exc: rp.ItemError) -> tuple[tuple[Any, ...], str]:
    assert len(exc.errors) == 1, exc.errors
    return tuple(exc.errors[0]["loc"]), exc.errors[0]["type"]


@pytest.mark.parametrize("provider", [None, "openai"])
@pytest.mark.parametrize(("item", "rule"), BAD_REFERENCES)
def test_parse_item_names_the_id(item: dict[str, Any], rule: str, provider: Any) -> None:
    for data in (item, json.dumps(item), json.dumps(item).encode()):
        with pytest.raises(rp.ItemError) as exc:
            rp.parse_item(data, side="input", provider=provider)
        assert _one(exc.value) == (("id",), rule)
    with pytest.raises(rp.ItemError) as exc:
        rp.parse_items([{"id": "ok"}, item], side="input", provider=provider)
    assert _one(exc.value) == ((1, "id"), rule)


@pytest.mark.parametrize("provider", [None, "openai"])
@pytest.mark.parametrize(("item", "rule"), BAD_REFERENCES)
def test_request_bodies_name_the_id(item: dict[str, Any], rule: str, provider: Any) -> None:
    body = {"model": "m", "input": [{"id": "ok"}, item]}
    for data in (body, json.dumps(body), json.dumps(body).encode()):
        with pytest.raises(rp.ItemError) as exc:
            rp.parse_request(data, provider=provider)
        assert _one(exc.value) == (("input", 1, "id"), rule)
        with pytest.raises(rp.ItemError) as exc:
            rp.parse_compact_request(data, provider=provider)
        assert _one(exc.value) == (("input", 1, "id"), rule)


@pytest.mark.parametrize(("item", "rule"), BAD_REFERENCES)
def test_check_transcript_names_the_id(item: dict[str, Any], rule: str) -> None:
    report = rp.check_transcript([{"id": "ok"}, item], side="input")
    assert [(f.index, f.path) for f in report.violations] == [(1, "/id")]
    assert f"[{rule}]" in report.violations[0].message


def test_the_cli_names_the_id(tmp_path: Path) -> None:
    src = tmp_path / "t.jsonl"
    src.write_text('{"type":"message","role":"user","content":"hi"}\n{"type":null}\n', encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "replayable", "check", str(src)], capture_output=True, text=True, check=False
    )
    assert out.returncode == 1, out.stderr
    assert "item 1" in out.stdout and "/id [missing]" in out.stdout and "missing_type" not in out.stdout


def test_good_references_and_other_items_keep_their_reading() -> None:
    assert rp.parse_item({"id": "x"}, side="input").id == "x"
    assert rp.parse_item({"id": "x", "type": None}, side="input").type is None
    assert rp.parse_request({"input": [{"id": "x"}]}).input[0].id == "x"  # type: ignore[index,union-attr]
    # not a reference: another key, or the output side (which has no item_reference)
    for item, side in (({"id": "x", "note": 1}, "input"), ({"role": "user"}, "input"), ({}, "output")):
        with pytest.raises(rp.ItemError) as exc:
            rp.parse_item(item, side=side)  # type: ignore[call-overload]
        assert _one(exc.value) == (("type",), "missing_type")
