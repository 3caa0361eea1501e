"""The layers hold (ARCHITECTURE.md, "Fenced layers").

`lint-imports` checks the import-linter contracts of `pyproject.toml` (`[tool.importlinter]`): data flows
down the layers, the command line is imported by nothing in the library, no import cycles, the edges
apart. It runs in CI (`.ci/run`) and here, on the editable install and on the built wheel alike (the
`test` extra installs import-linter). Every package is fenced inside too: its own exhaustive `layers`
contract orders its modules, each layer with a comment saying what it is. Hand-written modules stay under
800 lines.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

import replayable

ROOT = Path(__file__).resolve().parent.parents[1]
PYPROJECT = ROOT / "pyproject.toml"
PACKAGE = Path(replayable.__file__).parent

#: Hand-written modules may not grow past this many lines (split them by concern).
MAX_MODULE_LINES = 800
#: Modules over the limit today, each with the work that splits it. A module listed here that is back
#: under the limit fails the test too: take it off the list.
OVER_THE_LIMIT: dict[str, str] = {}


def _lint_imports() -> Path:
    script = Path(sys.executable).parent / ("lint-imports.exe" if sys.platform == "win32" else "lint-imports")
    if not script.exists():
        pytest.skip("import-linter is not installed in this environment (the `test` and `dev` extras have it)")
    if not PYPROJECT.exists():
        pytest.skip("pyproject.toml is not beside tests/ (the contracts live there)")
    return script


def test_the_import_contracts_are_kept() -> None:
    script = _lint_imports()
    run = subprocess.run(
        [str(script), "--config", str(PYPROJECT), "--no-cache", "--no-logo"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout


def test_the_contracts_cover_the_layers_the_cycles_and_the_command_line() -> None:
    if not PYPROJECT.exists():
        pytest.skip("pyproject.toml is not beside tests/ (the contracts live there)")
    with PYPROJECT.open("rb") as f:
        config = tomllib.load(f)["tool"]["importlinter"]
    assert config["root_package"] == "replayable"
    contracts = {c["id"]: c for c in config["contracts"]}
    layers = contracts["layers"]
    assert layers["type"] == "layers" and layers["exhaustive"] is True and layers["containers"] == ["replayable"]
    order = [layer.replace("(", "").replace(")", "") for layer in layers["layers"]]

    def level(module: str) -> int:
        return next(
            n for n, layer in enumerate(order) if module in {m.strip() for m in layer.replace("|", ":").split(":")}
        )

    # the order the architecture promises, top to bottom
    assert level("_cli") < level("integrations") < level("_replay") < level("_render") < level("_rules")
    assert level("_rules") == level("_families") < level("_reading") < level("_findings") < level("items")
    assert level("items") < level("_generated") < level("_base") < level("errors")
    assert contracts["cli-private"]["type"] == "protected"
    assert contracts["cli-private"]["protected_modules"] == ["replayable._cli"]
    assert contracts["no-cycles"]["type"] == "acyclic_siblings"
    assert contracts["no-cycles"]["ancestors"] == ["replayable"]


def _config() -> dict[str, Any]:
    if not PYPROJECT.exists():
        pytest.skip("pyproject.toml is not beside tests/ (the contracts live there)")
    with PYPROJECT.open("rb") as f:
        return tomllib.load(f)["tool"]["importlinter"]  # type: ignore[no-any-return]


def packages() -> list[str]:
    """Every hand-written package of the library (`replayable._rules`, `replayable.stream`, ...)."""
    return sorted(
        "replayable." + ".".join(p.parent.relative_to(PACKAGE).parts)
        for p in PACKAGE.rglob("__init__.py")
        if p.parent != PACKAGE and "_generated" not in p.relative_to(PACKAGE).parts
    )


def _modules_of(package: str) -> set[str]:
    folder = PACKAGE.joinpath(*package.split(".")[1:])
    children = {p.stem for p in folder.glob("*.py") if p.stem != "__init__"}
    return children | {p.parent.name for p in folder.glob("*/__init__.py")}


def _layer_names(layer: str) -> set[str]:
    return {m.strip() for m in layer.replace("(", "").replace(")", "").replace("|", ":").split(":")}


def test_every_package_is_fenced_inside() -> None:
    """Each package has an exhaustive `layers` contract of its own over exactly its modules, so the order
    inside it is written down (and a new module must be given its place)."""
    config = _config()
    inside = {
        c["containers"][0]: c
        for c in config["contracts"]
        if c["type"] == "layers" and c.get("containers", []) != ["replayable"] and len(c.get("containers", [])) == 1
    }
    assert packages(), "no packages found beside the top-level modules"
    unfenced = [p for p in packages() if p not in inside]
    assert not unfenced, f"packages without their own layers contract in [tool.importlinter]: {unfenced}"
    for package in packages():
        contract = inside[package]
        assert contract.get("exhaustive") is True, f"{contract['id']} must be exhaustive"
        listed = [name for layer in contract["layers"] for name in _layer_names(layer)]
        assert len(listed) == len(set(listed)), f"{contract['id']} lists a module twice: {listed}"
        assert set(listed) == _modules_of(package), (
            f"{contract['id']} must list exactly the modules of {package}: "
            f"missing {sorted(_modules_of(package) - set(listed))}, unknown {sorted(set(listed) - _modules_of(package))}"
        )
        assert len(contract["layers"]) >= 2, f"{contract['id']}: one layer orders nothing"


def test_every_layer_says_what_it_is() -> None:
    """In every `layers` list of a package's contract, each layer has a comment line above it."""
    if not PYPROJECT.exists():
        pytest.skip("pyproject.toml is not beside tests/ (the contracts live there)")
    lines = PYPROJECT.read_text(encoding="utf-8").splitlines()
    bare = []
    container = None
    in_layers = False
    for n, line in enumerate(lines):
        text = line.strip()
        if text.startswith("containers = "):
            container = text
        elif text == "layers = [":
            in_layers = container != 'containers = ["replayable"]'
        elif text == "]":
            in_layers = False
        elif in_layers and text.startswith('"') and not lines[n - 1].strip().startswith("#"):
            bare.append(f"pyproject.toml:{n + 1}: {text}")
    assert not bare, "layers without a comment line saying what they are:\n" + "\n".join(bare)


def hand_written_modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "_generated" not in p.relative_to(PACKAGE).parts)


def test_no_hand_written_module_is_over_800_lines() -> None:
    sizes = {
        p.relative_to(PACKAGE).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
        for p in hand_written_modules()
    }
    over = {name: n for name, n in sizes.items() if n > MAX_MODULE_LINES and name not in OVER_THE_LIMIT}
    assert not over, f"modules over {MAX_MODULE_LINES} lines (split them by concern): {over}"
    back_under = [name for name in OVER_THE_LIMIT if sizes.get(name, 0) <= MAX_MODULE_LINES]
    assert not back_under, f"take these off OVER_THE_LIMIT, they are within the limit now: {back_under}"
