"""Output-form calls given as parsed models without `side=` are replayed as they are, so their input form
is checked too. That check runs in one batch (`rules.reading.recheck_sent_as_is`) instead of item by item:
the findings must be exactly those of the same items read from their JSON."""

from __future__ import annotations

from typing import Any

import pytest

import replayable as rp

USER = {"type": "message", "role": "user", "content": "hi"}


def _call(call_id: str, n: int = 0) -> dict[str, Any]:
    return {"type": "function_call", "id": f"fc_{n}", "call_id": call_id, "name": "f", "arguments": "{}",
            "status": "completed"}


def _out(call_id: str, n: int = 0) -> dict[str, Any]:
    return {"type": "function_call_output", "id": f"fco_{n}", "call_id": call_id, "output": "ok",
            "status": "completed"}


def _codes(report: rp.TranscriptReport) -> list[tuple[int | None, str, str]]:
    return [(v.index, str(v.code), v.path) for v in report.violations]


CASES = {
    "all fine": [USER, _call("c1"), _out("c1")],
    "call_id too long": [USER, _call("c" * 65), _out("c" * 65)],
    "one bad among many": [USER, *[x for n in range(5) for x in (_call(f"c{n}", n), _out(f"c{n}", n))],
                           _call("x" * 70, 9), _out("x" * 70, 9)],
    "empty call_id": [USER, _call(""), _out("")],
}


@pytest.mark.parametrize("provider", [None, "openai"])
@pytest.mark.parametrize("name", list(CASES))
def test_parsed_output_calls_get_the_findings_of_their_json(name: str, provider: Any) -> None:
    raw = CASES[name]
    models = [rp.parse_item(USER, side="input")] + [rp.parse_item(x, side="output") for x in raw[1:]]
    from_models = rp.check_transcript(models, provider=provider)
    from_dicts = rp.check_transcript(raw, provider=provider)
    assert _codes(from_models) == _codes(from_dicts)
    assert from_models.ok == from_dicts.ok == (name == "all fine")
