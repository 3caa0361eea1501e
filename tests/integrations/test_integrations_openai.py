"""`replayable.integrations.openai.event_hooks()` / `async_event_hooks()` in the real `openai`
SDK's own http client classes. The network is an httpx `MockTransport` serving recorded response bodies
from ../shared/corpus; it counts what reaches it, so "nothing leaves" is checked, retries included."""

from __future__ import annotations

import asyncio
import copy
import gzip
import json
from typing import Any

import httpx
import httpx2
import openai
import pytest
from conftest import CORPUS, load, needs_corpus

import replayable as rp
from replayable.integrations.openai import (
    async_event_hooks,
    check_conversation_body,
    check_request_body,
    event_hooks,
    is_checked_request,
)

pytestmark = needs_corpus

#: Servers the SDK reaches through `base_url`: OpenAI, vLLM, Ollama, Hugging Face, Bedrock's OpenAI path.
BASE_URLS = [
    "https://api.openai.com/v1",
    "http://127.0.0.1:8000/v1",
    "http://localhost:11434/v1",
    "https://router.huggingface.co/v1",
    "https://bedrock-runtime.us-east-1.amazonaws.com/openai/v1",
]


def body(name: str) -> Any:
    return load(CORPUS / f"{name}.json")["body"]


def recorded_request() -> dict[str, Any]:
    """pai-03: a real request replaying a user message, a call (status null) and its output."""
    return copy.deepcopy(body("pai-03"))


class Server:
    """A MockTransport handler that answers every request with a recorded body and keeps each request."""

    def __init__(self, response: Any, *, status: int = 200, sse: bool = False) -> None:
        self.response, self.status, self.sse = response, status, sse
        self.requests: list[Any] = []

    def reply(self, request: Any, module: Any) -> Any:
        self.requests.append(request)
        if self.sse:
            text = "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in self.response)
            return module.Response(self.status, content=text.encode(), headers={"content-type": "text/event-stream"})
        return module.Response(self.status, json=self.response)

    def sync(self, request: Any) -> Any:
        return self.reply(request, httpx2)

    async def async_(self, request: Any) -> Any:
        return self.reply(request, httpx2)


def client(server: Server, base_url: str = BASE_URLS[0], **hook_kw: Any) -> openai.OpenAI:
    http = openai.DefaultHttpxClient(transport=httpx2.MockTransport(server.sync), event_hooks=event_hooks(**hook_kw))
    return openai.OpenAI(api_key="test", base_url=base_url, http_client=http, max_retries=3)


def async_client(server: Server, base_url: str = BASE_URLS[0], **hook_kw: Any) -> openai.AsyncOpenAI:
    transport = httpx2.MockTransport(server.async_)
    http = openai.DefaultAsyncHttpxClient(transport=transport, event_hooks=async_event_hooks(**hook_kw))
    return openai.AsyncOpenAI(api_key="test", base_url=base_url, http_client=http, max_retries=3)


# --- a safe request goes out unchanged ------------------------------------------------------------------


def test_a_recorded_request_goes_out_and_its_recorded_response_comes_back() -> None:
    server = Server(body("pai-01"))
    req = recorded_request()
    response = client(server).responses.create(**req)
    assert response.output_text == "The capital of France is Paris."
    (sent,) = server.requests
    assert sent.method == "POST" and sent.url.path == "/v1/responses"
    assert json.loads(sent.content)["input"] == req["input"]  # the hook read the body, and changed nothing


def test_a_response_replayed_through_the_sdk_is_checked_as_the_sdk_sends_it() -> None:
    """The SDK's own Response objects go back as input: a call without its output is refused, the same
    call answered goes out."""
    server = Server(body("pai-02"))
    c = client(server)
    user = {"role": "user", "content": "What is the capital of PotatoLand?"}
    first = c.responses.create(model="gpt-4o", input=[user])
    (call,) = first.output
    assert call.type == "function_call" and len(server.requests) == 1
    with pytest.raises(rp.ReplayError) as info:
        c.responses.create(model="gpt-4o", input=[user, *first.output])
    assert [(v.index, v.code) for v in info.value.report.violations] == [(1, "function_call_without_output")]
    assert len(server.requests) == 1
    answer = {"type": "function_call_output", "call_id": call.call_id, "output": "Potato City"}
    c.responses.create(model="gpt-4o", input=[user, *first.output, answer])
    assert len(server.requests) == 2


