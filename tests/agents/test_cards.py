"""Tests of replayable.agents.check_card: the third door (a turn's result card against its own schema)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import replayable as rp
from replayable import agents as A

FIX = Path(__file__).parent.parent / "fixtures" / "doors"
SCHEMA = json.loads((FIX / "card_schema.json").read_text())
RESPONSE = json.loads((FIX / "card_response.json").read_text())
CARD = '{"order_id":"A-1042","status":"paid"}'


def msg(text: str, phase: str | None = "final_answer", **kw: object) -> dict:
    m: dict = {
        "type": "message",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": text, "annotations": []}],
        **kw,
    }
    if phase is not None:
        m["phase"] = phase
    return m


USER = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Status of A-1042?"}]}


def test_card_from_a_real_response_joins_its_output_text_parts():
    c = A.check_card(RESPONSE, SCHEMA)
    assert c.ok and bool(c) is True
    assert c.card == {"order_id": "A-1042", "status": "paid"}
    assert c.index == 4 and c.failures == ()
    assert A.check_card(RESPONSE["output"], SCHEMA).card == c.card


def test_enum_and_pattern_failures_carry_pointer_and_keyword():
    c = A.check_card([USER, msg('{"order_id":"a-1","status":"lost","extra":1}')], SCHEMA)
    assert not c.ok
    assert sorted((f.path, f.keyword) for f in c.failures) == [
        ("/extra", "additionalProperties"),
        ("/order_id", "pattern"),
        ("/status", "enum"),
    ]
    assert c.card == {"order_id": "a-1", "status": "lost", "extra": 1}  # parsed, but not ok


def test_missing_required_key_points_at_the_key():
    c = A.check_card([msg('{"order_id":"A-1042"}')], SCHEMA)
    assert [(f.path, f.keyword) for f in c.failures] == [("/status", "required")]


@pytest.mark.parametrize("schema", [SCHEMA, {}])
def test_prose_is_never_a_card(schema):
    c = A.check_card([USER, msg("The order is paid.")], schema)
    assert not c.ok and c.card is None
    assert [(f.path, f.keyword) for f in c.failures] == [("", "json")]
    assert "prose" in c.failures[0].message


def test_the_boolean_schema_true_is_refused_for_a_card():
    from replayable._arguments import SchemaError

    with pytest.raises(SchemaError, match="pass \\{\\}"):  # {} is the one spelling of "no check"
        A.check_card([USER, msg(CARD)], True)


@pytest.mark.parametrize(
    "text, reason",
    [
        ("```json\n" + CARD + "\n```", "not_json"),
        ('{"order_id":"A-1042","status":"paid","status":"refunded"}', "duplicate_key"),
        ('{"order_id":"A-1042","status":NaN}', "non_finite_number"),
        ('{"order_id":"A-1042","status":"pa', "not_json"),
    ],
)
def test_strict_json_rules_apply_to_cards(text, reason):
    c = A.check_card([msg(text)], {})
    assert not c.ok and c.failures[0].keyword == "json" and reason in c.failures[0].message


def test_final_answer_wins_over_a_later_commentary_and_over_a_json_commentary():
    assert A.check_card([USER, msg(CARD), msg("still here", phase="commentary")], SCHEMA).ok
    decoy = A.check_card([USER, msg(CARD, phase="commentary"), msg("It is paid.")], SCHEMA)
    assert not decoy.ok and decoy.index == 2


def test_without_phases_the_last_assistant_message_is_checked():
    c = A.check_card([USER, msg("Looking it up.", phase=None), msg(CARD, phase=None)], SCHEMA)
    assert c.ok and c.index == 2
    assert not A.check_card([USER, msg(CARD, phase=None), msg("done", phase=None)], SCHEMA).ok


@pytest.mark.parametrize(
    "items, keyword",
    [
        ([USER], "missing"),
        ([], "missing"),
        ([USER, msg(CARD, phase="commentary")], "missing"),  # commentary only: the turn has no final answer
        ([msg(CARD, status="incomplete")], "incomplete"),
        (
            [
                {
                    "type": "message",
                    "role": "assistant",
                    "phase": "final_answer",
                    "status": "completed",
                    "content": [{"type": "refusal", "refusal": "I can't help with that."}],
                }
            ],
            "refusal",
        ),
    ],
)
def test_no_card_to_check(items, keyword):
    c = A.check_card(items, SCHEMA)
    assert not c.ok and c.card is None
    assert [(f.path, f.keyword) for f in c.failures] == [("", keyword)]


def test_agents_session_items_and_item_done_events_are_read():
    item = dict(msg(CARD), id="msg_9", turn_id="turn_2")
    added = {
        "type": "agent.session.turn.item.added",
        "session_id": "s",
        "turn_id": "turn_2",
        "item": dict(item, content=[], status="in_progress"),
    }
    done = {
        "type": "agent.session.turn.item.done",
        "session_id": "s",
        "turn_id": "turn_2",
        "output_index": 1,
        "item": item,
    }
    assert A.check_card([item], SCHEMA).ok
    c = A.check_card([added, done], SCHEMA)
    assert c.ok and c.index == 1


def test_models_and_sdk_objects_are_read():
    parsed = rp.parse_items([USER, msg(CARD)])
    assert A.check_card(parsed, SCHEMA).ok
    types = pytest.importorskip("openai.types.responses")
    sdk = types.ResponseOutputMessage.model_validate(dict(msg(CARD), id="msg_1"))
    assert A.check_card([sdk], SCHEMA).card == {"order_id": "A-1042", "status": "paid"}


def test_string_content_is_read_as_text():
    assert A.check_card([{"role": "assistant", "content": CARD}], SCHEMA).ok


@pytest.mark.parametrize("bad", [None, 5, {"type": "message"}, "not json", [None], [5]])
def test_bad_items_raise_item_error(bad):
    with pytest.raises(rp.ItemError):
        A.check_card(bad, SCHEMA)


def test_an_invalid_card_schema_raises_schema_error():
    with pytest.raises(rp.SchemaError):
        A.check_card([msg(CARD)], {"type": 12})


# --- a final answer that is not finished is never a card ---------------------------------------------


@pytest.mark.parametrize(
    "status, keyword",
    [("in_progress", "in_progress"), ("incomplete", "incomplete"), ("failed", "status"), ({}, "status"), (1, "status")],
)
def test_an_unfinished_final_answer_is_refused_from_dicts_and_responses(status, keyword):
    items = [USER, msg(CARD, status=status)]
    for given in (items, {"object": "response", "output": items}):
        c = A.check_card(given, SCHEMA)
        assert not c.ok and c.card is None and c.index == 1 and c.text == CARD
        assert [(f.path, f.keyword) for f in c.failures] == [("", keyword)]
    assert A.check_card([USER, msg(CARD, status="completed")], SCHEMA).ok
    assert A.check_card([USER, {k: v for k, v in msg(CARD).items() if k != "status"}], SCHEMA).ok  # none: read


def test_an_in_progress_final_answer_is_refused_from_models_sdk_objects_and_agents_events():
    parsed = rp.parse_items([USER, msg(CARD, status="in_progress")])
    assert [f.keyword for f in A.check_card(parsed, SCHEMA).failures] == ["in_progress"]
    item = dict(msg(CARD, status="in_progress"), id="msg_9", turn_id="turn_2")
    done = {"type": "agent.session.turn.item.done", "session_id": "s", "turn_id": "turn_2", "output_index": 1}
    assert [f.keyword for f in A.check_card([dict(done, item=item)], SCHEMA).failures] == ["in_progress"]
    assert [f.keyword for f in A.check_card([item], SCHEMA).failures] == ["in_progress"]
    types = pytest.importorskip("openai.types.responses")
    sdk = types.ResponseOutputMessage.model_validate(dict(msg(CARD, status="in_progress"), id="msg_1"))
    c = A.check_card([sdk], SCHEMA)
    assert [f.keyword for f in c.failures] == ["in_progress"] and "in_progress" in c.failures[0].message
