"""The test suite's own layout: every test file lives in the directory of the area it tests, and the
tests say what they test, not where the request for them came from.

A test name, docstring or comment names the behaviour under test. A tracker's issue number, a work
round or a session number means nothing to a reader of the checkout, and a path on one machine is not
there on the next; both go stale, so neither is written into a test.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent

#: The area directories, as the package is grouped (ARCHITECTURE.md); a new area is added here on purpose.
AREAS = frozenset(
    {"adversarial", "agents", "cli", "contracts", "integrations", "interop", "models", "reading", "rules", "stream"}
)
#: Directories under tests/ that hold no tests: data read by the tests, and typed examples checked by mypy.
NOT_TESTS = frozenset({"fixtures", "typing"})

#: Where a request came from: the word issue (or issues) and a number, with or without `#`; the word round
#: and a number or a number word; the word session and a number.
#: An upstream reference (`owner/repo#123`, a URL ending `/issues/123`) names its source and is allowed.
PROVENANCE = re.compile(
    r"\b[Ii]ssues? ?#?\d+|\b[Rr]ound (?:one|two|three|four|five|six|seven|eight|nine|ten|\d+)\b|\b[Ss]ession \d+\b"
)
#: The same, as a function's name spells it: the word and its number joined by underscores or not at all.
PROVENANCE_NAME = re.compile(r"(?:^|_)(?:issues?|round|session)_?\d+(?:_|$)", re.IGNORECASE)
#: A path on one machine. `tmp_path` gives a test its temporary directory; the checkout's own root is
#: found from `__file__`. (The bracket keeps this file's own text from holding the path it looks for.)
LOCAL_PATH = re.compile(r"/wor[k]/|/tm[p]/[A-Za-z0-9_]|/hom[e]/[a-z]|/User[s]/")
MACHINE_ROOT = re.compile(r"/wor[k]/")


ORIGIN = "names where it came from (an issue, a round or a session), not what it tests"
LOCAL = "holds a path on one machine"


def collect_test_files(root: Path = TESTS) -> list[Path]:
    return sorted(p for p in root.rglob("*.py") if p.name.startswith("test_") or p.name.endswith("_test.py"))


def misplaced(files: list[Path], root: Path = TESTS) -> list[Path]:
    """The test files not directly inside one of the area directories of `root`."""
    return [p for p in files if p.parent.parent != root or p.parent.name not in AREAS]


def python_files(root: Path = TESTS) -> list[Path]:
    return sorted(root.rglob("*.py"))


def prose(path: Path) -> Iterator[tuple[int, str, str]]:
    """Every line of prose and every function name in a Python file, as (line, kind, text): the module,
    class and function docstrings, the comments, and the names of functions and classes."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source, filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc is not None:
                first = node.body[0].lineno
                for offset, line in enumerate(doc.splitlines()):
                    yield first + offset, "docstring", line
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node.lineno, "name", node.name
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], "comment", token.string


def offences_in(kind: str, text: str) -> list[str]:
    """What one piece of prose (a docstring line, a comment, a name) says that a test must not say."""
    hits = []
    if (PROVENANCE_NAME if kind == "name" else PROVENANCE).search(text):
        hits.append(ORIGIN)
    if LOCAL_PATH.search(text):
        hits.append(LOCAL)
    return hits


def offences(path: Path) -> list[str]:
    shown = path.relative_to(TESTS.parent) if path.is_relative_to(TESTS.parent) else path.name
    return [
        f"{shown}:{line} ({kind}) {text.strip()!r}: {hit}"
        for line, kind, text in prose(path)
        for hit in offences_in(kind, text)
    ]


def test_every_test_file_lives_in_an_area_directory() -> None:
    files = collect_test_files()
    assert len(files) > 100, "the suite was not found where this test looks for it"
    outside = [p.relative_to(TESTS.parent).as_posix() for p in misplaced(files)]
    assert outside == [], f"test files outside tests/<area>/ ({', '.join(sorted(AREAS))}): {outside}"