# --- an unsafe request never leaves -------------------------------------------------------------------


def orphaned_output_request() -> dict[str, Any]:
    req = recorded_request()
    del req["input"][1]  # the call: its output now answers nothing
    return req


@pytest.mark.parametrize("base_url", BASE_URLS)
def test_an_unsafe_request_raises_and_nothing_leaves_whatever_the_server(base_url: str) -> None:
    server = Server(body("vai-08"))  # a non-OpenAI server's recorded body (LM Studio)
    c = client(server, base_url)
    with pytest.raises(rp.ReplayError) as info:
        c.responses.create(**orphaned_output_request())
    assert server.requests == []  # not sent, and not retried (max_retries=3)
    report = info.value.report
    assert isinstance(report, rp.TranscriptReport)
    assert [(v.index, v.code) for v in report.violations] == [(1, "output_without_function_call")]
    assert "item 1: output_without_function_call" in str(info.value)
    c.responses.create(**recorded_request())  # the same client still sends a safe request
    assert len(server.requests) == 1 and server.requests[0].url.path.endswith("/responses")


def test_a_streamed_request_is_checked_before_it_is_sent() -> None:
    server = Server(body("pai-27"), sse=True)
    c = client(server)
    with pytest.raises(rp.ReplayError):
        c.responses.create(**dict(orphaned_output_request(), stream=True))
    assert server.requests == []
    events = list(c.responses.create(**dict(recorded_request(), stream=True)))
    assert events[-1].type == "response.completed" and len(server.requests) == 1


def test_a_compact_request_is_checked_too() -> None:
    server = Server(body("pai-24"))
    c = client(server)
    with pytest.raises(rp.ReplayError):
        c.responses.compact(model="gpt-5", input=orphaned_output_request()["input"])
    assert server.requests == []


def test_requests_that_carry_no_history_pass_untouched() -> None:
    server = Server(body("pai-01"))
    c = client(server)
    c.responses.retrieve("resp_1")  # a GET
    c.responses.cancel("resp_1")  # POST .../responses/resp_1/cancel
    assert [(r.method, r.url.path) for r in server.requests] == [
        ("GET", "/v1/responses/resp_1"),
        ("POST", "/v1/responses/resp_1/cancel"),
    ]


def test_target_refuses_another_providers_items() -> None:
    server = Server(body("pai-01"))
    req = recorded_request()
    req["input"].insert(1, {"type": "acme:note", "text": "kept by another provider"})
    with pytest.raises(rp.ReplayError) as info:
        client(server, target="openai").responses.create(**req)
    assert [(v.index, v.code) for v in info.value.report.violations] == [(1, "foreign_extension_item")]
    assert server.requests == []


def test_the_default_reads_openai_shorthand_and_strict_mode_does_not() -> None:
    server = Server(body("pai-01"))
    client(server).responses.create(**recorded_request())  # pai-03's user message has no `type`
    with pytest.raises(rp.ReplayError) as info:
        client(server, provider=None).responses.create(**recorded_request())
    assert [(v.index, v.code) for v in info.value.report.violations] == [(0, "item_invalid")]
    assert len(server.requests) == 1


# --- async ----------------------------------------------------------------------------------------------


def test_async_client_sends_a_safe_request_and_keeps_an_unsafe_one() -> None:
    server = Server(body("pai-01"))

    async def run() -> str:
        c = async_client(server, BASE_URLS[2])
        with pytest.raises(rp.ReplayError) as info:
            await c.responses.create(**orphaned_output_request())
        assert info.value.report.violations[0].code == "output_without_function_call"
        assert server.requests == []
        response = await c.responses.create(**recorded_request())
        await c.close()
        return response.output_text

    assert asyncio.run(run()) == "The capital of France is Paris."
    assert len(server.requests) == 1


def test_async_stream_is_checked_before_it_is_sent() -> None:
    server = Server(body("pai-27"), sse=True)

    async def run() -> list[str]:
        c = async_client(server)
        with pytest.raises(rp.ReplayError):
            await c.responses.create(**dict(orphaned_output_request(), stream=True))
        assert server.requests == []
        stream = await c.responses.create(**dict(recorded_request(), stream=True))
        types = [e.type async for e in stream]
        await c.close()
        return types

    assert asyncio.run(run())[-1] == "response.completed"
    assert len(server.requests) == 1


