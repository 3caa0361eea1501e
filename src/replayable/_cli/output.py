"""The command line's output: exit statuses, standard output and the summary line.

Exit statuses (`replayable check`, `diff`): `EXIT_OK` 0 replay-safe (nothing blocks), `EXIT_VIOLATIONS`
1 violations, `EXIT_UNREADABLE` 2 unreadable input or bad usage, `EXIT_INTERRUPTED` 130 on Ctrl-C.
A closed standard output (`check bad.json | head -1`) never changes the status: the command runs to
its verdict and exits with it, writing nothing more and printing no traceback. `EXIT_OUTPUT_CLOSED` 3
means the report could not be written (a full disk, no standard output; one line on stderr) while the
verdict was replay-safe, or output was lost before a verdict was reached.

Reports themselves are rendered by the library's renderer, `replayable._render`, for the command line's
door (`replayable.errors.Door.CLI`: an option a message names is spelled as a flag, `--pending-ok`); with
`--format json` an unreadable input is an object with an `error` too (`error_report`), never nothing.
"""

from __future__ import annotations

import json
import os
import sys
from typing import IO, Any

from replayable._render import SAFE, count

__all__ = [
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_OUTPUT_CLOSED",
    "EXIT_UNREADABLE",
    "EXIT_VIOLATIONS",
    "FORMATS",
    "Output",
    "as_json",
    "error_report",
    "summary_line",
    "worst",
]

EXIT_OK = 0
EXIT_VIOLATIONS = 1
EXIT_UNREADABLE = 2
EXIT_OUTPUT_CLOSED = 3
EXIT_INTERRUPTED = 130

#: The report formats of `replayable check --format`.
FORMATS = ("text", "json", "sarif", "github")


class Output:
    """Standard output for reports. A reader that goes away (`BrokenPipeError`, EPIPE) makes every
    later write a no-op (`closed` turns True) instead of an exception, and standard output is pointed
    at the null device so that the interpreter's final flush cannot print a traceback either. Any other
    write failure (a full disk, a closed descriptor, no standard output at all) does the same and is
    kept in `error`, for one line on stderr. Text that cannot be encoded (a lone surrogate read from a
    `\\ud800` escape) is written with backslash escapes."""

    def __init__(self, stream: IO[str] | None) -> None:
        self.stream = stream
        self.closed = stream is None
        self.error: str | None = "there is no standard output" if stream is None else None

    def write(self, text: str) -> None:
        """Write `text` and a newline (nothing once the output is gone)."""
        if self.closed or self.stream is None:
            return
        try:
            try:
                self.stream.write(text + "\n")
            except UnicodeEncodeError:
                self.stream.write(text.encode("utf-8", "backslashreplace").decode("utf-8") + "\n")
        except BrokenPipeError:
            self._gone(None)
        except OSError as exc:
            self._gone(exc.strerror or str(exc))

    def flush(self) -> None:
        """Flush; a reader that has gone is noted, not raised."""
        if self.closed or self.stream is None:
            return
        try:
            self.stream.flush()
        except BrokenPipeError:
            self._gone(None)
        except OSError as exc:
            self._gone(exc.strerror or str(exc))

    def status(self, verdict: int) -> int:
        """The exit status: the verdict, unless the report could not be written (not a closed pipe,
        which is the reader's choice) and the verdict was `EXIT_OK`: then `EXIT_OUTPUT_CLOSED`."""
        if self.error is not None and verdict == EXIT_OK:
            return EXIT_OUTPUT_CLOSED
        return verdict

    def _gone(self, error: str | None) -> None:
        self.closed = True
        self.error = error
        if self.stream is None:
            return
        try:
            fd = self.stream.fileno()
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, fd)
            os.close(devnull)
        except (OSError, ValueError, AttributeError):
            pass  # not a real file descriptor
        if sys.stdout is self.stream:  # anything else that flushes stdout (a fork, the exit) finds it quiet
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115  lives as long as the process


def error_report(message: str, name: str | None) -> str:
    """The `--format json` form of an unreadable input: `{"file", "ok": false, "exit": 2, "error"}`."""
    return json.dumps({"file": name, "ok": False, "exit": EXIT_UNREADABLE, "error": message}, indent=2)


def summary_line(counts: dict[int, int], files: int) -> str:
    """The last line of a many-file `check` in text form."""
    return (
        f"checked {count(files, 'file')}: {counts.get(EXIT_OK, 0)} {SAFE}, {counts.get(EXIT_VIOLATIONS, 0)} with "
        f"violations, {counts.get(EXIT_UNREADABLE, 0)} unreadable"
    )


def worst(codes: dict[int, int]) -> int:
    """The exit status of many files: 2 if any is unreadable, else 1 if any has violations, else 0."""
    if codes.get(EXIT_UNREADABLE):
        return EXIT_UNREADABLE
    return EXIT_VIOLATIONS if codes.get(EXIT_VIOLATIONS) else EXIT_OK


def as_json(value: Any) -> str:
    """JSON output of the commands that print data (`diff --format json`, `convert`, `prepare`)."""
    return json.dumps(value, indent=2, ensure_ascii=False)
