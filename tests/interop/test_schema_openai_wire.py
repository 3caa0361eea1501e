"""`replayable schema --provider openai` / `json_schema(side, provider="openai")`: OpenAI's data as sent.

The OpenAI wire bundle names OpenAI's types un-prefixed (`web_search_call`), allows the nulls OpenAI writes,
makes the keys it leaves out optional and reads shorthand input messages, exactly as
`parse_item(value, side=side, provider="openai")` does: jsonschema-rs gives the parser's verdict on every
instance of scripts/differential.py (fixtures, cases, corpus, edge cases, mutations) and on OpenAI's
recorded data. The TypeScript side (`tsc --strict` on scripts/ts/usage_openai.ts, typos refused where
the spec closes an object) runs in scripts/check_typescript.sh.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from conftest import EXAMPLES, ROOT, corpus_items

import replayable as rp
from replayable._cli import main
from replayable.errors import ReplayableError

SIDES = ("input", "output")


def _load_differential() -> Any:
    path = ROOT / "scripts" / "differential.py"
    if not path.is_file():
        pytest.skip("needs scripts/differential.py from the source checkout")
    spec = importlib.util.spec_from_file_location("differential_openai", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _prefixed(value: Any) -> bool:
    """Whether a value spells an OpenAI type the library's way (`openai:...`), which is never on the wire."""
    if isinstance(value, dict):
        t = value.get("type")
        return (isinstance(t, str) and t.startswith("openai:")) or any(_prefixed(v) for v in value.values())
    if isinstance(value, list):
        return any(_prefixed(v) for v in value)
    return False


def _unprefixed(value: Any) -> Any:
    if isinstance(value, dict):
        out = {k: _unprefixed(v) for k, v in value.items()}
        if isinstance(out.get("type"), str) and out["type"].startswith("openai:"):
            out["type"] = out["type"].removeprefix("openai:")
        return out
    if isinstance(value, list):
        return [_unprefixed(v) for v in value]
    return value


def _accepts(value: Any, side: str) -> bool:
    try:
        rp.parse_item(json.dumps(value), side=side, provider="openai")  # type: ignore[call-overload]
    except (ReplayableError, ValueError):
        return False
    return True


@pytest.fixture(scope="module")
def values() -> list[tuple[str, Any]]:
    differential = _load_differential()
    pairs = differential.collect(examples=0, budget=0.0, mutations=3)
    out = [(s, v) for s, v in pairs if not _prefixed(v)]
    # the same values as OpenAI sends them: the typed openai: items un-prefixed
    out += [(f"{s} (un-prefixed)", _unprefixed(v)) for s, v in pairs if _prefixed(v)]
    out += [(f"corpus/{f}#{i}", item) for f, _, i, item in corpus_items()]
    response = json.loads((EXAMPLES / "openai_weather_response.json").read_text(encoding="utf-8"))
    out += [(f"openai_weather_response#{i}", item) for i, item in enumerate(response["output"])]
    out += [
        ("shorthand user", {"role": "user", "content": "hi"}),
        ("shorthand assistant", {"role": "assistant", "content": "hello"}),
        ("shorthand developer parts", {"role": "developer", "content": [{"type": "input_text", "text": "be brief"}]}),
        ("shorthand tool role", {"role": "tool", "content": "x"}),
        ("shorthand without content", {"role": "user"}),
        (
            "web search",
            {
                "type": "web_search_call",
                "id": "ws_1",
                "status": "completed",
                "action": {"type": "search", "query": "q"},
            },
        ),
        ("web search without action", {"type": "web_search_call", "id": "ws_1", "status": "completed"}),
        ("unknown OpenAI type", {"type": "brand_new_call", "id": "x"}),
        (
            "message with OpenAI nulls",
            {
                "type": "message",
                "id": "m",
                "role": "assistant",
                "status": "completed",
                "phase": None,
                "content": [{"type": "output_text", "text": "x", "annotations": [], "logprobs": None}],
            },
        ),
        (
            "reasoning with null encrypted_content",
            {"type": "reasoning", "id": "rs", "summary": [], "encrypted_content": None, "content": None},
        ),
    ]
    return out


