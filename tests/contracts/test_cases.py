"""Every real-world case (R*) and seed scenario (S01-S12) with its verdict and rule, plus the class of
fault each one stands for."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import CASES, CORPUS, load

import replayable as rp

R_CASES = sorted(CASES.glob("R*.json"))
GATE_CASES = [p for p in sorted(CASES.glob("S*.json")) if load(p)["kind"] == "gate"]
TARGETS = {"R14": "acme"}
#: Case rule names that are not our violation codes, and the code that stands for them.
REASON_CODES = {
    "call_id_empty": "item_invalid",
    "custom_tool_call_without_output": "function_call_without_output",
    "local_shell_call_without_output": "function_call_without_output",
    "tool_name_invalid": "invalid_tool",
    "assistant_content_not_output_text": "item_invalid",  # an input_text part in an assistant message
    "input_file_data_without_filename": "file_data_without_filename",
    "allowed_tool_not_declared": "tool_choice_not_declared",
}
#: Where each case of ../shared/cases is kept as a fixture (the stream cases beside the stream tests).
FIXTURE_DIRS = (CASES, CASES.parent / "agents", CASES.parent / "stream" / "cases")
SHARED_CASES = CORPUS.parent / "cases"  # ../shared/cases, read in place when present


def tools_for(items: list[Any], schema: Any) -> list[dict[str, Any]] | None:
    if schema is None:
        return None
    names = sorted({i["name"] for i in items if isinstance(i, dict) and i.get("type") == "function_call"})
    return [{"type": "function", "name": n, "parameters": schema, "strict": False} for n in names]


def test_cases_are_present() -> None:
    assert len(R_CASES) >= 30 and len(GATE_CASES) == 12


@pytest.mark.skipif(not SHARED_CASES.is_dir(), reason="../shared/cases is not beside this checkout")
def test_every_shared_case_is_a_fixture() -> None:
    """Every case of ../shared/cases (R*, S*) is kept, unchanged, as a fixture read by a test: the items
    and request cases here, the stream cases by tests/stream/test_stream_rules.py, the Agents ones (S20-S22) by
    tests/models/test_articles_shapes.py and tests/agents/test_agents.py."""
    shared = sorted(SHARED_CASES.glob("[RS]*.json"))
    assert len(shared) >= 50
    for path in shared:
        kept = [d / path.name for d in FIXTURE_DIRS if (d / path.name).is_file()]
        assert len(kept) == 1, f"{path.name}: kept as {kept}"
        assert load(kept[0]) == load(path), f"{path.name}: the fixture differs from ../shared/cases"


def test_r27_names_the_assistant_part() -> None:
    """R27: an `input_text` part in an assistant message is refused at that part's `type`."""
    report = rp.check_transcript(load(CASES / "R27.json")["input"])
    assert [(v.index, v.path) for v in report.violations] == [(1, "/content/0/type")]
    assert "'output_text', 'refusal'" in report.violations[0].message


@pytest.mark.parametrize("path", R_CASES, ids=lambda p: p.stem)
def test_real_world_case(path: Path) -> None:
    case = load(path)
    want = case["expect"]
    inp = case["input"]
    if case.get("kind") == "request":  # a whole body: its store and include count
        report = rp.check_transcript(inp, target=case.get("target"), provider=case.get("provider"))
        assert report.ok == (want["verdict"] == "accept"), report.violations
        if want["verdict"] == "reject":
            assert REASON_CODES.get(want["reason"], want["reason"]) in {v.code for v in report.violations}
        return
    if isinstance(inp, dict) and inp.get("type") == "function":  # a tool definition: the strict lint
        codes = {v.code for v in rp.check_tool(inp)}
        assert (not codes) == (want["verdict"] == "accept")
        if want["verdict"] == "reject":
            assert REASON_CODES.get(want["reason"], want["reason"]) in codes
        return
    items = inp if isinstance(inp, list) else [inp]
    report = rp.check_transcript(
        items,
        tools=tools_for(items, case["tool_schema"]),
        target=case.get("target", TARGETS.get(case["id"])),
        provider=case.get("provider"),
    )
    assert report.ok == (want["verdict"] == "accept"), report.violations
    if want["verdict"] == "reject":
        # our violation codes are the cases' rule names
        assert REASON_CODES.get(want["reason"], want["reason"]) in {v.code for v in report.violations}
        assert all(v.index is not None and 0 <= v.index < len(items) for v in report.violations)


def test_r14_is_fine_for_its_own_provider() -> None:
    items = load(CASES / "R14.json")["input"]
    assert rp.check_transcript(items, target="openai").ok
    assert rp.check_transcript(items).ok  # no target: nothing to say about portability


def test_r13_unprefixed_native_type_needs_openai_mode() -> None:
    items = load(CASES / "R13.json")["input"]
    native = [dict(i, type="mcp_call") if i.get("type") == "openai:mcp_call" else i for i in items]
    assert not rp.check_transcript(native).ok
    report = rp.check_transcript(native, provider="openai")
    assert report.ok
    assert rp.dump_item(report.items[1]) == native[1]  # kept verbatim, un-prefixed type and all


@pytest.mark.parametrize("path", GATE_CASES, ids=lambda p: p.stem)
def test_seed_gate_case(path: Path) -> None:
    case = load(path)
    result = rp.gate(case["item"], case["tool_schema"])
    assert result.reason == case["expect"]["reason"]
    assert result.ok == (case["expect"]["reason"] == "ok")


@pytest.mark.parametrize("path", GATE_CASES, ids=lambda p: p.stem)
def test_seed_gate_case_on_parsed_items(path: Path) -> None:
    """gate gives the same reason for a parsed item as for its raw JSON (when it parses)."""
    case = load(path)
    try:
        item = rp.parse_item(case["item"])
    except rp.ItemError:
        pytest.skip("the item does not parse, so only its raw form can be gated")
    assert rp.gate(item, case["tool_schema"]).reason == case["expect"]["reason"]
