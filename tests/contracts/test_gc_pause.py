"""No library call changes the app's garbage collector: enabled or not, thresholds, frozen objects.

An earlier version paused the collector around large parses and promoted everything allocated meanwhile
with `gc.freeze()` + `gc.unfreeze()`: an app that checked in a loop kept its own short-lived cyclic
garbage alive in the oldest generation (20,000 of 20,000 cycles, about 195 MB), and a collector another
thread had turned off came back on. These tests hold every entry point that reads many items to the rule.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import replayable as rp
from replayable._replay import check_transcript_iter

ITEMS = [
    {"type": "function_call", "call_id": f"call_{i}", "name": "f", "arguments": "{}", "id": f"fc_{i}", "status": "completed"}
    for i in range(3000)
]
INPUT = [x for i in range(1500) for x in (
    {"type": "function_call", "call_id": f"call_{i}", "name": "f", "arguments": "{}"},
    {"type": "function_call_output", "call_id": f"call_{i}", "output": "ok"},
)]  # fmt: skip
JSONL = "\n".join(json.dumps(x) for x in INPUT)

CALLS: dict[str, Callable[[], Any]] = {
    "parse_items(list)": lambda: rp.parse_items(ITEMS, side="output"),
    "parse_items(JSON array)": lambda: rp.parse_items(json.dumps(ITEMS), side="output"),
    "parse_items(JSONL)": lambda: rp.parse_items(JSONL),
    "check_transcript(list)": lambda: rp.check_transcript(INPUT),
    "check_transcript_iter(iter_items(JSONL))": lambda: check_transcript_iter(rp.iter_items(JSONL.encode())),
    "check_transcript_iter(JSONL lines)": lambda: check_transcript_iter(JSONL.splitlines()),
    "prepare_replay": lambda: rp.prepare_replay(INPUT, target="openai"),
}


def _state() -> tuple[bool, tuple[int, ...], int]:
    return gc.isenabled(), gc.get_threshold(), gc.get_freeze_count()


@pytest.fixture
def collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    try:
        yield
    finally:
        if not was:
            gc.disable()


@pytest.mark.parametrize("call", list(CALLS), ids=list(CALLS))
def test_no_call_changes_the_collector_state(call: str, collector_on: None) -> None:
    before = _state()
    CALLS[call]()
    assert _state() == before


@pytest.mark.parametrize("call", list(CALLS), ids=list(CALLS))
def test_a_disabled_collector_stays_disabled(call: str) -> None:
    was = gc.isenabled()
    gc.disable()
    try:
        CALLS[call]()
        assert not gc.isenabled()
    finally:
        if was:
            gc.enable()


def test_custom_thresholds_are_kept(collector_on: None) -> None:
    old = gc.get_threshold()
    gc.set_threshold(1234, 7, 9)
    try:
        for call in CALLS.values():
            call()
            assert gc.get_threshold()[:3] == (1234, 7, 9)
    finally:
        gc.set_threshold(*old)


def test_an_apps_frozen_objects_stay_frozen(collector_on: None) -> None:
    keep = [[i] for i in range(100)]  # objects the app froze on purpose (a pre-fork warm-up, say)

    def collector_sees_keep() -> bool:  # frozen objects are in no generation the collector scans
        return any(obj is keep for obj in gc.get_objects())

    gc.freeze()
    try:
        count = gc.get_freeze_count()
        for call in CALLS.values():
            call()
        assert not collector_sees_keep()
        assert gc.get_freeze_count() == count
    finally:
        gc.unfreeze()
    assert collector_sees_keep()


class _Node:
    def __init__(self) -> None:
        self.other: _Node | None = None


def test_an_apps_cycles_made_in_a_checking_loop_are_collected(collector_on: None) -> None:
    """The app's short-lived cyclic garbage, made between checks, is freed by the collector as it runs
    (a young collection), not kept until a full one: a weak reference to each cycle tells which live."""
    import weakref

    gc.collect()
    refs: list[weakref.ref[_Node]] = []
    small, small_jsonl = INPUT[:4], "\n".join(JSONL.splitlines()[:4])
    for n in range(10_000):  # one cycle of the app's per check, as a request handler makes them
        a, b = _Node(), _Node()
        a.other, b.other = b, a
        refs.append(weakref.ref(a))
        del a, b
        if n % 2:
            rp.check_transcript(small)
        else:
            rp.parse_items(small_jsonl)
    alive = sum(r() is not None for r in refs)
    # without any full collection, nearly all of the 10,000 cycles are already gone; the 2026-12 version
    # of this library (freeze/unfreeze after each parse) kept all 10,000 alive here
    assert alive < len(refs) // 10, f"{alive} of {len(refs)} cycles still alive"
    gc.collect()
    assert sum(r() is not None for r in refs) == 0


def test_no_module_of_the_library_touches_the_collector() -> None:
    """Structural: a collector switched off by another thread while a parse runs must stay off, which no
    runtime test can time reliably; so no module calls what changes the collector's state at all."""
    import ast
    from pathlib import Path

    root = Path(rp.__file__).parent
    banned = {"disable", "enable", "freeze", "unfreeze", "set_threshold", "collect"}
    found = []
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in banned and getattr(node.value, "id", None) == "gc":
                found.append(f"{path.relative_to(root)}:{node.lineno} gc.{node.attr}")
    assert found == []
