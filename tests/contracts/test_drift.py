"""scripts/drift.py: the pinned SDK shows no drift, and a planted change in the SDK's schemas is named.

Offline: the SDK side is the installed (pinned) openai, probed once; planted changes are made on a copy of its
schemas and fed either to the comparison directly or to the script through its test hook
(`REPLAYABLE_DRIFT_SDK_SCHEMAS`). The fresh-environment mode (an install from the index) is not run here: CI runs
it, non-blocking (`.ci/run`).
"""

from __future__ import annotations

import copy
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("openai", reason="the openai SDK is a dev dependency")

ROOT = Path(__file__).resolve().parent.parents[1]
SCRIPT = ROOT / "scripts" / "drift.py"


def _load_script() -> Any:
    spec = importlib.util.spec_from_file_location("replayable_drift_script", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


drift = _load_script()


@pytest.fixture(scope="module")
def pinned() -> dict[str, Any]:
    """The probe's output for the installed openai (the pin)."""
    out: dict[str, Any] = drift.probe(sys.executable)
    return out


def new_keys(sdk: dict[str, Any]) -> set[str]:
    """Drift keys not in the committed baseline."""
    drifts, _ = drift.find_drift(sdk)
    baseline = drift.load_baseline()
    return {d.key for d in drifts} - set(baseline)


def _run(*args: str, hook: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop(drift.HOOK, None)
    if hook is not None:
        env[drift.HOOK] = str(hook)
    return subprocess.run([sys.executable, str(SCRIPT), *args], cwd=ROOT, capture_output=True, text=True, env=env,
                          timeout=300)  # fmt: skip


# ------------------------------------------------------------------ the pin


def test_the_pinned_sdk_has_no_drift_beyond_the_baseline() -> None:
    res = _run("--installed")
    assert res.returncode == 0, res.stdout + res.stderr
    assert "nothing new" in res.stdout


def test_every_union_is_probed_and_compared(pinned: dict[str, Any]) -> None:
    import openai

    assert pinned["version"] == openai.__version__
    assert set(pinned["unions"]) == {u.name for u in drift.UNIONS}
    missing = {name: entry["error"] for name, entry in pinned["unions"].items() if "error" in entry}
    assert not missing, missing
    for u in drift.UNIONS:  # every bundle exists, and the union's place is in it
        assert u.at == "" or u.at in drift.flatten(drift.our_bundle(u.side)).places, u


def test_the_baseline_is_well_formed() -> None:
    baseline = drift.load_baseline()
    rows = {row["id"] for row in json.loads(drift.DIFFERENCES.read_text(encoding="utf-8"))}
    entries = {e["id"]: e for e in baseline.values()}
    assert entries, "the baseline is empty"
    for entry in entries.values():
        assert entry["reason"].strip()
        assert set(entry["differences"]) <= rows
        assert entry["keys"] and entry["keys"] == sorted(entry["keys"]), entry["id"]
    assert all(k.split()[1] in drift.KINDS for k in baseline)


def test_a_malformed_baseline_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "baseline.json"
    entry = {"id": "x", "reason": "r", "differences": ["no-such-row"], "keys": ["input field .a"]}
    bad.write_text(json.dumps({"entries": [entry, {**entry, "id": "y", "reason": ""}]}))
    with pytest.raises(SystemExit) as info:
        drift.load_baseline(bad)
    message = str(info.value)
    assert "no-such-row" in message and "listed twice" in message and "has no reason" in message


# ------------------------------------------------------------------ planted changes


def _session(sdk: dict[str, Any]) -> dict[str, Any]:
    schema: dict[str, Any] = sdk["unions"]["agents-session"]["schema"]
    return schema


def test_a_new_union_member_is_named(pinned: dict[str, Any]) -> None:
    sdk = copy.deepcopy(pinned)
    events = sdk["unions"]["agents-event"]["schema"]
    events["anyOf"].append(
        {"type": "object", "title": "Paused", "required": ["type"],
         "properties": {"type": {"const": "agent.session.paused", "type": "string"}, "at": {"type": "integer"}}}
    )  # fmt: skip
    assert new_keys(sdk) == {"agents-event member . agent.session.paused"}


def test_a_new_enum_value_is_named(pinned: dict[str, Any]) -> None:
    sdk = copy.deepcopy(pinned)
    _session(sdk)["properties"]["status"]["enum"].append("paused")
    assert new_keys(sdk) == {"agents-session enum .status paused"}


def test_a_new_field_is_named(pinned: dict[str, Any]) -> None:
    sdk = copy.deepcopy(pinned)
    _session(sdk)["properties"]["priority"] = {"type": "integer", "title": "Priority"}
    assert new_keys(sdk) == {"agents-session field .priority"}


def test_a_field_turned_nullable_is_named(pinned: dict[str, Any]) -> None:
    sdk = copy.deepcopy(pinned)
    props = _session(sdk)["properties"]
    props["created_at"] = {"anyOf": [props["created_at"], {"type": "null"}], "title": "Created At"}
    assert new_keys(sdk) == {"agents-session nullable .created_at"}


def test_a_field_turned_optional_is_named(pinned: dict[str, Any]) -> None:
    sdk = copy.deepcopy(pinned)
    _session(sdk)["required"].remove("created_at")
    assert new_keys(sdk) == {"agents-session optional .created_at"}


def test_a_nested_change_is_found_through_refs(pinned: dict[str, Any]) -> None:
    """A field added to a `$defs` type is found at every place that reaches it through `$ref`."""
    sdk = copy.deepcopy(pinned)
    schema = _session(sdk)
    ref = schema["properties"]["spend_control"]
    while "$ref" not in ref:  # Optional[...] -> anyOf [ref, null]
        ref = next(b for b in ref["anyOf"] if b.get("type") != "null")
    name = ref["$ref"].rsplit("/", 1)[1]
    schema["$defs"][name]["properties"]["currency"] = {"type": "string"}
    assert new_keys(sdk) == {"agents-session field .spend_control.currency"}


def test_titles_and_descriptions_are_ignored(pinned: dict[str, Any]) -> None:
    sdk = copy.deepcopy(pinned)

    def retitle(node: Any) -> None:
        if isinstance(node, dict):
            for key in ("title", "description"):
                if isinstance(node.get(key), str):
                    node[key] = node[key] + " (renamed)"
            for value in node.values():
                retitle(value)
        elif isinstance(node, list):
            for value in node:
                retitle(value)

    retitle(sdk["unions"])
    assert new_keys(sdk) == set()


def test_a_union_gone_from_the_sdk_is_named(pinned: dict[str, Any]) -> None:
    sdk = copy.deepcopy(pinned)
    sdk["unions"]["agents-item"] = {"module": "openai.types.beta.agent_session_item", "error": "ImportError: gone"}
    assert new_keys(sdk) == {"agents-item member . <gone>"}


def test_the_script_exits_1_naming_a_planted_change_and_its_module(pinned: dict[str, Any], tmp_path: Path) -> None:
    sdk = copy.deepcopy(pinned)
    _session(sdk)["properties"]["status"]["enum"].append("paused")
    _session(sdk)["properties"]["priority"] = {"type": "integer"}
    hooked = tmp_path / "sdk.json"
    hooked.write_text(json.dumps(sdk))
    res = _run(hook=hooked)
    assert res.returncode == 1, res.stdout + res.stderr
    assert "agents-session (openai.types.beta.agent_session):" in res.stdout
    assert "enum     .status  paused" in res.stdout
    assert "field    .priority" in res.stdout


def test_stale_baseline_keys_fail_against_the_pin(pinned: dict[str, Any], tmp_path: Path) -> None:
    data = json.loads(drift.BASELINE.read_text(encoding="utf-8"))
    data["entries"][0]["keys"].append("agents-session field .long_gone")
    baseline = tmp_path / "baseline.json"
    baseline.write_text(json.dumps(data))
    hooked = tmp_path / "sdk.json"
    hooked.write_text(json.dumps(pinned))
    res = _run("--installed", "--baseline", str(baseline), hook=hooked)
    assert res.returncode == 1 and "agents-session field .long_gone" in res.stdout, res.stdout
    res = _run("--baseline", str(baseline), hook=hooked)  # against a newer SDK: a warning only
    assert res.returncode == 0 and "no longer produces" in res.stdout, res.stdout


# ------------------------------------------------------------------ the normaliser


def test_normalising_refs_nullable_and_the_openai_prefix() -> None:
    ours = {
        "$defs": {
            "Call": {"type": "object", "required": ["type", "id"], "additionalProperties": False,
                     "properties": {"type": {"const": "openai:web_search_call"},
                                    "id": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                                    "status": {"enum": ["completed", "failed"]}}},
        },
        "oneOf": [{"$ref": "#/$defs/Call"}],
    }  # fmt: skip
    facts = drift.flatten(ours)
    assert ("", "web_search_call") in facts.members
    assert "[type=web_search_call].id" in facts.nullable
    assert facts.enums["[type=web_search_call].status"] == {"completed", "failed"}
    assert "[type=web_search_call].status" in facts.optional
    sdk = copy.deepcopy(ours)
    sdk["$defs"]["Call"]["properties"]["status"]["enum"].append("searching")
    sdk["$defs"]["Call"]["properties"]["type"] = {"const": "web_search_call", "title": "Type"}
    got = {d.key for d in drift.compare("x", drift.flatten(sdk), facts)}
    assert got == {"x enum [type=web_search_call].status searching"}


def test_installed_mode_requires_the_pin(pinned: dict[str, Any], tmp_path: Path) -> None:
    """`--installed` is CI's blocking check against the pin: another installed version fails it, saying so."""
    hooked = tmp_path / "sdk.json"
    hooked.write_text(json.dumps({**pinned, "version": "3.0.0"}))
    res = _run("--installed", hook=hooked)
    assert res.returncode == 1, res.stdout
    assert f"the installed openai 3.0.0 is not the pin {drift.pinned_version()}" in res.stdout
    res = _run(hook=hooked)  # the index mode only reports which side of the pin it is
    assert res.returncode == 0 and "is older than the pin" in res.stdout, res.stdout
