"""Regenerate the schema files made from the openai SDK, then `src/replayable/_generated/` from `schemas/`.

    python scripts/generate.py          # write the SDK-made schemas, wipe src/replayable/_generated/, write it anew
    python scripts/generate.py --check  # exit 1 with a diff when either is stale

First, the files `schemas/sdk-overlay.json` lists (most of `schemas/agents/` and `schemas/openai/`) are
written from the pinned openai SDK's own types plus that overlay (`scripts/_sdk_schemas.py`; the installed openai
must be the test extra's pin). Then the models.

Every generator option lives in `[tool.datamodel-codegen]` in pyproject.toml; the generator
(datamodel-code-generator) is pinned exactly in the `dev` extra. Each folder under `schemas/` that holds
JSON Schema files (`open_responses`, `agents`, ...) becomes one package under `_generated/`.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import _sdk_schemas  # scripts/_sdk_schemas.py
from _staleness import report  # scripts/_staleness.py (this folder is on sys.path)

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "schemas"
TARGET = ROOT / "src" / "replayable" / "_generated"
HEADER = '"""Generated from schemas/ by scripts/generate.py. Do not edit by hand."""\n'


def schema_packages() -> list[Path]:
    """Folders of `schemas/` that are generated into packages (`dist/` holds exported bundles)."""
    return sorted(p for p in SCHEMAS.iterdir() if p.is_dir() and p.name != "dist" and any(p.glob("*.json")))


def generate(into: Path) -> None:
    """Write every generated package below `into` (which is wiped first)."""
    if into.exists():
        shutil.rmtree(into)
    into.mkdir(parents=True)
    (into / "__init__.py").write_text(HEADER)
    exe = Path(sys.executable).parent / "datamodel-codegen"
    cmd_base = [str(exe)] if exe.exists() else [sys.executable, "-m", "datamodel_code_generator"]
    for pkg in schema_packages():
        out = into / pkg.name
        cmd = [*cmd_base, "--input", str(pkg.relative_to(ROOT)), "--output", str(out.relative_to(ROOT))]
        res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        if res.returncode != 0:
            sys.stderr.write(res.stdout + res.stderr)
            raise SystemExit(f"datamodel-codegen failed on {pkg.relative_to(ROOT)} (exit {res.returncode})")


def tree(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): p.read_text() for p in sorted(root.rglob("*.py"))}


def sdk_files() -> dict[str, str]:
    """path under schemas/ -> text of each SDK-made schema file; SystemExit naming the problem when the SDK and
    the overlay do not fit."""
    try:
        return _sdk_schemas.generated()
    except _sdk_schemas.OverlayError as exc:
        raise SystemExit(f"generate: {exc}") from None


def write_sdk_files() -> int:
    files = sdk_files()
    for path, text in files.items():
        (SCHEMAS / path).write_text(text, encoding="utf-8")
    return len(files)


def check() -> int:
    want_sdk = sdk_files()
    have_sdk = {p: (SCHEMAS / p).read_text(encoding="utf-8") if (SCHEMAS / p).exists() else "" for p in want_sdk}
    stale_sdk = report(
        have_sdk,
        want_sdk,
        fresh_label="from-sdk",
        up_to_date="schemas made from the openai SDK are up to date",
        stale="schemas/ is stale against the pinned openai and schemas/sdk-overlay.json: run "
        "`python scripts/generate.py` and commit the result",
    )
    return stale_sdk | check_models()


def check_models() -> int:
    with tempfile.TemporaryDirectory(dir=ROOT) as tmp:
        fresh = Path(tmp) / "_generated"
        generate(fresh)
        want, have = tree(fresh), tree(TARGET) if TARGET.exists() else {}
    return report(
        have,
        want,
        fresh_label="regenerated",
        up_to_date="generated code is up to date",
        stale="src/replayable/_generated/ is stale: run `python scripts/generate.py` and commit the result",
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="fail with a diff when the generated code is stale")
    args = parser.parse_args()
    if args.check:
        return check()
    written = write_sdk_files()
    generate(TARGET)
    print(f"wrote {written} schema files from the openai SDK and {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
