"""The schema files made from the pinned openai SDK plus `schemas/sdk-overlay.json` (scripts/_sdk_schemas.py, run
by `scripts/generate.py`): the committed files are what the pin and the overlay give, and every way the SDK and the
overlay can stop fitting is an error naming the file and the field."""

from __future__ import annotations

import copy
import importlib.util
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("openai", reason="the openai SDK is a dev dependency")

ROOT = Path(__file__).resolve().parent.parents[1]


def _load() -> Any:
    spec = importlib.util.spec_from_file_location("replayable_sdk_schemas", ROOT / "scripts" / "_sdk_schemas.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


G = _load()
OVERLAY: dict[str, Any] = json.loads(G.OVERLAY.read_text(encoding="utf-8"))


def generate_with(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, overlay: dict[str, Any]) -> dict[str, str]:
    path = tmp_path / "overlay.json"
    path.write_text(json.dumps(overlay))
    monkeypatch.setattr(G, "OVERLAY", path)
    out: dict[str, str] = G.generated()
    return out


def test_the_committed_files_are_what_the_pin_and_the_overlay_give() -> None:
    files = G.generated()
    # 105 of the 120 files of schemas/agents/, 63 of the 78 of schemas/openai/ (schemas/README.md lists the rest)
    assert len(files) >= 168
    stale = [p for p, text in files.items() if (G.SCHEMAS / p).read_text(encoding="utf-8") != text]
    assert not stale, f"run `python scripts/generate.py`: {stale}"
    assert G.generated() == files  # byte-stable


def test_a_new_sdk_field_needs_the_overlay(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    overlay = copy.deepcopy(OVERLAY)
    del overlay["files"]["agents/agent_session.json"]["fields"]["vault_ids"]
    with pytest.raises(
        G.OverlayError, match=r"agents/agent_session.json: SDK fields not in the overlay: \['vault_ids'\]"
    ):
        generate_with(monkeypatch, tmp_path, overlay)


def test_an_overlay_field_the_sdk_lacks_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    overlay = copy.deepcopy(OVERLAY)
    overlay["files"]["agents/session_idle_event.json"]["fields"]["paused_at"] = {"description": "x"}
    with pytest.raises(G.OverlayError, match="session_idle_event.json: field 'paused_at' is in the overlay and not in"):
        generate_with(monkeypatch, tmp_path, overlay)


def test_an_sdk_type_without_a_place_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    overlay = copy.deepcopy(OVERLAY)
    del overlay["refs"]["TokenUsage"]
    with pytest.raises(G.OverlayError, match="the SDK type TokenUsage has no place in our schemas"):
        generate_with(monkeypatch, tmp_path, overlay)


def test_a_deliberate_difference_needs_its_reason(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    overlay = copy.deepcopy(OVERLAY)
    field = overlay["files"]["agents/agent_session.json"]["fields"]["spend_control"]
    assert field["optional"] and field["nullable"]  # older sessions without spend_control stay readable
    del field["why"]
    with pytest.raises(G.OverlayError, match=r"agent_session.json.spend_control: `(optional|nullable)` differs"):
        generate_with(monkeypatch, tmp_path, overlay)


def test_a_shared_closed_set_follows_the_sdk(monkeypatch: pytest.MonkeyPatch) -> None:
    real = G.resolve

    def without_budget_reached(folder: Path, ref: str) -> dict[str, Any]:
        node: dict[str, Any] = copy.deepcopy(real(folder, ref))
        if "enum" in node:
            node["enum"] = [v for v in node["enum"] if v != "budget_reached"]
        return node

    monkeypatch.setattr(G, "resolve", without_budget_reached)
    with pytest.raises(G.OverlayError, match=r"status: common.json#/\$defs/SessionStatus has .* update the set"):
        G.generated()


def test_the_files_follow_the_pin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(G, "pinned_openai", lambda: "0.0.1")
    with pytest.raises(G.OverlayError, match="the pin is 0.0.1"):
        G.generated()


def test_an_overlay_row_must_exist(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    overlay = copy.deepcopy(OVERLAY)
    overlay["files"]["agents/agent_session.json"]["fields"]["spend_control"]["differences"] = ["no-such-row"]
    with pytest.raises(G.OverlayError, match="'no-such-row' is not a row of schemas/differences.json"):
        generate_with(monkeypatch, tmp_path, overlay)


def test_an_omitted_field_is_not_written(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """`omit`: the events body's `idempotency_key` is the `Idempotency-Key` header the SDK sends (its alias, the name
    on the wire), not a body field."""
    body = json.loads((G.SCHEMAS / "agents" / "session_events_body.json").read_text(encoding="utf-8"))
    assert list(body["properties"]) == ["events"]
    overlay = copy.deepcopy(OVERLAY)
    field = overlay["files"]["agents/session_events_body.json"]["fields"]["Idempotency-Key"]
    field.clear()
    field["description"] = "Idempotency key."
    written = json.loads(generate_with(monkeypatch, tmp_path, overlay)["agents/session_events_body.json"])
    assert list(written["properties"]) == ["events", "Idempotency-Key"]


def test_a_typeddict_field_is_named_as_the_sdk_sends_it() -> None:
    """The SDK's transform sends `async_: Annotated[..., PropertyInfo(alias="async")]` as `async`; pydantic's schema of
    the TypedDict says `async_`: the generated file has the name on the wire."""
    sdk = G.sdk_schema("openai.types.beta.agents.session_create_params:Agent")
    assert list(sdk["$defs"]["AgentCompaction"]["properties"]) == ["async"]
    agent = json.loads((G.SCHEMAS / "agents" / "agent_config_param.json").read_text(encoding="utf-8"))
    assert list(agent["properties"]["compaction"]["anyOf"][0]["properties"]) == ["async"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda u: u.update(properties={}), "a `union` holds its title, description, `oneOf` and `discriminator`, only"),
        (lambda u: u["oneOf"].append({"$ref": "#/$defs/HostedFileParam"}),
         "a `union` member must be a `$ref` to an SDK-made model of this file"),
        (lambda u: u["oneOf"].append({"$ref": "common.json#/$defs/SessionStatus"}),
         "a `union` member must be a `$ref` to an SDK-made model of this file"),
        (lambda u: u["discriminator"]["mapping"].popitem(), "the `discriminator` mapping must name each `oneOf` member"),
    ],
)  # fmt: skip
def test_a_local_union_is_only_a_union(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, change: Any, message: str
) -> None:
    """A `union` of `local_defs` (our tagged union of SDK-made models) cannot carry a shape of its own."""
    overlay = copy.deepcopy(OVERLAY)
    change(overlay["files"]["agents/openai_hosted_environment.json"]["local_defs"]["HostedFileParam"]["union"])
    with pytest.raises(G.OverlayError, match=re.escape(message)):
        generate_with(monkeypatch, tmp_path, overlay)


def test_the_generated_session_is_the_sdk_shape() -> None:
    """Spot check against the SDK itself: what the SDK requires is required, except the overlay's choices."""
    from openai.types.beta.agent_session import AgentSession

    session = json.loads((G.SCHEMAS / "agents" / "agent_session.json").read_text(encoding="utf-8"))
    sdk_required = {n for n, f in AgentSession.model_fields.items() if f.is_required()}
    assert set(session["required"]) == sdk_required - {"spend_control"}
    assert set(session["properties"]) == set(AgentSession.model_fields)


@pytest.mark.parametrize(
    ("path", "field", "change", "message"),
    [
        ("agents/function_call_action.json", "call_id", lambda f: f.pop("why"), "`extend` differs from the SDK"),
        ("openai/mcp_list_tools.json", "status", lambda f: f.pop("why"), "`add` differs from the SDK without a `why`"),
        ("agents/session_idle_event.json", "event_id", lambda f: f.update(add={"type": "string"}, why="w"),
         "`add` in the overlay, but the SDK has the field"),
        ("agents/session_events_body.json", "Idempotency-Key", lambda f: f.pop("why"),
         "`omit` differs from the SDK"),
        ("agents/session_update_params.json", "spend_control",
         lambda f: f.update(replace={"type": "object"}), "`replace` with a shape of our own needs a `why`"),
        ("agents/session_idle_event.json", "event_id", lambda f: f.update(items={"type": "string"}),
         "`items` in the overlay, but the SDK's field is no array"),
        ("agents/session_idle_event.json", "event_id", lambda f: f.update(inline={"fields": {}}),
         "`inline` in the overlay, but the SDK's field is no model"),
    ],
)  # fmt: skip
def test_every_override_is_checked(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, path: str, field: str, change: Any, message: str
) -> None:
    overlay = copy.deepcopy(OVERLAY)
    change(overlay["files"][path]["fields"][field])
    with pytest.raises(G.OverlayError, match=re.escape(message)):
        generate_with(monkeypatch, tmp_path, overlay)


def test_a_new_field_of_a_nested_model_needs_the_overlay(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Inline models and local `$defs` are held to the SDK like files: a field the overlay lacks stops it."""
    overlay = copy.deepcopy(OVERLAY)
    del overlay["files"]["agents/session_update_params.json"]["fields"]["spend_control"]["inline"]["fields"]["limit"]
    with pytest.raises(G.OverlayError, match=r"SDK fields not in the overlay: \['limit'\]"):
        generate_with(monkeypatch, tmp_path, overlay)
    overlay = copy.deepcopy(OVERLAY)
    local = overlay["files"]["agents/turn.json"]["local_defs"]
    name = next(iter(local))
    first = next(iter(local[name]["fields"]))
    del local[name]["fields"][first]
    with pytest.raises(G.OverlayError, match=rf"agents/turn.json#/\$defs/{name}: SDK fields not in the overlay"):
        generate_with(monkeypatch, tmp_path, overlay)
