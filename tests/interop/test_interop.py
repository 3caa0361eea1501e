"""Interop: to_input, Chat Completions conversion, prepare_replay and the convert / prepare CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openai.types.chat import ChatCompletionMessage, ChatCompletionMessageParam
from openai.types.responses import (
    Response,
    ResponseFunctionToolCall,
    ResponseInputItemParam,
    ResponseReasoningItem,
)
from pydantic import TypeAdapter

import replayable as rp
from replayable._cli import main

ROOT = Path(__file__).resolve().parent.parent.parent
FIXTURES = Path(__file__).parent.parent / "fixtures" / "interop"
SHARED = ROOT.parent / "shared"
CORPUS = SHARED / "corpus"
CASES = SHARED / "cases"

SDK_INPUT = TypeAdapter(ResponseInputItemParam)
SDK_CHAT = TypeAdapter(ChatCompletionMessageParam)
SPEC_TYPES = {"message", "function_call", "function_call_output", "reasoning", "compaction"}


def dump(x: Any) -> dict[str, Any]:
    return x if isinstance(x, dict) else rp.dump_item(x)


def sdk_accepts(item: Any) -> None:
    """Validate against the openai SDK's request type; Iterable fields validate only when consumed."""
    json.dumps(SDK_INPUT.validate_python(dump(item)), default=list)


def load(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text())


def corpus_files() -> list[Path]:
    if not CORPUS.is_dir():
        pytest.skip("shared corpus not found at ../shared/corpus")
    return sorted(CORPUS.glob("*.json"))


def corpus_output_items() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for p in corpus_files():
        doc = json.loads(p.read_text())
        body = doc["body"]
        if doc["kind"] == "response":
            items = body.get("output") or []
        elif doc["kind"] == "stream":
            items = [e["item"] for e in body if isinstance(e, dict) and e.get("type") == "response.output_item.done"]
        else:
            continue
        out.extend((p.name, it) for it in items if it.get("type") in SPEC_TYPES)
    return out


# --- to_input -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", load("output_items.json")["cases"], ids=lambda c: c["name"])
def test_to_input_fixture(case: dict[str, Any]) -> None:
    got = rp.to_input(case["output"])
    assert dump(got) == case["input"]
    assert type(got).__name__.endswith("Param")
    sdk_accepts(got)


def test_to_input_corpus_output_items_accepted_by_sdk() -> None:
    items = corpus_output_items()
    assert items, "no spec items in the corpus"
    for name, raw in items:
        got = rp.to_input(rp.parse_item(raw, side="output", provider="openai"))
        d = dump(got)
        sdk_accepts(d)
        assert rp.parse_item(d, side="input", provider="openai") == got, name
        for key in ("id", "call_id", "arguments", "encrypted_content", "status", "phase"):
            if key in raw:
                assert d[key] == raw[key], (name, key)
        assert "content" not in d or raw["type"] != "reasoning"
        assert "created_by" not in d


def test_to_input_is_identity_on_input_forms() -> None:
    call = rp.parse_item({"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"})
    assert rp.to_input(call) is call
    ns = rp.parse_item({"type": "acme:thing", "x": 1})
    assert rp.to_input(ns) is ns
    assert dump(rp.to_input({"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"})) == dump(call)


def test_to_input_accepts_sdk_objects() -> None:
    fc = ResponseFunctionToolCall.model_validate(
        {
            "type": "function_call",
            "id": "fc_1",
            "call_id": "call_1",
            "name": "f",
            "arguments": "{}",
            "status": "completed",
        }
    )
    got = rp.to_input(fc)
    assert isinstance(got, rp.FunctionCallParam)
    assert dump(got)["call_id"] == "call_1"
    rs = ResponseReasoningItem.model_validate(
        {
            "type": "reasoning",
            "id": "rs_1",
            "summary": [],
            "encrypted_content": "gA==",
            "content": [{"type": "reasoning_text", "text": "raw"}],
        }
    )
    d = dump(rp.to_input(rs))
    assert "content" not in d and d["encrypted_content"] == "gA==" and d["summary"] == []
    sdk_accepts(d)


