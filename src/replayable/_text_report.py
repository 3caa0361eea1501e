"""A check's record as text: one line per finding, the pending calls, one verdict line (`replayable check`'s
default output). Below the CI formats and the JSON renderer (`replayable._render`), which hand a record
here for its text; every message is escaped (`shown`) and each option it names spelled for its door.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from replayable._messages import Door, spelled
from replayable._names import shown

__all__ = ["SAFE", "TRANSCRIPT_KINDS", "UNSAFE", "count", "pending_calls", "text_report"]


def count(n: int, noun: str, plural: str | None = None) -> str:
    """`n` and the noun in the right number: `count(1, "item")` is "1 item", `count(3, "item")` "3 items"."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def pending_calls(indexes: Sequence[int]) -> str:
    """ "pending call (awaiting output) at item 2", or "pending calls (...) at items 2, 5"."""
    s = "" if len(indexes) == 1 else "s"
    return f"pending call{s} (awaiting output) at item{s} {', '.join(map(str, indexes))}"


#: The kinds of record that hold a transcript's items (`replayable._reading.DocumentKind`'s names).
TRANSCRIPT_KINDS = ("items", "item", "request", "response", "codex_rollout")


#: The verdict words of every report, one for each outcome (exit status 0 and 1).
SAFE = "replay-safe"


UNSAFE = "NOT replay-safe"


def text_report(record: dict[str, Any], door: Door = Door.LIBRARY) -> str:
    """A record as text: one line per finding (`FILE: item 3: code: message`; `tools`, `stream`,
    `event N` for the others; `FILE:LINE:COLUMN: item 3: ...` when the finding is placed in the file),
    the pending calls and what else the kind lists, then one verdict line starting `FILE: replay-safe:`
    or `FILE: NOT replay-safe:`. The file name and every message (which may quote the input) are escaped
    (`shown`): no line but the verdict can say `replay-safe`. `door` spells the options a message names
    (`replayable.errors.OPTIONS`): the command line's flags (`--pending-ok`) or the library's arguments."""
    name = shown(str(record.get("file")))
    kind = record.get("kind", "items")
    if record.get("error"):
        return f"{name}: {spelled(record['error'], door)}"
    lines = []
    for f in record["findings"]:
        where = f["where"] if f["index"] is None or f["where"] == "tools" else f"{f['where']} {f['index']}"
        if f["where"] == "tools" and f["path"].startswith("/tools/"):  # which tool of the list
            where = "tool " + f["path"].split("/", 3)[2]
        elif f["where"] == "document" and f["path"].startswith("/previous/"):  # the response it continues
            step = f["path"].split("/", 3)[2]
            where = f"previous response item {step}" if step.isdigit() else "previous response"
        message = shown(spelled(f["message"], door))  # it may quote the input: one line
        head = f"{name}:{f['line']}:{f['column']}" if f.get("line") is not None else name
        if kind == "agents" and f["severity"] == "note":
            if any(n["code"] == f["code"] for n in record.get("notes", ())):  # advice, not a refused call
                lines.append(f"{head}: {where}: note ({f['code']}): {message}")
            else:
                lines.append(f"{head}: {where}: refused before execution ({f['code']}): {message}")
        elif f["where"] == "stream":  # the message says which event (sequence number, type) itself
            label = "stream" if f["severity"] == "error" else "note"
            lines.append(f"{head}: {label}: {f['code']}: {message}")
        else:
            lines.append(f"{head}: {where}: {f['code']}: {message}")
    if (kind in TRANSCRIPT_KINDS or kind == "stream") and record.get("pending"):
        lines.append(f"{name}: {pending_calls(record['pending'])}")
    if record.get("external"):
        ext = record["external"]
        s = "" if len(ext) == 1 else "s"
        lines.append(
            f"{name}: output{s} answering calls outside this request (previous_response_id; pass --previous "
            f"RESPONSE.json to pair them) at item{s} {', '.join(map(str, ext))}"
        )
    if record.get("unknown_events"):
        lines.append(
            f"{name}: unknown event types (kept, not acted on) at events "
            + ", ".join(map(str, record["unknown_events"]))
        )
    errors = [f for f in record["findings"] if f["severity"] == "error"]
    verdict = SAFE if record["ok"] else UNSAFE
    items = count(record.get("items", 0), "item")
    size = {
        "items": items,
        "item": items,
        "request": items,
        "response": items,
        "codex_rollout": f"{count(record.get('items', 0), 'response item')} (Codex session file)",
        "tools": count(record.get("tools", 0), "tool") + " (tool definitions, linted)",
        "stream": f"{count(record.get('events', 0), 'event')}, {count(record.get('items', 0), 'item')}, "
        f"status {record.get('status') or 'none'}",
        "agents": count(record.get("events", 0), "event")
        + (", every required action answered once" if record["ok"] else ""),
    }[kind]
    if errors:
        places = len({(f["where"], f["index"]) for f in errors})
        lines.append(f"{name}: {verdict}: {count(len(errors), 'violation')} in {count(places, 'place')}, {size}")
    else:
        lines.append(f"{name}: {verdict}: {size}")
    return "\n".join(lines)
