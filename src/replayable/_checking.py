"""Checking a document of any kind: one table from the reader's kind to its checker, one record out.

`check_document(doc, options)` takes what the one reader made of an input (`replayable._reading`, e.g.
`read_file`) and runs the checker that `CHECKERS` lists for its kind; every checker returns the one
report the renderer renders (`replayable._render`: a record, one JSON object with one `findings` list):

- a list of items, one item, a request body, a Response (`items`, `item`, `request`, `response`): the
  replay rules (`replayable._replay`). A list of items with nothing to pair across (no `previous`) is
  validated and checked in batches (`check_transcript_iter`: same violations, bounded memory; each item validated
  once and kept with the JSON it came from, `replayable._item_read`), from memory or, for a JSONL that
  `read_file(lazy=True)` left open, one batch of lines at a time;
- stream events or an SSE capture (`events`): the streaming rules, then the replay rules of the items
  the stream assembles (`replayable.stream.check_stream`);
- an OpenAI Agents API event log (`agents_log`): `replayable.agents.check_event_log`;
- a file of tool definitions (`tools`): each linted with `check_tool`;
- a Codex session file (`codex_rollout`): the replay rules over its response items, in file order, each
  finding naming the file line of its item.

Progress is an observer (`CheckOptions.progress`): told how many items are to be checked and how many
are done, it never changes what is checked. This module adds no rule: it only routes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from replayable._findings import Finding
from replayable._item_read import Read, read_batch
from replayable._json import printable
from replayable._messages import said
from replayable._reading import Document, DocumentKind, InputError, is_event_list
from replayable._reading.files import BATCH_LINES, Input, document_of
from replayable._reading.places import Places
from replayable._render import agents_record, finding, placed, stream_record, tools_record, transcript_record
from replayable._replay import check_transcript, check_transcript_iter
from replayable._tool_lint import lint_tools
from replayable._tools import tool_index
from replayable.items import Provider

__all__ = [
    "CHECKERS",
    "NO_PROGRESS",
    "CheckOptions",
    "Progress",
    "Record",
    "agents_events",
    "check_agents_log",
    "check_codex_rollout",
    "check_document",
    "check_events",
    "check_items",
    "check_tools",
    "document_tools",
    "jsonl_items",
    "tools_of",
]

#: What every checker returns: a record of `replayable._render` (`transcript_record`, `stream_record`,
#: `agents_record`, `tools_record`), rendered as text, JSON, SARIF or GitHub annotations.
Record = dict[str, Any]


class Progress(Protocol):
    """An observer of a check's progress (the command line draws it on a terminal)."""

    def checking(self, total: int | None) -> None:
        """Checking starts: `total` items when known, else None (a JSONL read as it is checked)."""

    def advance(self, n: int, position: int | None = None) -> None:
        """`n` more items are checked; `position`: the bytes of the input read so far, when known."""


class _Silent:
    def checking(self, total: int | None) -> None:
        pass

    def advance(self, n: int, position: int | None = None) -> None:
        pass


#: The progress observer that observes nothing.
NO_PROGRESS: Progress = _Silent()


@dataclass(frozen=True, slots=True)
class CheckOptions:
    """What a check is asked for. `file` names the input in its record (the path as given), `name` in
    messages (escaped, `replayable._reading.display_name`). `tools` (function tools, with their lint
    `tool_findings`) replace the document's own when given (`--tools`); `target`, `provider`,
    `pending_ok` and `previous` (the response a request continues) are `check_transcript`'s; `progress`
    observes the check of a list of items."""

    file: str = "<input>"
    name: str = "<input>"
    tools: list[Any] | None = None
    tool_findings: Sequence[Finding] = ()
    target: str | None = None
    provider: Provider = None
    pending_ok: bool = False
    previous: Any = None
    progress: Progress = NO_PROGRESS


