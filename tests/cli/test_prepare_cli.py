"""`replayable prepare`: the certain repairs that `check`'s own messages name
(`function_call` arguments given as an object -> their JSON text; Chat Completions messages -> items), a
list of what was repaired, dropped and changed, `--diff` (a unified diff of the input and the result),
`--provider openai` honoured, and the options every command shares read one way."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from replayable import check_transcript, prepare_replay
from replayable._cli import main
from replayable._repair import repair_document, repair_items
from replayable.items import ItemError, dump_items

ROOT = Path(__file__).parent.parent.parent
BROKEN = ROOT / "examples" / "sales_report_broken.json"
TOOLS = ROOT / "examples" / "sales_report.tools.json"
USER = {"type": "message", "role": "user", "content": "hi"}
CALL = {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}", "status": "completed"}
OUT = {"type": "function_call_output", "call_id": "c1", "output": "ok"}


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    got = capsys.readouterr()
    return code, got.out, got.err


def write(tmp_path: Path, name: str, value: Any) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(value))
    return str(path)


# --- the bundled broken example ------------------------------------------------------------------------


@pytest.mark.parametrize("extra", [[], ["--tools", str(TOOLS)]], ids=["no-tools", "tools"])
def test_prepare_repairs_the_bundled_broken_example_and_says_what_it_did(
    capsys: pytest.CaptureFixture[str], extra: list[str]
) -> None:
    code, out, err = run(["prepare", str(BROKEN), "--target", "acme", *extra], capsys)
    assert code == 0, err
    items = json.loads(out)
    # the result is what check accepts for that target
    assert check_transcript(items, target="acme", tools=json.loads(TOOLS.read_text()) if extra else None).ok
    lines = err.splitlines()
    assert f"{BROKEN}: item 2: repaired (function_arguments_not_string): " in "\n".join(lines)
    assert any(line.startswith(f"{BROKEN}: item 8: repaired (chat_completions_envelope): ") for line in lines)
    assert any(line.startswith(f"{BROKEN}: item 7: dropped: ") for line in lines)
    assert lines[-1].startswith(f"{BROKEN}: prepared for acme: {len(items)} of 10 items kept, 2 repaired")
    # the repaired call and its answer are kept, in order
    calls = [i for i in items if i["type"] == "function_call" and i["call_id"] == "call_130"]
    outputs = [i for i in items if i["type"] == "function_call_output" and i["call_id"] == "call_130"]
    assert calls == [{**calls[0], "arguments": '{"region":"apac"}'}] and outputs[0]["output"] == "apac: 1,204 units"
    assert items.index(calls[0]) < items.index(outputs[0])


def test_prepare_diff_shows_the_repair(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["prepare", str(BROKEN), "--target", "acme", "--diff"], capsys)
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == f"--- {BROKEN}" and lines[1] == f"+++ {BROKEN} (prepared for acme)"
    assert lines[2].startswith("@@ ")
    removed = [json.loads(x[1:]) for x in lines[3:] if x.startswith("-")]
    added = [json.loads(x[1:]) for x in lines[3:] if x.startswith("+")]
    assert {"role": "tool", "tool_call_id": "call_130", "content": "apac: 1,204 units"} in removed
    assert {"type": "function_call_output", "call_id": "call_130", "output": "apac: 1,204 units"} in added
    assert any(i.get("arguments") == {"region": "apac"} for i in removed)
    assert any(i.get("arguments") == '{"region":"apac"}' for i in added)
    assert not any(i.get("type") == "openai:web_search_call" for i in added)
    # the diff is a real unified diff: applying it to the input gives the prepared items
    _, prepared, _ = run(["prepare", str(BROKEN), "--target", "acme"], capsys)
    before = [json.dumps(i, ensure_ascii=False) for i in json.loads(BROKEN.read_text())]
    assert _apply(before, lines[2:]) == [json.dumps(i, ensure_ascii=False) for i in json.loads(prepared)]


def _apply(before: list[str], hunks: list[str]) -> list[str]:
    """Apply unified-diff hunk lines to `before` (a minimal patch(1), for the test)."""
    out: list[str] = []
    pos = 0
    for line in hunks:
        if line.startswith("@@"):
            start = int(line.split()[1].split(",")[0][1:]) - 1
            out += before[pos:start]
            pos = start
        elif line.startswith("+"):
            out.append(line[1:])
        elif line.startswith("-"):
            pos += 1
        else:
            out.append(before[pos])
            pos += 1
    return out + before[pos:]


def test_prepare_diff_of_nothing_to_change_is_empty(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "ok.json", [USER, CALL, OUT])
    code, out, err = run(["prepare", path, "--target", "acme", "--diff"], capsys)
    assert code == 0 and out == "" and err.splitlines()[-1].endswith("0 repaired, 0 dropped, 0 changed")


def test_report_lists_repairs_by_input_index(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["prepare", str(BROKEN), "--target", "acme", "--report"], capsys)
    doc = json.loads(out)
    assert code == 0 and set(doc) == {"input", "repaired", "dropped", "changed"}
    assert [(r["index"], r["code"]) for r in doc["repaired"]] == [
        (2, "function_arguments_not_string"),
        (8, "chat_completions_envelope"),
    ]
    assert {d["index"] for d in doc["dropped"]} == {3, 5, 6, 7}  # input indexes, not the repaired list's


def test_report_and_diff_exclude_each_other(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["prepare", str(BROKEN), "--target", "acme", "--report", "--diff"], capsys)
    assert code == 2 and "not allowed with" in err


# --- what is repaired, and what never is ---------------------------------------------------------------


def test_an_assistant_message_with_tool_calls_becomes_items_and_indexes_follow(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chat = {
        "role": "assistant",
        "content": "checking",
        "tool_calls": [{"id": "c7", "type": "function", "function": {"name": "f", "arguments": "{}"}}],
    }
    tool = {"role": "tool", "tool_call_id": "c7", "content": "done"}
    orphan = {"type": "function_call_output", "call_id": "nobody", "output": "x"}
    values = [USER, chat, tool, orphan]
    repaired, repairs, origin = repair_items(values)
    assert [i.get("type") for i in repaired] == [
        "message",
        "message",
        "function_call",
        "function_call_output",
        "function_call_output",
    ]
    assert origin == [0, 1, 1, 2, 3] and [(r.index, r.made) for r in repairs] == [(1, 2), (2, 1)]
    path = write(tmp_path, "chat.json", values)
    code, out, err = run(["prepare", path, "--target", "acme", "--report"], capsys)
    doc = json.loads(out)
    assert code == 0 and doc["dropped"] == [{"index": 3, "reason": doc["dropped"][0]["reason"]}]
    assert "output answers no kept call" in doc["dropped"][0]["reason"]


@pytest.mark.parametrize(
    "value",
    [
        pytest.param({**CALL, "arguments": '{"a": 1}'}, id="string-arguments"),
        pytest.param({**CALL, "arguments": 3}, id="number-arguments"),  # no certain text for it
        pytest.param({**CALL, "arguments": [1, 2]}, id="array-arguments"),  # no arguments object
        pytest.param({"type": "custom_tool_call", "call_id": "c", "name": "f", "input": {"a": 1}}, id="other-type"),
        pytest.param({"role": "function", "name": "f", "content": "x"}, id="legacy-function-message"),
        pytest.param({"role": "tool", "tool_call_id": "never-issued", "content": "x"}, id="tool-answering-nothing"),
        pytest.param(
            {"type": "message", "role": "user", "content": [{"type": "function_call", "name": "f"}]}, id="nested-call"
        ),
    ],
)
def test_what_has_no_certain_repair_is_left_as_it_is(value: dict[str, Any]) -> None:
    repaired, repairs, origin = repair_items([value])
    assert repaired == [value] and repaired[0] is value and repairs == [] and origin == [0]


def test_an_unrepairable_input_still_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "legacy.json", [USER, {"role": "function", "name": "f", "content": "x"}])
    code, out, err = run(["prepare", path, "--target", "acme"], capsys)
    assert code == 2 and out == "" and "#1" in err and "role" in err


def test_a_body_is_repaired_in_its_input_and_keeps_its_envelope(tmp_path: Path) -> None:
    body = {"model": "m", "input": [USER, {**CALL, "arguments": {"q": "x"}}, OUT], "store": False}
    value, repairs, origin = repair_document(body)
    assert (
        value["input"][1]["arguments"] == '{"q":"x"}'
        and value["model"] == "m"
        and body["input"][1]["arguments"] == {"q": "x"}
    )
    assert [r.index for r in repairs] == [1] and origin == [0, 1, 2]
    response = {"object": "response", "id": "r", "status": "completed", "output": [{**CALL, "arguments": {}}]}
    value, repairs, _ = repair_document(response)
    assert value["output"][0]["arguments"] == "{}" and len(repairs) == 1
    assert repair_document("text") == ("text", [], None)


def test_repairs_match_what_the_library_converts() -> None:
    """The repaired items are what from_chat_completions and json.dumps make: prepare_replay accepts them."""
    values = json.loads(BROKEN.read_text())
    repaired, _, _ = repair_items(values)
    items, report = prepare_replay(repaired, target="acme")
    assert report.ok and dump_items(items)
    with pytest.raises(ItemError):  # the library itself never repairs: the input as given is refused
        prepare_replay(values, target="acme")


# --- --provider, read one way --------------------------------------------------------------------------


def test_prepare_honours_provider_openai(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "short.json", [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}])
    code, _, err = run(["prepare", path, "--target", "openai"], capsys)
    assert code == 2 and "needs --provider openai" in err
    code, out, err = run(["prepare", path, "--target", "openai", "--provider", "openai"], capsys)
    assert code == 0, err
    expected, _ = prepare_replay(json.loads(Path(path).read_text()), target="openai", provider="openai")
    assert json.loads(out) == dump_items(expected)


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "{}"],
        ["convert", "--to", "chat-completions", "{}"],
        ["prepare", "{}", "--target", "openai"],
    ],
    ids=["check", "convert", "prepare"],
)
def test_every_command_reads_provider_openai_the_same_way(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    path = write(tmp_path, "short.json", [{"role": "user", "content": "hi"}])
    argv = [path if a == "{}" else a for a in argv]
    code, out, err = run(argv, capsys)  # check reports it (exit 1), the others refuse the input (exit 2)
    assert code in (1, 2) and "needs --provider openai" in out + err
    code, _, err = run([*argv, "--provider", "openai"], capsys)
    assert code == 0, err


def test_diff_takes_provider_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "short.json", [{"role": "user", "content": "hi"}])
    code, out, err = run(["diff", path, path, "--provider", "openai"], capsys)
    assert code == 0 and "replay-safe: 0 difference(s)" in out, err


@pytest.mark.parametrize("shape", ["request", "response"])
def test_a_body_or_response_is_repaired_and_diffed_by_its_items(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], shape: str
) -> None:
    call = {**CALL, "arguments": {"q": "x"}}
    if shape == "request":
        value: dict[str, Any] = {"model": "m", "input": [USER, call, OUT]}
    else:  # a Response (no `object`: the reader knows it by its output)
        value = {"id": "resp_1", "status": "completed", "output": [{**call, "id": "fc_1"}]}
    path = write(tmp_path, f"{shape}.json", value)
    code, out, err = run(["prepare", path, "--target", "acme", "--diff"], capsys)
    assert code == 0, err
    removed = [json.loads(x[1:]) for x in out.splitlines()[2:] if x.startswith("-")]
    added = [json.loads(x[1:]) for x in out.splitlines()[2:] if x.startswith("+")]
    assert [i["arguments"] for i in removed if i["type"] == "function_call"] == [{"q": "x"}]
    assert "repaired (function_arguments_not_string)" in err
    if shape == "request":
        assert [i["arguments"] for i in added if i["type"] == "function_call"] == ['{"q":"x"}']
    else:  # a Response's trailing call awaits its output: repaired, then dropped as unanswered
        assert not added and "item 0: dropped: call left unanswered" in err
