"""Requests and responses as transcripts, and continuation requests (previous_response_id + outputs):
the seed loop checks clean with `previous=`, its outputs are `external` (not violations) without it, and
outputs answering nothing are still violations."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import corpus_files, load, needs_corpus

import replayable as rp

CALL = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f", "arguments": "{}", "status": "completed"}


def response(*output: dict[str, Any]) -> dict[str, Any]:
    return {"id": "resp_1", "object": "response", "created_at": 1, "model": "m", "output": list(output),
            "tools": [], "tool_choice": "auto", "parallel_tool_calls": True}


def answer(call_id: str, output: str = "ok") -> dict[str, Any]:
    return {"type": "function_call_output", "call_id": call_id, "output": output}


def seed_request(resp: dict[str, Any]) -> dict[str, Any]:
    calls = [x for x in resp["output"] if x.get("type") == "function_call" and x.get("status") == "completed"]
    return {"model": "m", "previous_response_id": resp["id"], "input": [answer(c["call_id"]) for c in calls]}


RECORDED_WITH_CALLS = [
    p for p in corpus_files("response")
    if any(x.get("type") == "function_call" and x.get("status") == "completed" for x in load(p)["body"]["output"])
]


@needs_corpus
@pytest.mark.parametrize("path", RECORDED_WITH_CALLS, ids=lambda p: p.stem)
def test_seed_loop_on_recorded_responses_checks_clean(path: Path) -> None:
    resp = load(path)["body"]
    req = seed_request(resp)
    with_prev = rp.check_transcript(req, previous=resp, provider="openai")
    assert with_prev.ok and with_prev.external == (), with_prev.violations
    parsed = rp.parse_response(resp, provider="openai")
    assert rp.check_transcript(rp.parse_request(req), previous=parsed).ok
    assert rp.check_transcript(req, previous=parsed.output).ok
    alone = rp.check_transcript(req)
    assert alone.ok and alone.external == tuple(range(len(req["input"])))


def test_recorded_set_is_not_empty() -> None:
    if corpus_files():
        assert len(RECORDED_WITH_CALLS) >= 4


def test_output_answering_nothing_is_still_a_violation_with_previous() -> None:
    req = {"previous_response_id": "resp_1", "input": [answer("call_1"), answer("call_9")]}
    report = rp.check_transcript(req, previous=response(CALL))
    assert [(v.index, v.code) for v in report.violations] == [(1, rp.ViolationCode.OUTPUT_WITHOUT_FUNCTION_CALL)]
    twice = rp.check_transcript({"previous_response_id": "r", "input": [answer("call_1"), answer("call_1")]}, previous=[CALL])
    assert [v.code for v in twice.violations] == [rp.ViolationCode.DUPLICATE_OUTPUT]
    assert "(item 0 of the previous output) was already answered" in twice.violations[0].message
    own = rp.check_transcript({"previous_response_id": "r", "input": [dict(CALL, id="fc_2")]}, previous=[CALL])
    found = [(v.index, v.code, v.path) for v in own.violations]
    assert (0, rp.ViolationCode.DUPLICATE_CALL_ID, "/call_id") in found
    dup = next(v for v in own.violations if v.code is rp.ViolationCode.DUPLICATE_CALL_ID)
    assert "already used by item 0 of the previous output" in dup.message
    # the previous call itself is left unanswered by this request (the repeated call answers nothing)
    assert (None, rp.ViolationCode.FUNCTION_CALL_WITHOUT_OUTPUT, "/previous/0/call_id") in found


def test_unfinished_previous_call_must_not_be_answered() -> None:
    cut = dict(CALL, status="incomplete")
    report = rp.check_transcript({"previous_response_id": "resp_1", "input": [answer("call_1")]}, previous=response(cut))
    assert [(v.index, v.code) for v in report.violations] == [(0, rp.ViolationCode.OUTPUT_FOR_UNFINISHED_CALL)]


# --- what the previous response says about the request (from attacker and new-user reports) ---------


def test_a_previous_call_the_request_leaves_unanswered_is_reported() -> None:
    """The server refuses a continuation that leaves a call of the previous response unanswered ("No tool
    output found for function call"): reported on every door, pending_ok or not."""
    second = dict(CALL, id="fc_2", call_id="call_2")
    prev = response(CALL, second)
    for req in (
        {"model": "m", "previous_response_id": "resp_1", "input": [answer("call_1")]},
        {"model": "m", "previous_response_id": "resp_1", "input": "thanks"},
    ):
        for pending_ok in (False, True):
            for previous in (prev, prev["output"]):
                report = rp.check_transcript(req, previous=previous, pending_ok=pending_ok)
                found = [(v.index, v.code, v.path) for v in report.violations]
                assert (None, rp.ViolationCode.FUNCTION_CALL_WITHOUT_OUTPUT, "/previous/1/call_id") in found, found
                assert report.pending == ()
    both = {"model": "m", "previous_response_id": "resp_1", "input": [answer("call_1"), answer("call_2")]}
    assert rp.check_transcript(both, previous=prev).ok


def test_a_previous_call_failing_its_schema_but_answered_is_the_servers_not_the_requests() -> None:
    """The quickstart answers a refused call with a refusal text: the request that carries it is fine."""
    tools = [{"type": "function", "name": "f", "parameters": {"type": "object", "properties": {},
              "additionalProperties": False}}]
    bad = dict(CALL, arguments='{"x": 1}')
    req = {"model": "m", "previous_response_id": "resp_1", "input": [answer("call_1", "refused: x")], "tools": tools}
    assert rp.check_transcript(req, previous=response(bad)).ok


def test_a_previous_response_of_another_id_is_refused() -> None:
    req = {"model": "m", "previous_response_id": "resp_OTHER", "input": [answer("call_1")]}
    for previous in (response(CALL),):
        with pytest.raises(rp.ItemError) as exc:
            rp.check_transcript(req, previous=previous)
        err = exc.value.errors[0]
        assert err["loc"] == ("previous",) and err["type"] == "previous_mismatch"
        assert "'resp_1'" in err["msg"] and "'resp_OTHER'" in err["msg"]
    assert rp.check_transcript(req, previous=[CALL]).ok  # output items carry no response id to compare


@pytest.mark.parametrize("status", ["queued", "in_progress", "failed", "cancelled"])
def test_a_response_that_is_not_finished_is_reported(status: str) -> None:
    """A Response's output is final only when it is completed or incomplete (a stream's snapshot without a
    terminal event is no_terminal); alone or as the previous response of a continuation."""
    resp = dict(response(CALL), status=status)
    alone = rp.check_transcript(resp, pending_ok=True)
    assert [(v.index, v.code, v.path) for v in alone.violations] == [
        (None, rp.ViolationCode.RESPONSE_NOT_FINISHED, "/status")
    ]
    assert f"status is {status!r}" in alone.violations[0].message
    req = {"model": "m", "previous_response_id": "resp_1", "input": [answer("call_1")]}
    cont = rp.check_transcript(req, previous=resp)
    assert [(v.index, v.code, v.path) for v in cont.violations] == [
        (None, rp.ViolationCode.RESPONSE_NOT_FINISHED, "/previous/status")
    ]
    assert "previous response's status" in cont.violations[0].message
    for done in ("completed", "incomplete"):
        assert rp.check_transcript(dict(response(CALL), status=done)).ok


def test_without_previous_response_id_outputs_are_violations() -> None:
    report = rp.check_transcript({"model": "m", "input": [answer("call_1")]})
    assert [v.code for v in report.violations] == [rp.ViolationCode.OUTPUT_WITHOUT_FUNCTION_CALL]
    assert report.external == ()


def test_calls_inside_the_request_pair_as_usual() -> None:
    req = {"previous_response_id": "r", "input": [dict(CALL, id=None, status=None), answer("call_1"), answer("call_7")]}
    report = rp.check_transcript(req)
    assert report.ok and report.external == (2,)


def test_request_with_string_input_and_response_as_transcripts() -> None:
    assert rp.check_transcript({"model": "m", "input": "hello"}).ok
    report = rp.check_transcript(response({"type": "message", "id": "m1", "status": "completed", "role": "assistant", "content": []}, CALL))
    assert report.ok and report.pending == (1,)  # a response's trailing calls wait to be executed
    bad = response(dict(CALL, status="incomplete"), {"type": "message", "id": "m1", "status": "completed", "role": "assistant", "content": []})
    assert rp.ViolationCode.INCOMPLETE_NOT_LAST in [v.code for v in rp.check_transcript(bad).violations]


@pytest.mark.parametrize("previous", ["resp_1", {"model": "m", "input": []}, 5])
def test_previous_must_be_a_response_or_items(previous: Any) -> None:
    with pytest.raises(ValueError):
        rp.check_transcript({"previous_response_id": "r", "input": []}, previous=previous)


def test_prepare_replay_takes_a_request_body() -> None:
    items, report = rp.prepare_replay(rp.CreateResponseBody(input=[rp.UserMessageParam(content="hi")]), target="openai")
    assert [rp.dump_item(x) for x in items] == [{"type": "message", "role": "user", "content": "hi"}] and report.check.ok


@pytest.mark.parametrize("conversation", ["conv_1", {"id": "conv_1"}])
def test_a_request_with_a_conversation_continues_it(conversation: Any, tmp_path: Path) -> None:
    """OpenAI's `conversation`: the server puts the conversation's items before `input`, so an output may
    answer a call the conversation holds (as with `previous_response_id`); `null` continues nothing."""
    import json  # noqa: PLC0415

    from replayable._cli import main  # noqa: PLC0415

    body = {"model": "m", "conversation": conversation, "input": [answer("call_1")]}
    report = rp.check_transcript(body)
    assert report.ok and report.external == (0,)
    items, prepared = rp.prepare_replay(body, target="openai")
    assert len(items) == 1 and prepared.dropped == () and prepared.check.external == (0,)
    path = tmp_path / "body.json"
    path.write_text(json.dumps(body))
    assert main(["check", str(path)]) == 0
    assert [v.code for v in rp.check_transcript({**body, "conversation": None}).violations] == [
        "output_without_function_call"
    ]
    with_previous = rp.check_transcript(body, previous=response(CALL))  # what it continues, when given
    assert with_previous.ok and with_previous.external == ()
