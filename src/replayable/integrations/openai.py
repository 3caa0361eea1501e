"""Check every Responses request the `openai` SDK sends, before it leaves: httpx event hooks.

```python
import openai
from replayable.integrations.openai import event_hooks

client = openai.OpenAI(http_client=openai.DefaultHttpxClient(event_hooks=event_hooks()))
client.responses.create(model="gpt-5", input=stored_items)  # raises replayable.ReplayError if unsafe
```

A request hook runs inside the http client before the request is sent. For every `POST` whose path ends
in `/responses` (or `/responses/compact`, which sends a history too) the body is read with the library's
one strict JSON reader and checked with `check_transcript(body, provider=provider, target=target)`,
which reads the body's own `input` (and what `check_transcript` takes from a body, such as its
`previous_response_id`). An unsafe body raises `ReplayError` (its `.report` says why) and nothing is
sent; the SDK propagates the error without retrying it (it retries only connection errors, timeouts
and some status codes). Other requests pass untouched. The path test does not look at the host, so
the same hooks work for every server reached through the SDK's `base_url` (vLLM, Ollama, a proxy).

The hooks only read `request.method`, `request.url.path`, `request.headers` and the body, so they work
with any httpx-style client (`httpx`, `httpx2`, the SDK's own classes); nothing here imports `openai`
or `httpx`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from replayable._json import READER_DEPTH, JSONError, loads
from replayable.errors import ReplayError
from replayable.items import Provider
from replayable.reading import DocumentKind, read_document
from replayable.replay import TranscriptReport, Violation, ViolationCode, check_transcript

__all__ = ["async_event_hooks", "check_request_body", "event_hooks", "is_checked_request"]

#: Path endings of the requests that carry a history to check.
CHECKED_PATHS = ("/responses", "/responses/compact")


def is_checked_request(method: str, path: str) -> bool:
    """Whether a request is checked: a `POST` whose URL path ends in `/responses` or
    `/responses/compact` (a trailing slash ignored), whatever the host and prefix (`/v1`, `/openai/v1`)."""
    return method.upper() == "POST" and path.rstrip("/").endswith(CHECKED_PATHS)


def _refusal(message: str) -> ReplayError:
    report = TranscriptReport((Violation(None, ViolationCode.ITEM_INVALID, message),))
    return ReplayError(report)


def check_request_body(
    body: bytes, *, provider: Provider = "openai", target: str | None = None, content_encoding: str | None = None
) -> TranscriptReport:
    """Check one request body (the bytes about to be sent) and return the report when it is safe.

    The body is read with the strict reader (`replayable._json.loads`: no duplicate keys, no NaN) and
    checked with `check_transcript(body, provider=provider, target=target)`. Raises `ReplayError` when
    it is unsafe, and also (fail closed) when it cannot be read: compressed (`content_encoding` other
    than `identity`), not strict JSON, or not a request body; its `.report` then holds one
    `item_invalid` violation without an index that says why.
    """
    if content_encoding and content_encoding.strip().lower() not in ("", "identity"):
        raise _refusal(f"request body: cannot check a body sent with Content-Encoding {content_encoding!r}")
    try:
        value = loads(body, what="request body", max_depth=READER_DEPTH)
    except JSONError as exc:
        raise _refusal(f"{exc} (the request is not sent)") from None
    if not isinstance(value, dict):
        raise _refusal(f"request body: expected a JSON object, got {type(value).__name__} (the request is not sent)")
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
    if provider not in (None, "openai"):
        raise ValueError(f"provider must be None or 'openai', got {provider!r}")


def event_hooks(*, provider: Provider = "openai", target: str | None = None) -> dict[str, list[Callable[[Any], Any]]]:
    """Event hooks for a synchronous httpx client (`openai.DefaultHttpxClient(event_hooks=event_hooks())`).

    Returns `{"request": [hook], "response": []}`; add your own hooks to the lists. The hook checks every
    `POST .../responses` body with `check_request_body(body, provider=provider, target=target)` and
    raises `ReplayError` before anything is sent when it is unsafe. `provider="openai"` (the default)
    reads OpenAI's native items and shorthand messages, as the SDK sends them; `provider=None` holds
    the body to strict Open Responses. `target` is the slug of the server's provider: a namespaced item
    of another slug is a violation. Raises `ValueError` for a provider other than None or "openai".
    """
    _check_provider(provider)

    def check_responses_request(request: Any) -> None:
        if not is_checked_request(request.method, request.url.path):
            return
        body = request.read()
        encoding = request.headers.get("content-encoding")
        check_request_body(body, provider=provider, target=target, content_encoding=encoding)

    return {"request": [check_responses_request], "response": []}


def async_event_hooks(
    *, provider: Provider = "openai", target: str | None = None
) -> dict[str, list[Callable[[Any], Awaitable[None]]]]:
    """Event hooks for an async httpx client (`openai.DefaultAsyncHttpxClient(event_hooks=...)`); the same
    check as `event_hooks`, awaiting the body. Raises `ValueError` for a provider other than None or
    "openai"."""
    _check_provider(provider)

    async def check_responses_request(request: Any) -> None:
        if not is_checked_request(request.method, request.url.path):
            return
        body = await request.aread()
        encoding = request.headers.get("content-encoding")
        check_request_body(body, provider=provider, target=target, content_encoding=encoding)

    return {"request": [check_responses_request], "response": []}
