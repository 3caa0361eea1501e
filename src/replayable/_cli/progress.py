"""Progress of `replayable check` on a terminal: how many files are done, and within one large file how
many items are checked (or bytes read).

Drawn with `rich` (the `progress` extra) on standard error, and only when standard error is a terminal:
reports on standard output reach a pipe or a file unchanged, and a check run by CI, a pre-commit hook or
a test draws nothing. Without `rich`, or off a terminal, every function here is a no-op. The display is
transient: it is gone once the check ends.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Iterator
from typing import Any

from replayable._reading import display_name

__all__ = ["FileProgress", "files_bar", "one_file"]

#: A file smaller than this checks in well under a second: no progress is drawn for it.
MIN_BYTES = 4 * 1024 * 1024


def _tty() -> bool:
    stream = sys.stderr
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def _rich() -> Any:
    """The `rich.progress` module, or None when rich is not installed."""
    try:
        import rich.progress  # noqa: PLC0415
    except ImportError:
        return None
    return rich.progress


def _make(columns: list[Any]) -> Any:
    from rich.console import Console  # noqa: PLC0415
    from rich.progress import Progress  # noqa: PLC0415

    return Progress(
        *columns,
        console=Console(file=sys.stderr),
        transient=True,
        redirect_stdout=False,
        redirect_stderr=False,
    )


def files_bar(total: int) -> Any:
    """A rich progress bar of `total` files on a terminal's standard error, or None."""
    rp = _rich() if _tty() else None
    if rp is None:
        return None
    return _make([rp.TextColumn("checking"), rp.BarColumn(), rp.MofNCompleteColumn(), rp.TimeRemainingColumn()])


class FileProgress:
    """Progress within one input, which names it as the reports do (`file`, `name`): `reading()` while
    it is read and parsed, then `checking(total)` and `advance(n, position)` as items are checked. The bar
    measures items when their number is known (a JSON array), else the bytes read (`position`, a JSONL
    file), and the line counts the items checked. Every method does nothing when no progress is drawn
    (`active` False)."""

    def __init__(self, file: str, name: str, size: int | None, bar: Any) -> None:
        self.file = file
        """The input as given (`<stdin>` for `-`), for JSON reports."""
        self.name = name
        """The input's name in messages and on the line drawn (`replayable._reading.display_name`)."""
        self.size = size
        self.bar = bar
        self.task: Any = None
        self.done = 0
        self.by_items = False

    @property
    def active(self) -> bool:
        return self.bar is not None

    def reading(self) -> None:
        """The input is being read and parsed."""
        if self.bar is not None:
            self.task = self.bar.add_task(self.name, total=None, what="reading", count="")

    def checking(self, total: int | None) -> None:
        """Checking starts: `total` items when known, else the bar follows the bytes read."""
        if self.bar is None:
            return
        if self.task is not None:
            self.bar.remove_task(self.task)
        self.by_items = total is not None
        size = total if self.by_items else self.size
        self.task = self.bar.add_task(self.name, total=size, what="checking", count="0 items")

    def advance(self, n: int, position: int | None = None) -> None:
        """`n` more items are checked; `position` is how many bytes of the input are read so far."""
        if self.bar is None or self.task is None:
            return
        self.done += n
        completed = self.done if self.by_items else position
        self.bar.update(self.task, completed=completed, count=f"{self.done:,} items")


def _size(path: str) -> int | None:
    """The size in bytes of a regular file (standard input too, when redirected from one), else None."""
    try:
        st = os.fstat(sys.stdin.fileno()) if path == "-" else os.stat(path)
    except (OSError, ValueError, AttributeError):
        return None
    return st.st_size if stat.S_ISREG(st.st_mode) else None


@contextlib.contextmanager
def one_file(path: str, *, enabled: bool = True) -> Iterator[FileProgress]:
    """The progress of checking the input at `path` (`-`: standard input), drawn on a terminal when
    `enabled`, the input is at least `MIN_BYTES` (or of unknown size, e.g. a pipe) and rich is installed.
    A line reads `checking 120,000 items ━━━━━━ 0:00:04 NAME`."""
    file = "<stdin>" if path == "-" else path
    name = display_name(path)
    size = _size(path) if enabled else None
    rp = _rich() if enabled and _tty() and (size is None or size >= MIN_BYTES) else None
    if rp is None:
        yield FileProgress(file, name, size, None)
        return
    from rich.table import Column  # noqa: PLC0415

    columns = [  # the count keeps its width on a narrow terminal; a long name is cut short instead
        rp.SpinnerColumn(),
        rp.TextColumn("{task.fields[what]} {task.fields[count]}", table_column=Column(no_wrap=True, min_width=28)),
        rp.BarColumn(bar_width=20),
        rp.TimeElapsedColumn(),
        rp.TextColumn("{task.description}", table_column=Column(no_wrap=True, overflow="ellipsis", ratio=1)),
    ]
    bar = _make(columns)
    with bar:
        yield FileProgress(file, name, size, bar)
