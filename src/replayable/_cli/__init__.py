"""The `replayable` command line, a private package: its one public name is `main`.

`command` parses the arguments and runs the verbs; `inputs` reads files, directories and standard
input; `batch` checks many inputs (in worker processes with `--jobs`); `progress` draws a progress
bar on a terminal. Nothing outside this package imports from it; the library below never knows it
exists (SARIF and GitHub annotations are rendered by `replayable._ci_formats`).
"""

from __future__ import annotations

from .command import main

__all__ = ["main"]
