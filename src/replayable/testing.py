"""Test helpers for apps that store or build transcripts: `assert_replay_safe`.

```python
from replayable.testing import assert_replay_safe

def test_stored_history_is_replay_safe():
    assert_replay_safe(load_history("user-42"), provider="openai")
```

A failing assertion names each violation's item index and code, one per line, in pytest's report.
"""

from __future__ import annotations

import os
from typing import Any

from ._json import JSONError
from ._reading import read_text
from ._replay import TranscriptReport, check_transcript
from .errors import ReplayError

__all__ = ["assert_replay_safe"]


def assert_replay_safe(data: Any, **kw: Any) -> TranscriptReport:
    """Assert that `data` is safe to replay: `check_transcript(data, **kw)` finds no violation.

    `data` is anything `check_transcript` takes (a list of items as dicts, our models or `openai` SDK
    objects, a request body, a Response), JSON text or bytes of one of those, JSONL text, or a path
    (`os.PathLike`) to a file holding such text. `kw` go to `check_transcript` (`provider="openai"`,
    `tools=`, `target=`, `pending_ok=True`, ...).

    Returns the report when it is ok. Raises `AssertionError` otherwise, listing each violation as
    `item N: code: message` (and text that is not strict JSON as one line saying why). Bad arguments
    (`side="sideways"`, `data=None`) raise the `ValueError` `check_transcript` raises.
    """
    __tracebackhide__ = True  # pytest shows the caller's line, not this helper's
    what = "data"
    if isinstance(data, os.PathLike):
        what = os.fspath(data)
        with open(data, "rb") as f:
            data = f.read()
    if isinstance(data, str | bytes | bytearray):
        try:
            data = read_text(data, what)  # the one reader: one JSON document or, failing that, JSONL
        except JSONError as exc:
            raise AssertionError(f"not replay-safe: {exc}") from None
    report = check_transcript(data, **kw)
    if not report.ok:
        raise AssertionError(str(ReplayError(report))) from None
    return report
