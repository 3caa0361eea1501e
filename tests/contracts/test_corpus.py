"""Real recorded payloads (../shared/corpus): every item parses and round-trips exactly, and every
request the provider accepted passes check_transcript (no false alarms)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import corpus_files, corpus_items, load, needs_corpus

import replayable as rp

SPEC_TYPES = {"message", "function_call", "function_call_output", "reasoning", "compaction", "item_reference"}
ITEMS = corpus_items()


def canon(x: Any) -> str:
    return json.dumps(x, sort_keys=True, ensure_ascii=False)


@needs_corpus
def test_corpus_is_there() -> None:
    assert len(ITEMS) > 100 and len(corpus_files("request")) >= 5


@needs_corpus
@pytest.mark.parametrize(("name", "side", "index", "item"), ITEMS, ids=[f"{n}[{i}]" for n, _, i, _ in ITEMS])
def test_recorded_item_round_trips_exactly(name: str, side: str, index: int, item: dict[str, Any]) -> None:
    parsed = rp.parse_item(item, side=side, provider="openai")  # type: ignore[arg-type]
    assert canon(rp.dump_item(parsed)) == canon(item)
    if item.get("type", "message") in SPEC_TYPES:
        assert not isinstance(parsed, rp.NamespacedItem)
    else:  # an OpenAI native item: a typed namespaced model, never the opaque fallback
        assert isinstance(parsed, rp.NamespacedItem) and parsed.slug == "openai"
        assert type(parsed) is not rp.NamespacedItem, f"{item['type']} read as an opaque NamespacedItem"


@needs_corpus
@pytest.mark.parametrize("path", corpus_files("request"), ids=lambda p: p.stem)
def test_recorded_request_is_accepted(path: Any) -> None:
    body = load(path)["body"]
    items = (
        body["input"] if isinstance(body.get("input"), list) else [{"role": "user", "content": body.get("input", "")}]
    )
    tools = [t for t in body.get("tools") or [] if t.get("type") == "function"] or None
    report = rp.check_transcript(items, tools=tools, target="openai", provider="openai")
    assert report.ok, report.violations


@needs_corpus
@pytest.mark.parametrize("path", corpus_files("request"), ids=lambda p: p.stem)
def test_recorded_request_parses_as_a_list(path: Any) -> None:
    body = load(path)["body"]
    if not isinstance(body.get("input"), list):
        pytest.skip("input is a plain string")
    text = json.dumps(body["input"])
    parsed = rp.parse_items(text, provider="openai")
    assert [canon(x) for x in rp.dump_items(parsed)] == [canon(x) for x in body["input"]]


@needs_corpus
@pytest.mark.parametrize("path", corpus_files("response"), ids=lambda p: p.stem)
def test_recorded_response_output_checks_as_a_response(path: Any) -> None:
    """Response outputs parse on the output side; the rules run (trailing calls are pending)."""
    output = load(path)["body"]["output"]
    report = rp.check_transcript(output, provider="openai", side="output", pending_ok=True)
    assert all(item is not None for item in report.items)
    # A function call a program issued waits in_progress for its output (vai-05): not a violation. A
    # response that goes on from an earlier one may answer a program of that earlier response (vai-06): seen
    # alone, that program_output answers nothing, the one rule such a response breaks.
    codes = {(str(v.code), report.items[v.index].type) for v in report.violations if v.index is not None}
    assert codes <= {("output_without_function_call", "openai:program_output")}, report.violations
    assert report.ok or path.stem == "vai-06"


@needs_corpus
def test_strict_mode_refuses_openai_native_types() -> None:
    native = [i for _, _, _, i in ITEMS if "type" in i and i["type"] not in SPEC_TYPES]
    assert native
    for item in native:
        with pytest.raises(rp.ItemError):
            rp.parse_item(item, side="output")


@needs_corpus
def test_the_target_profile_reads_recorded_items_alike_told_or_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every recorded item, parsed and as JSON, with extra keys, nulls and another provider's ids added: the
    findings of `target="openai"` are the same whether the profile is told by the items' fields
    (`replayable._rules.item_rules.profile_possible`, in bulk and item by item) or asked of each item's JSON."""
    from replayable._rules import engine, item_rules  # noqa: PLC0415

    monkeypatch.setattr(engine, "WHOLE_FROM", 0)  # short lists too go through the whole-list pass
    values: list[Any] = []
    for _, side, _, item in ITEMS:
        for extra in ({}, {"x_unknown": 1}, {"status": None}, {"id": "other_1"}):
            changed = {**item, **extra}
            try:
                values.append((rp.parse_item(changed, side=side, provider="openai"), changed))  # type: ignore[arg-type]
            except rp.ItemError:
                values.append((None, changed))

    def findings(value: Any) -> Any:
        report = rp.check_transcript([value], target="openai", provider="openai", pending_ok=True)
        return [(v.index, str(v.code), v.path) for v in report.violations]

    told = [(findings(m) if m is not None else None, findings(j)) for m, j in values]
    monkeypatch.setattr(engine.Engine, "_whole", lambda self, *args: False)
    monkeypatch.setattr(item_rules, "profile_possible", lambda ctx, vtype, views: True)
    asked = [(findings(m) if m is not None else None, findings(j)) for m, j in values]
    assert told == asked
    assert any(any(code == "field_not_accepted" for _, code, _ in j) for _, j in told)  # the profile refused some