@pytest.mark.parametrize("bad", [None, 5, [1], "not json", {"type": "function_call", "call_id": "c"}])
def test_to_input_bad_input_raises_item_error(bad: Any) -> None:
    with pytest.raises(rp.ItemError) as exc:
        rp.to_input(bad)
    assert exc.value.errors and all({"loc", "type", "msg"} <= set(e) for e in exc.value.errors)


def test_to_input_refuses_parts_without_input_form() -> None:
    msg = {
        "type": "message",
        "id": "m",
        "status": "completed",
        "role": "assistant",
        "content": [{"type": "input_text", "text": "x"}],
    }
    with pytest.raises(rp.ItemError):
        rp.to_input(msg)


# --- Chat Completions -----------------------------------------------------------------------------------


def test_from_chat_completions_fixture() -> None:
    fx = load("chat_history.json")
    items = rp.from_chat_completions(fx["messages"])
    assert [dump(i) for i in items] == fx["items"]
    for i in items:
        sdk_accepts(i)
    assert rp.check_transcript(items).ok


def test_from_chat_completions_assistant_with_only_calls_yields_no_message() -> None:
    items = rp.from_chat_completions(
        [
            {"role": "user", "content": "q"},
            {
                "role": "assistant",
                "content": None,
                "refusal": None,
                "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "r"},
        ]
    )
    assert [dump(i)["type"] for i in items] == ["message", "function_call", "function_call_output"]


def test_from_chat_completions_sdk_objects() -> None:
    cm = ChatCompletionMessage.model_validate(
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "f", "arguments": '{"x":1}'}}],
        }
    )
    items = rp.from_chat_completions(
        [{"role": "user", "content": "q"}, cm, {"role": "tool", "tool_call_id": "call_1", "content": "r"}]
    )
    d = [dump(i) for i in items]
    assert d[1] == {"type": "function_call", "call_id": "call_1", "name": "f", "arguments": '{"x":1}'}


def test_from_chat_completions_refusal_and_annotations() -> None:
    items = rp.from_chat_completions(
        [
            {"role": "assistant", "content": None, "refusal": "I can't."},
            {
                "role": "assistant",
                "content": "See x.",
                "annotations": [
                    {
                        "type": "url_citation",
                        "url_citation": {
                            "url": "https://e.com",
                            "start_index": 4,
                            "end_index": 5,
                            "title": "E",
                        },
                    }
                ],
            },
        ]
    )
    d = [dump(i) for i in items]
    assert d[0]["content"] == [{"type": "refusal", "refusal": "I can't."}]
    assert d[1]["content"][0]["annotations"][0]["url"] == "https://e.com"
    for i in items:  # list content is valid Open Responses input; it needs no id or status there
        assert rp.check_transcript([i]).ok


CALL = {
    "role": "assistant",
    "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}],
}


@pytest.mark.parametrize(
    ("messages", "index", "code"),
    [
        ([{"role": "tool", "tool_call_id": "nope", "content": "x"}], 0, "chat_orphan_tool_message"),
        (
            [
                CALL,
                {"role": "tool", "tool_call_id": "c1", "content": "x"},
                {"role": "tool", "tool_call_id": "c1", "content": "y"},
            ],
            2,
            "chat_duplicate_tool_message",
        ),
        ([{"role": "function", "name": "f", "content": "x"}], 0, "chat_legacy_function"),
        (
            [{"role": "assistant", "function_call": {"name": "f", "arguments": "{}"}}],
            0,
            "chat_legacy_function_call",
        ),
        ([{"role": "user", "content": "q"}, {"role": "assistant", "audio": {"id": "a1"}}], 1, "chat_audio"),
        (
            [
                {
                    "role": "user",
                    "content": [{"type": "input_audio", "input_audio": {"data": "", "format": "wav"}}],
                }
            ],
            0,
            "chat_audio",
        ),
        (
            [
                {
                    "role": "assistant",
                    "tool_calls": [{"id": "c", "type": "custom", "custom": {"name": "f", "input": "x"}}],
                }
            ],
            0,
            "chat_non_function_tool_call",
        ),
        (
            [
                {
                    "role": "assistant",
                    "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": {"a": 1}}}],
                }
            ],
            0,
            "chat_arguments_type",
        ),
        ([{"role": "robot", "content": "x"}], 0, "chat_unknown_role"),
        ([{"role": "user", "content": "x", "reasoning_content": "y"}], 0, "chat_unknown_field"),
        ([CALL, CALL], 1, "chat_duplicate_call_id"),
        ([None], 0, "chat_message_type"),
    ],
)
def test_from_chat_completions_refuses(messages: list[Any], index: int, code: str) -> None:
    with pytest.raises(rp.ItemError) as exc:
        rp.from_chat_completions(messages)
    err = exc.value.errors[0]
    assert err["loc"][0] == index
    assert err["type"] == code
    assert f"message {index}" in str(exc.value)


