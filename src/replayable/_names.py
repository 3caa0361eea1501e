"""File names as the command line prints them: one line of their own making, whatever they hold.

A file name may hold any byte but `/` and NUL: a newline, a carriage return, a terminal escape, a
Unicode line separator or a bidirectional override. `shown` escapes them, so that a name printed in a
message or a text report can never start a line of its own or forge a verdict (`x.json: replay-safe`).
Used by `replayable._reading.files` (messages) and `replayable._render` (text reports); JSON, SARIF and GitHub
reports keep the name as it is and escape it by their own rules.
"""

from __future__ import annotations

__all__ = ["shown"]


def shown(text: str) -> str:
    """`text` (a file name) safe to print on one line: control characters, line and paragraph
    separators, format characters and lone surrogates are written as Python escapes (`\\n`,
    `\\x1b`, `\\u2028`, `\\udcff`), so a name cannot start a line of its own or forge a verdict."""
    if text.isprintable():
        return text
    out = []
    for ch in text:
        if ch.isprintable():
            out.append(ch)
        else:
            out.append(repr(ch)[1:-1])
    return "".join(out)
