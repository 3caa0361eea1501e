"""`replayable check request.json --previous response.json`: a continuation request is checked against
the response it continues; without --previous its outputs answer calls outside the request (a note, not a
violation); `replayable schema --side request|response` prints the body bundles."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import EXAMPLES

from replayable._cli import main

REQUEST = EXAMPLES / "weather.next_request.json"
RESPONSE = EXAMPLES / "weather.response.json"


def test_continuation_request_alone_is_clean_with_a_note(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(REQUEST)]) == 0
    out = capsys.readouterr().out
    assert "outside this request" in out and "replay-safe" in out


def test_continuation_request_with_previous(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(REQUEST), "--previous", str(RESPONSE)]) == 0
    out = capsys.readouterr().out
    assert "outside this request" not in out and "replay-safe" in out


def test_previous_that_does_not_pair_is_a_violation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = json.loads(RESPONSE.read_text())
    other["output"][1]["call_id"] = "call_other"
    f = tmp_path / "other.json"
    f.write_text(json.dumps(other))
    assert main(["check", str(REQUEST), "--previous", str(f), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    text = json.dumps(report)
    assert "output_without_function_call" in text


@pytest.mark.parametrize("content", ["[1, 2", '"resp_1"', '{"model": "m", "input": []}'])
def test_bad_previous_is_unreadable_input(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str) -> None:
    f = tmp_path / "prev.json"
    f.write_text(content)
    assert main(["check", str(REQUEST), "--previous", str(f)]) == 2
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize("side", ["request", "response"])
def test_schema_sides_for_bodies(capsys: pytest.CaptureFixture[str], side: str) -> None:
    assert main(["schema", "--side", side]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema["title"] == {"request": "CreateResponseBody", "response": "Response"}[side]
