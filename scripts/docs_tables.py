"""Write the generated tables of the documentation site from the tables in the code.

    python scripts/docs_tables.py          # rewrite each table between its markers in docs/
    python scripts/docs_tables.py --check  # exit 1 with a diff when a table in docs/ is stale

Each table sits between `<!-- begin: NAME ... -->` and `<!-- end: NAME -->` lines of its page:
the finding codes (docs/codes.md, `replayable._codes.markdown_table`), the call families (docs/openai.md,
`replayable._families.markdown_table`) and what the `openai` profile refuses (docs/targets.md,
`replayable._profiles.markdown_table`). Add a code, a family or a profile row in the code, then run this;
tests/models/test_codes.py, tests/rules/test_families.py and tests/rules/test_profiles.py fail while a page is stale.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from pathlib import Path

from _staleness import report  # scripts/_staleness.py (this folder is on sys.path)

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
sys.path.insert(0, str(ROOT / "src"))  # the checkout's package, as scripts/generate.py reads it


def _tables() -> dict[str, tuple[str, Callable[[], str]]]:
    """Marker name -> (page, the function that renders its table)."""
    from replayable import _codes as codes
    from replayable import _families as families
    from replayable._profiles import get_profile
    from replayable._profiles import markdown_table as profile_table

    return {
        "table of finding codes": ("codes.md", codes.markdown_table),
        "table of call families": ("openai.md", families.markdown_table),
        "table of what the openai profile refuses": ("targets.md", lambda: profile_table(get_profile("openai"))),
    }


def render(text: str, name: str, table: str) -> str:
    """`text` with the lines between the `name` markers replaced by `table` (ValueError without markers)."""
    pattern = re.compile(
        rf"(^<!-- begin: {re.escape(name)}\b[^\n]*-->\n)(.*?)(^<!-- end: {re.escape(name)} -->$)", re.M | re.S
    )
    if len(pattern.findall(text)) != 1:
        raise ValueError(f"one pair of '<!-- begin: {name} -->' / '<!-- end: {name} -->' lines is needed")
    return pattern.sub(lambda m: m.group(1) + table + "\n" + m.group(3), text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="fail with a diff when a table in docs/ is stale")
    args = parser.parse_args()
    have: dict[str, str] = {}
    want: dict[str, str] = {}
    for name, (page, table) in _tables().items():
        text = want.get(page) or (DOCS / page).read_text(encoding="utf-8")
        have.setdefault(page, (DOCS / page).read_text(encoding="utf-8"))
        want[page] = render(text, name, table())
    if args.check:
        return report(
            have,
            want,
            fresh_label="generated",
            up_to_date="docs/ tables are up to date",
            stale="run `python scripts/docs_tables.py` and commit docs/",
        )
    for page, text in want.items():
        if text != have[page]:
            (DOCS / page).write_text(text, encoding="utf-8")
            print(f"wrote docs/{page}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
