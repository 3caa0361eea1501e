"""What a new user meets first: help, version, where errors go, and messages in plain grammar that
name the command line flag (not the library argument) when printed by the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import replayable
from replayable._cli import main
from replayable._cli.output import cli_message
from replayable._render import count, pending_calls
from replayable._replay import check_transcript
from replayable.agents._cards import check_card

EXAMPLES = Path(__file__).parent.parent.parent / "examples"
USER = {"type": "message", "role": "user", "content": "hi"}
CALL = {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"}


def test_agents_check_of_a_responses_transcript_errs_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(EXAMPLES / "conversation.json")
    assert main(["check", "--agents", path]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("replayable: error: ") and "nothing was recognised" in err
    assert main(["check", "--agents", "--format", "json", path]) == 2
    out, _ = capsys.readouterr()
    assert json.loads(out)["recognised"] == 0  # the JSON report stays on stdout


def test_cli_names_the_provider_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    body = tmp_path / "request.json"
    body.write_text(json.dumps({"model": "m", "input": [{"role": "user", "content": "hi"}]}))
    assert main(["check", str(body)]) == 1
    out = capsys.readouterr().out
    assert "needs --provider openai" in out and "provider='openai'" not in out
    assert main(["check", "--provider", "openai", str(body)]) == 0
    assert cli_message("with provider='openai' OpenAI's events") == "with --provider openai OpenAI's events"


def test_counts_are_grammatical(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (count(1, "item"), count(0, "item"), count(2, "event")) == ("1 item", "0 items", "2 events")
    assert pending_calls([2]) == "pending call (awaiting output) at item 2"
    assert pending_calls([2, 5]) == "pending calls (awaiting output) at items 2, 5"
    f = tmp_path / "t.json"
    f.write_text(json.dumps([USER, CALL]))
    assert main(["check", "--pending-ok", str(f)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{f}: pending call (awaiting output) at item 1", f"{f}: replay-safe: 2 items"]
    f.write_text(json.dumps([{**CALL, "type": "function_call_output", "output": "x"}]))
    assert main(["check", str(f)]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == f"{f}: NOT replay-safe: 1 violation in 1 place, 1 item"


def test_unreadable_json_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "bad.json"
    f.write_text('{"a":\n')
    assert main(["check", str(f)]) == 2
    err = capsys.readouterr().err
    assert f"{f} is neither JSON nor JSONL: " in err and "EOF while parsing" in err and "JSONL: is " not in err


def test_card_and_arguments_messages_read_as_sentences() -> None:
    said = {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "{bad"}]}
    card = check_card([said], {"type": "object"})
    assert not card.ok and "the text is not valid JSON" in card.failures[0].message
    tool = {
        "type": "function",
        "name": "f",
        "parameters": {"type": "object", "properties": {"region": {"enum": ["eu"]}}},
    }
    report = check_transcript([{**CALL, "arguments": '{"region": "us"}'}], tools=[tool], pending_ok=True)
    assert [v.message.split(":")[:2] for v in report.violations] == [["arguments", " /region fails enum"]]


def test_help_version_and_module_entry(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--help"]) == 0
    assert "FILE [FILE ...]" in capsys.readouterr().out
    assert main(["schema", "--help"]) == 0
    assert "of one item" not in capsys.readouterr().out
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"replayable {replayable.__version__}"
    run = subprocess.run([sys.executable, "-m", "replayable", "--version"], capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout.strip() == f"replayable {replayable.__version__}"


def test_dir_shows_the_public_api_only() -> None:
    names = dir(replayable)
    assert set(replayable.__all__) <= set(names)
    assert not {"annotations", "TYPE_CHECKING", "importlib", "Any"} & set(names)
    assert "json_schema" in names and callable(replayable.json_schema)  # lazy names still load