def check_document(doc: Document, options: CheckOptions) -> Record:
    """Check `doc` with the checker of its kind (`CHECKERS`) and return its record. Raises `InputError`
    for what cannot be checked as asked (`previous` with a stream or an Agents log, two tools sharing a
    name, a JSONL line that is not strict JSON), `StreamError` for an SSE capture whose framing cannot be
    read; bad items are findings, never errors. For a document read from a file (`read_file`), each
    finding of an item or event carries the `line` and `column` where it starts (`place`)."""
    return place(CHECKERS[doc.kind](doc, options), doc)


def place(record: Record, doc: Document) -> Record:
    """`record` with the line and column of each finding of an item or event of `doc` in the file it was
    read from (`replayable._render.placed`): from `doc.places`, or for an SSE capture from the stream
    reader's frame offsets. Scans the file's text only when a finding needs a place."""
    places = doc.places
    if places is None and isinstance(doc.value, bytes | bytearray) and doc.kind in _STREAMS:
        from replayable.stream._sse import event_offsets  # noqa: PLC0415  loaded only for a stream

        places = Places.frames(bytes(doc.value), event_offsets)
    if places is None or not any(f.get("index") is not None for f in record.get("findings", ())):
        return record
    return placed(record, places.at)


# --- transcripts ---------------------------------------------------------------------------------------


def check_items(doc: Document, options: CheckOptions) -> Record:
    """A transcript (`items`, `item`, `request`, `response`): the replay rules, with the request's tools
    (linted, listed first) or `options.tools` instead. A list of items without `previous` is checked in
    batches (`batched_items`), as `check_transcript_iter` reads them: the same violations, in bounded memory."""
    tools = document_tools(doc, options.name)
    findings: list[Finding] = []  # a request body's own tools are linted by the check (its body findings)
    if options.tools is not None:  # a --tools file replaces the request body's tools for its calls
        tools, findings = options.tools, list(options.tool_findings)
    if doc.kind is DocumentKind.ITEMS and options.previous is None:
        count = [0]
        report = check_transcript_iter(
            batched_items(doc, count, options.progress),
            tools=tools,
            target=options.target,
            provider=doc.provider,
            pending_ok=options.pending_ok,
        )
        return transcript_record(report, findings, count[0], options.file, str(doc.kind))
    report = check_transcript(
        doc,  # read once: check_transcript takes the reader's document as it is
        tools=tools,
        target=options.target,
        provider=options.provider,
        pending_ok=options.pending_ok,
        previous=options.previous,
    )
    return transcript_record(report, findings, len(doc.items), options.file, str(doc.kind))


def batched_items(doc: Document, count: list[int], progress: Progress = NO_PROGRESS) -> Iterator[Any]:
    """The items of a list of items for `check_transcript_iter`, read `BATCH_LINES` at a time (`read_batch`: each
    item validated once and kept with the JSON it came from, a `Read`): from a JSONL left open
    (`doc.source`) or from `doc.items`. `count[0]` counts them; `progress` is told of each batch."""
    if doc.source is not None:
        progress.checking(None)
        yield from _jsonl_reads(doc.source, doc.provider, count, progress)
        return
    values = doc.items
    count[0] = len(values)
    progress.checking(len(values))
    for start in range(0, len(values), BATCH_LINES):
        batch = values[start : start + BATCH_LINES]
        yield from read_batch(batch, doc.provider)
        progress.advance(len(batch))


def jsonl_items(
    inp: Input, provider: Provider, count: list[int] | None = None, progress: Progress | None = None
) -> Iterator[Any]:
    """The items of a JSONL input, in order: parsed items, or the JSON value itself where it does not
    parse or where check_transcript_iter must read it (and report its problems) one item at a time.

    Lines are read in batches (`Input.batches`) by the one strict reader, and a batch is validated by
    one call of a list adapter (`replayable._item_read.read_batch`: each item once, an item that does not
    parse kept as its value). So a JSONL of valid items costs about what parsing it in memory does, and
    check_transcript_iter sees the same items, reports the same violations (item index, field, rule) and raises
    the same `InputError` for a line that is not JSON as it would reading the values one by one. Values
    `check_transcript_iter` reads before parsing (not an object, a Chat Completions message, a call inside a
    message's content) are always yielded as they are; a line nested deeper than an item may is
    unreadable (`InputError`). `count[0]` counts the items; `progress` is told after each batch. The
    collector's state is left as the app set it."""
    for item in _jsonl_reads(inp, provider, count, progress):
        yield item if type(item) is not Read else item.value if item.model is None else item.model


