"""What a new user meets first: the command line's one-line errors and hints, and `help()` texts."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest
from conftest import EXAMPLES, ROOT, needs_checkout

import replayable
from replayable._cli import main

CALL = {"type": "function_call", "call_id": "call_1", "name": "f", "arguments": "{}", "status": "completed"}


def _check(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["check", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize(
    ("text", "kind"), [('"hello"', "string"), ("null", "null"), ("5", "number"), ("1.5", "number"), ("true", "boolean")]
)
def test_a_scalar_document_is_named_as_json_not_as_library_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, kind: str
) -> None:
    f = tmp_path / "scalar.json"
    f.write_text(text)
    code, out, err = _check(capsys, str(f))
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert f"scalar.json: the document is a JSON {kind}, not a transcript" in err
    assert "parse_items" not in err  # a Python API hint means nothing on the command line


def test_a_scalar_on_standard_input_json_format(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b'"hello"\n')))
    code, out, _ = _check(capsys, "-", "--format", "json")
    record = json.loads(out)
    assert code == 2
    assert record["exit"] == 2
    assert record["error"].startswith("<stdin>: the document is a JSON string")


@pytest.mark.parametrize("previous", ['"a response"', '{"foo": 1}'])
def test_a_bad_previous_says_what_is_wrong_on_its_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], previous: str
) -> None:
    body = tmp_path / "next.json"
    body.write_text(json.dumps({"model": "m", "previous_response_id": "resp_1", "input": "hi"}))
    prev = tmp_path / "prev.json"
    prev.write_text(previous)
    code, out, err = _check(capsys, str(body), "--previous", str(prev))
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert "invalid previous response (1 problem): field previous: previous must be the response" in err
    assert "[previous_type]" in err


def test_the_pending_hint_names_the_flag_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "t.json"
    f.write_text(json.dumps([CALL]))
    code, out, _ = _check(capsys, str(f))
    assert code == 1
    assert "pass --pending-ok when the transcript ends with calls" in out
    assert "pending_ok=True" not in out
    # the library's own message keeps the keyword argument
    report = replayable.check_transcript([CALL])
    assert "pass pending_ok=True" in report.violations[0].message
    code, out, _ = _check(capsys, str(f), "--pending-ok")
    assert code == 0


def test_public_docstrings_keep_their_backslash_escapes() -> None:
    """A docstring that writes `\\n` without escaping it prints a line break inside the backticks."""
    broken = []
    for name in replayable.__all__:
        doc = getattr(getattr(replayable, name), "__doc__", None)
        if isinstance(doc, str) and "`\n`" in doc:
            broken.append(name)
    assert broken == []
    assert "end at `\\n` only" in (replayable.parse_items.__doc__ or "")


def test_check_help_names_every_exit_status_and_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "2 on unreadable input or bad usage, 3 when the report could not be written" in text
    assert "Several files, a directory or --jobs end with a summary line" in text


def test_a_directory_without_jobs_ends_with_the_summary_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.json").write_text(json.dumps([CALL]))
    code, out, _ = _check(capsys, str(tmp_path))
    assert code == 1
    assert out.splitlines()[-1] == "checked 1 file: 0 replay-safe, 1 with violations, 0 unreadable"


@pytest.mark.parametrize(
    ("entry", "says"),
    [
        ({"foo": 1}, "tools[0] is no tool definition in a known shape"),
        ({"type": "message", "role": "user", "content": "hi"}, "tools[0] is a message item, not a tool definition"),
        (CALL, "tools[0] is a function_call item, not a tool definition"),
    ],
)
def test_a_tools_entry_in_no_tool_shape_is_refused_not_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], entry: dict[str, object], says: str
) -> None:
    """`check_transcript` documents `SchemaError` for a tool in no known shape; a skipped entry made a
    wrong `--tools` file (a transcript) read as "no tools" and every call as an unknown tool."""
    with pytest.raises(replayable.SchemaError, match=re.escape(says)):
        replayable.check_transcript([CALL], tools=[entry])
    with pytest.raises(replayable.SchemaError, match=re.escape(says)):
        replayable.prepare_replay([CALL], target="acme", tools=[entry])
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps([entry]))
    items = tmp_path / "items.json"
    items.write_text(json.dumps([CALL]))
    code, out, err = _check(capsys, str(items), "--tools", str(tools), "--pending-ok")
    assert code == 2
    assert out == ""
    assert f"tools.json: {says}" in err
    # a hosted tool is still skipped: its calls are not function calls
    report = replayable.check_transcript([CALL], tools=[{"type": "web_search"}], pending_ok=True)
    assert [str(v.code) for v in report.violations] == ["unknown_tool"]


@needs_checkout
def test_the_readme_says_what_its_violations_example_prints(capsys: pytest.CaptureFixture[str]) -> None:
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    code, out, _ = _check(
        capsys,
        str(EXAMPLES / "sales_report_broken.json"),
        "--tools",
        str(EXAMPLES / "sales_report.tools.json"),
        "--target",
        "acme",
    )
    assert code == 1
    verdict = out.splitlines()[-1].split(": ", 1)[1]
    assert verdict == "NOT replay-safe: 9 violations in 7 places, 10 items"
    assert f"then `{verdict}`; exit status 1" in readme


def test_an_agents_log_without_agents_is_named_in_one_grammatical_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    event = {"type": "agent.session.requires_action", "event_id": "evt_1", "session": {"id": "sess_1"}}
    f = tmp_path / "log.jsonl"
    f.write_text(json.dumps(event) + "\n" + json.dumps(event) + "\n")
    code, out, err = _check(capsys, str(f))
    assert code == 2
    assert out == ""
    assert "(value 0 is an 'agent.session.requires_action' event), not a transcript: check it with --agents" in err
