"""What `import replayable` and the command line load up front, and what loads on first use: every public
name still resolves, and the parts a transcript of spec items never needs (the Agents API and streaming
models, OpenAI's native item models, request and response bodies, interop, diff, schema export, tool
linting, jsonschema-rs, the worker pool) stay unloaded until they are used. Each check runs in a fresh
interpreter, since this test process has long loaded everything."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import replayable

#: Modules `import replayable` must not load: nothing in parsing and checking spec items needs them.
NOT_AT_IMPORT = [
    "replayable.agents",
    "replayable.stream",
    "replayable.request",
    "replayable.response",
    "replayable._interop",
    "replayable._compare",
    "replayable.schema",
    "replayable._cli",
    "replayable._generated.openai.web_search_call",
    "replayable._generated.openai.common",
    "jsonschema_rs",
    "concurrent.futures.process",
    "replayable.integrations",
    "replayable.testing",
    # OpenAI mode's item models and unions (`provider="openai"`, SDK objects): loaded by its first use
    "replayable._openai_forms",
    # tool linting (`check_tool`, strict-mode schemas) and the close-match search behind a misspelt type's
    # message: checking a transcript of spec items needs neither
    "replayable._tool_lint",
    "replayable._strict_schema",
    "difflib",
    # the SDKs the integrations glue to: never imported by `import replayable`
    "openai",
    "agents",
    "httpx",
    "httpx2",
    "litellm",
    "langchain",
    "langchain_core",
    "langgraph",
    "pydantic_ai",
]

#: The SDK packages (and their http clients) the integration modules must not import on their own.
SDKS = {"openai", "agents", "httpx", "httpx2", "litellm", "langchain", "langchain_core", "langgraph", "pydantic_ai"}


def loaded_after(code: str) -> set[str]:
    """The modules loaded in a fresh interpreter after running `code`."""
    probe = f"{code}\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return set(json.loads(run.stdout.splitlines()[-1]))


def test_every_public_name_resolves() -> None:
    for name in replayable.__all__:
        assert getattr(replayable, name) is not None, name
    assert set(replayable.__all__) <= set(dir(replayable))


def test_import_loads_only_the_core() -> None:
    loaded = loaded_after("import replayable")
    assert {"replayable.items", "replayable._replay"} <= loaded
    assert not loaded & set(NOT_AT_IMPORT), sorted(loaded & set(NOT_AT_IMPORT))


def test_parsing_and_checking_spec_items_loads_no_more() -> None:
    loaded = loaded_after(
        "import replayable as rp\n"
        "items = rp.parse_items('[{\"type\": \"message\", \"role\": \"user\", \"content\": \"hi\"}]')\n"
        "assert rp.check_transcript(items).ok"
    )
    assert not loaded & set(NOT_AT_IMPORT), sorted(loaded & set(NOT_AT_IMPORT))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("code", "module"),
    [
        ("replayable.stream.parse_sse", "replayable.stream"),
        ("replayable.agents.check_event_log", "replayable.agents"),
        ("replayable.Response", "replayable.response"),
        ("replayable.CreateResponseBody", "replayable.request"),
        ("replayable.json_schema", "replayable.schema"),
        ("replayable.check_tool", "replayable._tool_lint"),
        ("replayable.parse_item({'role': 'user', 'content': 'hi'}, provider='openai')", "replayable._openai_forms"),
        (  # a misspelt type's message names the closest types
            "try:\n    replayable.parse_item({'type': 'mesage'})\nexcept replayable.ItemError as e:\n"
            "    assert 'message' in str(e)",
            "difflib",
        ),
        ("replayable._native.WebSearchCall", "replayable._generated.openai.web_search_call"),
        (
            "replayable.check_transcript([{'type': 'openai:web_search_call', 'id': 'ws', 'status': 'completed', "
            "'action': {'type': 'search', 'query': 'q'}}])",
            "replayable._generated.openai.web_search_call",
        ),
        ("replayable.gate({'type': 'function_call', 'call_id': 'c', 'name': 'f', 'arguments': '{}'}, {})", "jsonschema_rs"),
    ],
)
def test_the_rest_loads_on_first_use(code: str, module: str) -> None:
    assert module in loaded_after(f"import replayable, replayable._native\n{code}")


def test_openai_mode_loads_its_models_on_first_use() -> None:
    """OpenAI mode's unions, built on first use, are the spec unions with each widened model in place of its
    spec model; every widened item model subclasses a spec item model of its side, so `SIDE_ITEM_MODELS`
    (the spec models) covers it, and a model read in OpenAI mode is told apart once its module is loaded."""
    from replayable import _openai_forms  # noqa: PLC0415
    from replayable._item_validation import is_openai_form, openai_unions, union_members  # noqa: PLC0415
    from replayable.items import ITEM_ADAPTERS, SIDE_ITEM_MODELS, InputItem, OutputItem  # noqa: PLC0415

    for side, spec, openai in (("input", InputItem, openai_unions()[0]), ("output", OutputItem, openai_unions()[1])):
        forms = [m for m in union_members(openai) if m in _openai_forms.OPENAI_FORMS]
        assert forms, side
        assert [m.__mro__[1] if m in forms else m for m in union_members(openai)] == list(union_members(spec))
        assert all(issubclass(m, SIDE_ITEM_MODELS[side]) for m in union_members(openai))
        assert ITEM_ADAPTERS[(side, True)][1].validate_python([]) == []
    assert replayable.items.OpenAIInputItem is openai_unions()[0]
    assert replayable.items.OpenAIOutputItem is openai_unions()[1]
    item = replayable.parse_item({"role": "user", "content": "hi"}, provider="openai")
    assert is_openai_form(item) and not is_openai_form(replayable.parse_item(item.model_dump()))


def test_native_tables_load_on_first_lookup() -> None:
    """OpenAI's typed items parse the same whether or not their models were loaded before."""
    item = {"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search", "query": "q"}}
    code = (
        "import replayable as rp\n"
        f"item = rp.parse_item({item!r}, provider='openai')\n"
        "print(type(item).__name__, rp.dump_item(item))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.split(" ", 1)[0] == "WebSearchCall"
    assert "'type': 'web_search_call'" in run.stdout


def test_a_one_file_check_loads_no_streaming_models(tmp_path: Path) -> None:
    f = tmp_path / "t.jsonl"
    f.write_text(json.dumps({"type": "message", "role": "user", "content": "hi"}) + "\n")
    loaded = loaded_after(f"from replayable._cli import main\nassert main(['check', {str(f)!r}]) == 0")
    assert not loaded & {"replayable.stream", "replayable.agents", "replayable.request", "concurrent.futures.process"}


@pytest.mark.parametrize(
    "code",
    [
        "import replayable.integrations",
        "from replayable.integrations.openai import event_hooks, async_event_hooks\n"
        "hooks = event_hooks(), async_event_hooks()",
        "from replayable.integrations.agents import CheckedSession, check_tool_call",
        "from replayable.integrations._modes import guard_items\nguard_items([], mode='log')",
        "from replayable.testing import assert_replay_safe\nassert_replay_safe([])",
    ],
)
def test_the_integrations_import_no_sdk_until_used(code: str) -> None:
    assert not loaded_after(code) & SDKS, sorted(loaded_after(code) & SDKS)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("module", "sdk"),
    [("litellm", "litellm"), ("langchain", "langchain_core"), ("pydantic_ai", "pydantic_ai")],
)
def test_each_new_integration_loads_its_own_sdk_and_no_other(module: str, sdk: str) -> None:
    pytest.importorskip(sdk, reason=f"{sdk} (the test extra) is not installed")
    loaded = loaded_after(f"import replayable.integrations.{module}")
    assert sdk in loaded
    others = {"litellm", "langchain_core", "pydantic_ai"} - {sdk}
    assert not loaded & others, sorted(loaded & others)


@pytest.mark.slow
def test_the_agents_guardrail_imports_openai_agents_on_first_use() -> None:
    pytest.importorskip("agents", reason="openai-agents (the test extra) is not installed")
    loaded = loaded_after("from replayable.integrations.agents import replay_guardrail")
    assert "agents" in loaded


def test_the_library_runs_with_warnings_as_errors() -> None:
    """pydantic 2.14 warns on the old import of `MISSING` the generated models use; `replayable._compat`
    keeps an app running with `-W error` (or pytest's `filterwarnings = error`) working."""
    code = (
        "import replayable as rp, replayable.stream, replayable.agents\n"
        "r = rp.check_transcript([{'type': 'web_search_call', 'id': 'ws_1', 'status': 'completed',"
        " 'action': {'type': 'search', 'query': 'q'}}], provider='openai')\n"
        "assert r.ok, r\n"
        "rp.parse_request({'model': 'm', 'input': 'hi', 'tools': [{'type': 'web_search'}]}, provider='openai')\n"
        "print('ok')\n"
    )
    res = subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True, text=True)
    assert res.returncode == 0 and res.stdout.strip() == "ok", res.stderr
