"""The two renderers of a timeline (`replayable._timeline`): a table for the terminal and one HTML page.

- `terminal(t, color=..., width=...)`: a `rich` table, one row per item (index, type, role or name,
  call id, status, pairing, a short text), each finding on its item's row (`✗ code: message` for an
  error, `• code: message` for a note), then the findings on no item and the verdict line `replayable
  check` prints. Calls and their outputs are paired visibly: `→ 5` on a call answered by item 5, `← 2` on
  the output of item 2's call, and both call ids in the same colour. Colour only when asked (the command
  line asks when standard output is a terminal and `NO_COLOR` is unset).
- `html(t)`: one self-contained page (inline CSS; no script, font, image or any other fetch, and a
  Content-Security-Policy of `default-src 'none'` that forbids them) of the same timeline, each row an
  anchor (`#item-3`) linked to its pair, rows with findings highlighted.

The text of an item is untrusted: in the terminal it is never read as `rich` markup and its control
characters are escaped (`replayable._names.shown`), so it cannot move the cursor or forge a line; in HTML
every value is escaped (`html.escape`, quotes included), so a `<script>` in a message is shown as text.

This module reads a timeline by its attributes and imports none of the modules that make it; `rich` is
imported only when a terminal table is drawn.
"""

from __future__ import annotations

import html as _html
import io
from typing import Any

from replayable._names import shown

__all__ = ["html", "terminal"]

#: Characters of an item's text a terminal row shows.
TERMINAL_TEXT = 60
#: Colours that tell pairs apart in the terminal (a pair's call ids share one).
_PAIR_COLOURS = ("cyan", "magenta", "green", "blue", "yellow", "bright_cyan", "bright_magenta", "bright_green")


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _pair_mark(row: Any, unit: str) -> str:
    if row.pair is None:
        return "pending" if row.pending else ""
    arrow = {"call": "→", "output": "←"}.get(row.pair_kind, "↔")
    return f"{arrow} {row.pair}"


def _finding_line(f: Any) -> str:
    mark = "✗" if f.get("severity") == "error" else "•"
    return f"{mark} {f.get('code')}: {f.get('message')}"


def terminal(t: Any, *, color: bool = False, width: int = 120) -> str:
    """The timeline `t` as a terminal table (see the module docstring), `width` columns wide; with `color`,
    ANSI colours (errors red, notes yellow, each pair's call ids in one colour). Raises `ImportError` when
    `rich` is not installed (`pip install 'replayable[show]'`)."""
    from rich import box  # noqa: PLC0415  (only when a table is drawn)
    from rich.console import Console  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415
    from rich.text import Text  # noqa: PLC0415

    buf = io.StringIO()
    console = Console(
        file=buf,
        width=max(width, 60),
        force_terminal=color,
        no_color=not color,
        color_system="standard" if color else None,
        highlight=False,
        emoji=False,
        markup=False,
        soft_wrap=False,
    )
    unit = t.unit
    table = Table(title=Text(f"{shown(t.file)} ({t.kind})"), box=box.SIMPLE_HEAD, title_justify="left")
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("type", overflow="fold", max_width=22)
    table.add_column("role / name", overflow="fold", max_width=18)
    table.add_column("call id", overflow="fold", max_width=14)
    table.add_column("status", no_wrap=True)
    table.add_column("pair", no_wrap=True)
    table.add_column("text / findings", overflow="fold", ratio=1)
    colours: dict[int, str] = {}
    for row in t.rows:
        if row.pair is not None and row.pair_kind in ("call", "related") and row.index not in colours:
            colour = _PAIR_COLOURS[len(colours) % len(_PAIR_COLOURS)]
            colours[row.index] = colours[row.pair] = colour
    for row in t.rows:
        style = {"error": "red", "note": "yellow"}.get(row.worst, "")
        body = Text(shown(_shorten(row.text, TERMINAL_TEXT)), style="dim" if row.text else "")
        for f in row.findings:
            body.append("\n")
            body.append(shown(_finding_line(f)), style="bold red" if f.get("severity") == "error" else "yellow")
        table.add_row(
            Text(str(row.index), style=style),
            Text(shown(row.type), style=style),
            Text(shown(row.who)),
            Text(shown(row.call_id), style=colours.get(row.index, "")),
            Text(
                shown(row.status), style="yellow" if row.pending or row.status in ("in_progress", "incomplete") else ""
            ),
            Text(_pair_mark(row, unit), style=colours.get(row.index, "yellow" if row.pending else "")),
            body,
        )
    console.print(table)
    for where, f in t.general:
        line = Text(f"{shown(where)}: ", style="bold")
        line.append(shown(_finding_line(f)), style="bold red" if f.get("severity") == "error" else "yellow")
        console.print(line, soft_wrap=True)  # one line each, as `check` prints them
    console.print(Text(shown(t.verdict), style="bold green" if t.ok else "bold red"), soft_wrap=True)
    return buf.getvalue().rstrip("\n")


