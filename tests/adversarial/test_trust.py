"""Fail closed, three ways:

- nothing missing is waved through: `gate(call, None)` is `no_schema`, a tool collection refuses an
  undeclared name (`unknown_tool`), `allowed_tools` refuses a declared but forbidden one (`not_allowed`);
  an un-prefixed type OpenAI does not have is an unknown type in OpenAI mode, on every path; an Agents
  session with two tools of one name, or a call id reused for another call, is a violation;
- what was already parsed is not trusted blindly: models changed with `model_copy(update=...)` or built
  with `model_construct`, lying `str` subclasses and `Mapping`s, SDK objects holding bytes or NaN, and a
  tool changed during a call get the verdict their plain JSON would get;
- `gate` takes what apps have: a list of tools, a name -> tool mapping, openai-agents `FunctionTool`
  and pydantic-ai `ToolDefinition` objects.
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import replayable as rp
from replayable import _call_gate as gate_module
from replayable import agents as A
from replayable._arguments import SchemaError
from replayable._cli import main

WEATHER = {
    "type": "object",
    "properties": {"city": {"type": "string"}},
    "required": ["city"],
    "additionalProperties": False,
}
WEATHER_TOOL = {"type": "function", "name": "get_weather", "parameters": WEATHER, "strict": True}
DELETE_TOOL = {"type": "function", "name": "delete_account", "parameters": {"type": "object"}, "strict": False}


def call(name: str = "get_weather", args: str = '{"city": "Paris"}', **kw: Any) -> dict[str, Any]:
    return {
        "type": "function_call",
        "id": "fc_1",
        "call_id": "c1",
        "name": name,
        "status": "completed",
        "arguments": args,
        **kw,
    }


# --- gate: nothing missing is waved through -------------------------------------------------------------


def test_no_tool_is_no_schema_and_an_empty_schema_says_no_check() -> None:
    for res in (rp.gate(call()), rp.gate(call(), None)):
        assert res.reason is rp.GateReason.NO_SCHEMA and not res.ok
    assert rp.gate(call(), {}).ok
    assert rp.gate(call(args="[1]"), {}).reason == "arguments_schema"  # {} still needs a JSON object
    # the item's own checks speak first: a message is no call whatever the tool
    assert rp.gate({"type": "message"}, None).reason == "not_function_call"


def test_an_app_that_looks_a_tool_up_and_gets_none_never_runs_it() -> None:
    tools = {"get_weather": WEATHER_TOOL}
    assert rp.gate(call("delete_account", "{}"), tools.get("delete_account")).reason == "no_schema"


@pytest.mark.parametrize(
    "tools",
    [
        [WEATHER_TOOL, DELETE_TOOL],
        (WEATHER_TOOL, DELETE_TOOL),
        [WEATHER_TOOL, {"type": "web_search"}, DELETE_TOOL],  # hosted tools are skipped
        {"get_weather": WEATHER_TOOL, "delete_account": DELETE_TOOL},
        {"get_weather": WEATHER, "delete_account": {"type": "object"}},  # bare schemas, named by their key
        [{"type": "function", "function": {"name": "get_weather", "parameters": WEATHER}}, DELETE_TOOL],
    ],
    ids=["list", "tuple", "hosted", "mapping", "schemas", "chat"],
)
def test_a_tool_collection_picks_the_tool_by_the_calls_name(tools: Any) -> None:
    assert rp.gate(call(), tools).ok
    bad = rp.gate(call(args='{"city": "Paris", "refund": 1}'), tools)
    assert bad.reason == "arguments_schema" and [(f.path, f.keyword) for f in bad.failures] == [
        ("/refund", "additionalProperties")
    ]
    assert rp.gate(call("delete_account", '{"id": 1}'), tools).ok
    unknown = rp.gate(call("drop_tables", "{}"), tools)
    assert unknown.reason is rp.GateReason.UNKNOWN_TOOL and "drop_tables" in unknown.message


def test_an_empty_collection_declares_nothing() -> None:
    assert rp.gate(call(), []).reason == "unknown_tool"


def test_a_collection_that_cannot_say_which_tool_is_refused() -> None:
    with pytest.raises(SchemaError, match="both named"):
        rp.gate(call(), [WEATHER_TOOL, {**WEATHER_TOOL, "parameters": {"type": "object"}}])
    with pytest.raises(SchemaError, match="bare JSON Schema"):
        rp.gate(call(), [WEATHER])  # a list of schemas names no tool
    with pytest.raises(SchemaError, match="its key"):
        rp.gate(call(), {"get_weather": DELETE_TOOL})  # the key and the tool's name disagree
    with pytest.raises(SchemaError):  # the broken tool is refused when a call names it ...
        rp.gate(call(), [{**WEATHER_TOOL, "parameters": {"type": "no-such-type"}}, DELETE_TOOL])
    # ... and does not stop calls to the other tools
    assert rp.gate(call("delete_account", "{}"), [{**WEATHER_TOOL, "parameters": {"type": 5}}, DELETE_TOOL]).ok


def test_a_tool_list_changed_in_place_gets_a_fresh_verdict() -> None:
    tools = [copy.deepcopy(WEATHER_TOOL)]
    assert rp.gate(call(), tools).ok
    tools[0]["parameters"]["properties"]["city"]["type"] = "integer"
    assert rp.gate(call(), tools).reason == "arguments_schema"
    tools[0]["name"] = "other"
    assert rp.gate(call(), tools).reason == "unknown_tool"


# --- gate: allowed_tools ---------------------------------------------------------------------------------


CHOICE = {
    "type": "allowed_tools",
    "mode": "auto",
    "tools": [{"type": "function", "name": "get_weather"}, {"type": "web_search"}],
}


@pytest.mark.parametrize("allowed", [["get_weather"], ("get_weather",), frozenset({"get_weather"}), CHOICE])
def test_allowed_tools_decides_permission_beside_the_schema(allowed: Any) -> None:
    tools = [WEATHER_TOOL, DELETE_TOOL]
    assert rp.gate(call(), tools, allowed_tools=allowed).ok
    denied = rp.gate(call("delete_account", "{}"), tools, allowed_tools=allowed)
    assert denied.reason is rp.GateReason.NOT_ALLOWED and "delete_account" in denied.message
    # a declared, valid call outside the list is refused with its own reason, before its schema
    assert rp.gate(call("delete_account", "{}"), DELETE_TOOL, allowed_tools=allowed).reason == "not_allowed"
    assert rp.gate(call("delete_account", "{}"), None, allowed_tools=allowed).reason == "not_allowed"


def test_allowed_tools_none_is_no_limit_and_empty_allows_nothing() -> None:
    assert rp.gate(call(), WEATHER_TOOL, allowed_tools=None).ok
    assert rp.gate(call(), WEATHER_TOOL, allowed_tools=[]).reason == "not_allowed"
    assert rp.gate(call(), WEATHER_TOOL, allowed_tools={**CHOICE, "tools": []}).reason == "not_allowed"


def test_allowed_tools_from_a_parsed_request_tool_choice() -> None:
    body = rp.parse_request(
        {"model": "m", "input": "hi", "tools": [WEATHER_TOOL, DELETE_TOOL], "tool_choice": CHOICE}, provider="openai"
    )
    assert rp.gate(call(), body.tools, allowed_tools=body.tool_choice).ok
    assert rp.gate(call("delete_account", "{}"), body.tools, allowed_tools=body.tool_choice).reason == "not_allowed"


@pytest.mark.parametrize("bad", ["get_weather", b"x", 5, [1], {"type": "function", "name": "x"}, {"tools": []}])
def test_allowed_tools_that_is_no_list_of_names_is_an_error(bad: Any) -> None:
    with pytest.raises(ValueError, match="allowed_tools"):
        rp.gate(call(), WEATHER_TOOL, allowed_tools=bad)


def test_check_transcript_takes_the_tool_choice_object_too() -> None:
    out = {"type": "function_call_output", "call_id": "c1", "output": "x"}
    rep = rp.check_transcript([call("delete_account", "{}"), out], allowed_tools=CHOICE)
    assert [v.code for v in rep.violations] == [rp.ViolationCode.TOOL_NOT_ALLOWED]
    assert rp.check_transcript([call(), out], allowed_tools=CHOICE).ok


# --- gate: the tool objects of agent frameworks ----------------------------------------------------------


@dataclass
class ToolDefinition:  # pydantic-ai's public attributes (the package itself is not needed)
    name: str
    parameters_json_schema: dict[str, Any]
    description: str | None = None
    strict: bool | None = None


def _framework_tools() -> dict[str, Any]:
    shapes: dict[str, Any] = {"pydantic-ai ToolDefinition": ToolDefinition("get_weather", WEATHER)}
    agents = pytest.importorskip("agents", reason="openai-agents is not installed")

    def get_weather(city: str) -> str:
        """The weather in a city."""
        return city

    tool = agents.function_tool(get_weather)
    assert isinstance(tool, agents.FunctionTool)
    shapes["openai-agents FunctionTool"] = tool
    return shapes


@pytest.mark.parametrize("which", ["pydantic-ai ToolDefinition", "openai-agents FunctionTool"])
def test_framework_tool_objects_are_read_by_their_attributes(which: str) -> None:
    tool = _framework_tools()[which]
    assert rp.gate(call(), tool).ok
    assert rp.gate(call(args='{"city": 5}'), tool).reason == "arguments_schema"
    assert rp.gate(call(args="{}"), tool).reason == "arguments_schema"
    assert rp.gate(call("delete_account", "{}"), tool).reason == "name"
    for tools in ([tool], {"get_weather": tool}):
        assert rp.gate(call(), tools).ok
        assert rp.gate(call("delete_account", "{}"), tools).reason == "unknown_tool"
    assert rp.check_transcript([call()], tools=[tool], pending_ok=True).ok
    bad = rp.check_transcript([call(args='{"city": 5}')], tools=[tool], pending_ok=True)
    assert [v.code for v in bad.violations] == [rp.ViolationCode.ARGUMENTS_SCHEMA]


def test_a_framework_tool_with_a_broken_shape_is_a_schema_error() -> None:
    with pytest.raises(SchemaError):
        rp.gate(call(), ToolDefinition(5, WEATHER))  # type: ignore[arg-type]
    with pytest.raises(SchemaError):
        rp.gate(call(), ToolDefinition("get_weather", [1]))  # type: ignore[arg-type]


@dataclass
class TwoSchemas(ToolDefinition):  # both frameworks' schema attributes: which applies is a guess
    params_json_schema: dict[str, Any] | None = None


def test_a_framework_tool_with_two_schema_attributes_is_refused_not_guessed() -> None:
    """From an attacker's report: `params_json_schema={}` beside a strict `parameters_json_schema` made
    gate pick the permissive one. Every door that reads tools refuses the object."""
    tool = TwoSchemas("get_weather", WEATHER, params_json_schema={})
    for door in (
        lambda: rp.gate(call(args='{"city": 5}'), tool),
        lambda: rp.gate(call(args='{"city": 5}'), [tool]),
        lambda: rp.check_transcript([call(args='{"city": 5}')], tools=[tool], pending_ok=True),
    ):
        with pytest.raises(SchemaError, match="ambiguous tool.*params_json_schema and parameters_json_schema"):
            door()


# --- provider="openai": an unknown un-prefixed type is refused everywhere ---------------------------------


TYPO = {"type": "function_call_outptu", "call_id": "c1", "output": "x"}


def _assert_unknown(errors: list[dict[str, Any]]) -> None:
    assert errors and errors[0]["type"] == "unknown_item_type", errors
    assert "'function_call_output'" in errors[0]["msg"] and "slug" in errors[0]["msg"]


@pytest.mark.parametrize("provider", [None, "openai"])
def test_a_typo_is_an_unknown_type_naming_the_closest_known_one(provider: Any) -> None:
    with pytest.raises(rp.ItemError) as err:
        rp.parse_item(TYPO, provider=provider)
    _assert_unknown(err.value.errors)
    assert err.value.errors[0]["loc"] == ("type",)


@pytest.mark.parametrize(
    "data",
    [[TYPO], json.dumps([TYPO]), json.dumps(TYPO) + "\n", [TYPO, TYPO] * 3, [json.dumps(TYPO)]],
    ids=["list", "array-text", "jsonl", "many", "lines"],
)
@pytest.mark.parametrize("side", ["input", "output"])
def test_parse_items_refuses_an_unknown_openai_type(data: Any, side: Any) -> None:
    with pytest.raises(rp.ItemError) as err:
        rp.parse_items(data, side=side, provider="openai")
    _assert_unknown(err.value.errors)


def test_check_transcript_and_stream_refuse_an_unknown_openai_type() -> None:
    for items in ([TYPO], [json.dumps(TYPO)]):
        rep = rp.check_transcript(items, provider="openai")
        assert [v.code for v in rep.violations] == [rp.ViolationCode.UNKNOWN_ITEM_TYPE]
        assert "function_call_output" in rep.violations[0].message
    from replayable._replay import check_transcript_iter

    assert [v.code for v in check_transcript_iter(iter([TYPO]), provider="openai").violations] == [
        rp.ViolationCode.UNKNOWN_ITEM_TYPE
    ]


def test_request_and_response_bodies_refuse_an_unknown_openai_type() -> None:
    with pytest.raises(rp.ItemError) as err:
        rp.parse_request({"model": "m", "input": [TYPO]}, provider="openai")
    _assert_unknown(err.value.errors)
    assert err.value.errors[0]["loc"][:2] == ("input", 0)
    raw = {  # the keys OpenAI's SDK requires of a Response
        "id": "resp_1",
        "object": "response",
        "created_at": 1,
        "model": "m",
        "output": [{"type": "message", "id": "m1", "status": "completed", "role": "assistant", "content": []}],
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
    }
    assert rp.parse_response(raw, provider="openai").output
    raw["output"] = [{**TYPO, "id": "x", "status": "completed"}]
    with pytest.raises(rp.ItemError) as err:
        rp.parse_response(raw, provider="openai")
    _assert_unknown(err.value.errors)


def test_stream_assembler_refuses_an_unknown_openai_type() -> None:
    from replayable.stream import StreamAssembler

    item = {**TYPO, "id": "x", "status": "completed"}
    asm = StreamAssembler(provider="openai", strict=False)
    asm.feed({"type": "response.output_item.added", "sequence_number": 1, "output_index": 0, "item": item})
    assert asm.feed({"type": "response.output_item.done", "sequence_number": 2, "output_index": 0, "item": item}) == []
    assert any("function_call_outptu" in w.message and "unknown_item_type" in w.message for w in asm.warnings)


def test_cli_refuses_an_unknown_openai_type(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "t.json"
    f.write_text(json.dumps([TYPO]))
    assert main(["check", "--provider", "openai", str(f)]) == 1
    out = capsys.readouterr().out
    assert "unknown_item_type" in out and "function_call_output" in out


def test_every_openai_item_type_is_still_read() -> None:
    from replayable._native import INPUT_TYPES, OUTPUT_TYPES, is_openai_item_type

    for t in (*INPUT_TYPES, *OUTPUT_TYPES):
        assert is_openai_item_type(t.split(":", 1)[1])
    assert not is_openai_item_type("function_call_outptu")
    web = {"type": "web_search_call", "id": "ws", "status": "completed", "action": {"type": "search", "query": "q"}}
    assert rp.dump_item(rp.parse_item(web, provider="openai")) == web
    assert type(rp.parse_item({"type": "acme:thing"}, provider="openai")) is rp.NamespacedItem


# --- Agents: two tools of one name, one call id for two calls -------------------------------------------


FIX = Path(__file__).parent.parent / "fixtures" / "agents"


def _stream() -> list[dict[str, Any]]:
    return [json.loads(line) for line in (FIX / "session_stream.jsonl").read_text().splitlines() if line.strip()]


def _requires_action() -> dict[str, Any]:
    return copy.deepcopy(_stream()[10])


def _result() -> dict[str, Any]:
    return copy.deepcopy(_stream()[11])


def test_two_agent_tools_with_one_name_are_a_violation() -> None:
    ev = _requires_action()
    tools = ev["session"]["agent"]["tools"]
    tools.append({**tools[0], "parameters": {"type": "object"}})  # the lenient one would silently win
    rep = A.check_event_log([ev, _result()])
    codes = [(v.index, str(v.code)) for v in rep.violations]
    assert (0, "duplicate_tool") in codes
    assert (1, "executed_rejected_call") in codes  # the call to that name was refused, and run anyway
    dup = next(v for v in rep.violations if v.code == "duplicate_tool")
    assert dup.path == "/session/agent/tools/2/name" and "lookup_order" in dup.message
    with pytest.raises(rp.ItemError) as err:
        A.PendingActions.from_event(ev)
    assert [(e["loc"], e["type"]) for e in err.value.errors] == [(("agent", "tools", 2, "name"), "duplicate_tool")]
    with pytest.raises(rp.ItemError):
        A.PendingActions.from_session(ev["session"])


def test_a_reused_call_id_for_another_call_is_a_violation() -> None:
    first = _requires_action()
    again = _requires_action()  # the same action listed again: idempotent
    assert A.check_event_log([first, again, _result()]).ok
    for change in ({"name": "refund_order"}, {"arguments": {"order_id": "A-9999", "include_lines": True}}):
        later = _requires_action()
        later["session"]["required_actions"][0].update(change)
        rep = A.check_event_log([first, later, _result()])
        codes = [(v.index, str(v.code)) for v in rep.violations]
        assert (1, "action_conflict") in codes, codes
        assert (2, "executed_rejected_call") in codes  # which of the two calls ran is a guess
        conflict = next(v for v in rep.violations if v.code == "action_conflict")
        assert conflict.path == "/session/required_actions/0" and "call_3c91" in conflict.message


def test_pending_actions_refuse_a_conflicting_action_and_accept_the_same_one() -> None:
    action = _requires_action()["session"]["required_actions"][0]
    ledger = A.PendingActions([action])
    ledger.add([copy.deepcopy(action)])  # the same action again changes nothing
    assert len(ledger.pending) == 1
    assert ledger.conflict(action) is None
    for change in ({"name": "refund_order"}, {"arguments": {"order_id": "A-1042", "include_lines": False}}):
        other = {**action, **change}
        assert ledger.conflict(other) is not None
        with pytest.raises(rp.ItemError) as err:
            ledger.add([other])
        assert err.value.errors[0]["type"] == "action_conflict"
        with pytest.raises(rp.ItemError):
            A.PendingActions([action, other])  # in one event too
    assert len(ledger.pending) == 1 and ledger.pending[0].name == "lookup_order"
    # numbers and booleans keep their JSON type: 1 is not true
    one = {**action, "arguments": {"order_id": "A-1042", "include_lines": 1}}
    assert ledger.conflict(one) is not None


# --- what was parsed is not trusted blindly --------------------------------------------------------------


def _parsed_call(side: str = "input") -> Any:
    return rp.parse_item(call(), side=side)  # type: ignore[call-overload]


TAMPERED = [
    ("empty call_id", {"call_id": ""}, "item_invalid"),
    ("object arguments", {"arguments": {"city": "Paris"}}, "arguments_type"),
    ("NaN in an unknown field", {"x": math.nan}, "item_invalid"),
    ("bytes arguments", {"arguments": b'{"city": "Paris"}'}, "arguments_type"),
    ("a set", {"x": {1, 2}}, "item_invalid"),
]


@pytest.mark.parametrize(("what", "update", "reason"), TAMPERED, ids=[t[0] for t in TAMPERED])
@pytest.mark.parametrize("side", ["input", "output"])
def test_model_copy_update_is_read_again(what: str, update: dict[str, Any], reason: str, side: str) -> None:
    bad = _parsed_call(side).model_copy(update=update)
    assert rp.gate(bad, WEATHER_TOOL).reason == reason
    tools = [WEATHER_TOOL]
    rep = rp.check_transcript([bad], tools=tools, pending_ok=True)
    assert not rep.ok and rep.violations[0].index == 0
    if what == "empty call_id" and side == "output":  # the output form has no length rule: sent back, it does
        assert rp.parse_item(bad, side="output").call_id == ""  # type: ignore[union-attr]
        assert not rp.check_transcript([bad], side="input", pending_ok=True).ok
    else:
        with pytest.raises(rp.ItemError):
            rp.parse_item(bad, side=side)  # type: ignore[call-overload]
        with pytest.raises(rp.ItemError):
            rp.parse_items([bad], side=side)  # type: ignore[call-overload]
    if what != "empty call_id":  # a value with no JSON form: dumping is the library's error too
        with pytest.raises(rp.ItemError):
            rp.dump_item(bad)


def test_model_construct_and_models_built_around_one_are_read_again() -> None:
    bad = rp.FunctionCallParam.model_construct(
        type="function_call", call_id="", name="get_weather", arguments='{"city": "Paris"}', status="completed"
    )
    assert rp.gate(bad, WEATHER_TOOL).reason == "item_invalid"
    assert not rp.check_transcript([bad], tools=[WEATHER_TOOL], pending_ok=True).ok
    part = rp.parse_item({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]})
    text = part.content[0].model_copy(update={"text": 5})  # type: ignore[union-attr,index]
    message = type(part)(role="user", content=[text])  # validation keeps the instance as it is ...
    rep = rp.check_transcript([message])  # ... so the message is read again from its JSON
    assert not rep.ok and rep.violations[0].path.startswith("/content/0")


def test_untouched_parsed_models_keep_their_fast_path() -> None:
    good = _parsed_call()
    copied = good.model_copy()  # a copy without update is as valid as its original
    rep = rp.check_transcript([good, copied], tools=[WEATHER_TOOL], pending_ok=True)
    assert {v.code for v in rep.violations} == {rp.ViolationCode.DUPLICATE_CALL_ID, rp.ViolationCode.DUPLICATE_ITEM_ID}
    assert rep.items[0] is good


class _Liar(str):
    """A str subclass that says it equals anything."""

    __hash__ = str.__hash__

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False


def test_a_lying_str_subclass_does_not_fool_the_gate() -> None:
    item = call(_Liar("delete_account"), "{}")
    res = rp.gate(item, WEATHER_TOOL)  # the plain copy says delete_account: refused
    assert res.reason in ("name", "item_invalid") and not res.ok
    status = call(status=_Liar("in_progress"))
    assert rp.gate(status, WEATHER_TOOL).reason == "status"
    allowed = rp.gate(call(_Liar("delete_account"), "{}"), [WEATHER_TOOL, DELETE_TOOL], allowed_tools=["get_weather"])
    assert allowed.reason == "not_allowed"


class _TwoFaced(Mapping[str, Any]):
    """A Mapping whose `items()` (how copies read it) differs from `[]`/`get` (how a rule may read it)."""

    def __init__(self, shown: dict[str, Any], stored: dict[str, Any]) -> None:
        self._shown, self._stored = shown, stored

    def __getitem__(self, key: str) -> Any:
        return self._stored[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._stored)

    def __len__(self) -> int:
        return len(self._stored)

    def items(self) -> Any:  # type: ignore[override]
        return self._shown.items()


def test_a_two_faced_mapping_is_read_once() -> None:
    bad_args = call(args='{"city": 5}')
    item = _TwoFaced(bad_args, call())
    assert rp.gate(item, WEATHER_TOOL).reason == "arguments_schema"
    rep = rp.check_transcript([item], tools=[WEATHER_TOOL], pending_ok=True)
    assert [v.code for v in rep.violations] == [rp.ViolationCode.ARGUMENTS_SCHEMA]
    out = {"type": "function_call_output", "call_id": "c1", "output": "x"}
    orphan = _TwoFaced({**out, "call_id": "c2"}, out)
    rep = rp.check_transcript([call(), orphan], tools=[WEATHER_TOOL])
    assert not rep.ok  # the copy answers c2, which nothing called


def test_sdk_objects_are_not_coerced() -> None:
    from openai.types.responses import ResponseFunctionToolCall

    good = ResponseFunctionToolCall(**call())
    assert rp.gate(good, WEATHER_TOOL).ok
    as_bytes = ResponseFunctionToolCall.model_construct(**{**call(), "arguments": b'{"city": "Paris"}'})
    assert rp.gate(as_bytes, WEATHER_TOOL).reason == rp.gate({**call(), "arguments": b"{}"}, WEATHER_TOOL).reason
    assert rp.gate(as_bytes, WEATHER_TOOL).reason == "arguments_type"
    nan = ResponseFunctionToolCall.model_construct(**call(), x=math.nan)
    assert not rp.gate(nan, WEATHER_TOOL).ok and not rp.gate({**call(), "x": math.nan}, WEATHER_TOOL).ok
    for bad in (as_bytes, nan):
        assert not rp.check_transcript([bad], tools=[WEATHER_TOOL], pending_ok=True).ok
        with pytest.raises(rp.ItemError):
            rp.parse_item(bad)


def test_a_tool_changed_during_a_call_never_pairs_a_new_schema_with_an_old_validator(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tool = copy.deepcopy(WEATHER_TOOL)
    real = gate_module.compile_schema

    def compile_then_change(schema: Any, **kw: Any) -> Any:  # another thread changes the tool meanwhile
        validator = real(schema, **kw)
        tool["parameters"]["properties"]["city"]["type"] = "integer"
        return validator

    monkeypatch.setattr(gate_module, "compile_schema", compile_then_change)
    assert rp.gate(call(), tool).ok  # judged by the schema as it was read
    monkeypatch.setattr(gate_module, "compile_schema", real)
    assert rp.gate(call(), tool).reason == "arguments_schema"  # the changed tool gets its own validator
    assert rp.gate(call(args='{"city": 5}'), tool).ok


def test_agents_models_that_skipped_validation_are_read_again() -> None:
    nan = A.FunctionCallAction.model_construct(
        type="function_call", turn_id="t", call_id="c", name="f", arguments={"x": math.nan}
    )
    with pytest.raises(rp.ItemError, match="NaN"):
        A.check_arguments(nan, {"type": "object"})
    empty = A.FunctionCallAction.model_construct(type="function_call", turn_id="", call_id="c", name="f", arguments={})
    with pytest.raises(rp.ItemError, match="turn_id"):
        A.PendingActions([empty])
    good = A.FunctionCallAction(type="function_call", turn_id="t", call_id="c", name="f", arguments={})
    assert A.check_arguments(good, {"type": "object"}).execute
    changed = good.model_copy(update={"arguments": {"x": math.inf}})
    with pytest.raises(rp.ItemError):
        A.check_arguments(changed, {"type": "object"})
