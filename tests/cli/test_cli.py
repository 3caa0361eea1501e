"""The `replayable check` command: exit codes, output formats, envelopes, and no tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, needs_checkout

from replayable._cli import main

USER = {"type": "message", "role": "user", "content": "hi"}
CALL = {"type": "function_call", "call_id": "c1", "name": "lookup", "arguments": '{"q":"x"}'}
OUT = {"type": "function_call_output", "call_id": "c1", "output": "ok"}


def run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: Any, *args: str, raw: bytes | None = None
) -> tuple[int, str, str]:
    f = tmp_path / "in.json"
    f.write_bytes(raw if raw is not None else json.dumps(value).encode())
    code = main(["check", str(f), *args])
    out, err = capsys.readouterr()
    return code, out, err


@needs_checkout
def test_examples(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "check",
                str(EXAMPLES / "conversation.json"),
                "--tools",
                str(EXAMPLES / "conversation.tools.json"),
                "--target",
                "openai",
                "--provider",
                "openai",
            ]
        )
        == 0
    )
    assert "replay-safe: 14 items" in capsys.readouterr().out
    assert (
        main(
            [
                "check",
                str(EXAMPLES / "sales_report.json"),
                "--tools",
                str(EXAMPLES / "sales_report.tools.json"),
                "--target",
                "acme",
            ]
        )
        == 0
    )
    capsys.readouterr()
    assert (
        main(
            [
                "check",
                str(EXAMPLES / "sales_report_broken.json"),
                "--tools",
                str(EXAMPLES / "sales_report.tools.json"),
                "--target",
                "acme",
                "--format",
                "json",
            ]
        )
        == 1
    )
    report = json.loads(capsys.readouterr().out)
    assert {v["code"] for v in report["violations"]} >= {
        "arguments_schema",
        "function_arguments_not_string",
        "incomplete_call_replayed",
        "output_without_function_call",
        "foreign_extension_item",
        "chat_completions_envelope",
    }


def test_exit_codes_and_text_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(tmp_path, capsys, [USER, CALL, OUT])
    assert code == 0 and "replay-safe: 3 items" in out
    code, out, _ = run(tmp_path, capsys, [USER, CALL])
    assert code == 1 and "item 1: function_call_without_output" in out
    code, out, _ = run(tmp_path, capsys, [USER, CALL], "--pending-ok")
    assert code == 0 and "pending" in out


@pytest.mark.parametrize("raw", [b"", b"{", b"\xff\xfe", b"5", b'"text"', b"[" * 100_000])
def test_unreadable_input_exits_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], raw: bytes) -> None:
    code, out, err = run(tmp_path, capsys, None, raw=raw)
    assert code == 2 and out == ""
    assert err.startswith("replayable: error:") and err.count("\n") == 1 and "Traceback" not in err


def test_missing_file_and_bad_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "/no/such/file.json"]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["check"]) == 2
    assert main(["nonsense"]) == 2


def test_jsonl_response_and_request_body(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    jsonl = "\n".join(json.dumps(x) for x in [USER, CALL, OUT]).encode()
    assert run(tmp_path, capsys, None, raw=jsonl)[0] == 0
    response = {"object": "response", "status": "completed", "output": [{**CALL, "id": "fc_1", "status": "completed"}]}
    code, out, _ = run(tmp_path, capsys, response)
    assert code == 0 and "pending" in out  # a response's trailing calls are waiting to be executed
    tools = [
        {
            "type": "function",
            "name": "lookup",
            "parameters": {
                "type": "object",
                "properties": {"q": {"type": "string"}},
                "required": ["q"],
                "additionalProperties": False,
            },
        }
    ]
    body = {"model": "m", "input": [USER, CALL, OUT], "tools": tools}
    assert run(tmp_path, capsys, body)[0] == 0
    loose = [{**tools[0], "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}]
    code, out, _ = run(tmp_path, capsys, {**body, "tools": loose})
    assert code == 1 and "strict_schema_additional_properties" in out
    allowed = {
        **body,
        "tool_choice": {"type": "allowed_tools", "mode": "auto", "tools": [{"type": "function", "name": "other"}]},
    }
    code, out, _ = run(tmp_path, capsys, allowed)
    assert code == 1 and "tool_not_allowed" in out
    assert run(tmp_path, capsys, {"model": "m", "input": "hello"})[0] == 0


def test_tools_file_and_target(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps({"tools": [{"type": "function", "name": "other", "parameters": None}]}))
    code, out, _ = run(tmp_path, capsys, [USER, CALL, OUT], "--tools", str(tools))
    assert code == 1 and "unknown_tool" in out
    ws = {"type": "web_search_call", "id": "ws", "status": "completed", "action": {"type": "search", "query": "q"}}
    assert run(tmp_path, capsys, [USER, ws], "--provider", "openai", "--target", "openai")[0] == 0
    assert run(tmp_path, capsys, [USER, ws], "--provider", "openai", "--target", "acme")[0] == 1
    assert run(tmp_path, capsys, [USER, ws])[0] == 1  # strict mode: un-prefixed unknown type


def test_stdin_and_console_script(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "replayable", "check", "-", "--format", "json"],
        input=json.dumps([USER, CALL, OUT]),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["ok"] is True
    proc = subprocess.run(
        [sys.executable, "-m", "replayable", "check", "-"], input="{", capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
