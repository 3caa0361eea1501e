"""The library's one renderer: findings -> records (one JSON object per checked input) -> text or JSON.

Every input's report is first a record (`transcript_record`, `tools_record`, `stream_record`,
`agents_record`): one JSON object with one `findings` list for items, tools, streams and Agents logs
alike. It is rendered as `text` (one line per finding, then a verdict line: `replay-safe` or `NOT
replay-safe`, the same words for every kind), `json` (the record), `sarif` or `github`
(`replayable._ci_formats`, beside it). Messages come from the findings (`replayable._findings`), made once
from the table of codes; the text renderer only escapes them (`shown`). The command line
(`replayable._cli.output`) adds exit statuses and the writing to standard output.

This module reads reports by their attributes and imports none of the modules that make them, so every
report module (`replayable.agents`, `replayable.stream`) may use it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from replayable._codes import Severity
from replayable._findings import Finding
from replayable._messages import Door, said, spelled
from replayable._names import shown
from replayable._text_report import SAFE, TRANSCRIPT_KINDS, UNSAFE, count, pending_calls, text_report

__all__ = [
    "SAFE",
    "TRANSCRIPT_KINDS",
    "UNSAFE",
    "agents_record",
    "count",
    "finding",
    "format_stream_report",
    "pending_calls",
    "placed",
    "render",
    "shown",
    "stream_record",
    "text_report",
    "tools_record",
    "transcript_record",
    "worded",
]


def finding(
    where: str, index: int | None, code: str, message: str, path: str = "", severity: str = "error"
) -> dict[str, Any]:
    """One entry of a record's `findings`: `where` is `item`, `document` (the body, Response or previous
    response as a whole), `tools`, `stream` or `event`; `index` the item's or event's position (None for
    a document or a tool finding, or a stream finding without one); `code` the stable
    rule code; `path` a JSON Pointer into the item, event or tool; `severity` `error` (it makes the
    input not replay-safe) or `note` (reported, not blocking); `line` and `column` (1-based) where the
    item, event or field starts in the file it was read from, None until `placed` says (and for a value
    not read from a file, or a finding of no item)."""
    return {
        "where": where,
        "index": index,
        "code": code,
        "message": message,
        "path": path,
        "severity": severity,
        "line": None,
        "column": None,
    }


#: Which findings of a record name a place of the file the document was read from: an item of a
#: transcript, an event of an Agents log, an event of a stream (a stream's `item` findings name the items
#: it assembles, which are in no one place of the file).
_PLACED = {"stream": "stream", "agents": "event"}


def placed(record: dict[str, Any], at: Callable[[int | None, str], tuple[int, int] | None]) -> dict[str, Any]:
    """`record` with the `line` and `column` of each finding that names an item or event of the file: `at(index,
    path)` is where it starts (`replayable._reading.places.Places.at`), or None. Changes `record` in place."""
    where = _PLACED.get(record.get("kind", "items"), "item")
    for f in record.get("findings", ()):
        if f.get("where") == where and f.get("index") is not None:
            spot = at(f["index"], f.get("path") or "")
            if spot is not None:
                f["line"], f["column"] = spot
    return record


#: A finding's severity as a record says it: `error` blocks, anything else is a `note`.
_RECORD_SEVERITY = {Severity.VIOLATION: "error", Severity.WARNING: "note", Severity.NOTE: "note"}


def _record_finding(where: str, f: Finding) -> dict[str, Any]:
    return finding(where, f.index, str(f.code), f.message, f.path, _RECORD_SEVERITY[f.severity])


def _violation_findings(violations: Sequence[Finding], unplaced: str = "document") -> list[dict[str, Any]]:
    """Records of findings: an item's at `item`; one of no item at `unplaced` (`document`: the body, the
    Response or the previous response as a whole; `tools`: a tool definition)."""
    return [_record_finding(unplaced if v.index is None else "item", v) for v in violations]


def transcript_record(
    report: Any, extra: Sequence[Finding], n_items: int, file: str, kind: str = "items"
) -> dict[str, Any]:
    """The record of a transcript: `{"file", "kind", "ok", "items", "findings", "violations", "pending",
    "external"}`; `kind` is what the document was (`items`, `item`, `request`, `response`). `extra` are
    tool lint findings, listed first."""
    violations = [*extra, *report.violations]
    return {
        "file": file,
        "kind": kind,
        "ok": not violations,
        "items": n_items,
        "findings": _violation_findings(extra, "tools") + _violation_findings(report.violations),
        "violations": [v.as_dict() for v in violations],
        "pending": list(report.pending),
        "external": list(report.external),
    }


def tools_record(findings: Sequence[Finding], n_tools: int, file: str) -> dict[str, Any]:
    """The record of a file of tool definitions (`kind` `tools`), linted with `check_tool`:
    `{"file", "kind", "ok", "tools", "findings", "violations"}`."""
    return {
        "file": file,
        "kind": "tools",
        "ok": not findings,
        "tools": n_tools,
        "findings": _violation_findings(findings, "tools"),
        "violations": [v.as_dict() for v in findings],
    }


def stream_record(report: Any, file: str) -> dict[str, Any]:
    """The record of a recorded stream (`kind` `stream`): `{"file", "kind", "ok", "events", "status",
    "items", "findings", "stream", "violations", "pending"}`; `findings` holds the stream findings
    (`where` `stream`, `index` the event's position; notes as `severity` `note`) and the items'
    violations alike (a stream finding's `message` names its event: sequence number and type), `stream`
    and `violations` each kind alone."""
    found = [finding("stream", f.index, str(f.code), str(f), "", _RECORD_SEVERITY[f.severity]) for f in report.findings]
    return {
        "file": file,
        "kind": "stream",
        "ok": report.ok,
        "events": report.events,
        "status": report.status,
        "items": len(report.items),
        "findings": found + _violation_findings(report.transcript.violations),
        "stream": [f.as_dict() for f in report.findings],
        "violations": [v.as_dict() for v in report.transcript.violations],
        "pending": list(report.transcript.pending),
    }


def agents_record(report: Any, file: str) -> dict[str, Any]:
    """The record of an Agents API event log (`kind` `agents`): `{"file", "kind", "ok", "events",
    "recognised", "session_id", "findings", "violations", "refused", "pending", "unknown_events",
    "notes"}`; `findings` holds the violations and, as notes, the calls refused before execution and the
    session's notes (`replayable._notes`, advice that blocks nothing). A log in which
    nothing is an Agents API event also has an `error` (it is unreadable as a log: exit status 2)."""
    record: dict[str, Any] = {
        "file": file,
        "kind": "agents",
        "ok": report.ok,
        "events": report.events,
        "recognised": report.recognised,
        "session_id": report.session_id,
        "findings": [_record_finding("event", f) for f in (*report.violations, *report.refused, *report.notes)],
        "violations": [v.as_dict() for v in report.violations],
        "refused": [v.as_dict() for v in report.refused],
        "pending": [_pending_action(i, a) for i, a in report.pending],
        "unknown_events": list(report.unknown_events),
        "notes": [n.as_dict() for n in report.notes],
    }
    if report.nothing_recognised:
        record["error"] = said(
            "nothing was recognised as an Agents API event ({values}, no known event type or agent.* type); is "
            "this a Responses transcript? Check it without {option:agents}",
            values=count(report.events, "value"),
        )
    return record


def _pending_action(index: int, action: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"index": index, "type": action.type, "turn_id": action.turn_id}
    if action.type == "function_call":
        out.update(call_id=action.call_id, name=action.name)
    else:
        out["request_id"] = action.request_id
    return out


def render(record: dict[str, Any], fmt: str, door: Door = Door.LIBRARY) -> str:
    """One input's report in `fmt`: `text` (`text_report`), `json` (the record), `sarif` or `github`
    (`replayable._ci_formats`); `door` as in `text_report`."""
    record = worded(record, door)  # once, before the record leaves in its format
    if fmt == "json":
        return json.dumps(record, indent=2)
    if fmt in ("sarif", "github"):
        from replayable import _ci_formats as ci_formats  # noqa: PLC0415

        return ci_formats.ci_report([record], fmt)
    return text_report(record, door)


#: The lists of a record whose entries carry a `message`.
_MESSAGE_LISTS = ("findings", "violations", "stream", "refused", "notes")


def worded(record: dict[str, Any], door: Door) -> dict[str, Any]:
    """`record` with every `message` (and the `error`) as `door` prints it: the options a message names
    (a `replayable.errors.Said`, made from a `{option:NAME}` field) in that door's spelling, so the
    command line says `--pending-ok` where the library says `pending_ok=True`; whatever a message quotes
    from the input stays as it is. `record` itself for the library."""
    if door == Door.LIBRARY:
        return record
    out = dict(record)
    for key in _MESSAGE_LISTS:
        if isinstance(out.get(key), list):
            out[key] = [
                {**e, "message": spelled(e["message"], door)}
                if isinstance(e, dict) and isinstance(e.get("message"), str)
                else e
                for e in out[key]
            ]
    if isinstance(out.get("error"), str):
        out["error"] = spelled(out["error"], door)
    return out


def format_stream_report(report: Any, fmt: str, name: str) -> str:
    """A recorded stream's report in `fmt` (see `stream_record` and `render`)."""
    return render(stream_record(report, name), fmt)