def _jsonl_reads(
    inp: Input, provider: Provider, count: list[int] | None = None, progress: Progress | None = None
) -> Iterator[Any]:
    """`jsonl_items` with each item read kept with its JSON value (a `Read`), as `check_transcript_iter` takes it."""
    for values in inp.batches():
        if count is not None:
            count[0] += len(values)
        yield from read_batch(values, provider)
        if progress is not None:
            progress.advance(len(values), inp.tell())
        del values


# --- streams, Agents logs, tool definitions ---------------------------------------------------------------


def check_events(doc: Document, options: CheckOptions) -> Record:
    """A recorded stream (a list of events, or an SSE capture's bytes in `doc.value`): the streaming
    rules, then the replay rules of the items it assembles (`replayable.stream.check_stream`)."""
    _no_previous(options, "a stream")
    from replayable import stream  # noqa: PLC0415  the streaming models load only for a stream (import time)

    report = stream.check_stream(doc.value, provider=options.provider, tools=options.tools, target=options.target)
    found = next((f for f in report.findings if _agents_type(f.event_type)), None)
    if found is not None:  # an Agents API event in a Responses stream: the log door's refusal
        raise InputError(
            said(
                "{name} is an OpenAI Agents API event log (event {index} is an {type!r} event), not a Responses "
                "stream: check it with {option:agents}",
                name=options.name,
                index=found.index,
                type=printable(str(found.event_type)[:80]),
            )
        )
    return stream_record(report, options.file)


def _agents_type(t: Any) -> bool:
    return isinstance(t, str) and t.startswith("agent.")


def agents_events(doc: Document, name: str = "<events>", after_done: list[Finding] | None = None) -> list[Any]:
    """The events of an Agents API log document: its items, or, for an SSE capture (its bytes in
    `doc.value`), the events `replayable.stream.parse_sse` reads from it (OpenAI's framing: no
    `data: [DONE]` needed). Frames after a `data: [DONE]` are read as events too (checked, never dropped)
    and are themselves a fault: one `after_done_marker` finding is added to `after_done` when a list is
    given. Raises `InputError` for a capture of a Responses stream (every event a `response.*` one) and
    `StreamError` when the SSE framing cannot be read."""
    if isinstance(doc.value, bytes | bytearray | str) and not doc.items:
        from replayable.stream._sse import read_sse_through_done  # noqa: PLC0415
        from replayable.stream._stream_codes import StreamRule, StreamWarning  # noqa: PLC0415

        events, after, at, n = read_sse_through_done(doc.value, provider="openai")
        if is_event_list(events):  # checking it as a log would call every event unknown
            raise InputError(
                said(
                    "{name} is an SSE capture of a Responses stream, not an OpenAI Agents API event log: "
                    "check it without {option:agents}",
                    name=name,
                )
            )
        if after and after_done is not None:
            msg = (
                f"{after} SSE frame{'s' if after > 1 else ''} after data: [DONE] (the first at byte {at}, event {n}): "
                "the stream ended there; they are checked as events all the same"
            )
            after_done.append(StreamWarning(None, n, None, StreamRule.AFTER_DONE_MARKER, msg))
        return events
    return list(doc.items)


def check_agents_log(doc: Document, options: CheckOptions) -> Record:
    """An OpenAI Agents API event log (`replayable.agents.check_event_log`; JSONL, a JSON array or an SSE
    capture), its calls judged against `options.tools` when given (`--tools`). Its record has an `error`
    when nothing in it is an Agents API event."""
    _no_previous(options, "an Agents API event log")
    from replayable.agents import check_event_log  # noqa: PLC0415  the Agents models load only for a log

    after_done: list[Finding] = []
    events = agents_events(doc, options.name, after_done)
    record = agents_record(check_event_log(events, tools=options.tools), options.file)
    if after_done:  # frames after data: [DONE] in an SSE capture: a fault of the capture itself
        record["ok"] = False
        found = [finding("stream", f.index, str(f.code), f.message, "", "error") for f in after_done]
        record["findings"] = found + record["findings"]
        record["stream"] = [f.as_dict() for f in after_done]
    return record


