"""`replayable show --html` pages opened in a real headless browser (Chromium from the system packages).

For every kind of input `check` reads, the DOM Chromium builds from the page holds every item's row and
every finding of `check`, with its message as text; a message that holds a `<script>` is shown as text and
never runs (the script would mark the page). Skipped, saying why, where no Chromium is installed
(`apt-get install -y chromium`; `.ci/run` tries to install it)."""

from __future__ import annotations

import json
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, FIXTURES

from replayable._checking import CheckOptions, check_document
from replayable._reading import read_file
from replayable._timeline import timeline
from replayable._timeline_render import html

BROWSER = next(
    (shutil.which(name) for name in ("chromium", "chromium-browser", "google-chrome") if shutil.which(name)), None
)
pytestmark = pytest.mark.skipif(
    BROWSER is None, reason="no Chromium installed (apt-get install -y chromium) to open the HTML timeline in"
)


class _Dom(HTMLParser):
    """What a test reads of a DOM: the ids of the rows, each finding's code and text, script elements,
    attributes, and the body's text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[str] = []
        self.findings: list[tuple[str, str]] = []
        self.scripts = 0
        self.attributes: list[tuple[str, str | None]] = []
        self.text: list[str] = []
        self._li: list[str] | None = None
        self._code = ""
        self.title = ""
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.attributes.extend(attrs)
        a = dict(attrs)
        self._in_title = tag == "title"
        if tag == "script":
            self.scripts += 1
        if tag == "tr" and a.get("id"):
            self.rows.append(str(a["id"]))
        if tag == "li" and a.get("data-code"):
            self._li, self._code = [], str(a["data-code"])

    def handle_endtag(self, tag: str) -> None:
        self._in_title = False
        if tag == "li" and self._li is not None:
            self.findings.append((self._code, "".join(self._li)))
            self._li = None

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._in_title:
            self.title += data
        if self._li is not None:
            self._li.append(data)


def _dom(page: str, tmp_path: Path) -> _Dom:
    path = tmp_path / "page.html"
    path.write_text(page, encoding="utf-8")
    assert BROWSER is not None
    argv = [
        BROWSER,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--dump-dom",
        path.as_uri(),
    ]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and "<html" in done.stdout, done.stderr[-2000:]
    dom = _Dom()
    dom.feed(done.stdout)
    return dom


def _bad_stream(tmp_path: Path) -> Path:
    sse = (FIXTURES / "stream" / "message_and_call.sse").read_text(encoding="utf-8")
    path = tmp_path / "bad.sse"
    path.write_text(sse.replace('"sequence_number": 5,', '"sequence_number": 3,', 1), encoding="utf-8")
    return path


def _bad_log(tmp_path: Path) -> Path:
    out = []
    for line in (FIXTURES / "agents" / "session_stream.jsonl").read_text(encoding="utf-8").splitlines():
        event = json.loads(line)
        if event.get("type") == "agent.session.input.tool_result":
            event["call_id"] = "call_nobody"
        out.append(json.dumps(event))
    path = tmp_path / "log.jsonl"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


def _body_with_tools(tmp_path: Path) -> Path:
    body = {
        "model": "m",
        "tools": [{"type": "function", "name": "f", "parameters": {"type": "object"}, "strict": True}],
        "input": [{"type": "message", "role": "user", "content": "hi"}],
    }
    path = tmp_path / "body.json"
    path.write_text(json.dumps(body), encoding="utf-8")
    return path


INPUTS: list[tuple[str, Any, dict[str, Any]]] = [
    ("items", lambda tmp: EXAMPLES / "sales_report_broken.json", {}),
    ("request body", lambda tmp: EXAMPLES / "weather.next_request.json", {}),
    ("request body with tool findings", _body_with_tools, {}),
    ("Response", lambda tmp: EXAMPLES / "weather.response.json", {}),
    ("OpenAI Response", lambda tmp: EXAMPLES / "openai_weather_response.json", {"provider": "openai"}),
    ("stream", _bad_stream, {}),
    ("Agents log", _bad_log, {"agents": True}),
]


@pytest.mark.parametrize(("label", "make", "how"), INPUTS, ids=[i[0] for i in INPUTS])
def test_every_item_and_finding_is_in_the_browsers_dom(
    label: str, make: Any, how: dict[str, Any], tmp_path: Path
) -> None:
    path = make(tmp_path)
    provider = how.get("provider")
    doc = read_file(str(path), provider=provider, agents=how.get("agents", False))
    record = check_document(doc, CheckOptions(file=str(path), provider=provider))
    view = timeline(doc, record)
    dom = _dom(html(view), tmp_path)
    assert dom.rows == [f"{view.unit}-{row.index}" for row in view.rows]
    text = " ".join(dom.text)
    for row in view.rows:
        assert row.type in text and (not row.call_id or row.call_id in text)
    shown = sorted(dom.findings)
    expected = sorted((f["code"], f["message"]) for f in record["findings"])
    assert len(shown) == len(expected)
    for (code, li), (want_code, message) in zip(shown, expected, strict=True):
        assert code == want_code and message in li, label
    assert view.verdict in text
    assert dom.scripts == 0


def test_a_script_in_a_message_is_shown_as_text_and_never_runs(tmp_path: Path) -> None:
    script = '<script>document.body.setAttribute("data-pwned", "1"); document.title = "pwned"</script>'
    items = [
        {"type": "message", "role": "user", "content": script},
        {"type": "function_call", "call_id": '"><img src=x onerror="document.title=1">', "name": "f", "arguments": "{"},
    ]
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(items), encoding="utf-8")
    doc = read_file(str(path))
    record = check_document(doc, CheckOptions(file=str(path)))
    assert not record["ok"]
    dom = _dom(html(timeline(doc, record)), tmp_path)
    assert dom.scripts == 0
    assert ("data-pwned", "1") not in dom.attributes and all(name != "onerror" for name, _ in dom.attributes)
    text = " ".join(dom.text)
    assert script in text  # the message, as typed
    assert '"><img src=x onerror="document.title=1">' in text
    assert dom.title == f"{path}: replayable show"  # the script would have set it to "pwned"
    assert len(dom.rows) == 2 and dom.findings


def test_the_browser_runs_scripts_so_the_test_above_can_fail(tmp_path: Path) -> None:
    """A control: the same browser, on a page that does carry the script, runs it (and the DOM shows it)."""
    page = '<!DOCTYPE html><html><head><title>t</title></head><body><script>document.title = "pwned"</script></body></html>'
    assert _dom(page, tmp_path).title == "pwned"
