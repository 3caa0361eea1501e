"""Shared test helpers: fixture paths and the recorded corpus (read from ../shared/corpus, never copied)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

#: LiteLLM fetches its model cost map over the network when imported, unless told to read its own copy
#: (the litellm integration's tests and the README's LiteLLM block run offline).
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
CASES = FIXTURES / "cases"
CORPUS = ROOT.parent / "shared" / "corpus"
EXAMPLES = ROOT / "examples"

#: True when tests/ sits in a source checkout (schemas/, scripts/, examples/ beside it). The installed
#: package does not ship those: run against a wheel from elsewhere, the tests that read them skip.
CHECKOUT = all((ROOT / part).is_dir() for part in ("schemas/open_responses", "scripts", "examples"))
needs_checkout = pytest.mark.skipif(
    not CHECKOUT,
    reason="needs the source checkout beside tests/ (schemas/, scripts/, examples/), "
    "which the installed package does not ship",
)


#: A whole spec Response (every field `ResponseResource` requires), `status` in progress: the snapshot a
#: lifecycle stream event carries. Copy it with the changes a test needs (`{**FULL_RESPONSE, ...}`).
FULL_RESPONSE: dict[str, Any] = {
    "id": "resp_1", "object": "response", "created_at": 0, "completed_at": None, "status": "in_progress",
    "incomplete_details": None, "model": "m", "previous_response_id": None, "instructions": None, "output": [],
    "error": None, "tools": [], "tool_choice": "auto", "truncation": "disabled", "parallel_tool_calls": True,
    "text": {"format": {"type": "text"}}, "top_p": 1.0, "presence_penalty": 0.0, "frequency_penalty": 0.0,
    "top_logprobs": 0, "temperature": 1.0, "reasoning": None, "usage": None, "max_output_tokens": None,
    "max_tool_calls": None, "store": False, "background": False, "service_tier": "default", "metadata": {},
    "safety_identifier": None, "prompt_cache_key": None,
}  # fmt: skip


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def corpus_files(kind: str | None = None) -> list[Path]:
    """Recorded payloads in ../shared/corpus (empty when the folder is absent)."""
    if not CORPUS.is_dir():
        return []
    files = sorted(CORPUS.glob("*.json"))
    return [p for p in files if kind is None or load(p).get("kind") == kind]


def corpus_items() -> list[tuple[str, str, int, dict[str, Any]]]:
    """(file, side, index, item) for every item in the recorded responses, requests and streams."""
    out = []
    for p in corpus_files():
        doc = load(p)
        body, kind = doc["body"], doc["kind"]
        if kind == "response":
            out += [(p.name, "output", i, x) for i, x in enumerate(body.get("output") or [])]
        elif kind == "request" and isinstance(body.get("input"), list):
            out += [(p.name, "input", i, x) for i, x in enumerate(body["input"])]
        elif kind == "stream":
            done = [e["item"] for e in body if e.get("type") == "response.output_item.done" and e.get("item")]
            out += [(p.name, "output", i, x) for i, x in enumerate(done)]
    return out


needs_corpus = pytest.mark.skipif(
    not CORPUS.is_dir(), reason="../shared/corpus (recorded third-party payloads) is not beside this checkout"
)


#: The hypothesis profile: `default` is the bounded run CI does; `HYPOTHESIS_PROFILE=long` runs each
#: property 100 times longer (at least 20,000 examples), on demand.
FUZZ_PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "default")
# Every property in the suite (explicit `settings(...)` inherit this) is derandomized in the default
# profile, so CI gives the same verdict on every run; `HYPOTHESIS_PROFILE=long` explores anew.
settings.register_profile("repeatable", derandomize=True, database=None)
if FUZZ_PROFILE != "long":
    settings.load_profile("repeatable")


def fuzz_settings(default_examples: int) -> settings:
    """Settings for a fuzz property: `default_examples` in the default profile, 100x (>= 20,000) in
    the long one; the default profile is derandomized so that CI gives the same verdict each run. No deadline (the machine is shared); hypothesis still reports hangs as slow data."""
    examples = default_examples if FUZZ_PROFILE != "long" else max(20_000, 100 * default_examples)
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=FUZZ_PROFILE != "long",  # CI is repeatable; the long run explores anew each time
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    )


def full_response() -> dict[str, Any]:
    """A strict Open Responses response with every key, one function call and usage."""
    return {
        "id": "resp_1",
        "object": "response",
        "created_at": 1700000000,
        "completed_at": 1700000003,
        "status": "completed",
        "incomplete_details": None,
        "model": "m",
        "previous_response_id": None,
        "instructions": None,
        "output": [
            {
                "type": "function_call",
                "id": "fc_1",
                "call_id": "call_1",
                "name": "get_weather",
                "arguments": '{"city": "Paris"}',
                "status": "completed",
            }
        ],
        "error": None,
        "tools": [{"type": "function", "name": "get_weather", "description": None, "parameters": None, "strict": True}],
        "tool_choice": "auto",
        "truncation": "disabled",
        "parallel_tool_calls": True,
        "text": {"format": {"type": "text"}},
        "top_p": 1.0,
        "presence_penalty": 0.0,
        "frequency_penalty": 0.0,
        "top_logprobs": 0,
        "temperature": 1.0,
        "reasoning": None,
        "usage": {
            "input_tokens": 10,
            "output_tokens": 5,
            "total_tokens": 15,
            # cache_write_tokens: not in the spec (kept as an extra key); the pinned SDK requires it
            "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
            "output_tokens_details": {"reasoning_tokens": 0},
        },
        "max_output_tokens": None,
        "max_tool_calls": None,
        "store": True,
        "background": False,
        "service_tier": "default",
        "metadata": {},
        "safety_identifier": None,
        "prompt_cache_key": None,
    }


def compact_response(*output: dict[str, Any]) -> dict[str, Any]:
    """A strict compaction response (`response.compaction`, every key `parse_compact_response` needs)."""
    usage = {"input_tokens": 1, "output_tokens": 1, "total_tokens": 2}
    details = {"input_tokens_details": {"cached_tokens": 0}, "output_tokens_details": {"reasoning_tokens": 0}}
    return {
        "id": "cmp_1",
        "object": "response.compaction",
        "created_at": 1,
        "output": list(output),
        "usage": {**usage, **details},
    }


def item_models() -> list[type]:
    """Every item model of ours (generated, hand-written, and OpenAI mode's forms, made on first use): the
    classes the rules read in place (`replayable._rules.view._kind`)."""
    import importlib  # noqa: PLC0415
    import pkgutil  # noqa: PLC0415

    from pydantic import BaseModel  # noqa: PLC0415

    import replayable as rp  # noqa: PLC0415
    from replayable import _generated  # noqa: PLC0415
    from replayable._rules.view import _kind  # noqa: PLC0415

    for module in pkgutil.walk_packages(_generated.__path__, _generated.__name__ + "."):
        importlib.import_module(module.name)  # every generated model, loaded lazily otherwise
    rp.parse_request({"input": [{"role": "assistant", "content": "a"}]}, provider="openai")  # OpenAI's forms
    seen: set[type] = set()
    todo: list[type] = [BaseModel]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub not in seen:
                seen.add(sub)
                todo.append(sub)
    return [cls for cls in seen if cls.__module__.startswith("replayable.") and _kind(cls)]