@pytest.mark.parametrize("side", SIDES)
def test_the_wire_bundle_gives_the_openai_parsers_verdict(side: str, values: list[tuple[str, Any]]) -> None:
    v = jsonschema_rs.validator_for(rp.json_schema(side, provider="openai"))
    diffs = [
        f"{source}: schema {v.is_valid(value)}, parser {ok}: {json.dumps(value)[:200]}"
        for source, value in values
        if v.is_valid(value) != (ok := _accepts(value, side))
    ]
    assert not diffs, f"{len(diffs)} disagreements:\n" + "\n".join(diffs[:20])
    accepted = sum(_accepts(value, side) for _, value in values)
    assert accepted >= 20 and len(values) - accepted >= 20  # both verdicts, many times


def test_openai_types_are_un_prefixed_and_the_prefixed_spelling_is_not_the_wire() -> None:
    for side in SIDES:
        doc = rp.json_schema(side, provider="openai")
        text = json.dumps(doc["$defs"])
        assert '"const": "openai:' not in text
        unknown = doc["$defs"].get("UnknownOpenaiItem")  # OpenAI's types without a typed model on this side
        if unknown is not None:
            tag = unknown["properties"]["type"]
            assert tag["tsType"] == "never" and tag["enum"] and not any(":" in t for t in tag["enum"])
        assert doc["$defs"]["WebSearchCall"]["properties"]["type"]["const"] == "web_search_call"
        v = jsonschema_rs.validator_for(doc)
        call = {
            "type": "web_search_call",
            "id": "ws",
            "status": "completed",
            "action": {"type": "search", "query": "q"},
        }
        assert v.is_valid(call)
        assert not v.is_valid({**call, "type": "openai:web_search_call"})
        assert rp.parse_item(call, side=side, provider="openai").type == "openai:web_search_call"  # type: ignore[call-overload]
    # the strict bundle is untouched
    strict = rp.json_schema("output")
    assert strict["$defs"]["WebSearchCall"]["properties"]["type"]["const"] == "openai:web_search_call"


@pytest.mark.parametrize("side", SIDES)
def test_annotations_of_unknown_types_are_kept_as_openai_mode_keeps_them(side: str) -> None:
    """OpenAI mode reads an un-prefixed annotation type it has no model for as an opaque `openai:` one
    (`UnknownOpenaiPart` on the wire), refuses a malformed typed one, a spec part type and a type outside
    the native pattern; the wire bundle says the same, on both sides (an assistant message as sent)."""
    from replayable import _base
    from replayable._openai_schema import NATIVE_PATTERN

    assert NATIVE_PATTERN == _base._NATIVE_TYPE.pattern  # the one pattern OpenAI mode reads un-prefixed types by
    doc = rp.json_schema(side, provider="openai")
    part = doc["$defs"]["UnknownOpenaiPart"]["properties"]["type"]
    assert part["tsType"] == "never" and {"file_citation", "url_citation"} <= set(part["not"]["enum"])
    v = jsonschema_rs.validator_for(doc)
    message = {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "x"}]}
    if side == "output":
        message = {**message, "id": "msg_1", "status": "completed"}
    cite = {"type": "file_citation", "file_id": "file_1", "index": 0, "filename": "a.txt"}
    notes = [cite, {**cite, "file_id": 5}, {"type": "file_citation"}, {"type": "brand_new_note", "x": 1}]
    notes += [{"type": "a.b"}, {"type": "Bogus"}, {"type": "a-b"}, {"type": "url_citation"}, {"type": "acme:n"}]
    verdicts = []
    for note in notes:
        value = {**message, "content": [{**message["content"][0], "annotations": [note]}]}
        verdicts.append(_accepts(value, side))
        assert v.is_valid(value) == verdicts[-1], note
    assert verdicts == [True, False, False, True, True, False, False, False, True]


