"""Write the self-contained JSON Schema bundles, one per side, to `schemas/dist/`.

    python scripts/bundle_schemas.py          # write schemas/dist/<side>.json for every side
    python scripts/bundle_schemas.py --check  # exit 1 with a diff when schemas/dist/ is stale

The bundles are built by `replayable.schema.bundle` from the contract in `schemas/` (see its docstring and
schemas/README.md); `replayable.json_schema(side)` and `replayable schema --side SIDE` return them.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path

from _staleness import report  # scripts/_staleness.py (this folder is on sys.path)

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "schemas" / "dist"

# Load replayable/schema.py on its own: bundling needs neither the package nor its generated models.
_spec = importlib.util.spec_from_file_location("_replayable_schema", ROOT / "src" / "replayable" / "schema.py")
assert _spec is not None and _spec.loader is not None
_schema = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_schema)
bundle, sides = _schema.bundle, _schema.sides


def render(side: str) -> str:
    """The exact text of `schemas/dist/<side>.json`: 2-space JSON, keys in source order, final newline."""
    return json.dumps(bundle(side), indent=2, ensure_ascii=False) + "\n"


def wanted() -> dict[str, str]:
    return {f"{side}.json": render(side) for side in sides()}


def check() -> int:
    want = wanted()
    have = {p.name: p.read_text(encoding="utf-8") for p in sorted(DIST.glob("*.json"))} if DIST.is_dir() else {}
    return report(
        have,
        want,
        fresh_label="bundled",
        up_to_date=f"schemas/dist/ is up to date ({len(want)} bundles)",
        stale="schemas/dist/ is stale: run `python scripts/bundle_schemas.py` and commit the result",
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="fail with a diff when schemas/dist/ is stale")
    args = parser.parse_args()
    if args.check:
        return check()
    DIST.mkdir(parents=True, exist_ok=True)
    want = wanted()
    for stale in DIST.glob("*.json"):
        if stale.name not in want:
            stale.unlink()
    for name, text in want.items():
        (DIST / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(want)} bundles to schemas/dist/: {', '.join(sorted(want))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