# --- any httpx-style client, and the body check itself -------------------------------------------------


def test_the_hooks_work_in_a_plain_httpx_client_too() -> None:
    seen: list[httpx.Request] = []

    def reply(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json=body("pai-01"))

    http = httpx.Client(transport=httpx.MockTransport(reply), event_hooks=event_hooks())
    c = openai.OpenAI(api_key="test", base_url=BASE_URLS[1], http_client=http, max_retries=2)
    with pytest.raises(rp.ReplayError):
        c.responses.create(**orphaned_output_request())
    assert seen == []
    c.responses.create(**recorded_request())
    assert len(seen) == 1


@pytest.mark.parametrize(
    ("method", "path", "checked"),
    [
        ("POST", "/v1/responses", True),
        ("post", "/openai/v1/responses/", True),
        ("POST", "/responses", True),
        ("POST", "/v1/responses/compact", True),
        ("GET", "/v1/responses", False),
        ("POST", "/v1/responses/resp_1/cancel", False),
        ("POST", "/v1/chat/completions", False),
        ("POST", "/v1/my_responses", False),
        ("POST", "/v1/conversations", True),
        ("POST", "/v1/conversations/conv_1/items", True),
        ("POST", "/openai/v1/conversations/conv_1/items/", True),
        ("POST", "/v1/conversations/conv_1", False),  # an update: metadata only
        ("GET", "/v1/conversations/conv_1/items", False),
        ("DELETE", "/v1/conversations/conv_1/items/msg_1", False),
        ("POST", "/v1/my_conversations", False),
    ],
)
def test_which_requests_are_checked(method: str, path: str, checked: bool) -> None:
    assert is_checked_request(method, path) is checked


def _added_items(raw: bytes) -> Any:
    return check_conversation_body(raw, conversation_id="conv_1")


@pytest.mark.parametrize(
    ("check", "raw", "words"),
    [
        (check_request_body, b'{"model": "m", "input": [], "model": "n"}', "duplicate key"),
        (check_request_body, b'{"model": "m", "input": [{"type": "message", "role": "user", "content": NaN}]}', "NaN"),
        (check_request_body, b"not json", "not valid JSON"),
        (check_request_body, b'["a list"]', "expected a JSON object"),
        (check_request_body, b'{"model": "m", "input": 5}', "input"),
        (_added_items, b'{"items": [], "items": []}', "duplicate key"),
        (_added_items, b"[]", "expected a JSON object"),
        (_added_items, b'{"items": 5}', "'items' must be a list of items, got int"),
        (_added_items, b'{"include": []}', "'items' must be a list of items, got nothing"),
        (check_conversation_body, b'{"items": null}', "'items' must be a list of items, got null"),
    ],
)
def test_an_unreadable_body_is_refused_not_sent(check: Any, raw: bytes, words: str) -> None:
    with pytest.raises(rp.ReplayError) as info:
        check(raw)
    (v,) = info.value.report.violations
    assert v.index is None and v.code == "item_invalid" and words in v.message


def test_a_compressed_body_is_refused_rather_than_waved_through() -> None:
    raw = json.dumps(recorded_request()).encode()
    assert check_request_body(raw).ok
    with pytest.raises(rp.ReplayError) as info:
        check_request_body(gzip.compress(raw), content_encoding="gzip")
    assert "Content-Encoding 'gzip'" in str(info.value)
    with pytest.raises(rp.ReplayError) as info:
        check_conversation_body(gzip.compress(b'{"items": []}'), content_encoding="gzip")
    assert "Content-Encoding 'gzip'" in str(info.value)


def test_a_bad_provider_is_refused_when_the_hooks_are_made() -> None:
    with pytest.raises(ValueError, match="provider"):
        event_hooks(provider="anthropic")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="provider"):
        async_event_hooks(provider="anthropic")  # type: ignore[arg-type]


# --- the Conversations API: items added to a conversation are checked as a request continuing it ---------