# --- HTML ----------------------------------------------------------------------------------------------------------

_CSS = """
:root { color-scheme: light dark; --bad: #c62828; --note: #a86b00; --line: #8884; --pair: #1565c0; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 1.5rem; }
h1 { font-size: 1.2rem; margin: 0 0 .25rem; word-break: break-all; }
p.meta { margin: 0 0 1rem; opacity: .8; }
p.verdict { font-weight: 600; padding: .5rem .75rem; border-radius: 4px; }
p.verdict.ok { background: #2e7d3222; } p.verdict.bad { background: #c6282822; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid var(--line); padding: .35rem .5rem; text-align: left; vertical-align: top; }
th { position: sticky; top: 0; background: Canvas; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
td.mono, code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; }
td.text { white-space: pre-wrap; word-break: break-word; max-width: 60ch; }
tr.error { background: #c6282818; } tr.note { background: #a86b0014; }
tr:target { outline: 2px solid var(--pair); }
a.pair { color: var(--pair); text-decoration: none; white-space: nowrap; }
span.pending { color: var(--note); font-weight: 600; }
ul.findings { margin: .35rem 0 0; padding-left: 1.1rem; }
li.error { color: var(--bad); } li.note { color: var(--note); }
li code { font-weight: 600; }
section.general { margin-top: 1rem; }
"""


def _e(value: Any) -> str:
    """`value` as HTML text: control and format characters written as escapes first (`names.shown`, as
    the terminal view does: the page may be printed to a terminal with `--html -`), then `<>&"'` escaped."""
    return _html.escape(shown(str(value)), quote=True)


def _findings_list(findings: Any) -> str:
    if not findings:
        return ""
    items = "".join(
        f'<li class="{"error" if f.get("severity") == "error" else "note"}" data-code="{_e(f.get("code"))}">'
        f"<code>{_e(f.get('code'))}</code>: {_e(f.get('message'))}"
        + (f' <span class="path">at <code>{_e(f.get("path"))}</code></span>' if f.get("path") else "")
        + "</li>"
        for f in findings
    )
    return f'<ul class="findings">{items}</ul>'


def html(t: Any) -> str:
    """The timeline `t` as one self-contained HTML page (see the module docstring): no script and nothing
    fetched; every value escaped. Rows are `<tr id="item-N">` (`event-N`, `tool-N`), a pair links to its
    other half, and each finding is an `<li>` with its code in `data-code`."""
    unit = _e(t.unit)
    rows = []
    for row in t.rows:
        if row.pair is not None:
            arrow = {"call": "→", "output": "←"}.get(row.pair_kind, "↔")
            pair = f'<a class="pair" href="#{unit}-{row.pair}">{arrow} {row.pair}</a>'
        else:
            pair = '<span class="pending">pending</span>' if row.pending else ""
        rows.append(
            f'<tr id="{unit}-{row.index}" class="{_e(row.worst)}">'
            f'<td class="n">{row.index}</td><td class="mono">{_e(row.type)}</td><td>{_e(row.who)}</td>'
            f'<td class="mono">{_e(row.call_id)}</td><td>{_e(row.status)}</td><td>{pair}</td>'
            f'<td class="text">{_e(row.text)}{_findings_list(row.findings)}</td></tr>'
        )
    general = ""
    if t.general:
        entries = "".join(
            f'<li class="{"error" if f.get("severity") == "error" else "note"}" data-code="{_e(f.get("code"))}">'
            f"<strong>{_e(where)}</strong>: <code>{_e(f.get('code'))}</code>: {_e(f.get('message'))}</li>"
            for where, f in t.general
        )
        general = (
            f'<section class="general"><h2>Findings on no {unit}</h2><ul class="findings">{entries}</ul></section>'
        )
    verdict_class = "ok" if t.ok else "bad"
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(t.file)}: replayable show</title><style>{_CSS}</style></head><body>"
        f"<h1>{_e(t.file)}</h1>"
        f'<p class="meta">{_e(t.kind)}: {len(t.rows)} {unit}{"" if len(t.rows) == 1 else "s"}, '
        f"{t.findings} finding{'' if t.findings == 1 else 's'}</p>"
        f'<p class="verdict {verdict_class}">{_e(t.verdict)}</p>'
        "<table><thead><tr><th>#</th><th>type</th><th>role / name</th><th>call id</th><th>status</th>"
        f"<th>pair</th><th>text / findings</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
        f"{general}</body></html>\n"
    )
