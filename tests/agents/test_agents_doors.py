"""Fail-closed Agents API log checks on every door (four attacks found by a sweep).

Four classes, each checked on the library (`check_event_log`, also fed by `stream.parse_sse`) and on
`replayable check --agents` with the log as JSONL, as a JSON array and as an SSE capture:

1. a call answered with `success: true` is judged against the tools known when the answer arrives; with
   no tool known at all it is `executed_rejected_call` (as `gate(call)` refuses with `no_schema`),
   unless the tools are given (`tools=`, `--tools`);
2. an unknown event never changes state (its session is not read), and a log that mixes sessions is a
   `mixed_sessions` violation whose other session's snapshots change nothing;
3. `check --agents` uses `--tools` and refuses `--target`, `--provider`, `--pending-ok` (exit 2);
4. an SSE capture read with `--agents` is an Agents log; an `agent.*` event in a Responses stream is
   refused as the JSONL door refuses a log, and an unknown event in OpenAI mode leaves a note.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from replayable import agents as A
from replayable import stream
from replayable._cli import main
from replayable.items import ItemError

# --- the log pieces -----------------------------------------------------------------------------------

STRICT_TOOL = {
    "type": "function",
    "name": "delete_account",
    "parameters": {
        "type": "object",
        "properties": {"user": {"const": "me"}},
        "required": ["user"],
        "additionalProperties": False,
    },
}
OPEN_TOOL = {"type": "function", "name": "delete_account", "parameters": {}}  # any arguments pass


def action(user: str = "victim", call_id: str = "c1") -> dict[str, Any]:
    return {
        "type": "function_call",
        "turn_id": "t1",
        "call_id": call_id,
        "name": "delete_account",
        "arguments": {"user": user},
    }


def snapshot(
    etype: str, *, sid: str = "s1", tools: list[Any] | None = None, actions: list[Any] | None = None
) -> dict[str, Any]:
    """An `agent.session.*` event carrying a session; without `tools` the snapshot is trimmed (no agent)."""
    session: dict[str, Any] = {
        "id": sid,
        "object": "agent.session",
        "status": "requires_action" if actions else "idle",
        "required_actions": actions or [],
    }
    if tools is not None:
        session["agent"] = {"id": "a", "model": "m", "tools": copy.deepcopy(tools)}
    return {"type": etype, "event_id": f"e_{etype}_{sid}", "session": session}


def requires(user: str = "victim", **kw: Any) -> dict[str, Any]:
    return snapshot("agent.session.requires_action", actions=[action(user)], **kw)


def result(success: bool = True, call_id: str = "c1") -> dict[str, Any]:
    body: dict[str, Any] = {"type": "agent.session.input.tool_result", "turn_id": "t1", "call_id": call_id}
    return {**body, "success": True, "output": "deleted"} if success else {**body, "success": False, "error": "no"}


# --- the doors ----------------------------------------------------------------------------------------


def _codes(rep: A.AgentsReport) -> tuple[bool, list[str]]:
    return rep.ok, sorted(str(v.code) for v in rep.violations)


def _write(tmp_path: Path, events: list[Any], fmt: str) -> Path:
    if fmt == "jsonl":
        path = tmp_path / "log.jsonl"
        path.write_text("".join(json.dumps(e) + "\n" for e in events))
    elif fmt == "json":
        path = tmp_path / "log.json"
        path.write_text(json.dumps(events))
    else:
        path = tmp_path / "log.sse"
        path.write_text("".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events))
    return path


def doors(tmp_path: Path, events: list[Any], tools: list[Any] | None = None) -> dict[str, tuple[bool, list[str]]]:
    """`(ok, sorted violation codes)` of the log on every door; the CLI doors also check their exit status."""
    out = {"library": _codes(A.check_event_log(copy.deepcopy(events), tools=tools))}
    sse = "".join(f"data: {json.dumps(e)}\n\n" for e in events)
    out["library sse"] = _codes(A.check_event_log(stream.parse_sse(sse, provider="openai"), tools=tools))
    extra: list[str] = []
    if tools is not None:
        (tmp_path / "tools.json").write_text(json.dumps(tools))
        extra = ["--tools", str(tmp_path / "tools.json")]
    for fmt in ("jsonl", "json", "sse"):
        path = _write(tmp_path, events, fmt)
        code = main(["check", "--agents", "--format", "json", str(path), *extra])
        record = json.loads(_stdout[0].readouterr().out)
        assert code == (0 if record["ok"] else 1), (fmt, record)
        out[f"cli {fmt}"] = (record["ok"], sorted(v["code"] for v in record["violations"]))
    return out


_stdout: list[Any] = []


@pytest.fixture(autouse=True)
def _capture(capsys: pytest.CaptureFixture[str]) -> Any:
    _stdout[:] = [capsys]
    yield
    _stdout.clear()


def agree(got: dict[str, tuple[bool, list[str]]], want: tuple[bool, list[str]]) -> None:
    assert {door: v for door, v in got.items() if v != want} == {}, want


# --- 1. an executed call is judged against the tools known at its answer --------------------------------


def test_a_trimmed_requires_action_with_no_tools_anywhere_is_not_replay_safe(tmp_path: Path) -> None:
    events = [requires(), result()]  # no tools known at all
    agree(doors(tmp_path, events), (False, ["executed_rejected_call"]))
    rep = A.check_event_log(events)
    assert "no tool schema is known" in rep.violations[0].message
    assert [(f.index, str(f.code), f.path) for f in rep.refused] == [
        (0, "arguments_schema", "/session/required_actions/0")
    ]


def test_tools_that_arrive_after_the_call_judge_its_answer(tmp_path: Path) -> None:
    late = snapshot("agent.session.in_progress", tools=[STRICT_TOOL])  # tools arrive late
    agree(doors(tmp_path, [requires(), late, result()]), (False, ["executed_rejected_call"]))
    rep = A.check_event_log([requires(), late, result()])
    assert [(f.index, f.path) for f in rep.refused] == [(0, "/session/required_actions/0/arguments")]
    # the same arguments the late tool accepts: no false alarm
    agree(doors(tmp_path, [requires("me"), late, result()]), (True, []))


def test_a_call_refused_by_late_tools_answered_with_a_failure_is_the_safe_outcome(tmp_path: Path) -> None:
    late = snapshot("agent.session.in_progress", tools=[STRICT_TOOL])
    agree(doors(tmp_path, [requires(), late, result(success=False)]), (True, []))
    assert [str(f.code) for f in A.check_event_log([requires(), late, result(success=False)]).refused] == [
        "arguments_schema"
    ]
    # no tool ever known and answered with a failure: nothing ran, nothing to refuse
    agree(doors(tmp_path, [requires(), result(success=False)]), (True, []))


def test_tools_that_change_before_the_answer_judge_it(tmp_path: Path) -> None:
    before = snapshot("agent.session.created", tools=[OPEN_TOOL])
    after = snapshot("agent.session.in_progress", tools=[STRICT_TOOL])
    agree(doors(tmp_path, [before, requires(), after, result()]), (False, ["executed_rejected_call"]))
    agree(doors(tmp_path, [before, requires(), result()]), (True, []))


def test_given_tools_judge_the_calls_of_a_log_that_has_none(tmp_path: Path) -> None:
    agree(doors(tmp_path, [requires(), result()], tools=[STRICT_TOOL]), (False, ["executed_rejected_call"]))
    agree(doors(tmp_path, [requires("me"), result()], tools=[STRICT_TOOL]), (True, []))
    # given tools replace the log's agent tools (as --tools replaces a request body's tools)
    with_open = [snapshot("agent.session.created", tools=[OPEN_TOOL]), requires(), result()]
    agree(doors(tmp_path, with_open, tools=[STRICT_TOOL]), (False, ["executed_rejected_call"]))
    other = [{"type": "function", "name": "lookup", "parameters": {}}]
    agree(doors(tmp_path, [requires("me"), result()], tools=other), (False, ["executed_rejected_call"]))
    with pytest.raises(ValueError, match="both named"):  # two given tools of one name: never a guess
        A.check_event_log([requires("me"), result()], tools=[STRICT_TOOL, OPEN_TOOL])


def test_an_unanswered_call_without_tools_is_only_unanswered(tmp_path: Path) -> None:
    agree(doors(tmp_path, [requires()]), (False, ["unanswered_action"]))
    assert A.check_event_log([requires()]).refused == ()


# --- 2. unknown events never change state; one session per log ----------------------------------------


def test_an_unknown_event_carrying_a_session_changes_nothing(tmp_path: Path) -> None:
    created = snapshot("agent.session.created", tools=[STRICT_TOOL])
    zzz = snapshot("agent.session.zzz", tools=[OPEN_TOOL])  # an unknown event carrying other tools
    events = [created, zzz, requires(), result()]
    agree(doors(tmp_path, events), (False, ["executed_rejected_call"]))
    assert A.check_event_log(events).unknown_events == (1,)
    # its required actions are not pending either: answering them answers nothing
    unknown_ask = snapshot("agent.session.zzz", tools=[OPEN_TOOL], actions=[action("me")])
    agree(doors(tmp_path, [created, unknown_ask, result()]), (False, ["result_without_action"]))


def test_the_ledger_and_session_of_do_not_act_on_an_unknown_event() -> None:
    ev = A.parse_event(snapshot("agent.session.zzz", tools=[OPEN_TOOL], actions=[action()]))
    assert A.is_unknown(ev)
    assert A.session_of(ev) is None
    with pytest.raises(ItemError) as exc:
        A.PendingActions.from_event(ev)
    assert exc.value.errors[0]["type"] == "unknown_event" and "never acted on" in str(exc.value)
    with pytest.raises(ItemError):
        A.PendingActions.from_event(snapshot("agent.session.zzz", actions=[action()]))
    # a known event still gives its pending action
    assert [a.call_id for a in A.PendingActions.from_event(requires()).pending] == ["c1"]


def test_a_log_that_mixes_sessions_is_flagged_and_the_other_session_changes_nothing(tmp_path: Path) -> None:
    mine = snapshot("agent.session.created", sid="s1", tools=[STRICT_TOOL])
    theirs = snapshot("agent.session.created", sid="s2", tools=[OPEN_TOOL])  # two sessions
    events = [mine, theirs, requires(sid="s1"), result()]
    agree(doors(tmp_path, events), (False, ["executed_rejected_call", "mixed_sessions"]))
    rep = A.check_event_log(events)
    mixed = next(v for v in rep.violations if v.code == "mixed_sessions")
    assert mixed.index == 1 and "'s2'" in mixed.message and rep.session_id == "s1"
    # the other session's required actions are not this session's: answering them answers nothing here
    foreign_ask = [mine, requires("me", sid="s2"), result()]
    agree(doors(tmp_path, foreign_ask), (False, ["mixed_sessions", "result_without_action"]))
    # reported once per other session, also from an event's own session_id
    turn = {
        "type": "agent.session.turn.created",
        "event_id": "x",
        "session_id": "s3",
        "turn_id": "t9",
        "turn": {"id": "t9", "object": "agent.session.turn", "agent_id": "a", "session_id": "s3", "created_at": 0,
                 "status": "queued"},
    }  # fmt: skip
    rep = A.check_event_log([mine, turn, theirs, dict(turn, event_id="y"), theirs])
    assert [(v.index, str(v.code)) for v in rep.violations] == [(1, "mixed_sessions"), (2, "mixed_sessions")]
    # one session named again and again is one session
    assert A.check_event_log([mine, requires("me"), result(), mine]).ok


def test_the_link_chain_skips_unknown_events_and_breaks_on_another_session(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    unknown_ask = snapshot("agent.session.zzz", actions=[action("me")])
    chain = A.link_chain([unknown_ask, result()])
    assert not chain.ok and [x.kind for x in chain.broken] == ["tool_result"]  # the result answers no call
    mine = snapshot("agent.session.created", sid="s1", tools=[STRICT_TOOL])
    theirs = snapshot("agent.session.created", sid="s2", tools=[OPEN_TOOL])
    chain = A.link_chain([mine, theirs, requires("me"), result()])
    assert [(x.event, x.kind) for x in chain.broken] == [(1, "event")] and "'s2'" in str(chain.broken[0].problem)
    assert chain.session_id == "s1"
    path = _write(tmp_path, [mine, theirs, requires("me"), result()], "jsonl")
    assert main(["check", "--agents", "--chain", str(path)]) == 1
    assert json.loads(capsys.readouterr().out)["ok"] is False
    assert A.link_chain([mine, requires("me"), result(), mine]).ok  # one session named again and again


# --- 3. check --agents: --tools is used, flags that mean nothing are refused ----------------------------


@pytest.mark.parametrize(
    "flags", [["--target", "acme"], ["--provider", "openai"], ["--pending-ok"], ["--target", "x", "--pending-ok"]]
)
def test_check_agents_refuses_flags_that_mean_nothing_for_a_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str]
) -> None:
    path = _write(tmp_path, [requires("me"), result()], "jsonl")
    assert main(["check", "--agents", str(path), *flags]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "nothing for an Agents API event log" in err
    assert all(f in err for f in flags if f.startswith("--"))


def test_check_agents_chain_refuses_tools(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, [requires("me"), result()], "jsonl")
    (tmp_path / "tools.json").write_text(json.dumps([STRICT_TOOL]))
    assert main(["check", "--agents", "--chain", str(path), "--tools", str(tmp_path / "tools.json")]) == 2
    assert "--tools means nothing with --chain" in capsys.readouterr().err


def test_check_agents_on_a_responses_stream_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    events = list(
        stream.parse_sse((Path(__file__).parent.parent / "fixtures" / "stream" / "message_and_call.sse").read_bytes())
    )
    path = tmp_path / "events.json"
    path.write_text(json.dumps(events))
    assert main(["check", "--agents", str(path)]) == 2  # --agents says what the file is: never checked as a stream
    assert "not an OpenAI Agents API event log: check it without --agents" in capsys.readouterr().err
    sse = tmp_path / "events.sse"  # the same stream captured as SSE, also refused (not read as a stream)
    sse.write_bytes((Path(__file__).parent.parent / "fixtures" / "stream" / "message_and_call.sse").read_bytes())
    assert main(["check", "--agents", str(sse)]) == 2
    assert "SSE capture of a Responses stream, not an OpenAI Agents API event log" in capsys.readouterr().err


# --- 4. SSE: --agents reads a log; an agent.* event in a Responses stream is refused --------------------

SSE_FIX = Path(__file__).parent.parent / "fixtures" / "stream" / "message_and_call.sse"
AGENT_EVENT = result()


@pytest.mark.parametrize("provider", [[], ["--provider", "openai"]])
def test_an_agents_log_as_sse_without_agents_is_refused_like_the_jsonl_door(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], provider: list[str]
) -> None:
    events = [AGENT_EVENT, {"type": "response.completed", "response": {"id": "r", "object": "response"}}]
    path = _write(tmp_path, events, "sse")
    assert main(["check", str(path), *provider]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1
    assert (
        "(event 0 is an 'agent.session.input.tool_result' event), not a Responses stream: check it with --agents" in err
    )
    assert main(["check", "--agents", str(path)]) == 1  # read as the log it is
    assert "result_without_action" in capsys.readouterr().out


@pytest.mark.parametrize("provider", [[], ["--provider", "openai"]])
def test_an_agent_event_inside_a_responses_stream_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], provider: list[str]
) -> None:
    frames = SSE_FIX.read_text().split("\n\n")
    frames.insert(3, f"data: {json.dumps(AGENT_EVENT)}")
    path = tmp_path / "mixed.sse"
    path.write_text("\n\n".join(frames))
    assert main(["check", str(path), *provider]) == 2
    err = capsys.readouterr().err
    assert "is an 'agent.session.input.tool_result' event), not a Responses stream: check it with --agents" in err
    # the JSON array door of the same events gives the log door's refusal
    events = [json.loads(f.split("data: ", 1)[1]) for f in frames if "data: {" in f]
    (tmp_path / "mixed.json").write_text(json.dumps(events))
    assert main(["check", str(tmp_path / "mixed.json"), *provider]) == 2
    assert "check it with --agents" in capsys.readouterr().err


@pytest.mark.parametrize("provider", [None, "openai"])
def test_the_stream_library_refuses_an_agent_event_in_every_mode(provider: str | None) -> None:
    events = list(stream.parse_sse(SSE_FIX.read_bytes()))
    events.insert(2, AGENT_EVENT)
    rep = stream.check_stream(events, provider=provider)
    found = [f for f in rep.findings if f.event_type == AGENT_EVENT["type"] and f.rule == "unknown_event"]
    assert not rep.ok and found and all(f.violation for f in found)
    assert "Agents API event log, check it with --agents" in found[0].message
    asm = stream.StreamAssembler(provider=provider)
    with pytest.raises(stream.StreamError) as exc:
        asm.feed({**AGENT_EVENT, "sequence_number": 0})
    assert exc.value.rule == "unknown_event" and "Agents API" in str(exc.value)
    with pytest.raises(stream.StreamError) as exc:  # the one-event reader too (not an openai: extension event)
        stream.parse_event({**AGENT_EVENT, "sequence_number": 0}, provider=provider)
    assert exc.value.rule == "unknown_event" and "check it with --agents" in str(exc.value)


def test_an_unknown_event_in_openai_mode_leaves_a_note() -> None:
    for strict in (True, False):
        asm = stream.StreamAssembler(provider="openai", strict=strict)
        assert asm.feed({"type": "totally.unknown", "sequence_number": 0}) == []
        asm.feed({"type": "totally.unknown", "sequence_number": 1})
        notes = [w for w in asm.warnings if w.rule == "unknown_event"]
        assert len(notes) == 1 and not notes[0].violation  # a note, once per type
        assert "totally.unknown" in notes[0].message and "ignored" in notes[0].message
    # OpenAI's own documented events stay silent
    asm = stream.StreamAssembler(provider="openai")
    asm.feed({"type": "response.queued", "sequence_number": 0, "response": {"id": "r", "object": "response"}})
    assert not [w for w in asm.warnings if w.rule == "unknown_event"]
    # Open Responses mode is unchanged: an un-prefixed unknown type is a violation
    with pytest.raises(stream.StreamError):
        stream.StreamAssembler().feed({"type": "totally.unknown", "sequence_number": 0})


def test_check_agents_reads_an_sse_log_past_done_as_jsonl_reads_it(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """The same events as JSONL fail with executed_rejected_call; as SSE with a [DONE] between them they
    fail with it too, and with the [DONE] finding."""
    import json

    from replayable._cli import main

    events = [requires(), result()]
    jsonl, sse = tmp_path / "log.jsonl", tmp_path / "log.sse"
    jsonl.write_text("".join(json.dumps(e) + "\n" for e in events))
    sse.write_text(f"data: {json.dumps(events[0])}\n\ndata: [DONE]\n\ndata: {json.dumps(events[1])}\n\n")
    assert main(["check", "--agents", "--format", "json", str(jsonl)]) == 1
    as_jsonl = json.loads(capsys.readouterr().out)
    assert main(["check", "--agents", "--format", "json", str(sse)]) == 1
    as_sse = json.loads(capsys.readouterr().out)
    assert [v["code"] for v in as_sse["violations"]] == [v["code"] for v in as_jsonl["violations"]] == [
        "executed_rejected_call"
    ]
    assert [(f["code"], f["index"]) for f in as_sse["findings"] if f["where"] == "stream"] == [("after_done_marker", 1)]