ITEM_LIST = {"object": "list", "data": [], "first_id": "", "last_id": "", "has_more": False}
CONVERSATION = {"id": "conv_1", "object": "conversation", "created_at": 1, "metadata": {}}
CALL = {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"}
OUTPUT = {"type": "function_call_output", "call_id": "c1", "output": "done"}
USER = {"type": "message", "role": "user", "content": "hi"}


def _codes(info: Any) -> list[tuple[int | None, str]]:
    return [(v.index, v.code) for v in info.value.report.violations]


def test_items_added_to_a_conversation_are_checked_before_they_are_sent() -> None:
    server = Server(ITEM_LIST)
    c = client(server)
    unsafe = [USER, {**CALL, "arguments": '{"a":1,"a":2}', "status": "completed"}, OUTPUT]
    with pytest.raises(rp.ReplayError) as info:
        c.conversations.items.create("conv_1", items=unsafe)
    want = [(v.index, v.code) for v in rp.check_transcript(unsafe, provider="openai").violations]
    assert _codes(info) == want == [(1, "arguments_parse")]  # the verdict of check_transcript on the items
    chat = [USER, {"role": "assistant", "content": "x", "tool_calls": [{"id": "c1"}]}]
    with pytest.raises(rp.ReplayError) as info:
        c.conversations.items.create("conv_1", items=chat)
    # api.openai.com: OpenAI's profile applies (the target read from the host), which refuses the key too
    assert _codes(info) == [(1, "chat_completions_envelope"), (1, "field_not_accepted")]
    assert [(v.index, v.code) for v in rp.check_transcript(chat, provider="openai", target="openai").violations] == (
        _codes(info)
    )
    assert server.requests == []
    c.conversations.items.create("conv_1", items=[USER, CALL, OUTPUT])
    (sent,) = server.requests
    assert sent.url.path == "/v1/conversations/conv_1/items" and json.loads(sent.content)["items"][0] == USER


def test_an_output_added_to_a_conversation_may_answer_a_call_it_holds() -> None:
    """The conversation holds the call (the server added it from a response): the output continues it, as a
    `/responses` request with `conversation` (or `previous_response_id`) does; a call added without its
    output is refused as in any request."""
    server = Server(ITEM_LIST)
    c = client(server)
    c.conversations.items.create("conv_1", items=[OUTPUT])
    with pytest.raises(rp.ReplayError) as info:
        c.conversations.items.create("conv_1", items=[USER, CALL])
    assert _codes(info) == [(1, "function_call_without_output")]
    responses = client(Server(body("pai-01")))
    responses.responses.create(model="gpt-5", conversation="conv_1", input=[OUTPUT])  # the same continuation
    assert len(server.requests) == 1


def test_a_new_conversations_items_are_checked_as_a_transcript() -> None:
    server = Server(CONVERSATION)
    c = client(server, target="openai")
    with pytest.raises(rp.ReplayError) as info:
        c.conversations.create(items=[USER, OUTPUT])  # nothing before it: the output answers nothing
    assert _codes(info) == [(1, "output_without_function_call")]
    with pytest.raises(rp.ReplayError) as info:
        c.conversations.create(items=[USER, {"type": "acme:note", "text": "x"}])
    assert _codes(info) == [(1, "foreign_extension_item")]
    assert server.requests == []
    c.conversations.create(items=[USER, CALL, OUTPUT])
    c.conversations.create(metadata={"topic": "none"})  # no items: nothing to check
    c.conversations.update("conv_1", metadata={"topic": "x"})  # not checked: it adds no item
    assert [r.url.path for r in server.requests] == ["/v1/conversations", "/v1/conversations", "/v1/conversations/conv_1"]


def test_async_conversation_items_are_checked_too() -> None:
    server = Server(ITEM_LIST)

    async def run() -> None:
        c = async_client(server)
        with pytest.raises(rp.ReplayError) as info:
            await c.conversations.items.create("conv_1", items=[USER, CALL])
        assert _codes(info) == [(1, "function_call_without_output")]
        with pytest.raises(rp.ReplayError):
            await c.conversations.create(items=[OUTPUT])
        assert server.requests == []
        await c.conversations.items.create("conv_1", items=[USER, CALL, OUTPUT])
        await c.close()

    asyncio.run(run())
    assert len(server.requests) == 1


@pytest.mark.parametrize("conversation_id", ["conv_1", "a/b", "a%2Fb", "../responses"])
def test_items_added_to_a_conversation_whose_id_holds_escapes_are_checked(conversation_id: str) -> None:
    server = Server(ITEM_LIST)
    c = client(server)
    unsafe = [{"type": "function_call_output", "call_id": "nowhere", "output": "x"}, {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{"}]
    with pytest.raises(rp.ReplayError):
        c.conversations.items.create(conversation_id, items=unsafe)
    assert server.requests == []
