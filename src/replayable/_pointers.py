"""JSON Pointers (RFC 6901): the one place they are built and read.

Every path the library reports (a failure in arguments, a finding in a tool, a difference between two
items) is a JSON Pointer built here, so `~` and `/` inside a key are escaped the same way everywhere.
"""

from __future__ import annotations

from typing import Any

__all__ = ["json_pointer", "pointer_parts", "pointer_token"]


def pointer_token(key: Any) -> str:
    """One reference token: `key` as text with `~` written `~0` and `/` written `~1` (RFC 6901 §3)."""
    text = key if type(key) is str else str(key)
    if "~" not in text and "/" not in text:
        return text
    return text.replace("~", "~0").replace("/", "~1")


def json_pointer(parts: Any) -> str:
    """The JSON Pointer of a path given as keys and indexes (`["a/b", 0]` -> `/a~1b/0`); `""` for none."""
    if not parts:
        return ""
    return "".join("/" + pointer_token(p) for p in parts)


def pointer_parts(pointer: str) -> list[str]:
    """The reference tokens of a JSON Pointer, unescaped (`/a~1b/0` -> `["a/b", "0"]`; `""` -> `[]`)."""
    if not pointer:
        return []
    return [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]
