"""Every Python block of README.md and of the documentation site (docs/**/*.md) runs, and the Quickstart
blocks pass `mypy --strict` exactly as written; README.md stays within 300 lines.

The blocks are read with sybil (its Markdown parsers), so no page can drift from what is tested. README.md's
blocks run in order in one namespace (as a reader would paste them); each docs page then runs its blocks in
order in a copy of that namespace, so a page continues the Quickstart (docs/index.md says so) and no page
depends on another. Names a block uses but a reader would have from their own app (`stored_items`,
`messages`, an HTTP stream, an Agents session's events, ...) come from `app_names()` below: small, real
values built with the library itself, never mocks of it. A block marked `<!-- skip: next -->` is run by
another test that says so next to the marker (the Dask block of docs/large-stores.md: `tests/integrations/test_dask.py`).
"""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import ROOT, needs_checkout

README = ROOT / "README.md"
DOCS = ROOT / "docs"
MAX_README_LINES = 300  # a README that fits on a few screens; the rest lives in docs/
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

pytestmark = needs_checkout  # the Quickstart reads examples/, which only the checkout has


def _sse(events: list[dict[str, Any]]) -> bytes:
    return b"".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n".encode() for e in events) + b"data: [DONE]\n\n"


class _HTTPStream:
    """What `httpx.Response` offers for a streamed body: `iter_bytes()` in chunks split anywhere."""

    def __init__(self, data: bytes) -> None:
        self._data = data

    def iter_bytes(self) -> Iterator[bytes]:
        for i in range(0, len(self._data), 97):
            yield self._data[i : i + 97]


def app_names() -> dict[str, Any]:
    """What the README's fragments take from the reader's app, as plain values."""
    sent: list[Any] = []
    ran: list[Any] = []
    weather_tool = {
        "type": "function",
        "name": "get_weather",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city"],
            "additionalProperties": False,
        },
    }
    stored_items = [
        {"type": "message", "role": "user", "content": "Weather in Paris?"},
        {"type": "function_call", "call_id": "call_1", "name": "get_weather", "arguments": '{"city": "Paris"}'},
        {"type": "function_call_output", "call_id": "call_1", "output": "18 C"},
        {"type": "function_call_output", "call_id": "call_9", "output": "orphan"},
    ]
    messages = [
        {"role": "user", "content": "Weather in Paris?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'}}
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "18 C"},
    ]
    agents_case = json.loads((FIXTURES / "agents" / "S20.json").read_text(encoding="utf-8"))
    session_events = [
        line for line in (FIXTURES / "agents" / "session_stream.jsonl").read_text(encoding="utf-8").splitlines() if line
    ]
    stream_bytes = (FIXTURES / "stream" / "message_and_call.sse").read_bytes()
    card_schema = {
        "type": "object",
        "properties": {"status": {"enum": ["shipped", "pending"]}},
        "required": ["status"],
        "additionalProperties": False,
    }
    call = {"type": "function_call", "call_id": "call_1", "name": "get_weather", "arguments": '{"city": "Paris"}'}
    return {
        "stored_items": stored_items,
        "messages": messages,
        "my_function_tools": [weather_tool, agents_case["tool"]],
        "stream_session_events": lambda session_id: iter(session_events),
        "run_tool": lambda name, arguments: {"ok": True, "name": name},
        "send_events": lambda session_id, events: sent.extend(events),
        "session_id": "sess_8f21",
        "http_response": _HTTPStream(stream_bytes),
        "sock_chunks": [stream_bytes[i : i + 7] for i in range(0, len(stream_bytes), 7)],
        "async_client": httpx.AsyncClient(
            transport=httpx.MockTransport(lambda request: httpx.Response(200, content=stream_bytes)),
            base_url="https://api.example/v1",
        ),
        "run": lambda *args: ran.append(args),
        "act_on": lambda card: ran.append(card),
        "card_schema": card_schema,
        "stored": [call],
        "replayed": [{**call, "arguments": '{"city": "Lyon"}'}],
    }


def _pages() -> list[Path]:
    """README.md first, then every page of the site, in a stable order."""
    return [README, *sorted(DOCS.rglob("*.md"))]


def _run_page(page: Path, namespace: dict[str, Any]) -> int:
    """Run the Python blocks of one page in order in `namespace`; a failure names the file and line."""
    sybil = pytest.importorskip("sybil")
    from sybil.parsers.markdown import PythonCodeBlockParser, SkipParser

    parser = sybil.Sybil(parsers=[PythonCodeBlockParser(), SkipParser()], path=str(ROOT), patterns=["*.md"])
    document = parser.parse(page)
    document.namespace.update(namespace)
    ran = 0
    for example in document.examples():
        source = getattr(example.region, "parsed", None)
        try:
            example.evaluate()
        except Exception as exc:  # name the block: a failure must point at the page's line
            where = page.relative_to(ROOT)
            raise AssertionError(f"{where} line {example.line}: the block fails: {exc!r}\n{source}") from exc
        ran += 1
    namespace.clear()
    namespace.update(document.namespace)
    return ran


def test_every_python_block_runs(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(ROOT)  # the Quickstart reads examples/ relative to the checkout, as the README says
    readme_namespace = app_names()
    ran = {README: _run_page(README, readme_namespace)}
    out = capsys.readouterr().out
    assert "refused: /refund fails additionalProperties" in out  # what the Quickstart prints, as it says
    for page in _pages()[1:]:
        ran[page] = _run_page(page, dict(readme_namespace))
    assert ran[README] >= 3, f"only {ran[README]} README blocks ran: did the README lose its examples?"
    assert sum(ran.values()) >= 20, f"only {sum(ran.values())} blocks ran: did the docs lose their examples?"
    for name in ["requests.md", "gate.md", "transcripts.md", "integrations.md", "interop.md", "streaming.md", "agents.md"]:
        assert ran[DOCS / name], f"docs/{name} ran no Python block"


def test_every_python_block_is_seen_by_sybil() -> None:
    """A ```python fence that sybil's parser would not pick up (indented, `py`, `python3`) is never run:
    every Python-looking fence of every page is one sybil reads, or is skipped with a marker."""
    for page in _pages():
        text = page.read_text(encoding="utf-8")
        fences = re.findall(r"^\s*```\s*(py|python3|pycon|python)\b.*$", text, re.M)
        plain = re.findall(r"^```python$", text, re.M)
        assert len(fences) == len(plain), f"{page.relative_to(ROOT)}: a Python block sybil would not run"


def test_readme_fits_on_a_few_screens() -> None:
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_README_LINES, f"README.md has {lines} lines; move detail to a page of docs/"


def _quickstart_source() -> str:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Quickstart\n") : text.index("\n## ", text.index("## Quickstart\n"))]
    blocks = re.findall(r"```python\n(.*?)```\n", section, re.S)
    assert len(blocks) == 2, "the Quickstart is two Python blocks: the request, then the response and the loop"
    return "\n".join(blocks)


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is a dev tool (the dev extra), not installed here")
def test_quickstart_passes_mypy_strict_as_written(tmp_path: Path) -> None:
    program = tmp_path / "quickstart.py"
    program.write_text(_quickstart_source(), encoding="utf-8")
    res = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--config-file", str(ROOT / "pyproject.toml"), str(program)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stdout + res.stderr
    assert "Success" in res.stdout


def test_quickstart_runs_as_a_program() -> None:
    res = subprocess.run([sys.executable, "-c", _quickstart_source()], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith("refused: /refund fails additionalProperties")
