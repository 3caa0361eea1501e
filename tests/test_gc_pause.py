"""The collector pause around large parses: what it leaves behind for the app's own collector.

After a paused parse the parsed objects sit in the oldest generation (no young collection has to scan
them again), the collector is enabled exactly when it was before, and an app's own `gc.freeze()` is
never undone.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator

import pytest

import replayable as rp

ITEMS = [
    {"type": "function_call", "call_id": f"call_{i}", "name": "f", "arguments": "{}", "id": f"fc_{i}", "status": "completed"}
    for i in range(3000)
]


@pytest.fixture
def collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    try:
        yield
    finally:
        if not was:
            gc.disable()


@pytest.mark.skipif(sys.version_info >= (3, 14), reason="3.14's incremental collector has other generations")
def test_parsed_items_go_straight_to_the_oldest_generation(collector_on: None) -> None:
    items = rp.parse_items(ITEMS, side="output")
    assert gc.isenabled()
    # no young collection scanned them on the way: they are already where survivors end up
    assert any(obj is items[0] for obj in gc.get_objects(generation=2))
    assert gc.get_freeze_count() == 0  # promoted, not left frozen


def test_an_apps_frozen_objects_stay_frozen(collector_on: None) -> None:
    keep = [[i] for i in range(100)]  # objects the app froze on purpose (a pre-fork warm-up, say)

    def collector_sees_keep() -> bool:  # frozen objects are in no generation the collector scans
        return any(obj is keep for obj in gc.get_objects())

    assert collector_sees_keep()
    gc.freeze()
    try:
        assert not collector_sees_keep()
        rp.parse_items(ITEMS, side="output")
        rp.check_transcript(ITEMS, pending_ok=True)
        assert not collector_sees_keep()  # the app's freeze was not undone
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
    assert collector_sees_keep()


def test_a_disabled_collector_stays_disabled() -> None:
    was = gc.isenabled()
    gc.disable()
    try:
        rp.parse_items(ITEMS, side="output")
        assert not gc.isenabled()
    finally:
        if was:
            gc.enable()


def test_garbage_cycles_are_still_collected(collector_on: None) -> None:
    class Node:
        pass

    a, b = Node(), Node()
    a.other, b.other = b, a  # type: ignore[attr-defined]
    del a, b
    rp.parse_items(ITEMS, side="output")  # the cycle is promoted with the parse...
    assert gc.collect() >= 2  # ...and a full collection still frees it
