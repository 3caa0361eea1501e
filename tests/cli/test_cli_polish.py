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
from replayable._messages import OPTIONS, Door, Said, said, spelled
from replayable._reading import read_file
from replayable._render import count, pending_calls
from replayable._replay import check_transcript
from replayable.agents._cards import check_card
from replayable.errors import InputError, ItemError

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
    spellings = {name: (o.spelled(Door.LIBRARY), o.spelled(Door.CLI)) for name, o in OPTIONS.items()}
    assert spellings == {
        "pending_ok": ("pending_ok=True", "--pending-ok"),
        "provider": ("provider='openai'", "--provider openai"),
        "agents": ("agents=True", "--agents"),
    }


def test_cli_prints_quoted_input_as_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Only the option a message names is spelled as a flag: input the message quotes (a call_id that
    reads `pending_ok=True`, a string value holding `provider='openai'`) is printed as it was read."""
    odd = "x provider='openai' agents=True"
    calls = [{**CALL, "call_id": "pending_ok=True"}, {**CALL, "call_id": odd}]
    f = tmp_path / "t.json"
    f.write_text(json.dumps(calls))
    hint = "(pass --pending-ok when the transcript ends with calls still to be executed)"
    assert main(["check", str(f)]) == 1
    out = capsys.readouterr().out
    assert f"function_call 'pending_ok=True' has no function_call_output {hint}" in out
    assert f"function_call {odd!r} has no function_call_output {hint}" in out
    assert main(["check", "--format", "json", str(f)]) == 1
    messages = [v["message"] for v in json.loads(capsys.readouterr().out)["violations"]]
    assert messages == [
        f"function_call 'pending_ok=True' has no function_call_output {hint}",
        f"function_call {odd!r} has no function_call_output {hint}",
    ]
    library = [v.message for v in check_transcript(calls).violations]  # the library names its argument
    assert library == [m.replace("--pending-ok", "pending_ok=True") for m in messages]
    assert "pending_ok=True when the transcript ends" in library[0] and "(pass --pending-ok" not in library[0]


def test_cli_error_names_the_flag_not_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An error that names an option (an Agents API log read as a transcript) carries it as data: the
    command line spells it `--agents`, the library `agents=True`, and the file name it quotes stays."""
    log = tmp_path / "agents=True.jsonl"
    log.write_text(json.dumps({"type": "agent.turn.started", "turn_id": "t1"}) + "\n")
    assert main(["check", str(log)]) == 2
    err = capsys.readouterr().err
    assert "agents=True.jsonl is an OpenAI Agents API event log" in err and err.rstrip().endswith("check it with --agents")
    with pytest.raises(InputError) as raised:
        read_file(str(log))
    assert str(raised.value).endswith("not a transcript: check it with agents=True")
    assert raised.value.worded(Door.CLI).endswith("not a transcript: check it with --agents")
    assert raised.value.worded(Door.LIBRARY) == str(raised.value)


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


def test_an_option_is_data_in_every_message() -> None:
    """`said` fills `{option:NAME}` from the table and takes parameters as text (a parameter reading
    `{option:agents}` or `agents=True` is quoted, never spelled); the message survives `+` and quoting in
    an `ItemError`, whose `str` is the library's wording and `worded(Door.CLI)` the command line's."""
    text = said("call {name!r}: check it with {option:agents}", name="{option:agents} agents=True")
    assert isinstance(text, Said) and text == "call '{option:agents} agents=True': check it with agents=True"
    assert spelled(text, Door.CLI) == "call '{option:agents} agents=True': check it with --agents"
    assert spelled("plain agents=True", Door.CLI) == "plain agents=True"  # text that names no option as data
    with pytest.raises(ItemError) as raised:
        replayable.parse_request({"model": "m", "input": [{"role": "user", "content": "hi"}]})
    message = str(raised.value)
    assert "read only with provider='openai'" in message and "--provider" not in message
    assert raised.value.worded(Door.CLI) == message.replace("provider='openai'", "--provider openai")
    assert raised.value.worded(Door.LIBRARY) == message
