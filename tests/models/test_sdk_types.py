"""Types that fit the SDKs: what the library hands back goes into the SDKs' own typed
parameters under `mypy --strict` (`client.responses.create(input=rp.dump_items(items))`, the kept items of
`prepare_replay`, `Runner.run(..., session=CheckedSession(...))`), and the README's blocks for LiteLLM,
LangChain and pydantic-ai pass `mypy --strict` as written."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, needs_checkout

pytestmark = [
    needs_checkout,
    pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is a dev tool (the dev extra)"),
]

PROGRAM = '''
import openai
import replayable as rp
from agents import Agent, Runner, SQLiteSession
from replayable.integrations.agents import CheckedSession

client = openai.OpenAI(api_key="sk-test")
items = rp.parse_items([{"type": "message", "role": "user", "content": "hi"}])
client.responses.create(model="gpt-5", input=rp.dump_items(items))
kept, report = rp.prepare_replay(items, target="openai")
client.responses.create(model="gpt-5", input=rp.dump_items(kept))
one: rp.InputItem = rp.to_input(items[0])


async def run() -> None:
    await Runner.run(Agent(name="support"), "hi", session=CheckedSession(SQLiteSession("user-42")))
'''


def _readme_integration_blocks() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start, end = text.index("**LiteLLM**"), text.index("**Codex sessions.**")
    blocks = re.findall(r"```python\n(.*?)```\n", text[start:end], re.S)
    assert len(blocks) == 3, "one block each for LiteLLM, LangChain and pydantic-ai"
    return "import replayable as rp\n" + "\n".join(blocks)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["sdk_program", "readme_blocks"])
def test_passes_mypy_strict(tmp_path: Path, name: str) -> None:
    source = PROGRAM if name == "sdk_program" else _readme_integration_blocks()
    program = tmp_path / f"{name}.py"
    program.write_text(source, encoding="utf-8")
    res = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--config-file", str(ROOT / "pyproject.toml"), str(program)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stdout + res.stderr
