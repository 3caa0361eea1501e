"""`replayable.integrations.litellm.ReplayGuard` in the real LiteLLM: its SDK callback (the deployment hook
of `responses` / `aresponses`, also through the Anthropic bridge, and `acompletion`) and the proxy's
`async_pre_call_hook`. The network is a loopback HTTP server on 127.0.0.1 that records what reaches it."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no fetch of the cost map: no network
litellm = pytest.importorskip("litellm")

import replayable as rp  # noqa: E402
from replayable.integrations.litellm import ReplayGuard, target_for  # noqa: E402

USER = {"type": "message", "role": "user", "content": "What is 2+3?"}
CALL = {"type": "function_call", "call_id": "call_1", "name": "add", "arguments": '{"a": 2, "b": 3}'}
OUT = {"type": "function_call_output", "call_id": "call_1", "output": "5"}
GOOD = [USER, CALL, OUT]
TOOLS = [{"type": "function", "name": "add", "parameters": {"type": "object", "properties": {}}}]
#: Bad histories of the kinds the survey found: a dangling call, an orphan output, a duplicate output,
#: a second call with one call_id, an in_progress call replayed.
BAD = {
    "dangling": [USER, CALL, {"type": "message", "role": "user", "content": "never mind"}],
    "orphan": [USER, OUT],
    "duplicate_output": [USER, CALL, OUT, OUT],
    "duplicate_call": [USER, CALL, OUT, CALL, OUT],
    "in_progress": [USER, {**CALL, "status": "in_progress"}, OUT],
}
RESPONSE = {
    "id": "resp_1", "object": "response", "created_at": 1, "status": "completed", "model": "gpt-5",
    "output": [{"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
                "content": [{"type": "output_text", "text": "5", "annotations": []}]}],
    "usage": {"input_tokens": 1, "output_tokens": 1, "total_tokens": 2},
}
ANTHROPIC = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-x",
             "content": [{"type": "text", "text": "5"}], "stop_reason": "end_turn", "stop_sequence": None,
             "usage": {"input_tokens": 1, "output_tokens": 1}}
CHAT = {"id": "c", "object": "chat.completion", "created": 1, "model": "gpt-5",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "5"}}]}


class Recorder(BaseHTTPRequestHandler):
    seen: list[tuple[str, Any]] = []

    def do_POST(self) -> None:  # noqa: N802  (http.server's name)
        body = json.loads(self.rfile.read(int(self.headers["content-length"])))
        self.seen.append((self.path, body))
        reply = ANTHROPIC if self.path.endswith("/messages") else CHAT if "chat" in self.path else RESPONSE
        out = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_address[1]}"
    srv.shutdown()
    srv.server_close()


@pytest.fixture
def seen() -> Iterator[list[tuple[str, Any]]]:
    Recorder.seen = []
    yield Recorder.seen


def use(guard: ReplayGuard) -> None:
    litellm.callbacks = [guard]


@pytest.fixture(autouse=True)
def _no_callbacks() -> Iterator[None]:
    yield
    litellm.callbacks = []


def responses(server: str, items: list[Any], model: str = "openai/gpt-5", **kw: Any) -> Any:
    return litellm.responses(model=model, input=items, api_base=server + "/v1", api_key="k", **kw)


def aresponses(server: str, items: list[Any], model: str = "openai/gpt-5", **kw: Any) -> Any:
    base = server if model.startswith("anthropic/") else server + "/v1"
    return asyncio.run(litellm.aresponses(model=model, input=items, api_base=base, api_key="k", **kw))


@pytest.mark.parametrize("name", sorted(BAD))
def test_raise_refuses_bad_histories_before_they_leave(server: str, seen: list[Any], name: str) -> None:
    use(ReplayGuard())
    with pytest.raises(Exception) as info:
        responses(server, BAD[name])
    assert isinstance(info.value, rp.ReplayError) or "not replay-safe" in str(info.value)
    with pytest.raises(Exception, match="not replay-safe"):
        aresponses(server, BAD[name])
    assert seen == []


def test_good_histories_pass_unchanged(server: str, seen: list[Any]) -> None:
    use(ReplayGuard())
    responses(server, GOOD)
    aresponses(server, GOOD)
    assert [body["input"] for _, body in seen] == [GOOD, GOOD]


def test_through_the_anthropic_bridge(server: str, seen: list[Any]) -> None:
    use(ReplayGuard())
    with pytest.raises(Exception, match="function_call_without_output"):
        aresponses(server, BAD["dangling"], model="anthropic/claude-x", tools=TOOLS)
    assert seen == []
    aresponses(server, GOOD, model="anthropic/claude-x", tools=TOOLS)
    [(path, body)] = seen
    assert path.endswith("/messages") and body["messages"][1]["content"][0]["type"] == "tool_use"


def test_repair_sends_a_history_check_transcript_accepts(server: str, seen: list[Any],
                                                         caplog: pytest.LogCaptureFixture) -> None:
    use(ReplayGuard(mode="repair"))
    with caplog.at_level(logging.WARNING, logger="replayable"):
        for name in sorted(BAD):
            aresponses(server, BAD[name])
    assert len(seen) == len(BAD)
    for _, body in seen:
        assert rp.check_transcript(body["input"], provider="openai", target="openai").ok
    assert any("dropped" in r.getMessage() for r in caplog.records)


def test_repair_with_interrupted_output(server: str, seen: list[Any]) -> None:
    use(ReplayGuard(mode="repair", interrupted_output="interrupted"))
    responses(server, BAD["dangling"])
    [(_, body)] = seen
    assert body["input"][2] == {"type": "function_call_output", "call_id": "call_1", "output": "interrupted"}


def test_log_sends_unchanged_and_logs(server: str, seen: list[Any], caplog: pytest.LogCaptureFixture) -> None:
    use(ReplayGuard(mode="log"))
    with caplog.at_level(logging.WARNING, logger="replayable"):
        aresponses(server, BAD["orphan"])
    assert seen[0][1]["input"] == BAD["orphan"]
    assert [r.replayable["code"] for r in caplog.records if r.name == "replayable"] == [  # type: ignore[attr-defined]
        "output_without_function_call"
    ]


def test_chat_completions_messages(server: str, seen: list[Any]) -> None:
    use(ReplayGuard())
    orphan = [{"role": "user", "content": "hi"}, {"role": "tool", "tool_call_id": "c1", "content": "x"}]
    with pytest.raises(Exception, match="not replay-safe"):
        asyncio.run(litellm.acompletion(model="openai/gpt-5", messages=orphan, api_base=server + "/v1", api_key="k"))
    assert seen == []
    ok = [{"role": "user", "content": "hi"}]
    asyncio.run(litellm.acompletion(model="openai/gpt-5", messages=ok, api_base=server + "/v1", api_key="k"))
    assert seen[0][1]["messages"] == ok


def test_target_from_the_deployment() -> None:
    assert target_for("openai/gpt-5") == "openai"
    assert target_for("gpt-5", "azure") == "openai"
    assert target_for("anthropic/claude-x") == "anthropic"
    assert target_for("my-model-group") is None
    guard = ReplayGuard()
    # the openai profile refuses a null status on a message; anthropic's target has no such rule
    nulls = {"input": [{**USER, "status": None}], "model": "openai/gpt-5"}
    with pytest.raises(rp.ReplayError, match="null_not_accepted"):
        guard.check_request(nulls)
    assert guard.check_request({**nulls, "model": "anthropic/claude-x"}) is None
    assert ReplayGuard(target="acme").check_request(nulls) is None


def test_proxy_pre_call_hook() -> None:
    guard = ReplayGuard(guardrail_name="replayable", event_hook="pre_call", default_on=True)
    data = {"model": "gpt-5", "input": BAD["dangling"]}
    with pytest.raises(rp.ReplayError):
        asyncio.run(guard.async_pre_call_hook(None, None, data, "aresponses"))
    assert asyncio.run(guard.async_pre_call_hook(None, None, {"model": "gpt-5", "input": GOOD}, "aresponses")) is None
    repaired = asyncio.run(
        ReplayGuard(mode="repair").async_pre_call_hook(None, None, data, "aresponses")
    )
    assert repaired is not None and rp.check_transcript(repaired["input"]).ok
    # the proxy's config passes `mode: pre_call` (its event hook), not ours
    assert ReplayGuard(mode="pre_call").mode == "raise"  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        ReplayGuard(mode="fix")  # type: ignore[arg-type]
