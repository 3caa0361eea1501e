"""Shared by scripts/generate.py and scripts/bundle_schemas.py: compare committed files with freshly
built ones and print a unified diff when they differ."""

from __future__ import annotations

import difflib
import sys


def report(have: dict[str, str], want: dict[str, str], *, fresh_label: str, up_to_date: str, stale: str) -> int:
    """Exit status for a `--check`: 0 (printing `up_to_date`) when `have == want`, else 1 after a diff
    of each differing file (committed vs `fresh_label`) and the `stale` hint."""
    if want == have:
        print(up_to_date)
        return 0
    for name in sorted(set(want) | set(have)):
        a, b = have.get(name, ""), want.get(name, "")
        if a != b:
            sys.stdout.writelines(
                difflib.unified_diff(
                    a.splitlines(True), b.splitlines(True), f"committed/{name}", f"{fresh_label}/{name}"
                )
            )
    print("\n" + stale)
    return 1
