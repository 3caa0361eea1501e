"""Check every Responses request the `openai` SDK sends, before it leaves: httpx event hooks.

```python
import openai
from replayable.integrations.openai import event_hooks

client = openai.OpenAI(http_client=openai.DefaultHttpxClient(event_hooks=event_hooks()))
client.responses.create(model="gpt-5", input=stored_items)  # raises replayable.ReplayError if unsafe
```

A request hook runs inside the http client before the request is sent. Every request that sends items
a model will read is checked, each body read with the library's one strict JSON reader:

- `POST .../responses` (and `.../responses/compact`, which sends a history too): checked with
  `check_transcript(body, provider=provider, target=target)`, which reads the body's own `input` (and
  what `check_transcript` takes from a body: its tools, its `previous_response_id` or `conversation`).
- `POST .../conversations/{id}/items` (`client.conversations.items.create(id, items=[...])`, the
  Conversations API): the `items` are added to a stored conversation, so they are checked as a request
  continuing that conversation, `check_transcript({"conversation": id, "input": items})`: the verdict of
  `check_transcript(items)`, except that an output may answer a call the conversation already holds.
- `POST .../conversations` (`client.conversations.create(items=[...])`): a new conversation's `items`,
  checked with `check_transcript(items)`.

An unsafe body raises `ReplayError` (its `.report` says why, indexes into `input` or `items`) and nothing
is sent; the SDK propagates the error without retrying it (it retries only connection errors, timeouts
and some status codes). With `mode="repair"` the repaired body is sent instead, with `mode="log"` the
body unchanged, each finding logged (`replayable.integrations._modes`). Other requests pass untouched.
The path test does not look at the host, so the same hooks work for every server reached through the
SDK's `base_url` (vLLM, Ollama, a proxy); the host only decides the default `target` (`openai` for
OpenAI's and Azure OpenAI's hosts, so OpenAI's own rules, such as the nulls of openai-python#3008,
apply there; none elsewhere).

The hooks only read `request.method`, `request.url.raw_path` and `.path`, `request.headers` and the
body, so they work with any httpx-style client (`httpx`, `httpx2`, the SDK's own classes); nothing here imports `openai`
or `httpx`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import unquote

from replayable._base import checked_provider
from replayable._json import READER_DEPTH, JSONError, loads
from replayable._profiles import check_target
from replayable._reading import DocumentKind, read_document
from replayable._replay import TranscriptReport, Violation, ViolationCode, check_transcript
from replayable.errors import ReplayError
from replayable.integrations._modes import LOGGER, Mode, check_mode, guard_items
from replayable.items import Provider

__all__ = [
    "async_event_hooks",
    "check_conversation_body",
    "check_request_body",
    "event_hooks",
    "is_checked_request",
    "target_for_host",
]

#: Path endings of the Responses requests that carry a history to check.
CHECKED_PATHS = ("/responses", "/responses/compact")
#: Path endings of the Conversations API requests that add items: a new conversation, items added to one.
_CONVERSATION = re.compile(r"/conversations(?:/(?P<id>[^/]+)/items)?$")


def _route(method: str, path: str) -> tuple[str, str | None] | None:
    """`("responses", None)`, `("conversation", None)` (a new one), `("conversation", id)` (items added to
    conversation `id`), or None for a request that is not checked."""
    if method.upper() != "POST":
        return None
    path = path.rstrip("/")
    if path.endswith(CHECKED_PATHS):
        return "responses", None
    m = _CONVERSATION.search(path)
    if m is None:
        return None
    return "conversation", None if m["id"] is None else unquote(m["id"])


def _request_route(request: Any) -> tuple[str, str | None] | None:
    """The route of an httpx request, matched on its path as sent (`url.raw_path`, percent-escapes kept:
    a conversation id holding `%2F` is one segment, as the server reads it) and, failing that, on its
    decoded path (`url.path`: a server that decodes `%73` reaches `/responses` all the same)."""
    url = request.url
    raw = getattr(url, "raw_path", None)
    if isinstance(raw, bytes):
        route = _route(request.method, raw.decode("ascii", "replace").split("?", 1)[0])
        if route is not None:
            return route
    return _route(request.method, url.path)


def is_checked_request(method: str, path: str) -> bool:
    """Whether a request is checked: a `POST` whose URL path ends in `/responses`, `/responses/compact`,
    `/conversations` or `/conversations/{id}/items` (a trailing slash ignored), whatever the host and
    prefix (`/v1`, `/openai/v1`)."""
    return _route(method, path) is not None


def _refusal(message: str) -> ReplayError:
    report = TranscriptReport((Violation(None, ViolationCode.ITEM_INVALID, message),))
    return ReplayError(report)


def _read_body(body: bytes, content_encoding: str | None) -> dict[str, Any]:
    """The body as a JSON object, read strictly; `ReplayError` (fail closed) when it cannot be read."""
    if content_encoding and content_encoding.strip().lower() not in ("", "identity"):
        raise _refusal(f"request body: cannot check a body sent with Content-Encoding {content_encoding!r}")
    try:
        value = loads(body, what="request body", max_depth=READER_DEPTH)
    except JSONError as exc:
        raise _refusal(f"{exc} (the request is not sent)") from None
    if not isinstance(value, dict):
        raise _refusal(f"request body: expected a JSON object, got {type(value).__name__} (the request is not sent)")
    return value


def check_conversation_body(
    body: bytes,
    *,
    conversation_id: str | None = None,
    provider: Provider = "openai",
    target: str | None = None,
    content_encoding: str | None = None,
) -> TranscriptReport:
    """Check the body of a Conversations API request that adds items (the bytes about to be sent) and
    return the report when it is safe.

    `conversation_id` None: `POST /conversations` (a new conversation; `items` optional), checked with
    `check_transcript(items, provider=provider, target=target)`. Else `POST /conversations/{id}/items`
    (`items` required): the items follow what the conversation holds, so they are checked as a request
    continuing it, `check_transcript({"conversation": conversation_id, "input": items}, ...)` (an output
    may answer a call stored earlier; it is listed in `.external`). Raises `ReplayError` when they are
    unsafe (indexes into `items`), and also (fail closed) when the body cannot be read: compressed, not
    strict JSON, not an object, or `items` that is not a list; its `.report` then holds one
    `item_invalid` violation without an index that says why.
    """
    value = _read_body(body, content_encoding)
    items = value.get("items")
    if items is None and conversation_id is None and "items" not in value:
        return TranscriptReport(())  # a conversation created empty: nothing to check
    if not isinstance(items, list):
        got = "nothing" if "items" not in value else "null" if items is None else type(items).__name__
        raise _refusal(f"request body: 'items' must be a list of items, got {got} (the request is not sent)")
    data: Any = items if conversation_id is None else {"conversation": conversation_id, "input": items}
    try:
        report = check_transcript(data, provider=provider, target=target)
    except ValueError as exc:  # ItemError and the like
        raise _refusal(f"request body: {exc} (the request is not sent)") from None
    return report.raise_for_violations()


def check_request_body(
    body: bytes, *, provider: Provider = "openai", target: str | None = None, content_encoding: str | None = None
) -> TranscriptReport:
    """Check one request body (the bytes about to be sent) and return the report when it is safe.

    The body is read with the strict reader (docs/strict-json.md: no duplicate keys, no NaN) and
    checked with `check_transcript(body, provider=provider, target=target)`. Raises `ReplayError` when
    it is unsafe, and also (fail closed) when it cannot be read: compressed (`content_encoding` other
    than `identity`), not strict JSON, or not a request body; its `.report` then holds one
    `item_invalid` violation without an index that says why.
    """
    value = _read_body(body, content_encoding)
    try:
        doc = read_document(value, provider=provider, text=False)  # the one reader, as check_transcript's
    except ValueError as exc:  # ItemError: no request body, or `input` is not a list of items
        raise _refusal(f"request body: {exc} (the request is not sent)") from None
    if doc.kind is not DocumentKind.REQUEST:
        raise _refusal(f"request body: expected a request body, got one {doc.kind} (the request is not sent)")
    try:
        report = check_transcript(doc, provider=provider, target=target)
    except ValueError as exc:  # ItemError and the like: `input` is not a list of items
        raise _refusal(f"request body: {exc} (the request is not sent)") from None
    return report.raise_for_violations()


def _check_provider(provider: Provider) -> None:
    checked_provider(provider)


#: Hosts whose requests go to OpenAI's own API (OpenAI's, and Azure OpenAI's resource endpoints, which
#: serve the same Responses API: `{resource}.openai.azure.com`, `{resource}.cognitiveservices.azure.com`).
OPENAI_HOSTS = ("api.openai.com",)
OPENAI_HOST_SUFFIXES = (".openai.azure.com", ".cognitiveservices.azure.com")


def target_for_host(host: str) -> str | None:
    """The target a request to `host` is checked for when `event_hooks()` is given no `target`: `openai`
    for OpenAI's and Azure OpenAI's hosts (`OPENAI_HOSTS`, `OPENAI_HOST_SUFFIXES`), else None (no
    provider rules: a self-hosted server, a proxy, another provider's compatible endpoint)."""
    host = host.lower().rstrip(".")
    return "openai" if host in OPENAI_HOSTS or host.endswith(OPENAI_HOST_SUFFIXES) else None


#: `target` not given: read it from each request's host (`target_for_host`).
_FROM_HOST: Any = object()


def _guard(
    request: Any,
    body: bytes,
    provider: Provider,
    target: str | None,
    mode: Mode,
    interrupted_output: str | None,
) -> bytes | None:
    """Check the body of a checked request as `mode` says: None to send it as it is, else the repaired
    body. Raises `ReplayError` to refuse it."""
    route = _request_route(request)
    if route is None:
        return None
    if target is _FROM_HOST:
        target = target_for_host(str(request.url.host))
    kind, conversation_id = route
    try:
        value = _read_body(body, request.headers.get("content-encoding"))
        if kind == "responses":
            key = "input"
            try:
                data: Any = read_document(value, provider=provider, text=False)
            except ValueError as exc:  # ItemError: no request body, or `input` is not a list of items
                raise _refusal(f"request body: {exc} (the request is not sent)") from None
            if data.kind is not DocumentKind.REQUEST:
                raise _refusal(f"request body: expected a request body, got one {data.kind} (the request is not sent)")
        else:
            key = "items"
            items = value.get("items")
            if items is None and conversation_id is None and "items" not in value:
                return None  # a conversation created empty: nothing to check
            if not isinstance(items, list):
                got = "nothing" if "items" not in value else "null" if items is None else type(items).__name__
                raise _refusal(f"request body: 'items' must be a list of items, got {got} (the request is not sent)")
            data = items if conversation_id is None else {"conversation": conversation_id, "input": items}
        try:
            guarded = guard_items(
                data, mode=mode, provider=provider, target=target, interrupted_output=interrupted_output,
            )
        except ReplayError:
            raise
        except ValueError as exc:  # ItemError and the like
            raise _refusal(f"request body: {exc} (the request is not sent)") from None
    except ReplayError as exc:
        if mode != "log":
            raise
        LOGGER.warning("%s %s: %s (sent unchanged)", request.method, request.url.path, exc)
        return None
    if guarded.items is None:
        return None
    return json.dumps({**value, key: guarded.items}, ensure_ascii=False, separators=(",", ":")).encode()


def _replace_body(request: Any, body: bytes) -> None:
    """Send `body` instead of what `request` held: its stream (the class httpx made of the body it read),
    its read content and its Content-Length."""
    request.stream = type(request.stream)(body)
    if hasattr(request, "_content"):
        request._content = body
    request.headers["Content-Length"] = str(len(body))


def event_hooks(
    *,
    provider: Provider = "openai",
    target: str | None = _FROM_HOST,
    mode: Mode = "raise",
    interrupted_output: str | None = None,
) -> dict[str, list[Callable[[Any], Any]]]:
    """Event hooks for a synchronous httpx client (`openai.DefaultHttpxClient(event_hooks=event_hooks())`).

    Returns `{"request": [hook], "response": []}`; add your own hooks to the lists. The hook checks every
    `POST .../responses` body with `check_transcript(body, provider=provider, target=target)`, and the
    items of `POST .../conversations` and `POST .../conversations/{id}/items` as
    `check_conversation_body` does, before anything is sent. `mode` says what an unsafe body gets
    (`replayable.integrations._modes`): `"raise"` refuses it with `ReplayError` (nothing is sent),
    `"repair"` sends what `prepare_replay(..., interrupted_output=interrupted_output)` makes of its
    `input` (or `items`) and logs what changed, `"log"` sends it unchanged and logs each finding (a
    body that cannot be read at all is logged too).
    `provider="openai"` (the default) reads OpenAI's native items and shorthand messages, as the SDK
    sends them; `provider=None` holds the body to strict Open Responses. `target` is the slug of the
    server's provider (a namespaced item of another slug is a violation, and the slug's profile applies);
    not given, it is read from each request's host (`target_for_host`: `openai` for OpenAI's and Azure
    OpenAI's hosts, else None). Raises `ValueError` for a provider other than None or "openai", a bad
    `target` or `mode`.
    """
    _check_provider(provider)
    _check_options(target, mode)

    def check_responses_request(request: Any) -> None:
        if _request_route(request) is None:
            return
        body = _guard(request, request.read(), provider, target, mode, interrupted_output)
        if body is not None:
            _replace_body(request, body)

    return {"request": [check_responses_request], "response": []}


def _check_options(target: Any, mode: Any) -> None:
    check_mode(mode)
    if target is not _FROM_HOST:
        check_target(target)


def async_event_hooks(
    *,
    provider: Provider = "openai",
    target: str | None = _FROM_HOST,
    mode: Mode = "raise",
    interrupted_output: str | None = None,
) -> dict[str, list[Callable[[Any], Awaitable[None]]]]:
    """Event hooks for an async httpx client (`openai.DefaultAsyncHttpxClient(event_hooks=...)`); the same
    check as `event_hooks` (with its `target`, `mode` and `interrupted_output`), awaiting the body.
    Raises `ValueError` as `event_hooks` does."""
    _check_provider(provider)
    _check_options(target, mode)

    async def check_responses_request(request: Any) -> None:
        if _request_route(request) is None:
            return
        body = _guard(request, await request.aread(), provider, target, mode, interrupted_output)
        if body is not None:
            _replace_body(request, body)

    return {"request": [check_responses_request], "response": []}