def test_tests_holds_only_area_directories_and_the_shared_conftest() -> None:
    stray = sorted(
        p.name
        for p in TESTS.iterdir()
        if not p.name.startswith((".", "__pycache__"))
        and not (p.is_dir() and p.name in AREAS | NOT_TESTS)
        and p.name != "conftest.py"
    )
    assert stray == [], f"files or directories directly under tests/ that are no area: {stray}"
    empty = sorted(area for area in AREAS if not collect_test_files(TESTS / area))
    assert empty == [], f"area directories without a test file: {empty}"


def test_no_test_names_an_issue_a_round_a_session_or_a_local_path() -> None:
    files = python_files()
    assert len(files) > 100
    found = [offence for path in files for offence in offences(path)]
    assert found == [], "\n".join(found)


def test_no_file_under_tests_holds_a_path_of_this_machine() -> None:
    """Code and fixtures too: a test that reads a file under this machine's work root passes here only."""
    found = []
    for path in sorted(p for p in TESTS.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        text = path.read_bytes().decode("utf-8", errors="replace")
        found += [f"{path.relative_to(TESTS.parent)}: {m.group()!r}" for m in MACHINE_ROOT.finditer(text)]
    assert found == [], found


def test_no_fixture_names_an_issue_a_round_or_a_session() -> None:
    """The fixtures' human-readable fields (descriptions, notes) say what a case shows; an upstream
    source URL (`.../issues/123`) is where the case was found and is kept."""
    found = []
    for path in sorted(p for p in (TESTS / "fixtures").rglob("*") if p.is_file()):
        text = path.read_bytes().decode("utf-8", errors="replace")
        found += [f"{path.relative_to(TESTS.parent)}: {m.group()!r}" for m in PROVENANCE.finditer(text)]
    assert found == [], found


def test_the_checks_see_what_they_look_for(tmp_path: Path) -> None:
    """The checks above fail when a test names an issue, a round, a session or a local path again."""
    planted = tmp_path / "test_planted.py"
    planted.write_text(
        '"""Fail closed, round three (Issue #32): nothing is trusted."""\n'
        "\n"
        "\n"
        "def test_issue_25_things() -> None:\n"
        '    """Read from ' + "/wo" + 'rk/shared/corpus (session 6)."""\n'
        "    x = 1  # see issue 25.3, and /t" + "mp/att2/a.jsonl\n"
        "\n"
        "\n"
        "def test_openai_agents_python_1855_and_tmp_path(tmp_path) -> None:\n"
        '    """openai/openai-agents-python#1855, https://github.com/o/r/issues/8932, a round trip."""\n',
        encoding="utf-8",
    )
    got = sorted((line, kind, offences_in(kind, text)) for line, kind, text in prose(planted))
    assert [hit for hit in got if hit[2]] == [
        (1, "docstring", [ORIGIN]),
        (4, "name", [ORIGIN]),
        (5, "docstring", [ORIGIN, LOCAL]),
        (6, "comment", [ORIGIN, LOCAL]),
    ]
    assert len(offences(planted)) == 6
    assert MACHINE_ROOT.search(planted.read_text(encoding="utf-8"))
    assert not PROVENANCE.search("openai/openai-agents-python#1855, https://github.com/o/r/issues/8932, round trip")
    assert not PROVENANCE_NAME.search("test_prepare_replay_r14")
    nested = tmp_path / "tests"
    (nested / "rules").mkdir(parents=True)
    (nested / "test_loose.py").write_text("", encoding="utf-8")
    (nested / "rules" / "test_placed.py").write_text("", encoding="utf-8")
    (nested / "rules" / "deeper").mkdir()
    (nested / "rules" / "deeper" / "test_deep.py").write_text("", encoding="utf-8")
    (nested / "misc").mkdir()
    (nested / "misc" / "test_elsewhere.py").write_text("", encoding="utf-8")
    assert [p.relative_to(nested).as_posix() for p in misplaced(collect_test_files(nested), nested)] == [
        "misc/test_elsewhere.py",
        "rules/deeper/test_deep.py",
        "test_loose.py",
    ]