def check_tools(doc: Document, options: CheckOptions) -> Record:
    """A file of tool definitions, each linted with `check_tool` (strict-mode rules, schemas that
    compile, unique names), as a `--tools` file is. Given `previous`, the file is the transcript it is
    given as (a request body listing only tools)."""
    if options.previous is not None:
        return check_items(document_of(doc.value, options.name, options.provider, streams=False), options)
    tools = tools_of(doc.value, options.name)
    return tools_record(lint_tools(tools, options.provider), len(tools), options.file)


def check_codex_rollout(doc: Document, options: CheckOptions) -> Record:
    """A Codex session file (`replayable._reading.rollout_document`): the replay rules over its
    `response_item` payloads in file order, as one history (what a resumed session sends back), with
    `options.tools` when given; each finding of an item is placed on the file line it was read from
    (`check_document` places it: `Document.places`).
    The items are read by OpenAI's reading unless `options.provider` says otherwise."""
    _no_previous(options, "a Codex session file")
    tools, findings = (options.tools, list(options.tool_findings)) if options.tools is not None else (None, [])
    report = check_transcript(
        doc.items,
        tools=tools,
        target=options.target,
        provider=options.provider or doc.provider,
        pending_ok=options.pending_ok,
    )
    return transcript_record(report, findings, len(doc.items), options.file, "codex_rollout")


def _no_previous(options: CheckOptions, what: str) -> None:
    if options.previous is not None:
        raise InputError(f"{options.name}: --previous applies to a request body or a list of items, not to {what}")


_STREAMS = (DocumentKind.EVENTS, DocumentKind.AGENTS_LOG)

#: The checker of each kind of document the reader makes (`replayable._reading.DocumentKind`).
CHECKERS: dict[DocumentKind, Callable[[Document, CheckOptions], Record]] = {
    DocumentKind.ITEMS: check_items,
    DocumentKind.ITEM: check_items,
    DocumentKind.REQUEST: check_items,
    DocumentKind.RESPONSE: check_items,
    DocumentKind.EVENTS: check_events,
    DocumentKind.AGENTS_LOG: check_agents_log,
    DocumentKind.TOOLS: check_tools,
    DocumentKind.CODEX_ROLLOUT: check_codex_rollout,
}


# --- tool definitions ---------------------------------------------------------------------------------------


def document_tools(doc: Document, name: str) -> list[Any] | None:
    """The function tools a document declares, as the reader limits them (`doc.tools`: hosted tools left
    out; None when it has no list of tools). Raises `InputError` naming the input `name` when two of its
    tools share a name (which one a call meant would be a guess)."""
    if doc.tools is not None:
        _one_name_each(doc.tool_list or [], name)
    return doc.tools


def _one_name_each(tools: list[Any], name: str) -> None:
    """Raise `InputError` naming the input `name` when two of `tools` (any shape `replayable._tools.read_tool`
    knows: Responses, Agents, Chat Completions, MCP) share a name."""
    try:
        tool_index([t for t in tools if isinstance(t, dict)])  # a bare schema among them is refused there
    except ValueError as exc:
        raise InputError(f"{name}: {exc}") from None


def tools_of(value: Any, name: str) -> list[Any]:
    """The tool definitions in a document: a JSON array of tools, one tool, or an object with a `tools`
    array (a request body). Raises `InputError` for anything else, or when two tools share a name."""
    if isinstance(value, dict) and isinstance(value.get("tools"), list):
        value = value["tools"]
    if isinstance(value, dict):
        value = [value]
    if not isinstance(value, list):
        raise InputError(f"{name}: expected a JSON array of tool definitions")
    _one_name_each(value, name)  # two tools with one name: an error, not a guess
    return value
