"""A non-streamed Response whose last item is `incomplete` must itself be
`incomplete`; a Chat Completions body is not a Responses request, on every entry point."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import replayable as rp

responses = pytest.importorskip("openai.types.responses", reason="the openai SDK is a dev dependency")

CUT = {"type": "message", "id": "msg_1", "role": "assistant", "status": "incomplete",
       "content": [{"type": "output_text", "text": "Once upon", "annotations": []}]}
DONE = {**CUT, "id": "msg_0", "status": "completed"}


def _response(status: str, output: list[dict[str, Any]]) -> dict[str, Any]:
    return {"id": "resp_1", "object": "response", "created_at": 1, "model": "gpt-x", "output": output,
            "parallel_tool_calls": True, "tool_choice": "auto", "tools": [], "status": status}


def _codes(report: rp.TranscriptReport) -> list[tuple[int | None, str, str]]:
    return [(v.index, str(v.code), v.path) for v in report.violations]


@pytest.mark.parametrize("form", ["dict", "model", "sdk"])
def test_a_response_ending_incomplete_must_be_incomplete(form: str) -> None:
    def read(body: dict[str, Any]) -> Any:
        if form == "model":
            return rp.parse_response(body, provider="openai")
        return responses.Response.model_validate(body) if form == "sdk" else body

    bad = _response("completed", [DONE, CUT])
    report = rp.check_transcript(read(bad), provider="openai")
    assert _codes(report) == [(1, "response_not_incomplete", "/status")]
    assert "'completed'" in report.violations[0].message
    assert rp.check_transcript(read(_response("incomplete", [DONE, CUT])), provider="openai").ok
    assert rp.check_transcript(read(_response("completed", [DONE])), provider="openai").ok


def test_only_a_whole_response_knows_its_status() -> None:
    # a bare output list has no response status to compare with; incomplete_not_last still applies
    assert rp.check_transcript([DONE, CUT], side="output").ok
    assert _codes(rp.check_transcript([CUT, DONE], side="output")) == [(0, "incomplete_not_last", "/status")]


def _cli(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "replayable", "check", *args, str(path)],
                          capture_output=True, text=True, check=False)


def test_cli_reports_the_response_status(tmp_path: Path) -> None:
    f = tmp_path / "resp.json"
    f.write_text(json.dumps(_response("completed", [DONE, CUT])))
    res = _cli(f, "--provider", "openai")
    assert res.returncode == 1 and "response_not_incomplete" in res.stdout
    f.write_text(json.dumps(_response("incomplete", [DONE, CUT])))
    assert _cli(f, "--provider", "openai").returncode == 0


CHAT = {"model": "gpt-x", "messages": [{"role": "user", "content": "hi"}]}


@pytest.mark.parametrize("form", ["dict", "text", "bytes"])
def test_parse_request_refuses_a_chat_completions_body(form: str) -> None:
    value: Any = {"dict": CHAT, "text": json.dumps(CHAT), "bytes": json.dumps(CHAT).encode()}[form]
    for provider in (None, "openai"):
        with pytest.raises(rp.ItemError) as err:
            rp.parse_request(value, provider=provider)  # type: ignore[arg-type]
        assert [(e["loc"], e["type"]) for e in err.value.errors] == [(("messages",), "chat_completions_body")]
        assert "from_chat_completions" in str(err.value)
    with pytest.raises(rp.ItemError, match="from_chat_completions"):
        rp.parse_compact_request(value)


def test_check_transcript_and_prepare_replay_refuse_a_chat_completions_body() -> None:
    with pytest.raises(rp.ItemError, match="from_chat_completions"):
        rp.check_transcript(CHAT)
    with pytest.raises(rp.ItemError, match="from_chat_completions"):
        rp.prepare_replay(CHAT, target="openai")
    # what the message says to do works
    converted = {"model": "gpt-x", "input": rp.dump_items(rp.from_chat_completions(CHAT["messages"]))}
    assert rp.check_transcript(rp.parse_request(converted)).ok


def test_cli_refuses_a_chat_completions_body(tmp_path: Path) -> None:
    f = tmp_path / "chat.json"
    f.write_text(json.dumps(CHAT))
    res = _cli(f)
    assert res.returncode == 2 and "from_chat_completions" in res.stderr