def test_to_chat_completions_groups_parallel_calls() -> None:
    fx = load("chat_history.json")
    back = rp.to_chat_completions(rp.from_chat_completions(fx["messages"]))
    assert [m["role"] for m in back] == ["system", "user", "assistant", "tool", "tool", "assistant"]
    assert back[2]["content"] == "Looking both up."
    assert [c["id"] for c in back[2]["tool_calls"]] == ["call_a", "call_b"]
    assert [m.get("tool_call_id") for m in back[3:5]] == ["call_a", "call_b"]
    assert back[1]["content"][1] == fx["messages"][1]["content"][1]
    for m in back:
        SDK_CHAT.validate_python(m)


def test_to_chat_completions_from_output_items() -> None:
    items = [
        {
            "type": "message",
            "id": "m0",
            "status": "completed",
            "role": "user",
            "content": [{"type": "input_text", "text": "q"}],
        },
        {
            "type": "function_call",
            "id": "fc1",
            "call_id": "c1",
            "name": "f",
            "arguments": "{}",
            "status": "completed",
        },
        {
            "type": "function_call",
            "id": "fc2",
            "call_id": "c2",
            "name": "f",
            "arguments": "{}",
            "status": "completed",
        },
        {"type": "function_call_output", "call_id": "c1", "output": "a"},
        {"type": "function_call_output", "call_id": "c2", "output": "b"},
    ]
    back = rp.to_chat_completions(items)
    assert back[1] == {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}},
            {"id": "c2", "type": "function", "function": {"name": "f", "arguments": "{}"}},
        ],
    }
    assert [m["role"] for m in back] == ["user", "assistant", "tool", "tool"]


