"""The seed loop as a typed program (tests/typing/quickstart.py) type-checks under `mypy --strict` and
runs: typed request -> dump -> whole strict Open Responses Response -> gate -> next request. The
README's own Quickstart, as written, is run and type-checked by tests/contracts/test_readme.py."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, full_response

import replayable as rp

sys.path.insert(0, str(Path(__file__).parent.parent / "typing"))
import quickstart  # noqa: E402

OUTPUT = [
    {"type": "reasoning", "id": "rs_1", "summary": []},
    {
        "type": "function_call",
        "id": "fc_1",
        "call_id": "call_1",
        "name": "get_weather",
        "arguments": '{"city": "Paris"}',
        "status": "completed",
    },
    {
        "type": "function_call",
        "id": "fc_2",
        "call_id": "call_2",
        "name": "get_weather",
        "arguments": '{"city": "Paris", "refund": true}',
        "status": "completed",
    },
]
#: A whole strict Response (every key) holding `OUTPUT`.
RESPONSE = {**full_response(), "model": "gpt-5", "completed_at": 1700000001, "output": OUTPUT, "usage": None}


@pytest.mark.skipif(
    importlib.util.find_spec("mypy") is None, reason="mypy is a dev tool (the dev extra), not installed here"
)
def test_quickstart_type_checks_under_mypy_strict() -> None:
    usage = Path(__file__).parent.parent / "typing" / "quickstart.py"
    res = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--config-file", str(ROOT / "pyproject.toml"), str(usage)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stdout + res.stderr
    assert "Success" in res.stdout


def test_quickstart_runs_the_seed_loop() -> None:
    sent, follow_up = quickstart.loop(RESPONSE)
    assert sent["input"][0] == {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Weather in Paris?"}]}
    assert sent["tools"][0]["type"] == "function"
    assert follow_up["previous_response_id"] == "resp_1"
    assert follow_up["input"] == [
        {"type": "function_call_output", "call_id": "call_1", "output": "18C in Paris"},
        {
            "type": "function_call_output",
            "call_id": "call_2",
            "output": follow_up["input"][1]["output"],
        },
    ]
    assert follow_up["input"][1]["output"].startswith("refused: ") and "/refund" in follow_up["input"][1]["output"]
    # the follow-up alone: its outputs answer calls of the previous response, listed as external
    alone = rp.check_transcript(rp.parse_request(follow_up))
    assert alone.ok and alone.external == (0, 1)
