"""A JSONL line cut short inside a string is named where its text ends, on every path.

The file reader hands each JSONL line to the strict reader with its line break; a string left open
runs into that break, which jiter reports as a control character "at line 2 column 0" of a one-line
value. `parse_items` (which splits the lines first) says "EOF while parsing a string at line 1 column
N": the command line and `read_file` must say the same, for LF and CRLF files, the last line too.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import replayable as rp
from replayable._cli import main

ITEM = {"type": "message", "role": "user", "content": "hello"}
CUT = json.dumps(ITEM)[:-4]  # ... "content": "hel
COLUMN = len(CUT)  # jiter names the last character of the text as where the EOF is


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("where", [2, 4])  # a broken first line makes the file one document (not JSONL)
def test_cut_line_is_named_at_its_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], newline: str, where: int
) -> None:
    lines = [json.dumps(ITEM)] * 4
    lines[where - 1] = CUT
    f = tmp_path / "cut.jsonl"
    f.write_bytes(newline.join(lines).encode() + newline.encode())
    said = f"{f}, line {where} is not valid JSON: EOF while parsing a string at line 1 column {COLUMN}"

    assert main(["check", str(f)]) == 2
    err = capsys.readouterr().err
    assert said in err and "control character" not in err and "column 0" not in err

    with pytest.raises(rp.InputError) as info:
        rp.read_file(str(f))
    assert said in str(info.value)

    with pytest.raises(rp.ItemError) as parsed:  # the library's own reading of the text says the same
        rp.parse_items(f.read_text())
    assert f"EOF while parsing a string at line 1 column {COLUMN}" in str(parsed.value)


def test_a_line_break_inside_a_document_string_is_still_a_control_character(tmp_path: Path) -> None:
    # only a string left open at the very end is read again: a raw line break inside a document's string
    # is what jiter says it is
    f = tmp_path / "doc.json"
    f.write_text('[{"type": "message", "role": "user", "content": "a\nb"}]\n')
    with pytest.raises(rp.InputError, match=r"control character"):
        rp.read_file(str(f))