def test_nulls_and_omitted_keys_follow_the_openai_forms() -> None:
    out = rp.json_schema("output", provider="openai")["$defs"]
    phase = out["Message"]["properties"]["phase"]
    assert {"type": "null"} in phase["anyOf"]
    assert {"type": "null"} in out["OutputTextContent"]["properties"]["logprobs"]["anyOf"]
    assert "image_url" not in out["InputImageContent"].get("required", [])
    detail = out["InputImageContent"]["properties"]["detail"]
    assert "original" in json.dumps(detail)
    strict = rp.json_schema("output")["$defs"]
    assert "null" not in json.dumps(strict["Message"]["properties"]["phase"])


def test_closed_objects_stay_closed() -> None:
    doc = rp.json_schema("input", provider="openai")
    assert doc["$defs"]["ItemReferenceParam"]["additionalProperties"] is False
    v = jsonschema_rs.validator_for(doc)
    assert v.is_valid({"type": "item_reference", "id": "msg_1"})
    assert not v.is_valid({"type": "item_reference", "id": "msg_1", "stauts": "completed"})  # a typo


def test_the_item_sides_export_and_other_sides_and_providers_are_refused() -> None:
    from replayable._openai_schema import WIRE_SIDES
    from replayable.schema import sides

    for side in sides():
        if side in WIRE_SIDES:
            doc = rp.json_schema(side, provider="openai")
            jsonschema_rs.validator_for(doc)  # compiles
            assert doc["title"] == "OpenAI" + rp.json_schema(side)["title"]
        else:  # a body's own fields are read in OpenAI mode in ways the item forms do not cover: refused
            with pytest.raises(ValueError, match="input and output"):
                rp.json_schema(side, provider="openai")
    assert "ShorthandMessage" in rp.json_schema("input", provider="openai")["$defs"]
    with pytest.raises(ValueError, match="provider"):
        rp.json_schema("input", provider="acme")
    assert rp.json_schema("input", provider="openai") is not rp.json_schema("input", provider="openai")


def test_the_command_line_writes_the_wire_bundle(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "--side", "output", "--provider", "openai"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == rp.json_schema("output", provider="openai")
    target = tmp_path / "input.openai.json"
    assert main(["schema", "--provider", "openai", "-o", str(target)]) == 0
    assert json.loads(target.read_text(encoding="utf-8")) == rp.json_schema("input", provider="openai")
    assert main(["schema", "--provider", "acme"]) == 2
    capsys.readouterr()
    assert main(["schema", "--side", "request", "--provider", "openai"]) == 2
    assert "input and output" in capsys.readouterr().err


def test_ajv_gives_the_openai_parsers_verdict_too(values: list[tuple[str, Any]], tmp_path: Path) -> None:
    """Ajv (2020-12, strict; scripts/ts/ajv_diff.mjs) on the wire bundles, and a flipped verdict it must catch."""
    import shutil
    import subprocess

    node, ts = shutil.which("node"), ROOT / "scripts" / "ts"
    if node is None or not (ts / "node_modules" / "ajv").is_dir():
        pytest.skip("needs node and scripts/ts/node_modules (scripts/check_typescript.sh runs `npm ci`)")
    bundles = tmp_path / "openai"
    bundles.mkdir()
    for side in SIDES:
        (bundles / f"{side}.json").write_text(json.dumps(rp.json_schema(side, provider="openai")), encoding="utf-8")
    doc = {
        "values": [{"source": s, "value": v} for s, v in values],
        "verdicts": {side: [_accepts(v, side) for _, v in values] for side in SIDES},
    }
    for flip in (False, True):
        if flip:
            doc["verdicts"]["output"][0] = not doc["verdicts"]["output"][0]
        path = tmp_path / "instances.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        res = subprocess.run(
            [node, str(ts / "ajv_diff.mjs"), str(path), str(bundles)], capture_output=True, text=True, check=False
        )
        assert res.returncode == (1 if flip else 0), res.stdout[-3000:] + res.stderr[-1000:]
