"""The documentation site (mkdocs.yml, docs/) builds with `mkdocs build --strict`, offline, and holds what
the README promises: every finding code, the API reference generated from the docstrings, the Quickstart.

`make docs` and CI build it too; here it is built into a temporary directory so a broken link, anchor,
snippet or docstring reference fails the suite where the docs tools (the `docs` extra) are installed.
The Python blocks of the pages are run by tests/contracts/test_readme.py.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, needs_checkout

from replayable._codes import CODES

pytestmark = [
    needs_checkout,
    pytest.mark.skipif(
        importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("mkdocstrings_handlers") is None,
        reason="the docs tools (the `docs` extra: mkdocs, mkdocs-material, mkdocstrings) are not installed",
    ),
]


def _config() -> dict[str, object]:
    import yaml  # mkdocs' own dependency, installed with it

    # mkdocs.yml holds no custom YAML tags, so the safe loader reads it whole
    return yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT / "src")}
    res = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
    )
    assert res.returncode == 0, res.stdout + res.stderr
    assert "WARNING" not in res.stderr, res.stderr
    return out


def test_the_config_is_strict_and_offline() -> None:
    config = _config()
    assert config["strict"] is True
    plugins = [p if isinstance(p, str) else next(iter(p)) for p in config["plugins"]]  # type: ignore[attr-defined]
    assert set(plugins) <= {"search", "mkdocstrings"}, f"a plugin that may fetch at build time: {plugins}"
    assert config["theme"]["font"] is False  # type: ignore[index]  # no web font fetched by a reader's browser


def test_every_page_is_in_the_navigation() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in (ROOT / "docs").rglob("*.md"):
        assert page.relative_to(ROOT / "docs").as_posix() in nav, f"{page} is not in mkdocs.yml's nav"


def test_the_site_builds_strictly_with_every_code_and_the_api(site: Path) -> None:
    codes = (site / "codes" / "index.html").read_text(encoding="utf-8")
    for info in CODES:
        assert f"<code>{info.code}</code>" in codes, info.code
    api = (site / "api" / "replay" / "index.html").read_text(encoding="utf-8")
    for name in ["replayable.check_transcript", "replayable.gate"]:
        assert f'id="{name}"' in api, name  # a heading generated from the docstring, under its public name
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "refused: /refund fails additionalProperties" in index  # the README's Quickstart, included
    changelog = (site / "changelog" / "index.html").read_text(encoding="utf-8")
    assert "Unreleased" in changelog


def test_the_built_pages_fetch_nothing_from_the_network(site: Path) -> None:
    """The pages load only the site's own assets: no web font, script or stylesheet from another host."""
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        remote = re.findall(r'<(?:script|link)[^>]+(?:src|href)="(https?://[^"]+)"', text)
        assert not [u for u in remote if not u.startswith("https://replayable.github.io/")], (page, remote)