@pytest.mark.parametrize(
    "item",
    [
        {"type": "reasoning", "id": "rs", "summary": []},
        {"type": "compaction", "encrypted_content": "x"},
        {"type": "acme:thing"},
        {"id": "msg_1"},
        {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{", "status": "incomplete"},
    ],
)
def test_to_chat_completions_refuses(item: dict[str, Any]) -> None:
    with pytest.raises(rp.ItemError) as exc:
        rp.to_chat_completions([{"type": "message", "role": "user", "content": "q"}, item])
    assert exc.value.errors[0]["loc"][0] == 1


def test_to_chat_completions_refuses_a_namespaced_call_and_unknown_fields(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A call in another namespace names another tool: converting it would hand the result to the
    top-level tool of the same name (from an attacker's report). OpenAI's form for a top-level tool
    (namespace equal to the name) converts; an unknown field is refused rather than lost."""
    call = {"type": "function_call", "call_id": "c1", "name": "delete", "arguments": "{}", "status": "completed"}
    output = {"type": "function_call_output", "call_id": "c1", "output": "x"}
    with pytest.raises(rp.ItemError) as exc:
        rp.to_chat_completions([{**call, "namespace": "crm"}, output], provider="openai")
    err = exc.value.errors[0]
    assert err["loc"] == (0, "namespace") and err["type"] == "no_chat_form" and "'crm'" in err["msg"]
    same = rp.to_chat_completions([{**call, "namespace": "delete"}, output], provider="openai")
    assert same[0]["tool_calls"][0]["function"] == {"name": "delete", "arguments": "{}"}
    with pytest.raises(rp.ItemError) as exc:
        rp.to_chat_completions([{"type": "message", "role": "user", "content": "q", "x_trace": "t"}])
    assert exc.value.errors[0]["loc"] == (0, "x_trace")
    path = tmp_path / "ns_call.json"
    path.write_text(json.dumps([{**call, "namespace": "crm"}, output]))
    assert main(["convert", "--to", "chat-completions", "--provider", "openai", str(path)]) == 2
    err = capsys.readouterr().err
    assert "#0 field namespace" in err and "[no_chat_form]" in err


# --- prepare_replay -------------------------------------------------------------------------------------


def test_prepare_replay_r14() -> None:
    path = CASES / "R14.json"
    if not path.exists():
        pytest.skip("shared case R14 not found")
    case = json.loads(path.read_text())
    items, rep = rp.prepare_replay(case["input"], target="acme")
    assert [i for i, _ in rep.dropped] == [1]
    assert len(items) == 2 and rep.kept == (0, 2)
    assert all("id" not in dump(i) for i in items)
    assert rp.check_transcript([dump(i) for i in items], target="acme").ok
    same, rep2 = rp.prepare_replay(case["input"], target="openai")
    assert rep2.dropped == () and len(same) == 3 and dump(same[2])["id"] == "msg_a1"


def test_prepare_replay_corpus_requests() -> None:
    n = 0
    for p in corpus_files():
        doc = json.loads(p.read_text())
        if doc["kind"] != "request" or not isinstance(doc["body"].get("input"), list):
            continue
        raw = doc["body"]["input"]
        n_messages = sum(1 for i in raw if i.get("type", "message") == "message")
        for target in ("acme", "openai"):
            items, rep = rp.prepare_replay(raw, target=target, provider="openai")
            assert rep.check.ok, (p.name, target, rep.check.violations)
            assert rp.check_transcript(items, target=target, source=rep.source).ok
            assert sum(1 for i in items if dump(i).get("type") == "message") == n_messages, p.name
            for i in items:
                d = dump(i)
                # OpenAI's SDK types want id and status on an assistant message with content parts (its
                # ResponseOutputMessageParam); ids go for another provider, so check the rest there.
                if target == "openai" or not (d.get("role") == "assistant" and isinstance(d.get("content"), list)):
                    sdk_accepts(d)
                if target == "acme":
                    assert "id" not in d
            if target == "acme":
                assert rp.check_transcript([dump(i) for i in items], target="acme").ok
        n += 1
    assert n > 0


def _call(cid: str, status: str | None = "completed", name: str = "f", **kw: Any) -> dict[str, Any]:
    d = {"type": "function_call", "id": f"fc_{cid}", "call_id": cid, "name": name, "arguments": "{}", **kw}
    if status is not None:
        d["status"] = status
    return d


def _out(cid: str) -> dict[str, Any]:
    return {"type": "function_call_output", "call_id": cid, "output": "ok"}


USER = {"type": "message", "role": "user", "content": "q"}


def test_prepare_replay_drops_unfinished_unanswered_and_orphans() -> None:
    items = [
        USER,
        {"type": "reasoning", "id": "rs_1", "summary": []},
        _call("c1", "incomplete", arguments='{"a":'),
        _call("c2"),
        _out("c2"),
        _out("zzz"),
        _call("c3"),
        {"type": "message", "role": "assistant", "content": "done"},
        _out("c3"),
    ]
    kept, rep = rp.prepare_replay(items, target="openai", provider="openai")
    dropped = dict(rep.dropped)
    assert sorted(dropped) == [1, 2, 5, 6, 8]
    assert "incomplete" in dropped[2] and "reasoning" in dropped[1]
    assert rep.kept == (0, 3, 4, 7)
    assert rp.check_transcript(kept, target="openai").ok


def test_prepare_replay_keeps_reasoning_for_same_provider_and_ids() -> None:
    items = [
        USER,
        {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gA=="},
        _call("c1"),
        _out("c1"),
    ]
    kept, rep = rp.prepare_replay(items, target="openai", provider="openai")
    assert rep.dropped == () and dump(kept[1])["encrypted_content"] == "gA==" and dump(kept[2])["id"] == "fc_c1"
    kept, rep = rp.prepare_replay(items, target="acme", provider="openai")
    assert [i for i, _ in rep.dropped] == [1]
    assert (2, "provider-scoped id removed") in rep.changed


def test_prepare_replay_with_tools_drops_bad_calls_with_their_outputs() -> None:
    tools = [
        {
            "type": "function",
            "name": "f",
            "parameters": {
                "type": "object",
                "properties": {"a": {"type": "integer"}},
                "additionalProperties": False,
            },
        }
    ]
    items = [
        USER,
        _call("c1", name="g"),
        _out("c1"),
        _call("c2", arguments='{"a":"x"}'),
        _out("c2"),
        _call("c3", arguments='{"a":1}'),
        _out("c3"),
    ]
    kept, rep = rp.prepare_replay(items, target="acme", tools=tools)
    assert [i for i, _ in rep.dropped] == [1, 2, 3, 4]
    assert rp.check_transcript(kept, tools=tools, target="acme").ok


def test_prepare_replay_file_id_parts_removed_for_other_provider() -> None:
    items = [
        {
            "type": "message",
            "role": "user",
            "content": [
                {"type": "input_text", "text": "look"},
                {"type": "input_image", "file_id": "file-1", "detail": "auto"},
            ],
        }
    ]
    kept, rep = rp.prepare_replay(items, target="acme", provider="openai")
    assert dump(kept[0])["content"] == [{"type": "input_text", "text": "look"}]
    assert rep.changed and rep.changed[0][0] == 0


def test_prepare_replay_accepts_sdk_response() -> None:
    resp = Response.model_validate(
        {
            "id": "resp_1",
            "object": "response",
            "created_at": 0,
            "model": "m",
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
            "status": "completed",
            "output": [
                {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gA=="},
                {
                    "type": "function_call",
                    "id": "fc_1",
                    "call_id": "call_1",
                    "name": "f",
                    "arguments": "{}",
                    "status": "completed",
                },
            ],
        }
    )
    kept, rep = rp.prepare_replay(
        [
            {"type": "message", "role": "user", "content": "q"},
            *resp.output,
            {"type": "function_call_output", "call_id": "call_1", "output": "r"},
        ],
        target="acme",
    )
    assert rep.source == "openai"
    assert [dump(i)["type"] for i in kept] == ["message", "function_call", "function_call_output"]


def test_prepare_replay_refuses_unparseable_and_chat_shapes() -> None:
    with pytest.raises(rp.ItemError) as exc:
        rp.prepare_replay([USER, {"role": "tool", "tool_call_id": "c", "content": "x"}], target="acme")
    assert exc.value.errors[0]["loc"][0] == 1
    with pytest.raises(rp.ItemError):
        rp.prepare_replay(
            [USER, {"type": "function_call", "call_id": "c", "name": "f", "arguments": {}}], target="acme"
        )
    with pytest.raises(ValueError):
        rp.prepare_replay([USER], target="")


# Random transcripts: whatever goes in, what comes out passes the check and keeps every message.
_item = st.one_of(
    st.builds(lambda c, s: _call(f"c{c}", s), st.integers(0, 4), st.sampled_from(["completed", "incomplete", None])),
    st.builds(lambda c: _out(f"c{c}"), st.integers(0, 4)),
    st.just({"type": "message", "role": "user", "content": "q"}),
    st.builds(
        lambda n, e: {
            "type": "reasoning",
            "id": f"rs_{n}",
            "summary": [],
            **({"encrypted_content": "gA"} if e else {}),
        },
        st.integers(0, 4),
        st.booleans(),
    ),
    st.builds(lambda n: {"type": "acme:note", "id": f"n_{n}"}, st.integers(0, 4)),
    st.builds(lambda n: {"type": "openai:web_search_call", "id": f"ws_{n}", "status": "completed", "action": {"type": "search", "query": "q"}}, st.integers(0, 4)),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_item, max_size=12), st.sampled_from(["acme", "openai"]))
def test_prepare_replay_property(items: list[dict[str, Any]], target: str) -> None:
    kept, rep = rp.prepare_replay(items, target=target, source="acme")
    assert rp.check_transcript(kept, target=target, source="acme").ok
    assert rp.check_transcript([dump(i) for i in kept], target=target, source="acme").ok
    n_messages = sum(1 for i in items if i["type"] == "message")
    assert sum(1 for i in kept if dump(i)["type"] == "message") == n_messages
    assert len(kept) + len(rep.dropped) == len(items)


# --- CLI ------------------------------------------------------------------------------------------------


def test_cli_convert_and_prepare(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fx = load("chat_history.json")
    chat = tmp_path / "chat.json"
    chat.write_text(json.dumps({"model": "m", "messages": fx["messages"]}))
    assert main(["convert", "--from", "chat-completions", str(chat)]) == 0
    items = json.loads(capsys.readouterr().out)
    assert items == fx["items"]

    resp_items = tmp_path / "items.json"
    resp_items.write_text(json.dumps(items))
    assert main(["convert", "--to", "chat-completions", str(resp_items)]) == 0
    assert [m["role"] for m in json.loads(capsys.readouterr().out)][:3] == ["system", "user", "assistant"]

    r14 = tmp_path / "r14.json"
    r14.write_text(
        json.dumps(
            [
                USER,
                {"type": "openai:web_search_call", "id": "ws", "status": "completed", "action": {"type": "search", "query": "q"}},
                {"type": "message", "id": "m", "role": "assistant", "content": "a"},
            ]
        )
    )
    assert main(["prepare", "--target", "acme", str(r14)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == [USER, {"type": "message", "role": "assistant", "content": "a"}]
    assert main(["prepare", "--target", "acme", "--report", str(r14)]) == 0
    assert json.loads(capsys.readouterr().out)["dropped"][0]["index"] == 1


def test_cli_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"role": "tool", "tool_call_id": "x", "content": "o"}]))
    assert main(["convert", "--from", "chat-completions", str(bad)]) == 2
    err = capsys.readouterr()
    assert err.out == "" and len(err.err.strip().splitlines()) == 1 and "chat_orphan_tool_message" in err.err
    assert main(["prepare", "--target", "acme", str(tmp_path / "missing.json")]) == 2
    junk = tmp_path / "junk.json"
    junk.write_text("{not json")
    assert main(["prepare", "--target", "acme", str(junk)]) == 2
    assert main(["prepare", "--target", "acme", str(bad)]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 3


def test_prepare_replay_and_to_chat_take_a_response_object() -> None:
    resp = Response.model_validate(
        {
            "id": "resp_1",
            "object": "response",
            "created_at": 0,
            "model": "m",
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
            "status": "completed",
            "output": [
                {
                    "type": "message",
                    "id": "msg_1",
                    "status": "completed",
                    "role": "assistant",
                    "content": [{"type": "output_text", "text": "hi", "annotations": []}],
                }
            ],
        }
    )
    kept, rep = rp.prepare_replay(resp, target="openai")
    assert dump(kept[0])["id"] == "msg_1" and rep.source == "openai"
    assert rp.to_chat_completions(resp) == [{"role": "assistant", "content": [{"type": "text", "text": "hi"}]}]
    with pytest.raises(rp.ItemError):
        rp.prepare_replay({"type": "message"}, target="acme")
    with pytest.raises(rp.ItemError):
        rp.to_chat_completions(5)


def test_cli_prepare_on_a_body_applies_its_allowed_tools(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`replayable prepare BODY` gives the library's result for the body, its `allowed_tools` choice included
    (it read the items alone before: an attacker's report)."""
    tool = {"type": "object", "properties": {}, "additionalProperties": False}
    body = {
        "model": "m",
        "tools": [{"type": "function", "name": n, "parameters": tool} for n in ("f", "g")],
        "tool_choice": {"type": "allowed_tools", "mode": "auto", "tools": [{"type": "function", "name": "f"}]},
        "input": [
            {"type": "message", "role": "user", "content": "hi"},
            {"type": "function_call", "call_id": "c1", "name": "g", "arguments": "{}", "status": "completed"},
            {"type": "function_call_output", "call_id": "c1", "output": "x"},
        ],
    }
    path = tmp_path / "body.json"
    path.write_text(json.dumps(body))
    assert main(["prepare", "--target", "openai", str(path), "--report"]) == 0
    shown = json.loads(capsys.readouterr().out)
    _, library = rp.prepare_replay(body, target="openai")
    assert [d["index"] for d in shown["dropped"]] == [i for i, _ in library.dropped] == [1, 2]
    assert "not in allowed_tools" in shown["dropped"][0]["reason"]
