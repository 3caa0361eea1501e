"""`replayable.testing.assert_replay_safe`, the one-line check for an app's own tests."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import replayable as rp
from replayable.testing import assert_replay_safe

USER = {"type": "message", "role": "user", "content": "hi"}
CALL = {"type": "function_call", "call_id": "c1", "name": "add", "arguments": '{"a": 1}'}
OUTPUT = {"type": "function_call_output", "call_id": "c1", "output": "2"}
ORPHAN = {"type": "function_call_output", "call_id": "nobody", "output": "2"}
SHORTHAND = {"role": "user", "content": "hi"}


def failure(data: object, **kw: object) -> str:
    with pytest.raises(AssertionError) as info:
        assert_replay_safe(data, **kw)
    return str(info.value)


def test_a_safe_transcript_returns_its_report() -> None:
    report = assert_replay_safe([USER, CALL, OUTPUT])
    assert isinstance(report, rp.TranscriptReport) and report.ok


def test_the_failure_names_each_violation_code_and_index() -> None:
    text = failure([USER, ORPHAN, CALL, USER])
    assert text.splitlines() == [
        "not replay-safe: 2 violations",
        *(
            f"  item {v.index}: {v.code}: {v.message}"
            for v in rp.check_transcript([USER, ORPHAN, CALL, USER]).violations
        ),
    ]
    assert "item 1: output_without_function_call" in text and "item 2: function_call_without_output" in text


def test_keywords_go_to_check_transcript() -> None:
    assert "item 0: item_invalid" in failure([SHORTHAND])
    assert assert_replay_safe([SHORTHAND], provider="openai").ok
    assert "function_call_without_output" in failure([USER, CALL])
    assert assert_replay_safe([USER, CALL], pending_ok=True).pending == (1,)
    tool = {
        "type": "function",
        "name": "add",
        "parameters": {"type": "object", "properties": {"a": {"type": "string"}}},
    }
    assert "item 1: arguments_schema" in failure([USER, CALL, OUTPUT], tools=[tool])


def test_bodies_models_text_jsonl_and_files(tmp_path: Path) -> None:
    assert assert_replay_safe({"model": "m", "input": [USER, CALL, OUTPUT]}).ok  # a request body
    assert assert_replay_safe(rp.parse_items([USER, CALL, OUTPUT])).ok  # our models
    assert assert_replay_safe(json.dumps([USER, CALL, OUTPUT])).ok  # JSON text
    assert "output_without_function_call" in failure(json.dumps([ORPHAN]).encode())  # bytes
    jsonl = "".join(json.dumps(x) + "\n" for x in (USER, ORPHAN))
    assert "item 1: output_without_function_call" in failure(jsonl)
    f = tmp_path / "history.jsonl"
    f.write_text(jsonl)
    assert "item 1: output_without_function_call" in failure(f)


def test_text_that_is_not_strict_json_fails_the_assertion_saying_why() -> None:
    assert "duplicate key" in failure('[{"type": "message", "type": "x"}]')
    assert "not valid JSON" in failure("[{")
    assert "line 2" in failure(json.dumps(USER) + "\n{not json\n")


def test_bad_arguments_are_not_assertion_failures() -> None:
    with pytest.raises(ValueError, match="side"):
        assert_replay_safe([USER], side="sideways")
    with pytest.raises(ValueError):
        assert_replay_safe(None)


def test_pytest_shows_the_violations_and_the_callers_line(tmp_path: Path) -> None:
    test = tmp_path / "test_history.py"
    test.write_text(
        "from replayable.testing import assert_replay_safe\n\n"
        "def test_history():\n"
        f"    assert_replay_safe({[USER, ORPHAN]!r})\n"
    )
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert run.returncode == 1
    assert "AssertionError: not replay-safe: 1 violation" in run.stdout
    assert "item 1: output_without_function_call" in run.stdout
    assert "__tracebackhide__" not in run.stdout and "testing.py" not in run.stdout
