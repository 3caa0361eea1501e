"""`replayable show FILE [--html OUT.html]`: a conversation as a timeline, with `check`'s findings on it.

One pipeline, the one `check` runs: the file reader (`replayable._reading.read_file`, every input `check`
reads: items, JSONL, a request body, a Response, a stream, an Agents API log with `--agents`, tool
definitions) -> the checker of the document's kind (`replayable._checking.check_document`) -> one record,
worded for the command line as `check` words it -> `replayable._timeline.timeline` (rows, each finding on
its item's row) -> a renderer (`replayable._timeline_render`): a table on standard output (coloured when
standard output is a terminal and `NO_COLOR` is unset), or, with `--html OUT.html`, one self-contained
page written to OUT.html (`-`: standard output).

Exit statuses are `check`'s: 0 replay-safe, 1 violations, 2 unreadable input or bad usage (one line on
standard error).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path
from typing import Any

from replayable._checking import CheckOptions, check_document
from replayable._messages import Door
from replayable._reading import InputError, display_name, function_tools, read_file
from replayable._render import worded
from replayable._tool_lint import lint_tools

from .inputs import load_tools
from .output import EXIT_OK, EXIT_UNREADABLE, EXIT_VIOLATIONS, Output

__all__ = ["add_parser", "cmd_show"]


def cmd_show(args: argparse.Namespace, out: Output) -> int:
    """`show FILE`: read, check and render the timeline of FILE (see the module docstring)."""
    from replayable._timeline import timeline  # noqa: PLC0415
    from replayable._timeline_render import html, terminal  # noqa: PLC0415

    if args.agents and (args.target or args.provider or args.pending_ok):
        raise InputError("--target, --provider and --pending-ok mean nothing for an Agents API event log (--agents)")
    tools = load_tools(args.tools, max_bytes=args.max_bytes) if args.tools else None
    options = CheckOptions(
        file="<stdin>" if args.file == "-" else args.file,
        name=display_name(args.file),
        tools=None if tools is None else function_tools(tools),
        tool_findings=() if tools is None else lint_tools(tools),
        target=args.target,
        provider=args.provider,
        pending_ok=args.pending_ok,
    )
    doc = read_file(args.file, provider=args.provider, max_bytes=args.max_bytes, agents=args.agents)
    record = worded(check_document(doc, options), Door.CLI)
    if record.get("error"):
        raise InputError(f"{options.name}: {record['error']}")
    view = timeline(doc, record)
    if args.html:
        page = html(view)
        if args.html == "-":
            out.write(page.removesuffix("\n"))
        else:
            try:
                Path(args.html).write_text(page, encoding="utf-8")
            except OSError as exc:
                raise InputError(f"cannot write {args.html}: {exc.strerror or exc}") from None
    else:
        try:
            text = terminal(view, color=_colour(), width=shutil.get_terminal_size((120, 24)).columns)
        except ImportError:
            raise InputError(
                "the terminal timeline needs rich (pip install 'replayable[show]'); --html OUT.html needs nothing"
            ) from None
        out.write(text)
    return EXIT_OK if record["ok"] else EXIT_VIOLATIONS


def _colour() -> bool:
    """Colour when standard output is a terminal and `NO_COLOR` is unset or empty (no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def add_parser(sub: Any) -> argparse.ArgumentParser:
    """Add the `show` subcommand to `sub` (the command line's subparsers) with its own options; the options
    every command shares (`--tools`, `--target`, `--provider`, `--max-bytes`) are added by
    `replayable._cli.command`, where each is defined once. Returns the new parser."""
    show: argparse.ArgumentParser = sub.add_parser(
        "show",
        help="show a conversation as a timeline, one row per item, with check's findings on their items",
        description="Print a timeline of FILE (or write one self-contained HTML page with --html). Exit 0 when "
        f"replay-safe, {EXIT_VIOLATIONS} on violations, {EXIT_UNREADABLE} on unreadable input or bad usage.",
    )
    show.add_argument(
        "file", metavar="FILE", help="what check reads (items, a body, a stream, ...), or - for standard input"
    )
    show.add_argument(
        "--html", metavar="OUT.html", help="write one self-contained HTML page to OUT.html (- for stdout)"
    )
    show.add_argument("--pending-ok", action="store_true", help="trailing calls without output are pending, not errors")
    show.add_argument(
        "--agents", action="store_true", help="FILE is an Agents API event log (JSONL, a JSON array or SSE)"
    )
    show.set_defaults(func=cmd_show)
    return show
