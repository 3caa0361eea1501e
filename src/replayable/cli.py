"""The `replayable` command line.

    replayable check FILE|- [--tools TOOLS.json] [--target SLUG] [--provider openai] [--pending-ok]
                            [--format text|json]

`check` reads a stored transcript (a JSON array of items, JSONL, a Response object, or a request body)
and reports every replay rule it breaks. Exit status: 0 replay-safe, 1 violations, 2 unreadable input
or bad usage (one line on stderr, never a traceback).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .items import ItemError
from .replay import TranscriptReport, Violation, check_tool, check_transcript

__all__ = ["main"]

EXIT_OK, EXIT_VIOLATIONS, EXIT_UNREADABLE = 0, 1, 2


class InputError(Exception):
    """Input that cannot be read as anything `check` understands (exit status 2)."""


def read_source(path: str) -> bytes:
    """Read FILE, or standard input for `-`. Raises `InputError` when it cannot be read."""
    try:
        if path == "-":
            return sys.stdin.buffer.read()
        return Path(path).read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None


def load_json_or_jsonl(data: bytes, name: str) -> Any:
    """A JSON document, or JSONL read as a list of values. Raises `InputError` when it is neither."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{name} is not UTF-8 text: {exc}") from None
    if not text.strip():
        raise InputError(f"{name} is empty")
    try:
        return json.loads(text)
    except RecursionError:
        raise InputError(f"{name}: JSON nested too deeply") from None
    except ValueError as first:
        values = []
        for lineno, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                values.append(json.loads(line))
            except (ValueError, RecursionError):
                raise InputError(f"{name} is neither JSON nor JSONL: {first}") from None
        if len(values) < 2:
            raise InputError(f"{name} is not valid JSON: {first}") from None
        return values


@dataclass
class Transcript:
    """What `check` found in the input: the items, and what the envelope says about them."""

    items: list[Any]
    kind: str
    side: str | None = None
    tools: list[Any] | None = None
    allowed_tools: list[str] | None = None
    tool_findings: list[Violation] = field(default_factory=list)


def _allowed_from_tool_choice(choice: Any) -> list[str] | None:
    if isinstance(choice, dict) and choice.get("type") == "allowed_tools":
        tools = choice.get("tools")
        if isinstance(tools, list):
            return [t["name"] for t in tools if isinstance(t, dict) and isinstance(t.get("name"), str)]
        return []
    return None


def read_transcript(value: Any, name: str) -> Transcript:
    """Find the items in a parsed document: a list, a Response (`output`), a request body (`input`,
    `tools`, `tool_choice`) or one item. Raises `InputError` for anything else."""
    if isinstance(value, list):
        return Transcript(value, "items")
    if isinstance(value, dict):
        if isinstance(value.get("output"), list) and ("object" in value or "input" not in value):
            return Transcript(value["output"], "response", side="output")
        if "input" in value:
            inp = value["input"]
            if isinstance(inp, str):
                inp = [{"type": "message", "role": "user", "content": inp}]
            if not isinstance(inp, list):
                raise InputError(f"{name}: request body 'input' must be a string or a list of items")
            tools = value.get("tools")
            tools = tools if isinstance(tools, list) else None
            findings: list[Violation] = []
            for n, tool in enumerate(tools or []):
                if isinstance(tool, dict) and tool.get("type") in (None, "function"):
                    findings.extend(
                        Violation(None, v.code, f"tools[{n}]: {v.message}", f"/tools/{n}{v.path}") for v in check_tool(tool)
                    )
            function_tools = [t for t in tools or [] if isinstance(t, dict) and t.get("type") == "function"] or None
            return Transcript(
                inp,
                "request",
                tools=function_tools,
                allowed_tools=_allowed_from_tool_choice(value.get("tool_choice")),
                tool_findings=findings,
            )
        if "type" in value or "role" in value:
            return Transcript([value], "item")
    raise InputError(
        f"{name}: expected a JSON array of items, JSONL, a Response object (with 'output') or a request body "
        "(with 'input')"
    )


def load_tools(path: str) -> list[Any]:
    value = load_json_or_jsonl(read_source(path), path)
    if isinstance(value, dict) and isinstance(value.get("tools"), list):
        value = value["tools"]
    if isinstance(value, dict):
        value = [value]
    if not isinstance(value, list):
        raise InputError(f"{path}: expected a JSON array of tool definitions")
    return value


def format_report(report: TranscriptReport, extra: Sequence[Violation], n_items: int, fmt: str, name: str) -> str:
    violations = [*extra, *report.violations]
    if fmt == "json":
        return json.dumps(
            {
                "file": name,
                "ok": not violations,
                "items": n_items,
                "violations": [v.as_dict() for v in violations],
                "pending": list(report.pending),
            },
            indent=2,
        )
    lines = []
    for v in violations:
        where = "tools" if v.index is None else f"item {v.index}"
        lines.append(f"{name}: {where}: {v.code}: {v.message}")
    if report.pending:
        lines.append(f"{name}: pending calls (awaiting output) at items {', '.join(map(str, report.pending))}")
    if violations:
        bad = len({v.index for v in violations})
        lines.append(f"{name}: NOT replay-safe: {len(violations)} violation(s) in {bad} place(s), {n_items} items")
    else:
        lines.append(f"{name}: replay-safe: {n_items} items")
    return "\n".join(lines)


def cmd_check(args: argparse.Namespace) -> int:
    data = read_source(args.file)
    name = "<stdin>" if args.file == "-" else args.file
    value = load_json_or_jsonl(data, name)
    transcript = read_transcript(value, name)
    tools = load_tools(args.tools) if args.tools else transcript.tools
    report = check_transcript(
        transcript.items,
        tools=tools,
        target=args.target,
        provider=args.provider,
        pending_ok=args.pending_ok or transcript.kind == "response",  # a response asks for its calls to run
        allowed_tools=transcript.allowed_tools,
        side=transcript.side,  # type: ignore[arg-type]
    )
    print(format_report(report, transcript.tool_findings, len(transcript.items), args.format, name))
    return EXIT_OK if report.ok and not transcript.tool_findings else EXIT_VIOLATIONS


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="replayable",
        description="Check stored Open Responses transcripts before they are replayed.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    check = sub.add_parser(
        "check",
        help="check a transcript (items, JSONL, a Response or a request body) for replay rules",
        description="Exit 0 when replay-safe, 1 on violations, 2 on unreadable input.",
    )
    check.add_argument("file", metavar="FILE", help="the transcript, or - for standard input")
    check.add_argument("--tools", metavar="TOOLS.json", help="function tool definitions to check arguments against")
    check.add_argument("--target", metavar="SLUG", help="provider the items are replayed to (e.g. openai, acme)")
    check.add_argument("--provider", choices=["openai"], help="read OpenAI's native item types and shorthand messages")
    check.add_argument("--pending-ok", action="store_true", help="trailing calls without output are pending, not errors")
    check.add_argument("--format", choices=["text", "json"], default="text", help="output format (default: text)")
    check.set_defaults(func=cmd_check)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (also used as the console script)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
        return int(exc.code or 0)
    func: Callable[[argparse.Namespace], int] = args.func
    try:
        return func(args)
    except (InputError, ItemError, ValueError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        print(f"replayable: error: {first}", file=sys.stderr)
        return EXIT_UNREADABLE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
