"""A conversation as a timeline: one row per item (or event, or tool) of a document, with its findings.

`timeline(doc, record)` takes what the one reader made of an input (`replayable._reading`, e.g.
`read_file`) and the record its check made of it (`replayable._checking.check_document`, the record
`replayable check --format json` prints), and returns a `Timeline`: one `Row` per item of a transcript
(a list of items, one item, a request body's `input`, a Response's `output`; for a recorded stream, the
items it assembles), per event of an Agents API log, or per tool of a file of tool definitions. Each row
says what the item is (its index, `type`, `role` or `name`, `call_id`, `status` and a short text) and
which row it pairs with: a call and the output that answers it point at each other, paired as the replay
rules pair them (`replayable._families`: the call family's pairing key, byte for byte). Every finding of
the record sits on the row of its item (a stream rule's finding on the item its event is about, by
`output_index`); the findings of no item (the document, a tool of a body, a stream event about no item)
are the timeline's `general` entries. The findings are the record's own, so the timeline says exactly
what `replayable check` says.

The renderers (`replayable._timeline_render`: a terminal table, a self-contained HTML page) read a
timeline by its attributes; `replayable show FILE` is read, check, then render.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from replayable._families import CallFamily, by_call_type, by_output_type
from replayable._reading import Document, DocumentKind
from replayable._render import text_report
from replayable.errors import ReplayableError

__all__ = ["TEXT_LIMIT", "Row", "Timeline", "timeline"]

#: Longest text a row keeps (characters); the renderers may shorten it further.
TEXT_LIMIT = 400

Finding = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Row:
    """One item (event, tool) of a timeline.

    `index` is its position in the document (the `item N` / `event N` of the findings), `type` its `type`
    (`message` for a message given without one, the JSON type's name for a value that is not an object),
    `who` its `role` or `name` (or both: `assistant`, `get_weather`), `call_id` its pairing key (a call's
    `call_id`, an approval request's `id`), `status` its `status`, `text` a one-line extract of what it
    says (at most `TEXT_LIMIT` characters). `pair` is the index of the row it is paired with and `pair_kind`
    says which side this row is (`call`, `output`; `related` in an Agents log, where rows that share a
    `call_id` point at the first one), both empty when unpaired. `pending`: a call left awaiting its output.
    `findings` are the record's findings on this item (each `{where, index, code, message, path, severity}`)."""

    index: int
    type: str
    who: str = ""
    call_id: str = ""
    status: str = ""
    text: str = ""
    pair: int | None = None
    pair_kind: str = ""
    pending: bool = False
    findings: tuple[Finding, ...] = ()

    @property
    def worst(self) -> str:
        """`error` when a finding on this row blocks, `note` when it has only notes, else ``""``."""
        if any(f.get("severity") == "error" for f in self.findings):
            return "error"
        return "note" if self.findings else ""


@dataclass(frozen=True, slots=True)
class Timeline:
    """A document as rows. `file` is the input as given, `kind` the record's kind (`items`, `item`,
    `request`, `response`, `stream`, `agents`, `tools`), `unit` what a row is (`item`, `event`, `tool`),
    `ok` the verdict (True: replay-safe), `verdict` the verdict line `replayable check` prints for it,
    `rows` the rows in document order, `general` the findings on no row as `(where, finding)` pairs
    (`where`: `document`, `previous response`, `tool 2`, `event 7`, `stream`)."""

    file: str
    kind: str
    unit: str
    ok: bool
    verdict: str
    rows: tuple[Row, ...]
    general: tuple[tuple[str, Finding], ...] = ()

    @property
    def findings(self) -> int:
        """How many findings the timeline shows (on rows and general)."""
        return sum(len(r.findings) for r in self.rows) + len(self.general)


def timeline(doc: Document, record: Mapping[str, Any]) -> Timeline:
    """The timeline of `doc` with the findings of `record`, its check (`checking.check_document(doc, ...)`,
    possibly worded for the command line by `render.worded`).

    `doc` must hold its items in memory: read it with `read_file(path, lazy=False)` (the default), not a
    JSONL left open. For a recorded stream (kind `events`) the items are those the stream assembles
    (`replayable.stream.check_stream`, as the check assembled them), and an Agents log given as an SSE
    capture is read into its events (`checking.agents_events`). Raises `ReplayableError` (a `ValueError`)
    when `record` is an unreadable input's record (it has an `error`) or `doc` is a JSONL left open. Values that are not
    JSON objects become rows of their JSON type, never an error."""
    if record.get("error"):
        raise ReplayableError(f"no timeline of an unreadable input: {record['error']}")
    if doc.source is not None:
        raise ReplayableError("the document is a JSONL left open (lazy=True): read it whole for a timeline")
    findings: list[Finding] = list(record.get("findings", ()))
    kind = str(record.get("kind", doc.kind))
    general: list[tuple[str, Finding]] = []
    if doc.kind is DocumentKind.AGENTS_LOG:
        from replayable._checking import agents_events  # noqa: PLC0415  (the Agents models load only for a log)

        values, unit, place = agents_events(doc, str(record.get("file"))), "event", _on_event
    elif doc.kind is DocumentKind.TOOLS:
        values, unit, place = _tools(doc.value), "tool", _on_tool
    elif doc.kind is DocumentKind.EVENTS:
        values, unit = _stream_items(doc), "item"
        place = _on_stream(_events(doc))
    else:
        values, unit, place = list(doc.items), "item", _on_item
    values = [_plain(v) for v in values]
    on_row: dict[int, list[Finding]] = {}
    for f in findings:
        n, where = place(f, len(values))
        if n is None:
            general.append((where, f))
        else:
            on_row.setdefault(n, []).append(f)
    # a transcript's pending calls are item indexes; an Agents log's, `{index, type, call_id, ...}` objects
    pending = {p.get("index") if isinstance(p, Mapping) else p for p in record.get("pending", ()) or ()}
    pairs = _agents_pairs(values) if unit == "event" else _pairs(values) if unit == "item" else {}
    rows = tuple(
        _row(n, v, pairs.get(n, (None, "")), n in pending, tuple(on_row.get(n, ())), unit) for n, v in enumerate(values)
    )
    return Timeline(
        file=str(record.get("file")),
        kind=kind,
        unit=unit,
        ok=bool(record.get("ok")),
        verdict=text_report(dict(record)).splitlines()[-1],
        rows=rows,
        general=tuple(general),
    )


# --- where a finding goes ------------------------------------------------------------------------------------


def _on_item(f: Finding, n_rows: int) -> tuple[int | None, str]:
    index = f.get("index")
    if f.get("where") == "item" and isinstance(index, int) and 0 <= index < n_rows:
        return index, "item"
    return None, _general_place(f)


def _on_event(f: Finding, n_rows: int) -> tuple[int | None, str]:
    index = f.get("index")
    if isinstance(index, int) and 0 <= index < n_rows:
        return index, "event"
    return None, _general_place(f)


def _on_tool(f: Finding, n_rows: int) -> tuple[int | None, str]:
    n = _tool_number(f)
    if n is not None and n < n_rows:
        return n, "tool"
    return None, _general_place(f)


def _on_stream(events: list[Any] | None) -> Any:
    """Place a stream record's findings: an item's on its row; a stream rule's on the row of the item its
    event names (`output_index`), else `event N` (or `stream` for one of no event)."""

    def place(f: Finding, n_rows: int) -> tuple[int | None, str]:
        if f.get("where") != "stream":
            return _on_item(f, n_rows)
        index = f.get("index")
        if not isinstance(index, int):
            return None, "stream"
        event = events[index] if events is not None and 0 <= index < len(events) else None
        out = event.get("output_index") if isinstance(event, Mapping) else None
        if type(out) is int and 0 <= out < n_rows:
            return out, "item"
        return None, f"event {index}"

    return place


def _general_place(f: Finding) -> str:
    path = str(f.get("path") or "")
    if f.get("where") == "tools":
        n = _tool_number(f)
        return "tools" if n is None else f"tool {n}"
    if f.get("where") == "document" and path.startswith("/tools/"):  # a request body's tool (the check's lint)
        step = path.split("/", 3)[2]
        return f"tool {step}" if step.isdigit() else "tools"
    if f.get("where") == "document" and path.startswith("/previous/"):
        step = path.split("/", 3)[2]
        return f"previous response item {step}" if step.isdigit() else "previous response"
    index = f.get("index")
    where = str(f.get("where") or "document")
    return where if index is None else f"{where} {index}"


def _tool_number(f: Finding) -> int | None:
    parts = str(f.get("path") or "").split("/")
    if len(parts) > 2 and parts[1] == "tools" and parts[2].isdigit():
        return int(parts[2])
    return None


# --- what a document's rows are --------------------------------------------------------------------------------


def _tools(value: Any) -> list[Any]:
    if isinstance(value, Mapping) and isinstance(value.get("tools"), list):
        return list(value["tools"])
    return list(value) if isinstance(value, list) else [value]


def _stream_items(doc: Document) -> list[Any]:
    """The items a recorded stream assembles, as `check` assembled them (lenient, every event read)."""
    from replayable.stream import check_stream  # noqa: PLC0415  (the streaming models load only for a stream)

    return list(check_stream(doc.value, provider=doc.provider).items)


def _events(doc: Document) -> list[Any] | None:
    """The events of a recorded stream, to find the item each stream finding's event is about; None when
    the SSE framing cannot be read (the findings then stay on their events)."""
    if isinstance(doc.value, list):
        return doc.value
    from replayable.stream import parse_sse  # noqa: PLC0415
    from replayable.stream._stream_codes import StreamError  # noqa: PLC0415

    events: list[Any] = []
    try:
        events.extend(parse_sse(doc.value, provider=doc.provider))
    except StreamError:  # a cut-off last frame or no [DONE]: the events read before it still stand
        pass
    return events


def _plain(value: Any) -> Any:
    """A parsed model as its JSON object (as it was read), anything else as it is."""
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        try:
            from replayable.items import dump_item  # noqa: PLC0415

            return dump_item(value)
        except (ValueError, TypeError):
            return dump(mode="json", by_alias=True)
    return value


# --- one row ---------------------------------------------------------------------------------------------------


def _row(
    n: int, value: Any, pair: tuple[int | None, str], pending: bool, findings: tuple[Finding, ...], unit: str
) -> Row:
    if not isinstance(value, Mapping):
        return Row(n, _json_type(value), text=_short(_compact(value)), findings=findings, pending=pending)
    inner = value.get("item") if unit == "event" and isinstance(value.get("item"), Mapping) else None
    source = inner if inner is not None else value
    kind = _str(value.get("type")) or ("message" if "role" in value else "object")
    if inner is not None and _str(inner.get("type")):
        kind = f"{kind} ({_str(inner.get('type'))})"
    who = " ".join(x for x in (_str(source.get("role")), _str(source.get("name"))) if x)
    call_id = _str(value.get("call_id")) or _str(source.get("call_id")) or _str(_pairing_key(source))
    status = _str(source.get("status")) or _str(value.get("status"))
    if not status and isinstance(value.get("turn"), Mapping):
        status = _str(value["turn"].get("status"))
    return Row(
        index=n,
        type=kind,
        who=who,
        call_id=call_id,
        status=status,
        text=_short(_text(source)),
        pair=pair[0],
        pair_kind=pair[1],
        pending=pending,
        findings=findings,
    )


def _family(t: Any, table: Mapping[str, CallFamily]) -> CallFamily | None:
    if not isinstance(t, str):
        return None
    return table.get(t) or table.get(f"openai:{t}")  # OpenAI mode reads the un-prefixed type


def _pairing_key(item: Mapping[str, Any]) -> Any:
    fam = _family(item.get("type"), by_call_type)
    if fam is not None and fam.call_key != "call_id":
        return item.get(fam.call_key)
    out = _family(item.get("type"), by_output_type)
    if out is not None:
        return next((item.get(k) for k in out.output_keys if isinstance(item.get(k), str)), None)
    return None


def _pairs(values: Sequence[Any]) -> dict[int, tuple[int | None, str]]:
    """Calls and the outputs that answer them, as the replay rules pair them: the call family's key, byte
    for byte, an output answering the latest earlier call of its family with that key not yet answered."""
    open_calls: dict[tuple[str, str], int] = {}
    pairs: dict[int, tuple[int | None, str]] = {}
    for n, v in enumerate(values):
        if not isinstance(v, Mapping):
            continue
        call = _family(v.get("type"), by_call_type)
        if call is not None and call.output_type is not None:
            key = v.get(call.call_key)
            if isinstance(key, str):
                open_calls[(call.call_type, key)] = n
            continue
        fam = _family(v.get("type"), by_output_type)
        if fam is None:
            continue
        for k in fam.output_keys:
            key = v.get(k)
            if isinstance(key, str) and (fam.call_type, key) in open_calls:
                c = open_calls.pop((fam.call_type, key))
                pairs[c], pairs[n] = (n, "call"), (c, "output")
                break
    return pairs


def _agents_pairs(values: Sequence[Any]) -> dict[int, tuple[int | None, str]]:
    """In an Agents API log, the events that share a `call_id` (a call item, its required action, the
    client's tool result) point at the first event that names it."""
    first: dict[str, int] = {}
    pairs: dict[int, tuple[int | None, str]] = {}
    for n, v in enumerate(values):
        if not isinstance(v, Mapping):
            continue
        item = v.get("item") if isinstance(v.get("item"), Mapping) else {}
        key = v.get("call_id") or (item.get("call_id") if isinstance(item, Mapping) else None)
        if not isinstance(key, str) or not key:
            continue
        if key in first:
            pairs[n] = (first[key], "related")
            pairs.setdefault(first[key], (n, "related"))
        else:
            first[key] = n
    return pairs


def _text(item: Mapping[str, Any]) -> str:
    """What an item says, on one line: a message's text parts, a call's arguments or input, an output's
    output, a reasoning item's summary; else the first of its telling fields."""
    for key in ("content", "summary", "output", "arguments", "input", "code", "text", "action", "query", "error"):
        if key in item and item[key] not in (None, "", []):
            return _flat(item[key])
    if "description" in item:  # a tool definition
        return _flat(item["description"])
    return ""


def _flat(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and value and all(isinstance(p, Mapping) for p in value):
        parts = []
        for p in value:
            text = p.get("text", p.get("refusal"))
            parts.append(text if isinstance(text, str) else f"[{_str(p.get('type')) or 'part'}]")
        return " ".join(parts)
    return _compact(value)


def _compact(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    except (ValueError, TypeError, RecursionError):
        return repr(value)


def _short(text: str) -> str:
    one = " ".join(text.split())
    return one if len(one) <= TEXT_LIMIT else one[: TEXT_LIMIT - 1] + "…"


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return type(value).__name__
